/**
 * The CLI in pipelines: --ndjson prints each row as one JSON object a line (the same rows --json returns),
 * and exit codes follow grep and ripgrep: 0 something found, 1 nothing found, 2 an error.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";
import { AST_GREP_BIN } from "../helpers/ast-grep.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let p: TmpProject;
let home: string;

async function cortex(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], {
    cwd: p.root,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, CORTEX_HOME: home, CORTEX_AST_GREP: AST_GREP_BIN, CORTEX_OFFLINE: "1" },
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Parses NDJSON line by line: every line one JSON object, nothing else on stdout. */
function ndjson(stdout: string): Record<string, unknown>[] {
  expect(stdout.endsWith("\n")).toBe(true);
  return stdout
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const v = JSON.parse(line);
      expect(typeof v === "object" && v !== null && !Array.isArray(v)).toBe(true);
      return v;
    });
}

const FILES_QUERY = JSON.stringify({ from: "files", fields: ["file_path", "language"], orderBy: [{ field: "file_path", direction: "ASC" }] });
const NO_FILES_QUERY = JSON.stringify({ from: "files", fields: ["file_path"], where: { field: "language", operator: "=", value: "cobol" } });

/** Each row-returning command: arguments that find something, that find nothing, and that are an error. */
const COMMANDS: Array<{ name: string; found: string[]; nothing: string[]; bad: string[]; rows: (json: any) => unknown[] }> = [
  { name: "grep", found: ["Login", "-C", "0"], nothing: ["no-such-text-anywhere"], bad: ["-e", "(unclosed"], rows: (j) => j.matches },
  { name: "exact", found: ["Login"], nothing: ["nosuchwordanywhere"], bad: ["(Login"], rows: (j) => j.results },
  { name: "refs", found: ["Login"], nothing: ["NoSuchSymbolAnywhere"], bad: ["Login", "--limit", "0"], rows: (j) => j.usages },
  { name: "occurrences", found: ["Login"], nothing: ["NoSuchSymbolAnywhere"], bad: ["Login", "--path", "../outside"], rows: (j) => j.occurrences },
  {
    name: "files",
    found: [FILES_QUERY],
    nothing: [NO_FILES_QUERY],
    bad: ['{"from":"nope"}'],
    rows: (j) => j.rows.map((r: unknown[]) => Object.fromEntries(j.columns.map((c: string, i: number) => [c, r[i]]))),
  },
  {
    name: "pattern",
    found: ["Login($$$)", "--lang", "go"],
    nothing: ["NoSuchCall($$$)", "--lang", "go"],
    bad: ["$$$", "--lang", "go"],
    rows: (j) => j.matches,
  },
];

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "cortex-home-"));
  p = copyFixture("polyglot/go");
  const idx = await cortex(["index", p.root, "--json"]);
  expect(idx.code).toBe(0);
});
afterAll(() => {
  p.cleanup();
  rmSync(home, { recursive: true, force: true });
});

describe("--ndjson and exit codes", () => {
  for (const c of COMMANDS) {
    test(`${c.name}: --ndjson prints the rows --json returns, one object a line; exits 0 found, 1 nothing, 2 error`, async () => {
      const json = await cortex([c.name, ...c.found, "--json"]);
      expect(json.code).toBe(0);
      const rows = c.rows(JSON.parse(json.stdout));
      expect(rows.length).toBeGreaterThan(0);
      const nd = await cortex([c.name, ...c.found, "--ndjson"]);
      expect([nd.code, nd.stderr]).toEqual([0, ""]);
      const lines = ndjson(nd.stdout);
      // the same rows, byte for byte
      expect(lines.length).toBe(rows.length);
      expect(lines.map((l) => JSON.stringify(l))).toEqual(rows.map((r) => JSON.stringify(r)));

      const text = await cortex([c.name, ...c.found]);
      expect(text.code).toBe(0);

      const none = await cortex([c.name, ...c.nothing, "--ndjson"]);
      expect([none.code, none.stdout]).toEqual([1, ""]);
      const noneText = await cortex([c.name, ...c.nothing]);
      expect(noneText.code).toBe(1);

      const bad = await cortex([c.name, ...c.bad]);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe("");
      expect(bad.stderr).toStartWith("cortex: ");
    }, 60_000);
  }

  test("grep's fast path (an index exists) streams its rows in the result's order", async () => {
    const fast = await cortex(["grep", "func", "--ndjson", "-C", "1"]);
    expect(fast.code).toBe(0);
    const rows = ndjson(fast.stdout);
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.every((r) => typeof r.file_path === "string" && typeof r.line_number === "number")).toBe(true);
    // the order is the result's: by path, then line
    const keys = rows.map((r) => `${r.file_path}\u0000${String(r.line_number).padStart(8, "0")}`);
    expect(keys).toEqual([...keys].sort());
  });

  test("a result cut by its budget says so on stderr, and stdout keeps only rows", async () => {
    const r = await cortex(["grep", "e", "-C", "10", "--max-tokens", "300", "--ndjson"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("more matched");
    const full = await cortex(["grep", "e", "-C", "10", "--max-tokens", "300", "--json"]);
    expect(ndjson(r.stdout).length).toBe(JSON.parse(full.stdout).match_count);
  });

  test("bad flags are errors with exit 2: --ndjson on a one-result command, --json with --ndjson, an unknown option", async () => {
    const status = await cortex(["status", "--ndjson"]);
    expect([status.code, status.stderr]).toEqual([2, "cortex: --ndjson: 'cortex status' returns one result, not rows; use --json\n"]);
    const both = await cortex(["grep", "x", "--json", "--ndjson"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give one");
    const unknown = await cortex(["grep", "x", "--bogus"]);
    expect([unknown.code, unknown.stderr]).toEqual([2, "cortex: unknown option --bogus (see cortex grep --help)\n"]);
    const missing = await cortex(["exact"]);
    expect(missing.code).toBe(2);
  });

  test("a command that returns one result exits 0", async () => {
    const r = await cortex(["status", "--json"]);
    expect(r.code).toBe(0);
  });
});
