/**
 * The npm distribution end to end, without the network: this platform's executable (the one the e2e tests
 * build), the packages scripts/npm-packages.ts generates, packed with `npm pack`, installed from the
 * tarballs into an empty folder with `npm install --offline`, then run through the launcher as `npx`
 * would: --version, a CLI search, an MCP session over stdio, exit codes, signals and the errors a user
 * sees when no executable fits. Then `npx -y cortex-code` against an npm registry of the test's own on
 * 127.0.0.1 serving all six packages (the other platforms' with stand-in executables): npm must fetch the
 * main package and this platform's, and no other tarball.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { builtExecutable, sandbox, useTinyModel, type Sandbox } from "../e2e/executable.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";
import { currentPlatform } from "../../scripts/build.ts";
import { generateNpmPackages, NPM_NAME, NPM_PLATFORMS, platformPackageName } from "../../scripts/npm-packages.ts";
import { VERSION } from "../../src/core/version.ts";

const NODE = Bun.which("node")!;
const NPM = Bun.which("npm")!;
const platform = NPM_PLATFORMS.find((p) => p.target === currentPlatform())!;

let work: string;
let tarballs: { main: string; platform: string; others: string[] };
let installed: string;
let launcher: string;
let sb: Sandbox;
let project: TmpProject;

/** The environment of a machine with only Node: the sandbox's HOME, Node and npm on PATH, npm kept offline. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...sb.env,
    PATH: [dirname(NODE), dirname(NPM), "/usr/bin", "/bin"].join(":"),
    npm_config_cache: join(work, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_offline: "true",
    ...extra,
  };
}

async function run(
  cmd: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; signal: string | null; out: string; err: string }> {
  const proc = Bun.spawn(cmd, { cwd: opts.cwd ?? work, env: opts.env ?? env(), stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode), out, err };
}

async function npmPack(dir: string, dest: string): Promise<string> {
  const r = await run([NPM, "pack", dir, "--pack-destination", dest, "--silent"]);
  if (r.code !== 0) throw new Error(`npm pack ${dir} failed: ${r.err}`);
  return join(dest, r.out.trim().split("\n").pop()!);
}

/** `npm install --offline` of some tarballs into a new empty folder; returns the folder. */
async function installInto(name: string, files: string[]): Promise<{ dir: string; code: number | null; err: string }> {
  const dir = join(work, name);
  mkdirSync(dir);
  const r = await run([NPM, "install", "--offline", "--no-audit", "--no-fund", ...files], { cwd: dir });
  return { dir, code: r.code, err: r.err };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "cortex-npm-e2e-"));
  sb = await sandbox();
  // the other platforms' packages carry a stand-in file: they are only there for npm to choose against
  const standIn = join(work, "stand-in");
  writeFileSync(standIn, "#!/bin/sh\necho 'not a cortex executable'\nexit 1\n", { mode: 0o755 });
  const real = await builtExecutable();
  const executables = Object.fromEntries(NPM_PLATFORMS.map((p) => [p.target, p === platform ? real : standIn]));
  const pkgs = generateNpmPackages(executables, join(work, "packages"));
  mkdirSync(join(work, "tarballs"));
  const others = await Promise.all(NPM_PLATFORMS.filter((p) => p !== platform).map((p) => npmPack(pkgs.platforms[p.target]!, join(work, "tarballs"))));
  tarballs = {
    main: await npmPack(pkgs.main, join(work, "tarballs")),
    platform: await npmPack(pkgs.platforms[platform.target]!, join(work, "tarballs")),
    others,
  };
  const inst = await installInto("app", [tarballs.main, tarballs.platform]);
  if (inst.code !== 0) throw new Error(`npm install failed: ${inst.err}`);
  installed = inst.dir;
  launcher = join(installed, "node_modules", ".bin", "cortex");
  project = copyFixture("polyglot/go");
  useTinyModel(project.root, sb);
}, 300_000);

afterAll(() => {
  project?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("npm packages", () => {
  test("the platform package declares os, cpu and libc and carries an executable file", () => {
    const dir = join(installed, "node_modules", platformPackageName(platform));
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect({ name: manifest.name, version: manifest.version, os: manifest.os, cpu: manifest.cpu, libc: manifest.libc }).toEqual({
      name: platformPackageName(platform),
      version: VERSION,
      os: [platform.os],
      cpu: [platform.cpu],
      libc: platform.libc ? [platform.libc] : undefined,
    });
    expect(statSync(join(dir, platform.executable)).mode & 0o111).toBe(0o111);
  });

  test("a main package generated for some platforms lists only those, in package.json, platforms.json and its README", () => {
    const out = join(work, "one-platform");
    const pkgs = generateNpmPackages({ [platform.target]: join(work, "stand-in") }, out);
    const manifest = JSON.parse(readFileSync(join(pkgs.main, "package.json"), "utf8"));
    expect(manifest.optionalDependencies).toEqual({ [platformPackageName(platform)]: VERSION });
    const table = JSON.parse(readFileSync(join(pkgs.main, "bin", "platforms.json"), "utf8"));
    expect(table).toEqual({
      main: NPM_NAME,
      version: VERSION,
      packages: { [platform.key]: { package: platformPackageName(platform), executable: platform.executable } },
    });
    expect(readFileSync(join(pkgs.main, "README.md"), "utf8")).toContain(`npm installs the one for your platform (${platform.key}).`);
    expect(readdirSync(out).sort()).toEqual([NPM_NAME, platformPackageName(platform)].sort());
  });

  test("the main package lists every platform as an optional dependency and installs only this one", () => {
    const manifest = JSON.parse(readFileSync(join(installed, "node_modules", NPM_NAME, "package.json"), "utf8"));
    expect(Object.keys(manifest.optionalDependencies).sort()).toEqual(NPM_PLATFORMS.map(platformPackageName).sort());
    expect(manifest.bin).toEqual({ cortex: "bin/cortex.cjs", [NPM_NAME]: "bin/cortex.cjs" });
    const present = readdirSync(join(installed, "node_modules")).filter((n) => n.startsWith(NPM_NAME));
    expect(present.sort()).toEqual([NPM_NAME, platformPackageName(platform)].sort());
  });

  test("npx runs the launcher, which runs the executable: --version", async () => {
    const r = await run([NPM, "exec", "--offline", "--", NPM_NAME, "--version"], { cwd: installed });
    expect(r.err).toBe("");
    expect(r.out.trim()).toBe(`cortex ${VERSION}`);
    expect(r.code).toBe(0);
  });

  test("a CLI search through the launcher", async () => {
    const r = await run([launcher, "search", "user login password", "--json", "--root", project.root]);
    expect(r.code).toBe(0);
    const ids = (JSON.parse(r.out) as { results: Array<{ chunk: { id: string } }> }).results.map((h) => h.chunk.id);
    expect(ids).toContain("definitions:auth/handler.go#Login");
  });

  test("an MCP session over stdio through the launcher: tools, hybrid search with the tiny model, a pattern", async () => {
    const transport = new StdioClientTransport({ command: launcher, args: ["mcp", "--root", project.root], env: env(), stderr: "pipe" });
    const client = new Client({ name: "npm-e2e", version: "1" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("cortex_search");
      const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;
      let body: { mode?: string; embeddings?: string; results?: Array<{ chunk: { id: string } }> } = {};
      const until = Date.now() + 60_000;
      while (Date.now() < until) {
        const r = await client.callTool({ name: "cortex_search", arguments: { query: "user login password check", limit: 3 } });
        if (!r.isError) body = JSON.parse(text(r));
        if (body.embeddings === "ready") break;
        await Bun.sleep(200);
      }
      expect(body.mode).toBe("hybrid");
      expect(body.results!.map((h) => h.chunk.id)).toContain("definitions:auth/handler.go#Login");
      const pattern = await client.callTool({ name: "cortex_pattern", arguments: { pattern: "func Login($$$) $$$", language: "go" } });
      expect(pattern.isError ? text(pattern) : "ok").toBe("ok");
      expect(text(pattern)).toContain("auth/handler.go");
    } finally {
      await client.close();
    }
  }, 90_000);

  test("the launcher passes the exit code on, and a usage error's message", async () => {
    const r = await run([launcher, "no-such-command"]);
    expect(r.code).toBe(2); // a usage error, as grep and ripgrep exit
    expect(r.err).toContain("unknown command 'no-such-command'");
  });

  test("the launcher forwards SIGTERM to the executable and ends with its exit code", async () => {
    // a stand-in executable (CORTEX_EXECUTABLE) that reports the signal it got and exits with 7
    const marker = join(work, "got-signal");
    const fake = join(work, "fake-cortex.sh");
    // it gives up by itself after 10 s, so a failing test leaves nothing running
    writeFileSync(
      fake,
      `#!/bin/sh\ntrap 'echo TERM > "${marker}"; exit 7' TERM\necho ready\ni=0\nwhile [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done\nexit 3\n`,
      { mode: 0o755 },
    );
    const proc = Bun.spawn([launcher, "mcp"], { env: env({ CORTEX_EXECUTABLE: fake }), stdout: "pipe", stderr: "pipe" });
    const reader = proc.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("ready\n");
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(7);
    expect(readFileSync(marker, "utf8")).toBe("TERM\n");
  });

  test("an unknown platform gets an error naming it and the platforms there are", async () => {
    const preload = join(work, "as-ppc64.cjs");
    writeFileSync(preload, 'Object.defineProperty(process, "arch", { value: "ppc64" });\n');
    const r = await run([NODE, "--require", preload, join(installed, "node_modules", NPM_NAME, "bin", "cortex.cjs"), "--version"]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `${NPM_NAME}: no executable for this platform (${process.platform}-ppc64); ${NPM_NAME} ships for ${NPM_PLATFORMS.map((p) => p.key).join(", ")}\n`,
    );
    expect(r.out).toBe("");
  });

  test("without the platform package the error names it, why npm may have left it out, and the command that adds it", async () => {
    const inst = await installInto("main-only", [tarballs.main]);
    expect(inst.code).toBe(0);
    expect(existsSync(join(inst.dir, "node_modules", platformPackageName(platform)))).toBe(false);
    const r = await run([join(inst.dir, "node_modules", ".bin", "cortex"), "--version"]);
    expect(r.code).toBe(1);
    const pkg = platformPackageName(platform);
    expect(r.err).toStartWith(`${NPM_NAME}: the package ${pkg} holding the executable for ${platform.key} is not installed.\n`);
    // not only --omit=optional, which the user may never have used: npm also skips one it could not fetch
    expect(r.err).toContain("optional dependencies are omitted (--omit=optional");
    expect(r.err).toContain("or when it could not fetch it (a registry or network error)");
    expect(r.err).toContain(`Add it with:  npm install ${pkg}@${VERSION}   (npm install -g ${pkg}@${VERSION} if ${NPM_NAME} is installed globally)\n`);
    expect(r.err).toContain("or point CORTEX_EXECUTABLE at a cortex executable.\n");
  });

  test("CORTEX_EXECUTABLE: a relative name is taken from the current folder, not looked up on PATH", async () => {
    const cwd = join(work, "relative-exe");
    mkdirSync(join(cwd, "sub"), { recursive: true });
    writeFileSync(join(cwd, "cortex"), '#!/bin/sh\necho "stand-in $*"\n', { mode: 0o755 });
    writeFileSync(join(cwd, "sub", "cortex"), '#!/bin/sh\necho "sub stand-in $*"\n', { mode: 0o755 });
    const bare = await run([launcher, "--version"], { cwd, env: env({ CORTEX_EXECUTABLE: "cortex" }) });
    expect({ code: bare.code, out: bare.out, err: bare.err }).toEqual({ code: 0, out: "stand-in --version\n", err: "" });
    const nested = await run([launcher, "a", "b"], { cwd, env: env({ CORTEX_EXECUTABLE: "sub/cortex" }) });
    expect({ code: nested.code, out: nested.out, err: nested.err }).toEqual({ code: 0, out: "sub stand-in a b\n", err: "" });
  });

  test("CORTEX_EXECUTABLE naming a folder, a missing file or a file that is not executable: a clear error", async () => {
    const cwd = join(work, "bad-exe");
    mkdirSync(join(cwd, "folder"), { recursive: true });
    writeFileSync(join(cwd, "plain"), "not executable\n", { mode: 0o644 });
    const cases: Array<[string, string]> = [
      ["folder", `${NPM_NAME}: CORTEX_EXECUTABLE names folder (${cwd}/folder), which is a directory, not a cortex executable\n`],
      ["missing", `${NPM_NAME}: CORTEX_EXECUTABLE names a file that does not exist: missing (${cwd}/missing); give the path of a cortex executable\n`],
      [`${cwd}/folder`, `${NPM_NAME}: CORTEX_EXECUTABLE names ${cwd}/folder, which is a directory, not a cortex executable\n`],
    ];
    // root may execute any file, so the permission check is only seen by other users
    if (process.getuid?.() !== 0) cases.push(["plain", `${NPM_NAME}: CORTEX_EXECUTABLE names plain (${cwd}/plain), which is not executable (chmod +x it)\n`]);
    for (const [value, message] of cases) {
      const r = await run([launcher, "--version"], { cwd, env: env({ CORTEX_EXECUTABLE: value }) });
      expect({ value, code: r.code, err: r.err, out: r.out }).toEqual({ value, code: 1, err: message, out: "" });
    }
  });

  /**
   * The launcher's libc detection with the files it reads replaced by a preload (null: the file is
   * missing), and process.report watched: reading it cost 0.4-0.5 s per call on a tester's machine.
   */
  async function withLibcFiles(fake: { ldd?: string | null; maps?: string | null; lib?: string[] }) {
    const preload = join(work, "fake-libc.cjs");
    writeFileSync(
      preload,
      `const fs = require("node:fs");
const fake = JSON.parse(process.env.FAKE_LIBC);
const { readFileSync, readdirSync } = fs;
const missing = (p) => Object.assign(new Error("ENOENT: " + p), { code: "ENOENT" });
const files = { "/usr/bin/ldd": "ldd", "/proc/self/maps": "maps" };
fs.readFileSync = function (p, ...rest) {
  const key = files[p];
  if (key && key in fake) { if (fake[key] === null) throw missing(p); return fake[key]; }
  return readFileSync.call(this, p, ...rest);
};
fs.readdirSync = function (p, ...rest) { return p === "/lib" && fake.lib ? fake.lib : readdirSync.call(this, p, ...rest); };
const report = process.report;
Object.defineProperty(process, "report", { get() { process.stderr.write("process.report read\\n"); return report; } });
`,
    );
    return run([NODE, "--require", preload, join(installed, "node_modules", NPM_NAME, "bin", "cortex.cjs"), "--version"], {
      env: env({ FAKE_LIBC: JSON.stringify(fake) }),
    });
  }

  test.skipIf(process.platform !== "linux")("the launcher tells musl from glibc as npm does, without process.report", async () => {
    const musl = `${NPM_NAME}: no executable for this platform (linux-${process.arch}-musl); ${NPM_NAME} ships for ${NPM_PLATFORMS.map((p) => p.key).join(", ")}\n`;
    const glibc = { code: 0, out: `cortex ${VERSION}\n`, err: "" };
    const result = (r: { code: number | null; out: string; err: string }) => ({ code: r.code, out: r.out, err: r.err });
    // this machine as it is: glibc, and no report built
    expect(result(await withLibcFiles({}))).toEqual(glibc);
    // /usr/bin/ldd first, as npm-install-checks reads it to choose the package
    expect(result(await withLibcFiles({ ldd: '#!/bin/sh\nexec /lib/ld-musl-x86_64.so.1 --list "$@"\n' }))).toEqual({ code: 1, out: "", err: musl });
    expect(result(await withLibcFiles({ ldd: "# This file is part of the GNU C Library.\n", lib: ["ld-musl-x86_64.so.1"] }))).toEqual(glibc);
    // no ldd: the libc this process has mapped
    expect(result(await withLibcFiles({ ldd: null, maps: "7f00-7f01 r-xp 0 08:01 1 /lib/ld-musl-x86_64.so.1\n" }))).toEqual({ code: 1, out: "", err: musl });
    expect(
      result(await withLibcFiles({ ldd: null, maps: "7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n", lib: ["ld-musl-x86_64.so.1"] })),
    ).toEqual(glibc);
    // neither: whether musl's loader is installed
    expect(result(await withLibcFiles({ ldd: null, maps: null, lib: ["ld-musl-aarch64.so.1"] }))).toEqual({ code: 1, out: "", err: musl });
    expect(result(await withLibcFiles({ ldd: null, maps: null, lib: ["libc.so.6"] }))).toEqual(glibc);
  });
});

/**
 * A read-only npm registry on 127.0.0.1 for some tarballs: the packument of each package (its manifest
 * plus the tarball's address and integrity) and the tarballs, with every request recorded.
 */
function registry(files: string[]): { url: string; requests: string[]; stop(): void } {
  const requests: string[] = [];
  const packuments = new Map<string, unknown>();
  const blobs = new Map<string, Uint8Array>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const blob = blobs.get(path);
      if (blob) return new Response(blob, { headers: { "content-type": "application/octet-stream" } });
      const doc = packuments.get(path.slice(1));
      return doc ? Response.json(doc) : Response.json({ error: "not found" }, { status: 404 });
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  for (const file of files) {
    const bytes = readFileSync(file);
    const name = basename(file).replace(/-\d+\.\d+\.\d+\.tgz$/, "");
    const pkg = JSON.parse(readFileSync(join(work, "packages", name, "package.json"), "utf8"));
    const tarballPath = `/${name}/-/${basename(file)}`;
    blobs.set(tarballPath, bytes);
    const integrity = "sha512-" + new Bun.CryptoHasher("sha512").update(bytes).digest("base64");
    const shasum = new Bun.CryptoHasher("sha1").update(bytes).digest("hex");
    packuments.set(name, {
      name,
      "dist-tags": { latest: pkg.version },
      versions: { [pkg.version]: { ...pkg, _id: `${name}@${pkg.version}`, dist: { tarball: `${url}${tarballPath}`, integrity, shasum } } },
    });
  }
  return { url, requests, stop: () => server.stop(true) };
}

describe("npx from a registry", () => {
  test("npx -y cortex-code fetches the main package and this platform's only, and runs", async () => {
    const reg = registry([tarballs.main, tarballs.platform, ...tarballs.others]);
    try {
      const dir = join(work, "npx");
      mkdirSync(dir);
      const r = await run([NPM, "exec", "--yes", `--registry=${reg.url}/`, "--", `${NPM_NAME}@${VERSION}`, "--version"], {
        cwd: dir,
        env: env({ npm_config_offline: "false", npm_config_cache: join(work, "npx-cache"), npm_config_audit: "false", npm_config_fund: "false" }),
      });
      expect(r.err).toBe("");
      expect(r.out.trim()).toBe(`cortex ${VERSION}`);
      const tarballsFetched = reg.requests
        .filter((p) => p.endsWith(".tgz"))
        .map((p) => basename(p))
        .sort();
      expect(tarballsFetched).toEqual([basename(tarballs.main), basename(tarballs.platform)].sort());
    } finally {
      reg.stop();
    }
  }, 120_000);
});
