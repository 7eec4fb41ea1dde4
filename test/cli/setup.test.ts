/**
 * `cortex setup <client>` on a temporary HOME, for each client's file format: the printed block, --write
 * into a missing file and into an existing one that names another server (both present after, a backup
 * of the old file, the result valid JSON/TOML), a second --write changing nothing, and a malformed file
 * refused untouched.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, basename } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { CLIENTS } from "../../src/cli/setup/clients.ts";
import { cortexServerCommand, isCompiledExecutable } from "../../src/cli/setup/server-command.ts";
import { writeFileAtomic } from "../../src/core/fs-atomic.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
let home: string;
let project: string;

function cortex(args: string[], extraEnv: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, CORTEX_HOME: join(home, ".cortex") };
  delete env.XDG_CONFIG_HOME;
  delete env.CODEX_HOME;
  Object.assign(env, extraEnv);
  const r = Bun.spawnSync([process.execPath, CLI, ...args], { cwd: project, env, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "cortex-setup-home-"));
  project = mkdtempSync(join(tmpdir(), "cortex-setup-project-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

interface Case {
  client: string;
  file: string;
  format: "json" | "toml";
  key: string;
  /** A file with another server (and, for JSONC, comments and trailing commas). */
  existing: string;
  /** The other server as the merged file must still have it. */
  other: unknown;
  /** The server's arguments after `main.ts mcp`. */
  rootArgs: (root: string) => string[];
}

const CASES: Case[] = [
  {
    client: "claude-code",
    file: ".claude.json",
    format: "json",
    key: "mcpServers",
    existing: JSON.stringify({ numStartups: 3, mcpServers: { other: { type: "stdio", command: "other-server", args: ["--x"], env: {} } } }, null, 2),
    other: { type: "stdio", command: "other-server", args: ["--x"], env: {} },
    rootArgs: () => [],
  },
  {
    client: "claude-desktop",
    file: ".config/Claude/claude_desktop_config.json",
    format: "json",
    key: "mcpServers",
    existing: '{\n  "mcpServers": {\n    "other": { "command": "other-server", "args": [] }\n  },\n  "globalShortcut": "Ctrl+Space"\n}\n',
    other: { command: "other-server", args: [] },
    rootArgs: (root) => ["--root", root],
  },
  {
    client: "cursor",
    file: ".cursor/mcp.json",
    format: "json",
    key: "mcpServers",
    existing: '{"mcpServers":{"other":{"command":"other-server","args":["a"]}}}',
    other: { command: "other-server", args: ["a"] },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the client's own ${workspaceFolder} variable, written literally
    rootArgs: () => ["--root", "${workspaceFolder}"],
  },
  {
    client: "vscode",
    file: ".config/Code/User/mcp.json",
    format: "json",
    key: "servers",
    existing: '{\n\t// my servers\n\t"servers": {\n\t\t"other": { "type": "stdio", "command": "other-server" },\n\t},\n\t"inputs": []\n}\n',
    other: { type: "stdio", command: "other-server" },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the client's own ${workspaceFolder} variable, written literally
    rootArgs: () => ["--root", "${workspaceFolder}"],
  },
  {
    client: "windsurf",
    file: ".codeium/windsurf/mcp_config.json",
    format: "json",
    key: "mcpServers",
    existing: '{ "mcpServers": { "other": { "serverUrl": "http://127.0.0.1:9/mcp" } } }\n',
    other: { serverUrl: "http://127.0.0.1:9/mcp" },
    rootArgs: (root) => ["--root", root],
  },
  {
    client: "codex",
    file: ".codex/config.toml",
    format: "toml",
    key: "mcp_servers",
    existing:
      '# my codex settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other-server"\nargs = ["-y", "x"]\n\n[mcp_servers.other.env]\nTOKEN_VAR = "NAME"\n',
    other: { command: "other-server", args: ["-y", "x"], env: { TOKEN_VAR: "NAME" } },
    rootArgs: () => [],
  },
  {
    client: "zed",
    file: ".config/zed/settings.json",
    format: "json",
    key: "context_servers",
    existing: '// Zed settings\n{\n  "theme": "One Dark", // mine\n  "context_servers": {\n    "other": { "command": "other-server", "args": [], },\n  },\n}\n',
    other: { command: "other-server", args: [] },
    rootArgs: (root) => ["--root", root],
  },
];

function parseFile(format: "json" | "toml", text: string): any {
  if (format === "toml") return parseToml(text);
  const errors: unknown[] = [];
  const v = parseJsonc(text, errors as never, { allowTrailingComma: true });
  expect(errors).toEqual([]);
  return v;
}

function backups(path: string): string[] {
  return readdirSync(dirname(path)).filter((f) => f.startsWith(basename(path) + ".cortex-backup-"));
}

describe("cortex setup", () => {
  for (const c of CASES) {
    describe(c.client, () => {
      test("prints the block with the absolute command of this cortex (bun and src/cli/main.ts from source)", () => {
        const r = cortex(["setup", c.client, "--json"]);
        expect([r.code, r.stderr]).toEqual([0, ""]);
        const plan = JSON.parse(r.stdout);
        expect(plan.config_path).toBe(join(home, c.file));
        const entry = parseFile(c.format, plan.snippet)[c.key].cortex;
        expect(entry.command).toBe(process.execPath);
        expect(entry.args).toEqual([MAIN, "mcp", ...c.rootArgs(project)]);
        expect(plan.server.origin).toBe("source");
        const text = cortex(["setup", c.client]);
        expect(text.code).toBe(0);
        expect(text.stdout).toContain(plan.snippet);
        expect(text.stdout).toContain(`cortex setup ${c.client} --write`);
        expect(existsSync(join(home, c.file))).toBe(false); // printing writes nothing
      });

      test("--write creates a missing file", () => {
        const r = cortex(["setup", c.client, "--write", "--json"]);
        expect(r.code).toBe(0);
        const path = join(home, c.file);
        expect(JSON.parse(r.stdout).written).toEqual({ path, unchanged: false });
        const entry = parseFile(c.format, readFileSync(path, "utf8"))[c.key].cortex;
        expect(entry.args).toEqual([MAIN, "mcp", ...c.rootArgs(project)]);
      });

      test("--write merges into a file with another server: both present, a backup, valid after; again: unchanged", () => {
        const path = join(home, c.file);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, c.existing);
        chmodSync(path, 0o600);
        const r = cortex(["setup", c.client, "--write"]);
        expect([r.code, r.stderr]).toEqual([0, ""]);
        const after = readFileSync(path, "utf8");
        const parsed = parseFile(c.format, after);
        expect(parsed[c.key].other).toEqual(c.other);
        expect(parsed[c.key].cortex.command).toBe(process.execPath);
        const before = parseFile(c.format, c.existing);
        for (const k of Object.keys(before)) if (k !== c.key) expect(parsed[k]).toEqual(before[k]);
        expect(statSync(path).mode & 0o777).toBe(0o600);
        const saved = backups(path);
        expect(saved.length).toBe(1);
        expect(readFileSync(join(dirname(path), saved[0]!), "utf8")).toBe(c.existing);
        expect(r.stdout).toContain(saved[0]!);
        const comment = c.existing.split("\n").find((l) => /\/\/ [A-Za-z]/.test(l));
        if (comment) expect(after).toContain(comment.trim()); // JSONC comments survive
        if (c.format === "toml") expect(after).toStartWith("# my codex settings\n");

        const again = cortex(["setup", c.client, "--write", "--json"]);
        expect(JSON.parse(again.stdout).written.unchanged).toBe(true);
        expect(readFileSync(path, "utf8")).toBe(after);
        expect(backups(path).length).toBe(1);
      });

      test("--write replaces cortex's own stale entry and nothing else", () => {
        const path = join(home, c.file);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, c.existing);
        expect(cortex(["setup", c.client, "--write", "--root", home]).code).toBe(0);
        // the user adds a setting of their own to cortex's entry: a later --write keeps it
        const written = readFileSync(path, "utf8");
        if (c.format === "toml") writeFileSync(path, `${written.trimEnd()}\n\n[${c.key}.cortex.env]\nCORTEX_LOG = "info"\n`);
        else {
          const o = parseFile("json", written);
          o[c.key].cortex.env = { ...o[c.key].cortex.env, CORTEX_LOG: "info" };
          writeFileSync(path, JSON.stringify(o, null, 2));
        }
        const moved = mkdtempSync(join(tmpdir(), "cortex-setup-other-"));
        try {
          expect(cortex(["setup", c.client, "--write", "--root", moved]).code).toBe(0);
          const parsed = parseFile(c.format, readFileSync(path, "utf8"));
          expect(Object.keys(parsed[c.key]).sort()).toEqual(["cortex", "other"]);
          expect(parsed[c.key].cortex.args).toEqual([MAIN, "mcp", ...c.rootArgs(moved)]);
          expect(parsed[c.key].cortex.env.CORTEX_LOG).toBe("info");
        } finally {
          rmSync(moved, { recursive: true, force: true });
        }
      });

      test("a malformed file is refused with a clear error and left untouched", () => {
        const path = join(home, c.file);
        mkdirSync(dirname(path), { recursive: true });
        const broken = c.format === "toml" ? 'model = "o3"\n[mcp_servers.other\ncommand = 1\n' : '{ "mcpServers": { "other": ';
        writeFileSync(path, broken);
        const r = cortex(["setup", c.client, "--write"]);
        expect(r.code).toBe(2);
        expect(r.stderr).toStartWith(`cortex: ${path} is not valid ${c.format === "toml" ? "TOML" : "JSON"}`);
        expect(r.stderr).toContain("line ");
        expect(r.stderr).toContain("nothing was written");
        expect(readFileSync(path, "utf8")).toBe(broken);
        expect(backups(path)).toEqual([]);
      });
    });
  }

  test("a servers key that is not an object is refused, untouched", () => {
    const path = join(home, ".cursor/mcp.json");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{"mcpServers": []}');
    const r = cortex(["setup", "cursor", "--write"]);
    expect([r.code, r.stderr]).toEqual([2, `cortex: ${path}: "mcpServers" is not an object; nothing was written\n`]);
    expect(readFileSync(path, "utf8")).toBe('{"mcpServers": []}');
  });

  test("codex: an entry cortex cannot cut out safely (an inline table) is refused, untouched", () => {
    const path = join(home, ".codex/config.toml");
    mkdirSync(dirname(path), { recursive: true });
    const text = 'mcp_servers = { cortex = { command = "/opt/old/cortex" }, other = { command = "x" } }\n';
    writeFileSync(path, text);
    const r = cortex(["setup", "codex", "--write"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("add it by hand");
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  test("an entry named cortex that is another server (a url, another command) is refused, untouched", () => {
    const path = join(home, ".cursor/mcp.json");
    mkdirSync(dirname(path), { recursive: true });
    for (const theirs of [
      { url: "https://cortex.example.com/mcp", headers: { Authorization: "Bearer SECRET" } },
      { command: "/usr/bin/python3", args: ["-m", "cortex_other"] },
      { type: "http", url: "http://127.0.0.1:9/mcp" },
    ]) {
      const text = JSON.stringify({ mcpServers: { cortex: theirs } }, null, 2);
      writeFileSync(path, text);
      const r = cortex(["setup", "cursor", "--write"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('already has a server named "cortex" that is not this cortex');
      expect(r.stderr).toContain("nothing was written");
      expect(readFileSync(path, "utf8")).toBe(text);
      expect(backups(path)).toEqual([]);
    }
  });

  test("a symlinked file is written where it points and stays a link; a read-only one is refused", () => {
    const dotfiles = join(home, "dotfiles");
    mkdirSync(dotfiles);
    mkdirSync(join(home, ".cursor"));
    const target = join(dotfiles, "cursor-mcp.json");
    const link = join(home, ".cursor/mcp.json");
    writeFileSync(target, '{ "mcpServers": { "other": { "command": "x" } } }\n');
    symlinkSync(target, link);
    expect(cortex(["setup", "cursor", "--write"]).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(Object.keys(parseJsonc(readFileSync(target, "utf8")).mcpServers).sort()).toEqual(["cortex", "other"]);

    const plain = join(home, ".claude.json");
    writeFileSync(plain, '{ "mcpServers": {} }\n');
    chmodSync(plain, 0o444);
    const r = cortex(["setup", "claude-code", "--write"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is read-only");
    expect(readFileSync(plain, "utf8")).toBe('{ "mcpServers": {} }\n');
  });

  test("a byte-order mark is read and kept; a one-line server and its trailing comment stay as they were", () => {
    const path = join(home, ".cursor/mcp.json");
    mkdirSync(dirname(path), { recursive: true });
    const line = '    "github": { "command": "gh-mcp", "args": ["--stdio"] } // keep on one line';
    writeFileSync(path, `\uFEFF{\n  "mcpServers": {\n${line}\n  }\n}\n`);
    const r = cortex(["setup", "cursor", "--write"]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const after = readFileSync(path, "utf8");
    expect(after.startsWith("\uFEFF{")).toBe(true);
    expect(after).toContain('    "github": { "command": "gh-mcp", "args": ["--stdio"] }, // keep on one line\n    "cortex": {');
    expect(parseJsonc(after.slice(1)).mcpServers.cortex.command).toBe(process.execPath);
  });

  test("a mistyped client is named with the nearest; --root where the client passes its own folder is said to be unused", () => {
    const r = cortex(["setup", "cursr"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown client 'cursr' (did you mean cursor?)");
    const c = cortex(["setup", "cursor", "--root", home]);
    expect(c.code).toBe(0);
    expect(c.stderr).toContain("--root is not used for Cursor");
    const deep = cortex(["setup", "vscode", "--write", "--config", join(home, "no/such/dir/mcp.json")]);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain("--config: no such folder");
    expect(existsSync(join(home, "no"))).toBe(false);
  });

  test("CODEX_HOME and --config choose the file", () => {
    const codexHome = join(home, "elsewhere");
    const r = cortex(["setup", "codex", "--json"], { CODEX_HOME: codexHome });
    expect(JSON.parse(r.stdout).config_path).toBe(join(codexHome, "config.toml"));
    const ws = join(project, ".vscode", "mcp.json");
    const w = cortex(["setup", "vscode", "--write", "--config", ws]);
    expect(w.code).toBe(0);
    expect(parseFile("json", readFileSync(ws, "utf8")).servers.cortex.type).toBe("stdio");
  });

  test("without a client: every client, its file and whether it names cortex; bad input exits 2", () => {
    expect(cortex(["setup", "cursor", "--write"]).code).toBe(0);
    const r = cortex(["setup", "--json"]);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout).clients;
    expect(list.map((c: { client: string }) => c.client)).toEqual(CASES.map((c) => c.client));
    expect(list.find((c: { client: string }) => c.client === "cursor").configured).toBe(true);
    expect(list.find((c: { client: string }) => c.client === "zed")).toMatchObject({ exists: false, configured: false });
    const unknown = cortex(["setup", "emacs"]);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      "cortex: unknown client 'emacs': use one of claude-code, claude-desktop, cursor, vscode, windsurf, codex, zed\n",
    ]);
    expect(cortex(["setup", "zed", "--root", join(home, "missing")]).code).toBe(2);
    expect(cortex(["setup", "--write"]).code).toBe(2);
  });
});

describe("where each client keeps its file, per platform", () => {
  const paths = (platform: NodeJS.Platform, home: string, env: Record<string, string> = {}) =>
    Object.fromEntries(CLIENTS.map((c) => [c.id, c.configPath({ home, platform, env })]));

  test("macOS: Application Support for Claude Desktop and VS Code, dot folders for the rest", () => {
    expect(paths("darwin", "/Users/u")).toEqual({
      "claude-code": "/Users/u/.claude.json",
      "claude-desktop": "/Users/u/Library/Application Support/Claude/claude_desktop_config.json",
      cursor: "/Users/u/.cursor/mcp.json",
      vscode: "/Users/u/Library/Application Support/Code/User/mcp.json",
      windsurf: "/Users/u/.codeium/windsurf/mcp_config.json",
      codex: "/Users/u/.codex/config.toml",
      zed: "/Users/u/.config/zed/settings.json",
    });
  });

  test("Linux honours XDG_CONFIG_HOME; Windows uses APPDATA", () => {
    const linux = paths("linux", "/home/u", { XDG_CONFIG_HOME: "/cfg" });
    expect([linux["claude-desktop"], linux.vscode, linux.zed]).toEqual([
      "/cfg/Claude/claude_desktop_config.json",
      "/cfg/Code/User/mcp.json",
      "/cfg/zed/settings.json",
    ]);
    const win = paths("win32", "/home/u", { APPDATA: "/appdata" });
    expect([win["claude-desktop"], win.vscode, win.zed]).toEqual([
      "/appdata/Claude/claude_desktop_config.json",
      "/appdata/Code/User/mcp.json",
      "/appdata/Zed/settings.json",
    ]);
  });

  test("the compiled executable is recognised by where Bun keeps its modules", () => {
    expect(isCompiledExecutable("/$bunfs/root/cortex")).toBe(true);
    expect(isCompiledExecutable("B:/~BUN/root/cortex.exe")).toBe(true);
    expect(isCompiledExecutable("/home/u/cortex/src/cli/main.ts")).toBe(false);
  });
});

describe("the command a client runs", () => {
  test("npx's cache is no place to start from: clients get npx -y cortex-code; a project's file gets cortex from PATH when that is this executable", () => {
    const npx = cortexServerCommand({ compiled: true, executable: "/root/.npm/_npx/ca550420dd9fd294/node_modules/cortex-code-linux-x64/bin/cortex" });
    expect([npx.command, ...npx.args]).toEqual(["npx", "-y", "cortex-code", "mcp"]);
    const exe = "/opt/cortex/bin/cortex";
    expect(cortexServerCommand({ compiled: true, executable: exe, portable: true, onPath: exe }).command).toBe("cortex");
    const elsewhere = cortexServerCommand({ compiled: true, executable: exe, portable: true, onPath: "/usr/bin/cortex" });
    expect(elsewhere.command).toBe(exe);
    expect(elsewhere.note).toContain("this machine's path");
    expect(cortexServerCommand({ compiled: true, executable: exe, onPath: exe }).command).toBe(exe);
  });

  test("an atomic write creates the file with the mode asked for, never wider, and as root keeps a user's file theirs", () => {
    const dir = mkdtempSync(join(tmpdir(), "cortex-atomic-"));
    try {
      const f = join(dir, "private.json");
      writeFileAtomic(f, "{}", 0o600);
      expect(statSync(f).mode & 0o777).toBe(0o600);
      if (process.getuid?.() === 0) {
        // sudo cortex setup: the user's ~/.claude.json stays the user's
        const h = join(dir, "home");
        mkdirSync(h);
        const claude = join(h, ".claude.json");
        writeFileSync(claude, '{ "mcpServers": {} }');
        chmodSync(claude, 0o600);
        Bun.spawnSync(["chown", "65534:65534", claude]);
        const r = Bun.spawnSync([process.execPath, CLI, "setup", "claude-code", "--write"], {
          cwd: dir,
          env: { ...process.env, HOME: h, CORTEX_HOME: join(h, ".cortex") },
        });
        expect(r.exitCode).toBe(0);
        expect([statSync(claude).uid, statSync(claude).gid, statSync(claude).mode & 0o777]).toEqual([65534, 65534, 0o600]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Codex's TOML", () => {
  test("cortex's table is replaced where it stands, the tables after it and their comments kept in place", async () => {
    const { mergeTomlEntry } = await import("../../src/cli/setup/merge-toml.ts");
    const text =
      '# my codex settings\nmodel = "o3"\n\n[mcp_servers.cortex]\ncommand = "/old/cortex"\nargs = ["mcp"]\n\n# the other one\n[mcp_servers.other]\ncommand = "x"\n';
    const after = mergeTomlEntry(text, "mcp_servers", "cortex", { command: "/new/cortex", args: ["mcp"] }, "config.toml");
    expect(after).toBe(
      '# my codex settings\nmodel = "o3"\n\n[mcp_servers.cortex]\ncommand = "/new/cortex"\nargs = [ "mcp" ]\n\n# the other one\n[mcp_servers.other]\ncommand = "x"\n',
    );
    // a file without one gets it at the end
    expect(mergeTomlEntry('model = "o3"\n', "mcp_servers", "cortex", { command: "/c" }, "config.toml")).toBe(
      'model = "o3"\n\n[mcp_servers.cortex]\ncommand = "/c"\n',
    );
  });

  test("the comments inside cortex's own table stay: under their header, and after the same key's new value", async () => {
    const { mergeTomlEntry } = await import("../../src/cli/setup/merge-toml.ts");
    const text = [
      "[mcp_servers.cortex]",
      "# pinned by ops: do not remove",
      'command = "/old/cortex" # installed by ansible',
      'args = ["mcp", "#not-a-comment"] # the args',
      "",
      "[mcp_servers.cortex.env]",
      "# the home",
      'CORTEX_HOME = "/x" # shared',
      "",
      "# the other one",
      "[mcp_servers.other]",
      'command = "x"',
      "",
    ].join("\n");
    const entry = { command: "/new/cortex", args: ["mcp", "#not-a-comment"], env: { CORTEX_HOME: "/y" } };
    expect(mergeTomlEntry(text, "mcp_servers", "cortex", entry, "config.toml").split("\n")).toEqual([
      "[mcp_servers.cortex]",
      "# pinned by ops: do not remove",
      'command = "/new/cortex" # installed by ansible',
      'args = [ "mcp", "#not-a-comment" ] # the args',
      "",
      "[mcp_servers.cortex.env]",
      "# the home",
      'CORTEX_HOME = "/y" # shared',
      "",
      "# the other one",
      "[mcp_servers.other]",
      'command = "x"',
      "",
    ]);
    // a sub-table the new entry no longer has: its comments move under cortex's table, not lost
    const moved = mergeTomlEntry(text, "mcp_servers", "cortex", { command: "/new/cortex", args: ["mcp"] }, "config.toml");
    expect(moved.split("\n").slice(0, 4)).toEqual([
      "[mcp_servers.cortex]",
      "# pinned by ops: do not remove",
      "# the home",
      'command = "/new/cortex" # installed by ansible',
    ]);
  });
});
