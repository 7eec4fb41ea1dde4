/**
 * `cortex doctor` on a temporary HOME and CORTEX_HOME: each problem named with the command that fixes it,
 * and gone once that command has run; --json with the same content; no secret printed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";
import { AST_GREP_BIN } from "../helpers/ast-grep.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let home: string;
let p: TmpProject;

function cortex(args: string[], extraEnv: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    CORTEX_HOME: join(home, ".cortex"),
    CORTEX_OFFLINE: "1",
    OPENAI_API_KEY: "sk-secret-value-123",
  };
  delete env.XDG_CONFIG_HOME;
  delete env.CODEX_HOME;
  delete env.CORTEX_AST_GREP;
  Object.assign(env, extraEnv);
  const r = Bun.spawnSync([process.execPath, CLI, ...args], { cwd: p.root, env, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "cortex-doctor-home-"));
  p = copyFixture("polyglot/go");
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  p.cleanup();
});

describe("cortex doctor", () => {
  test("a fresh machine, offline: no index, no model, no ast-grep, no client; each with its fix, exit 1 (nothing can be fetched)", () => {
    const r = cortex(["doctor", "--json"]);
    expect([r.code, r.stderr]).toEqual([1, ""]);
    const d = JSON.parse(r.stdout);
    expect(d.runtime).toMatchObject({ executable: process.execPath, origin: "source", bun_version: Bun.version, cortex_home: join(home, ".cortex") });
    expect(d.runtime.mcp_command).toEqual([process.execPath, CLI, "mcp"]);
    expect(d.project).toEqual({ root: p.root, state: "missing" });
    expect(d.embeddings).toMatchObject({ provider: "local", model: "Xenova/bge-small-en-v1.5", present: false });
    expect(d.embeddings.without_it).toContain("keywords only");
    expect(d.ast_grep.cached).toBe(false);
    expect(d.clients.length).toBe(7);
    expect(d.clients.every((c: { exists: boolean }) => !c.exists)).toBe(true);
    const fixes = Object.fromEntries(d.problems.map((x: { area: string; fix: string }) => [x.area, x.fix]));
    expect(fixes.index).toBe(`cortex index ${p.root}`);
    // offline (CORTEX_OFFLINE=1 here): `cortex index --embed` would exit 2, so that is not the fix
    expect(fixes.embeddings).toContain("unset CORTEX_OFFLINE, then cortex doctor --fetch");
    expect(fixes["ast-grep"]).toContain("CORTEX_AST_GREP");

    const text = cortex(["doctor"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`Project ${p.root}: no index`);
    expect(text.stdout).toContain(`fix: cortex index ${p.root}`);
    expect(text.stdout).toContain("Embeddings: Xenova/bge-small-en-v1.5 not downloaded");
    expect(text.stdout).toContain("search ranks by keywords only");
  });

  test("after the fixes: the index ready, ast-grep found, a configured client; a broken client file and a stale command reported", () => {
    expect(cortex(["index", p.root]).code).toBe(0);
    expect(cortex(["setup", "cursor", "--write"]).code).toBe(0);
    mkdirSync(join(home, ".codex"), { recursive: true });
    writeFileSync(
      join(home, ".codex", "config.toml"),
      '[mcp_servers.cortex]\ncommand = "/gone/cortex"\nargs = ["mcp"]\nenv = { OPENAI_API_KEY = "sk-secret-value-123" }\n',
    );
    mkdirSync(join(home, ".config", "zed"), { recursive: true });
    writeFileSync(join(home, ".config", "zed", "settings.json"), "{ broken");
    p.write(".cortex/config.yml", "embeddings:\n  provider: none\n");
    const r = cortex(["doctor", "--json"], { CORTEX_AST_GREP: AST_GREP_BIN });
    const d = JSON.parse(r.stdout);
    expect(d.project).toMatchObject({ root: p.root, state: "ready", files: 4, parse_tier: "complete" });
    expect(d.indexes.map((i: { root: string }) => i.root)).toEqual([p.root]);
    expect(d.ast_grep).toMatchObject({ cached: true, source: "env", path: AST_GREP_BIN });
    expect(d.embeddings.provider).toBe("none");
    const byId = Object.fromEntries(d.clients.map((c: { client: string }) => [c.client, c]));
    expect(byId.cursor).toMatchObject({ exists: true, configured: true });
    expect(byId.codex.command).toEqual(["/gone/cortex", "mcp"]);
    expect(byId.zed.error).toContain("is not valid JSON");
    const problems = d.problems.map((x: { area: string; message: string; fix: string }) => `${x.area}: ${x.fix}`);
    // the project's index (.cortex/config.yml was added since: one file changed) aside
    expect(problems.filter((x: string) => !x.startsWith("index:"))).toEqual([
      `client: cortex setup codex --write`,
      `client: repair ${join(home, ".config/zed/settings.json")} by hand (cortex setup zed prints cortex's entry)`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("sk-secret-value-123");
    const text = cortex(["doctor"], { CORTEX_AST_GREP: AST_GREP_BIN });
    expect(text.stdout).not.toContain("sk-secret-value-123");
    expect(text.stdout).toContain("fix: cortex setup codex --write");
  });

  test("nothing wrong: exit 0; an index of a removed folder is reported with the command that drops it", () => {
    const other = copyFixture("polyglot/go");
    expect(cortex(["index", other.root]).code).toBe(0);
    other.cleanup();
    rmSync(join(home, ".codex"), { recursive: true, force: true });
    rmSync(join(home, ".config", "zed"), { recursive: true, force: true });
    expect(cortex(["index", p.root]).code).toBe(0);
    const r = cortex(["doctor", "--json"], { CORTEX_AST_GREP: AST_GREP_BIN });
    const d = JSON.parse(r.stdout);
    expect(d.problems.length).toBe(1);
    expect(d.problems[0].message).toContain(`${other.root}, which no longer exists`);
    expect(d.problems[0].fix).toStartWith("rm -rf ");
    rmSync(d.problems[0].fix.slice("rm -rf ".length).replace(/^'|'$/g, ""), { recursive: true, force: true });
    const clean = cortex(["doctor"], { CORTEX_AST_GREP: AST_GREP_BIN });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("No problems found.");
    expect(cortex(["doctor", "--bogus"]).code).toBe(2);
  });
});
