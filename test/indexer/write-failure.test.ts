/**
 * A write that fails (full disk, quota or file-size limit) during any tier of an index run: the user gets
 * a clear error naming the index's folder and what still answers, the index from before keeps answering,
 * and the next run with room finishes the work. The limit is real: the CLI runs under `ulimit -f` with
 * SIGXFSZ ignored, so the kernel refuses writes past the size (EFBIG) as it would a full disk's.
 */
import { describe, expect, test, beforeAll, afterAll } from "bun:test";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, appendFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "bun";

const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
let scratch: string;
let project: string;

/** Runs the CLI with the file-size limit (KiB) when given; returns exit code, stdout and stderr. */
function cortex(home: string, args: string[], limitKiB?: number): { code: number; out: string; err: string } {
  const command = [process.execPath, MAIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const script = limitKiB === undefined ? `exec ${command}` : `trap '' XFSZ; ulimit -f ${limitKiB}; exec ${command}`;
  const r = spawnSync(["bash", "-c", script], {
    cwd: project,
    env: { ...process.env, CORTEX_HOME: home, CORTEX_EMBEDDINGS_PROVIDER: "none", CORTEX_TRACE: "" },
  });
  return { code: r.exitCode ?? -1, out: r.stdout.toString(), err: r.stderr.toString() };
}

function statusOf(home: string): { state: string; tiers?: { parse: { state: string; parsed_files: number; total_files: number } } } {
  const r = cortex(home, ["status", "--json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

function grepCount(home: string, text: string): number {
  const r = cortex(home, ["grep", "--json", "-s", text]);
  return (JSON.parse(r.out) as { matches: unknown[] }).matches.length;
}

/** 120 TypeScript modules of 40 functions each: small text, a parse tier many times its size. */
function writeProject(root: string): void {
  mkdirSync(root, { recursive: true });
  for (let f = 0; f < 120; f++) {
    const lines = [`import { helper${(f + 1) % 120} } from "./mod${(f + 1) % 120}";`];
    for (let i = 0; i < 40; i++)
      lines.push(
        `export function helper${f}_${i}(value${i}: number): number {\n  // step ${i} of module ${f}: widget${f * 40 + i}\n  return helper${(f + 1) % 120}_${(i + 1) % 40}(value${i} + ${i});\n}`,
      );
    writeFileSync(join(root, `mod${f}.ts`), lines.join("\n") + "\n");
  }
  writeFileSync(join(root, "keep.ts"), "export const untouchedMarker = 'zqkeptzq';\n");
  spawnSync(["git", "init", "-q"], { cwd: root });
}

function databases(home: string): string[] {
  const cache = join(home, "cache");
  const out: string[] = [];
  for (const d of readdirSync(cache)) for (const f of readdirSync(join(cache, d))) if (/^index-.*\.db$/.test(f)) out.push(f);
  return out;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "cortex-write-failure-"));
  project = join(scratch, "project");
  writeProject(project);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("a failed write during an index run", () => {
  test("before the text tier is whole: a clear error, nothing half-built left behind, no index", () => {
    const home = join(scratch, "home-none");
    const r = cortex(home, ["index", "."], 64);
    expect(r.code).toBe(2);
    expect(r.err).toContain("could not write the index of");
    expect(r.err).toContain(join(home, "cache"));
    expect(r.err).toContain("No index was written");
    // nothing was kept to finish: the next run starts over, and says so
    expect(r.err).toContain("it starts the build over");
    expect(r.err).not.toContain("finishes what is left");
    expect(r.err).not.toContain("internal error");
    expect(r.err).not.toContain("    at ");
    expect(databases(home)).toEqual([]);
    expect(statusOf(home).state).toBe("missing");
  }, 60_000);

  test("in the parse tier of a first build: the text tier answers, status names the interrupted tier, the next run finishes", () => {
    const home = join(scratch, "home-parse");
    const r = cortex(home, ["index", "."], 1500);
    expect(r.code).toBe(2);
    expect(r.err).toContain("The index answers exact and regex search for every file it holds");
    expect(r.err).toMatch(/Its parse tier stopped at \d+ of 121 files/);
    expect(r.err).not.toContain("    at ");

    expect(grepCount(home, "widget4799")).toBe(1);
    const st = statusOf(home);
    expect(st.state).toBe("ready");
    expect(st.tiers!.parse.state).toBe("interrupted");
    expect(st.tiers!.parse.parsed_files).toBeLessThan(121);
    const search = cortex(home, ["search", "--json", "helper119_39"]);
    expect(JSON.parse(search.out).index_incomplete.state).toBe("interrupted");
    const text = cortex(home, ["search", "helper119_39"]);
    expect(text.err).toContain("The last index run stopped before finishing it");

    const again = cortex(home, ["index", "."]);
    expect(again.code).toBe(0);
    const done = statusOf(home);
    expect(done.tiers!.parse).toEqual({ state: "complete", parsed_files: 121, total_files: 121 });
    const defined = JSON.parse(cortex(home, ["search", "--json", "helper119_39"]).out);
    expect(defined.index_incomplete).toBeUndefined();
    expect(defined.results.length).toBeGreaterThan(0);
  }, 120_000);

  test("in an incremental run: the index keeps answering and the next run brings every change in", () => {
    const home = join(scratch, "home-incremental");
    expect(cortex(home, ["index", "."]).code).toBe(0);
    for (let f = 0; f < 120; f++) appendFileSync(join(project, `mod${f}.ts`), `export const added${f} = "zqadded${f}zq ${"padding ".repeat(2000)}";\n`);
    const r = cortex(home, ["index", "."], 1000);
    expect(r.code).toBe(2);
    expect(r.err).toContain("The index keeps answering");
    expect(r.err).not.toContain("    at ");

    expect(grepCount(home, "zqkeptzq")).toBe(1);
    expect(grepCount(home, "widget4799")).toBe(1);
    expect(cortex(home, ["index", "."]).code).toBe(0);
    expect(grepCount(home, "zqadded119zq")).toBe(1);
    expect(statusOf(home).tiers!.parse.state).toBe("complete");
  }, 120_000);
});
