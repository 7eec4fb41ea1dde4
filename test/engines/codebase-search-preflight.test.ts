/**
 * The edit preflight on a project written here: a broad change (a money formatter six files call) must not
 * be ready, and the card must name a caller to read and the call that lists them all; a local change (a SKU
 * parser nothing else uses, with its test) is ready. Also the ready rule as data: each signal blocks on its
 * own, and the older checks the rule no longer counts become advice on the card.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitAt, tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { findTool } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import type { CodebaseSearchResponse } from "../../src/engines/codebase-search/index.ts";
import { editSignals, siblingsOf, sweepWordsOf, type EditSignals } from "../../src/engines/codebase-search/edit-signals.ts";
import {
  HISTORY_WAY,
  READY_RULE,
  historyReady,
  isReady,
  pastChangesWider,
  signalBlockers,
  type ReadyRule,
} from "../../src/engines/codebase-search/ready-rule.ts";
import { preflight, signalStress } from "../../src/engines/codebase-search/preflight.ts";

/** A next step that names a tool call must be one the tool accepts as written: its arguments pass its schema. */
function expectCallable(help: string): void {
  const call = /^([a-z_]+) (\{.*\})/.exec(help);
  if (!call) return;
  const tool = findTool(call[1]!);
  expect(tool, help).toBeDefined();
  const parsed = tool!.input.safeParse(JSON.parse(call[2]!));
  expect(parsed.success ? "" : `${help}: ${parsed.error.message}`).toBe("");
}

const CALLERS = [
  "src/orders/invoice.ts",
  "src/orders/receipt.ts",
  "src/cart/summary.ts",
  "src/admin/report.ts",
  "src/mail/order-mail.ts",
  "src/ui/price-tag.ts",
];

function files(): Record<string, string> {
  const out: Record<string, string> = {
    "src/money/format.ts": `/** Money amounts as text for people. */
export function formatMoney(cents: number): string {
  const units = Math.floor(cents / 100);
  const rest = cents % 100;
  return \`\${units}.\${String(rest).padStart(2, "0")}\`;
}
`,
    "src/sku/parse.ts": `/** Stock keeping unit codes: VENDOR-PRODUCT-SIZE. */
export interface Sku {
  vendor: string;
  product: string;
  size: string;
}

export function parseSku(code: string): Sku {
  const [vendor = "", product = "", size = ""] = code.split("-");
  return { vendor: vendor.toUpperCase(), product, size: size.toLowerCase() };
}
`,
    "test/sku/parse.test.ts": `import { parseSku } from "../../src/sku/parse";
test("parseSku", () => {
  expect(parseSku("ACME-42-XL").vendor).toBe("ACME");
});
`,
  };
  const roles = ["invoice lines", "receipt footer", "cart summary", "admin revenue report", "order confirmation mail", "price tag label"];
  CALLERS.forEach((path, n) => {
    out[path] = `import { formatMoney } from "../money/format";
/** The ${roles[n]}. */
export function render${n}(totalCents: number): string {
  return "${roles[n]}: " + formatMoney(totalCents);
}
`;
  });
  return out;
}

let p: TmpProject;
let session: Session;

async function card(query: string) {
  const r = (await invokeTool(
    findTool("search_codebase")!,
    { query, intent: "edit" },
    {
      session,
      signal: new AbortController().signal,
      deadline: Date.now() + 30_000,
    },
  )) as CodebaseSearchResponse;
  return { results: r.results.map((x) => x.file), card: r.preflight! };
}

/**
 * search_codebase with the edit intent on a project of its own, indexed in a CORTEX_HOME of its own
 * (`prepare` runs on the project before the index: a git history), everything removed after.
 */
async function editSearchIn(
  projectFiles: Record<string, string>,
  args: { query: string; limit?: number; filters?: { paths?: string[] } },
  prepare?: (g: TmpProject) => void,
  /** Runs on the project after the index is built, before the search: changes the index does not know of. */
  afterIndex?: (g: TmpProject) => void,
): Promise<CodebaseSearchResponse> {
  const home = mkdtempSync(join(tmpdir(), "cortex-preflight-home-"));
  const saved = process.env.CORTEX_HOME;
  process.env.CORTEX_HOME = home;
  const g = tmpProject(projectFiles);
  let s: Session | undefined;
  try {
    prepare?.(g);
    s = new Session(g.root, { autoIndex: true });
    await s.requireStore();
    afterIndex?.(g);
    return (await invokeTool(
      findTool("search_codebase")!,
      { ...args, intent: "edit" },
      { session: s, signal: new AbortController().signal, deadline: Date.now() + 30_000 },
    )) as CodebaseSearchResponse;
  } finally {
    s?.close();
    g.cleanup();
    rmSync(home, { recursive: true, force: true });
    if (saved === undefined) delete process.env.CORTEX_HOME;
    else process.env.CORTEX_HOME = saved;
  }
}

beforeAll(async () => {
  process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
  p = tmpProject(files());
  session = new Session(p.root, { autoIndex: true });
  await session.requireStore();
});
afterAll(() => {
  session.close();
  p.cleanup();
  delete process.env.CORTEX_EMBEDDINGS_PROVIDER;
});

describe("the edit preflight on written fixtures", () => {
  test("a broad change is not ready, and the card names a missing caller and how to list them all", async () => {
    const { results, card: c } = await card("formatMoney rounds half cents up when formatting money");
    expect(results[0]).toBe("src/money/format.ts");
    expect(c.ready).toBe(false);
    expect(c.blockers).toContain("callers-missing");
    // a caller outside the results, by name, and the call that lists every caller
    const missing = CALLERS.filter((f) => !results.includes(f));
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.some((f) => c.nextAction!.includes(f) || c.whatWouldHelp!.some((w) => w.includes(f)))).toBe(true);
    expect(c.whatWouldHelp!.some((w) => w.startsWith('cortex_graph {"operation":"callers","target":"formatMoney"}'))).toBe(true);
  });

  test("a changelog sharing the task's words is no runner-up: the rival files compared are code", async () => {
    const r = await editSearchIn(
      {
        ...files(),
        "CHANGES.md":
          "# Changes\n\n## parseSku\n\n" +
          "- parseSku splits the sku code into vendor, product and size.\n- parseSku: the sku code's vendor, product and size parts.\n".repeat(3),
      },
      { query: "parseSku splits the sku code into vendor product and size" },
    );
    const shown = r.results.map((x) => x.file);
    expect(shown.slice(0, 2)).toEqual(["src/sku/parse.ts", "CHANGES.md"]);
    // what the card compares: the top with the next code file, not the changelog
    expect(r.preflight!.signals!.runnerUpRatio).toBeLessThan(0.5);
    expect(r.preflight!.blockers ?? []).not.toContain("close-runner-up");
    expect(r.preflight!.ready).toBe(true);
  });

  test("a local change is ready", async () => {
    const { results, card: c } = await card("parseSku splits the sku code into vendor product and size");
    expect(results[0]).toBe("src/sku/parse.ts");
    expect(c.blockers).toBeUndefined();
    expect(c.ready).toBe(true);
    expect(c.signals!.definedInTop).toEqual(["parseSku"]);
    expect(c.signals!.fanIn).toBe(0);
  });

  test("the same change is not ready when the top file was moved since indexing: the card says to update the index first", async () => {
    const r = await editSearchIn(files(), { query: "parseSku splits the sku code into vendor product and size" }, undefined, (g) =>
      renameSync(join(g.root, "src/sku/parse.ts"), join(g.root, "src/sku/parsing.ts")),
    );
    expect(r.results[0]!.file).toBe("src/sku/parse.ts");
    expect(r.results[0]!.stale).toBe(true);
    const c = r.preflight!;
    expect(c.ready).toBe(false);
    expect(c.blockers![0]).toBe("stale-evidence");
    expect(c.nextAction).toBe("src/sku/parse.ts changed or was removed since indexing: the evidence is the indexed text; update the index and ask again");
    expect(c.whatWouldHelp![0]).toStartWith('refresh_index {"incremental":true}');
    expectCallable(c.whatWouldHelp![0]!);
  });

  test("the top file's own test is no rival file to change: the runner-up is the next code file", async () => {
    const invoice = `"""Invoices and their totals."""
from decimal import Decimal, ROUND_HALF_UP


def compute_total(invoice):
    """The invoice total, rounded to cents."""
    total = sum(line.price * line.quantity for line in invoice.lines)
    return total.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
`;
    const test = `from decimal import Decimal
from billing.invoice import compute_total


def test_invoice_total_is_rounded():
    """Invoice totals are rounded to cents."""
    assert compute_total(make_invoice("1.005")) == Decimal("1.01")


def test_invoice_total_rounding_of_halves():
    """Invoice totals round halves up."""
    assert compute_total(make_invoice("2.675")) == Decimal("2.68")
`;
    const r = await editSearchIn(
      { "billing/invoice.py": invoice, "billing/test_invoice.py": test, "billing/__init__.py": "", "README.md": "# Billing\n" },
      { query: "change how invoice totals are rounded to use banker's rounding" },
    );
    const files = r.results.map((x) => x.file);
    expect(files.slice(0, 2)).toEqual(["billing/invoice.py", "billing/test_invoice.py"]);
    const c = r.preflight!;
    expect(c.signals!.runnerUpRatio).toBe(0);
    expect(c.blockers ?? []).not.toContain("close-runner-up");
  });

  test("a task naming a function only files outside the filters define is not ready: the filter hid the file to change", async () => {
    const query = "change formatMoney to round the cents half up";
    const r = await editSearchIn(files(), { query, filters: { paths: ["src/orders"] } });
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.every((x) => x.file.startsWith("src/orders/"))).toBe(true);
    const c = r.preflight!;
    expect(c.ready).toBe(false);
    expect(c.blockers![0]).toBe("outside-filter");
    expect(c.nextAction).toBe(
      "formatMoney is defined in src/money/format.ts, which the filters (paths: src/orders) leave out: the file to change may be there; ask again without them",
    );
    for (const h of c.whatWouldHelp!) expectCallable(h);
    // nothing found under a filter: the card says so, and names the filter
    const none = (await editSearchIn(files(), { query: "zeppelin hangar lighting", filters: { paths: ["src/money"] } })).preflight!;
    expect(none.nextAction).toBe(
      "No result holds the task's words (zeppelin, hangar, lighting): Nothing matched among the files the filters leave (paths: src/money): ask again without them, or with the code's own words.",
    );
    // the filter that holds the definition is no obstacle
    const within = (await editSearchIn(files(), { query, filters: { paths: ["src/money"] } })).preflight!;
    expect(within.blockers ?? []).not.toContain("outside-filter");
  });
});

describe("the ready rule", () => {
  const clear: EditSignals & { fanIn: number } = {
    runnerUpRatio: 0.3,
    nearTies: 0,
    topCoverage: 1,
    topMissing: [],
    identifiers: ["parseSku"],
    definedInTop: ["parseSku"],
    namedFiles: { parseSku: 1 },
    definedElsewhere: {},
    topScore: 2,
    topIsTest: false,
    siblings: 0,
    sweepWords: [],
    pathMatch: true,
    fanIn: 0,
  };
  const strict: ReadyRule = {
    maxRunnerUp: 0.8,
    maxNearTies: 0,
    minTopCoverage: 0.6,
    maxFanIn: 2,
    blockTopTest: true,
    blockDefinedElsewhere: true,
    minTopScore: 0.5,
    maxSiblings: 1,
    blockSweepWords: true,
    maxTwins: 0,
    base: ["callers-missing", "stale-memory"],
  };

  test("each signal blocks on its own", () => {
    expect(signalBlockers(clear, strict)).toEqual([]);
    expect(signalBlockers({ ...clear, runnerUpRatio: 0.95 }, strict)).toEqual(["close-runner-up"]);
    expect(signalBlockers({ ...clear, nearTies: 2 }, strict)).toEqual(["close-runner-up"]);
    expect(signalBlockers({ ...clear, topCoverage: 0.2 }, strict)).toEqual(["words-missing"]);
    expect(signalBlockers({ ...clear, fanIn: 3 }, strict)).toEqual(["wide-fan-in"]);
    expect(signalBlockers({ ...clear, topIsTest: true }, strict)).toEqual(["top-is-test"]);
    expect(signalBlockers({ ...clear, topScore: 0.4 }, strict)).toEqual(["weak-top"]);
    // the rule in the code: a clear lead (runner-up at most 60%) of a top file holding most of the task's
    // words, no word saying the task spans many places, no other code file defining the target's name
    const unnamed = { ...clear, definedInTop: [] };
    expect(signalBlockers({ ...unnamed, runnerUpRatio: 0.7 }, READY_RULE)).toEqual(["close-runner-up"]);
    expect(signalBlockers({ ...unnamed, topCoverage: 0.5 }, READY_RULE)).toEqual(["words-missing"]);
    // a task naming, as code, what the top file defines: the name settles which file to change
    expect(signalBlockers({ ...clear, runnerUpRatio: 0.95, nearTies: 3, topCoverage: 0.2 }, READY_RULE)).toEqual([]);
    expect(signalBlockers({ ...clear, runnerUpRatio: 0.95, topCoverage: 0.2 }, { ...READY_RULE, namedInTop: false })).toEqual([
      "close-runner-up",
      "words-missing",
    ]);
    // and the checks that name another file still block
    expect(signalBlockers({ ...clear, runnerUpRatio: 0.95, twins: 1, sweepWords: ["all"] }, READY_RULE)).toEqual(["sweep", "twin-definitions"]);
    expect(signalBlockers({ ...clear, sweepWords: ["every"] }, READY_RULE)).toEqual(["sweep"]);
    expect(signalBlockers({ ...clear, twins: 1 }, READY_RULE)).toEqual(["twin-definitions"]);
    expect(signalBlockers({ ...clear, twins: 0 }, READY_RULE)).toEqual([]);
    // a test on top: the task's words matched tests, not the code to change
    expect(signalBlockers({ ...unnamed, topIsTest: true }, READY_RULE)).toEqual(["top-is-test"]);
    // two files the history says usually change with the top one, outside the results; one is named but does not block
    expect(signalBlockers({ ...clear, changedTogether: 2 }, READY_RULE)).toEqual(["changed-together"]);
    expect(signalBlockers({ ...clear, changedTogether: 1 }, READY_RULE)).toEqual([]);
    expect(signalBlockers({ ...clear, siblings: 2 }, strict)).toEqual(["sibling-files"]);
    expect(signalBlockers({ ...clear, sweepWords: ["all"] }, strict)).toEqual(["sweep"]);
    expect(signalBlockers({ ...clear, definedInTop: [], definedElsewhere: { parseSku: ["src/other.ts"] } }, strict)).toEqual(["defined-elsewhere"]);
  });

  test("only the older checks the rule keeps block", () => {
    expect(isReady(["pattern-conflict"], clear, strict)).toBe(true);
    expect(isReady(["callers-missing"], clear, strict)).toBe(false);
    expect(isReady([], clear, READY_RULE)).toBe(true);
    expect(isReady(["unresolved-callers"], clear, READY_RULE)).toBe(false);
    expect(isReady(["pattern-conflict"], clear, READY_RULE)).toBe(false);
    expect(isReady(["low-confidence"], clear, READY_RULE)).toBe(true);
  });

  test("signals read the top file's lead, words and definitions", () => {
    const s = editSignals({
      query: "Fix `parseSku` for lower-case vendor codes",
      results: [
        { file: "src/sku/parse.ts", score: 1, text: "export function parseSku(code) { vendor codes }", isTest: false },
        { file: "test/sku/parse.test.ts", score: 0.85, text: "parseSku", isTest: true },
      ],
      definitions: (names) => new Map(names.map((n) => [n, ["src/sku/parse.ts"]])),
    });
    expect(s.runnerUpRatio).toBe(0.85);
    expect(s.nearTies).toBe(1);
    expect(s.definedInTop).toEqual(["parseSku"]);
    expect(s.definedElsewhere).toEqual({});
    expect(s.topIsTest).toBe(false);
    expect(s.pathMatch).toBe(true); // "sku" is a word of src/sku/parse.ts
    expect(s.topMissing).toContain("lower");
    expect(s.sweepWords).toEqual([]);
    expect(siblingsOf("cmd/bash_completions.go", ["cmd/fish_completions.go", "cmd/command.go", "other/zsh_completions.go"])).toBe(1);
    expect(sweepWordsOf("Use the new logger across all handlers")).toEqual(["across", "all"]);
  });
});

describe("a card that is not ready says what is missing", () => {
  const quality = { status: "ok" as const, confidence: 0.8, matchedTerms: ["sku"], missingTerms: [] };
  const patterns = { category: "all" as const, groups: [], conflicts: [], golden_files: [], analyzed_files: 0, history: { unavailable: "none" } };
  const base = {
    query: "uv_thread_setname sets the thread name",
    quality,
    resultFiles: ["src/unix/thread.c", "src/unix/core.c", "include/uv.h"],
    testFiles: [],
    languages: ["c"],
    patterns,
    filePatterns: {},
    memories: [],
    inCycles: [],
    goldenLanguage: () => undefined,
  };
  const signals: EditSignals = {
    runnerUpRatio: 0.3,
    nearTies: 0,
    topCoverage: 1,
    topMissing: [],
    identifiers: ["uv_thread_setname"],
    definedInTop: ["uv_thread_setname"],
    namedFiles: { uv_thread_setname: 2 },
    definedElsewhere: {},
    topScore: 2,
    topIsTest: false,
    siblings: 0,
    sweepWords: [],
    pathMatch: true,
  };
  const target = { label: "uv_thread_setname", name: "uv_thread_setname", callers: [], importers: [], twins: ["src/win/thread.c"] };

  test("the best example is a golden file in the task's languages, or none", () => {
    const golden = [
      { file: "cmd/tool.go", score: 9, patterns: [] },
      { file: "src/unix/fs.c", score: 7, patterns: [] },
    ];
    const languageOf = (f: string) => (f.endsWith(".go") ? "go" : f.endsWith(".c") ? "c" : undefined);
    const withGolden = (files: typeof golden) => ({ ...base, signals, target, patterns: { ...patterns, golden_files: files }, goldenLanguage: languageOf });
    expect(preflight(withGolden(golden)).bestExample).toBe("src/unix/fs.c");
    // only a Go file is golden: no example for a C change, rather than one in another language
    expect(preflight(withGolden(golden.slice(0, 1))).bestExample).toBeUndefined();
    // a benchmark's or a test's file is no example for production code
    const noise = [{ file: "benchmarks/http/bench.c", score: 12, patterns: [] }, { file: "test/test_fs.c", score: 11, patterns: [] }, ...golden];
    const isTestFile = (f: string) => f.startsWith("test/");
    expect(preflight({ ...withGolden(noise), isTestFile }).bestExample).toBe("src/unix/fs.c");
    // the example nearest the file to change wins over a better-scoring one elsewhere; the file itself is none
    const spread = [
      { file: "src/win/fs.c", score: 12, patterns: [] },
      { file: "src/unix/thread.c", score: 11, patterns: [] },
      { file: "src/unix/pipe.c", score: 5, patterns: [] },
      { file: "src/unix/stream.c", score: 6, patterns: [] },
    ];
    expect(preflight(withGolden(spread)).bestExample).toBe("src/unix/stream.c");
  });

  test("a name defined in another code file blocks, naming that file and the call that lists every definition", () => {
    const c = preflight({ ...base, signals, target, rule: { ...READY_RULE, maxTwins: 0 } });
    expect(c.ready).toBe(false);
    expect(c.blockers).toEqual(["twin-definitions"]);
    expect(c.signals!.twins).toBe(1);
    expect(c.nextAction).toContain("src/win/thread.c");
    expect(c.whatWouldHelp).toEqual([
      "read src/win/thread.c (also defines uv_thread_setname)",
      'find_symbol_occurrences {"symbol_name":"uv_thread_setname"} lists every definition and use',
    ]);
    // the same card is ready when the rule lets one twin through
    expect(preflight({ ...base, signals, target, rule: { ...READY_RULE, maxTwins: 1 } }).ready).toBe(true);
  });

  test("another definition the card shows, or of a protocol name, does not block; one it does not show does", () => {
    const rule = { ...READY_RULE, maxTwins: 0 };
    // the other platform's file is among the results: the card shows it already
    const shown = preflight({ ...base, resultFiles: ["src/unix/thread.c", "src/win/thread.c"], signals, target, rule });
    expect(shown.ready).toBe(true);
    expect(shown.signals!.twins).toBe(0);
    // constructors, dunders and entry points are every class's own: not variants to follow
    for (const name of ["__init__", "__construct", "main", "constructor"]) {
      const c = preflight({ ...base, signals, target: { ...target, label: `Thread.${name}`, name, twins: ["src/a.c", "src/b.c"] }, rule });
      expect(c.ready).toBe(true);
    }
    const outside = preflight({ ...base, resultFiles: ["src/unix/thread.c", "src/unix/core.c"], signals, target, rule });
    expect(outside.blockers).toEqual(["twin-definitions"]);
  });

  test("patterns in conflict block when the files at hand take different sides, not when a file mixes them", () => {
    const conflict = {
      ...base.patterns,
      conflicts: [
        {
          group: "Python exception handling",
          category: "errors" as const,
          patterns: [
            { name: "specific except clauses", share: 0.6 },
            { name: "bare / broad except", share: 0.4 },
          ],
        },
      ],
    };
    const uses = (pattern: string) => ({
      group: "Python exception handling",
      category: "errors" as const,
      pattern,
      share: 0.5,
      trend: "stable" as const,
      preferred: false,
      conflict: true,
    });
    const resultFiles = ["src/core.py", "src/utils.py", "src/parser.py"];
    const mixed = preflight({
      ...base,
      resultFiles,
      signals,
      patterns: conflict,
      filePatterns: {
        "src/core.py": [uses("specific except clauses"), uses("bare / broad except")],
        "src/utils.py": [uses("specific except clauses")],
      },
    });
    expect(mixed.ready).toBe(true);
    const split = preflight({
      ...base,
      resultFiles,
      signals,
      patterns: conflict,
      filePatterns: { "src/core.py": [uses("specific except clauses")], "src/parser.py": [uses("bare / broad except")] },
    });
    expect(split.ready).toBe(false);
    expect(split.blockers).toEqual(["pattern-conflict"]);
    expect(split.nextAction).toContain("src/core.py uses specific except clauses; src/parser.py uses bare / broad except");
  });

  test("every blocker comes with a next step naming a file or a call to make", () => {
    const loose: EditSignals = {
      ...signals,
      runnerUpRatio: 0.95,
      nearTies: 2,
      topCoverage: 0.2,
      topMissing: ["name"],
      definedInTop: [],
      namedFiles: {},
      definedElsewhere: { uv_thread_setname: ["src/win/thread.c"] },
      topScore: 0.5,
      topIsTest: true,
      siblings: 2,
      sweepWords: ["all"],
    };
    const strict = {
      ...READY_RULE,
      maxRunnerUp: 0.5,
      maxNearTies: 0,
      minTopCoverage: 0.5,
      maxFanIn: 0,
      blockTopTest: true,
      blockDefinedElsewhere: true,
      minTopScore: 1,
      maxSiblings: 0,
      blockSweepWords: true,
      maxTwins: 0,
    };
    const c = preflight({
      ...base,
      resultFiles: ["src/unix/thread_test.c", "src/unix/thread.c", "src/unix/thread_posix.c"],
      testFiles: ["src/unix/thread_test.c"],
      signals: loose,
      target: { ...target, callers: ["src/a.c", "src/b.c"] },
      rule: strict,
    });
    expect(c.ready).toBe(false);
    expect(new Set(c.blockers)).toEqual(
      new Set([
        "callers-missing",
        "wide-fan-in",
        "sweep",
        "twin-definitions",
        "sibling-files",
        "defined-elsewhere",
        "top-is-test",
        "close-runner-up",
        "words-missing",
        "weak-top",
      ]),
    );
    // the first blocker's action names a caller the results miss; the next steps are files or tool calls
    expect(c.nextAction).toContain("src/a.c");
    expect(c.whatWouldHelp!.length).toBeGreaterThan(0);
    for (const h of c.whatWouldHelp!) expect(h).toMatch(/^(read \S+|cortex_graph \{|find_symbol_occurrences \{|search_codebase \{|cortex_exact \{)/);
    // every blocker's own steps, not only the four the card keeps, are calls the tools accept
    const input = {
      ...base,
      resultFiles: ["src/unix/thread_test.c", "src/unix/thread.c", "src/unix/thread_posix.c"],
      testFiles: ["src/unix/thread_test.c"],
      signals: loose,
      target: { ...target, callers: ["src/a.c", "src/b.c"], twins: ["src/win/thread.c"] },
      rule: strict,
    };
    for (const kind of c.blockers!) for (const h of signalStress(kind, { ...loose, fanIn: 2, twins: 1 }, input, ["src/a.c"]).help) expectCallable(h);
  });

  test("the next steps look up what the change is about: not the task's verbs, its reach or a rename's new name, nor a name every class has", () => {
    const input = {
      ...base,
      query: "rename Login to SignIn everywhere",
      resultFiles: ["src/auth.go", "src/session.go"],
      testFiles: [],
      rule: READY_RULE,
    };
    const s: EditSignals = {
      ...signals,
      identifiers: ["SignIn", "__init__"],
      topMissing: ["rename", "signin", "sign", "everywhere"],
      sweepWords: ["everywhere"],
      definedInTop: [],
      namedFiles: {},
    };
    const help = ["words-missing", "sweep", "close-runner-up", "weak-top"].flatMap(
      (k) => signalStress(k as never, { ...s, fanIn: 0 }, input as never, []).help,
    );
    expect(help).toContain('cortex_exact {"query":"Login"} lists every file to change');
    expect(help).toContain('find_symbol_occurrences {"symbol_name":"Login"} finds where Login is defined');
    for (const h of help) expect(h).not.toMatch(/"(rename|signin|sign|everywhere|SignIn|__init__)"/);
  });
});

describe("the history's way to ready: past changes that read like the task", () => {
  const quality = { status: "ok" as const, confidence: 0.8, matchedTerms: ["signal"], missingTerms: [] };
  const patterns = { category: "all" as const, groups: [], conflicts: [], golden_files: [], analyzed_files: 0, history: { unavailable: "none" } };
  const base = {
    query: "Handle EINTR when reading the signal pipe",
    quality,
    resultFiles: ["src/unix/signal.c", "src/unix/pipe.c", "src/unix/core.c"],
    testFiles: [],
    languages: ["c"],
    patterns,
    filePatterns: {},
    memories: [],
    inCycles: [],
    goldenLanguage: () => undefined,
  };
  // the search alone cannot settle it: the runner-up scores 90% of the top file
  const signals: EditSignals = {
    runnerUpRatio: 0.9,
    nearTies: 1,
    topCoverage: 0.8,
    topMissing: ["eintr"],
    identifiers: [],
    definedInTop: [],
    namedFiles: {},
    definedElsewhere: {},
    topScore: 1,
    topIsTest: false,
    siblings: 0,
    sweepWords: [],
    pathMatch: true,
  };
  const target = { label: "src/unix/signal.c", callers: [], importers: [] };
  const commit = (subject: string, files: string[], score = 5) => ({ subject, score, files });
  // the history's way, measured but not taken by READY_RULE (ready-rule.ts)
  const rule: ReadyRule = { ...READY_RULE, history: HISTORY_WAY };

  test("ready when most similar past commits changed only files the card shows; what blocked the search's way is a warning", () => {
    const pastChanges = [
      commit("Retry signal pipe reads on EINTR", ["src/unix/signal.c"], 9),
      commit("Close the signal pipe on fork", ["src/unix/signal.c", "src/unix/core.c"], 7),
      commit("Read the whole signal pipe", ["src/unix/signal.c"], 6),
      commit("Signal handler docs", [], 5), // only docs or tests: not counted
    ];
    const c = preflight({ ...base, signals, target, pastChanges, rule });
    expect(c.ready).toBe(true);
    expect(c.blockers).toBeUndefined();
    expect(c.signals).toMatchObject({ pastCommits: 3, pastCovered: 1 });
    expect(c.pastChanges).toEqual({ commits: 3, within: 3, outside: [] });
    expect(c.waived).toEqual(["close-runner-up"]);
    expect(c.warnings!.some((w) => w.includes("src/unix/pipe.c") && w.includes("match the task about equally"))).toBe(true);
    // under READY_RULE, which does not take the history's way, the card still shows what the history says
    const shipped = preflight({ ...base, signals, target, pastChanges });
    expect(shipped.ready).toBe(false);
    expect(shipped.blockers).toEqual(["close-runner-up"]);
    expect(shipped.waived).toBeUndefined();
    expect(shipped.pastChanges).toEqual({ commits: 3, within: 3, outside: [] });
    // the same card without a history: the search's rule alone, not ready
    const without = preflight({ ...base, signals, target });
    expect(without.ready).toBe(false);
    expect(without.blockers).toEqual(["close-runner-up"]);
    expect(without.signals!.pastCommits).toBeUndefined();
  });

  test("not ready when similar past commits reached files the card does not show; the card names them", () => {
    const pastChanges = [
      commit("Handle EINTR in every read loop", ["src/unix/signal.c", "src/unix/stream.c", "src/unix/fs.c"], 9),
      commit("Retry interrupted reads", ["src/unix/stream.c", "src/unix/udp.c"], 8),
      commit("Signal pipe reads retry on EINTR", ["src/unix/signal.c"], 4),
      commit("EINTR in the poll loop", ["src/unix/stream.c", "src/unix/linux.c"], 4),
    ];
    const c = preflight({ ...base, signals, target, pastChanges, rule });
    expect(c.ready).toBe(false);
    expect(c.blockers).toEqual(["past-changes", "close-runner-up"]);
    expect(c.pastChanges).toEqual({
      commits: 4,
      within: 1,
      outside: [
        { file: "src/unix/stream.c", commits: 3 },
        { file: "src/unix/fs.c", commits: 1 },
        { file: "src/unix/udp.c", commits: 1 },
      ],
    });
    expect(c.signals!.pastCovered).toBe(0.16);
    expect(c.nextAction).toContain("src/unix/stream.c (3 of 4)");
    expect(c.nextAction).toContain('"Handle EINTR in every read loop"');
    expect(c.whatWouldHelp).toContain("read src/unix/stream.c (changed by 3 of 4 similar past commits)");
    for (const h of c.whatWouldHelp!) expect(h).toMatch(/^(read \S+|cortex_graph \{|find_symbol_occurrences \{|search_codebase \{|cortex_exact \{)/);
  });

  test("without similar past commits that changed code, or with callers missing, it is the search's rule alone", () => {
    const none = preflight({ ...base, signals, target, pastChanges: [commit("Signal handler docs", [])], rule });
    expect(none.ready).toBe(false);
    expect(none.blockers).toEqual(["close-runner-up"]);
    expect(none.pastChanges).toBeUndefined();
    const enough = [commit("Retry signal pipe reads on EINTR", ["src/unix/signal.c"]), commit("Read the whole signal pipe", ["src/unix/signal.c"])];
    expect(preflight({ ...base, signals, target, pastChanges: enough, rule }).ready).toBe(true);
    // a rule asking for three such commits: two say nothing either way, and name nothing
    const three = { ...READY_RULE, history: { ...HISTORY_WAY, minCommits: 3 } };
    const few = preflight({ ...base, signals, target, pastChanges: enough, rule: three });
    expect(few.ready).toBe(false);
    expect(few.blockers).toEqual(["close-runner-up"]);
    const called = preflight({ ...base, signals, target: { ...target, importers: ["src/unix/loop.c", "src/unix/async.c"] }, pastChanges: enough, rule });
    expect(called.ready).toBe(false);
    expect(called.blockers).toContain("callers-missing");
    const h = HISTORY_WAY;
    const s = { ...signals, fanIn: 0, pastCommits: 3, pastCovered: 0.5 };
    expect(historyReady([], s, h)).toBe(true);
    expect(historyReady(["unresolved-callers"], s, h)).toBe(false);
    expect(historyReady(["thin-evidence"], s, h)).toBe(false);
    expect(historyReady(["pattern-conflict"], s, h)).toBe(false);
    expect(historyReady(["low-confidence"], s, h)).toBe(true);
    expect(historyReady([], { ...s, topCoverage: 0.2 }, h)).toBe(false);
    // other definitions of the target still block this way; words saying the task spans many places when kept
    expect(historyReady([], { ...s, twins: 1 }, h)).toBe(false);
    expect(historyReady([], { ...s, twins: 1 }, { ...h, base: ["unresolved-callers"] })).toBe(true);
    expect(historyReady([], { ...s, sweepWords: ["all"] }, h)).toBe(true);
    expect(historyReady([], { ...s, sweepWords: ["all"] }, { ...h, base: ["sweep"] })).toBe(false);
    expect(historyReady([], { ...s, pastCovered: 0.1 }, h)).toBe(false);
    expect(pastChangesWider({ ...s, pastCovered: 0.1 }, h)).toBe(true);
    expect(pastChangesWider({ ...s, pastCommits: 2, pastCovered: 0.1 }, { ...h, minCommits: 3 })).toBe(false);
    expect(isReady([], s, rule)).toBe(true);
    // READY_RULE measures the history's way but does not take it: the search's rule alone decides
    expect(isReady([], s, READY_RULE)).toBe(false);
    expect(pastChangesWider({ ...s, pastCovered: 0.1 }, READY_RULE.history)).toBe(false);
  });

  test("on a git repository the card reads the past commits whose subjects read like the task", async () => {
    const project = {
      "src/sku/parse.ts": 'export function parseSku(code: string) {\n  return code.split("-");\n}\n',
      "src/cart/total.ts": "export function cartTotal(cents: number[]) {\n  return cents.reduce((a, b) => a + b, 0);\n}\n",
      "src/mail/send.ts": "export function sendMail(to: string) {\n  return to;\n}\n",
    };
    const r = await editSearchIn(project, { query: "Sku parser rejects empty vendor" }, (g) => {
      Bun.spawnSync(["git", "-C", g.root, "init", "-q"]);
      commitAt(g.root, "Start the shop", 10);
      for (const [n, subject] of ["Sku parser keeps the vendor case", "Sku parser trims the size", "Sku parser accepts lower-case vendors"].entries()) {
        g.write("src/sku/parse.ts", `export function parseSku(code: string) {\n  return code.trim().split("-"); // ${n}\n}\n`);
        commitAt(g.root, subject, 9 - n);
      }
      g.write("src/cart/total.ts", "export function cartTotal(cents: number[]) {\n  return cents.reduce((a, b) => a + b, 1 - 1);\n}\n");
      g.write("src/mail/send.ts", "export function sendMail(to: string) {\n  return to.trim();\n}\n");
      commitAt(g.root, "Cart total and mail trim", 5);
    });
    expect(r.results[0]!.file).toBe("src/sku/parse.ts");
    const c = r.preflight!;
    expect(c.pastChanges).toEqual({ commits: 3, within: 3, outside: [] });
    expect(c.signals).toMatchObject({ pastCommits: 3, pastCovered: 1 });
  });
});

describe("a name the task writes that several files define", () => {
  // three views each define their own `render`, with the same words: naming `render` does not say which one
  const views = ["label", "badge", "banner"];
  const viewFiles = Object.fromEntries(
    views.map((v) => [
      `src/views/${v}.ts`,
      `/** The ${v} view. */\nexport function render(text: string): string {\n  return "<span>" + text.replace(/"/g, "&quot;") + "</span>";\n}\n`,
    ]),
  );

  test("does not make the card ready: the runner-up check applies, and the card says which definitions to compare", async () => {
    const r = await editSearchIn(viewFiles, { query: "Fix `render` escaping of quotes in the span" });
    const c = r.preflight!;
    expect(views.map((v) => `src/views/${v}.ts`)).toContain(r.results[0]!.file);
    expect(c.signals!.definedInTop).toEqual(["render"]);
    expect(c.signals!.namedFiles).toEqual({ render: 3 });
    expect(c.ready).toBe(false);
    expect(c.blockers).toContain("close-runner-up");
    // the card names the other file and the call that lists every definition of the name
    expect(c.nextAction).toContain(r.results[1]!.file);
    expect(c.nextAction).toContain("the task names render, which 3 files define");
    expect(c.whatWouldHelp).toContain('find_symbol_occurrences {"symbol_name":"render"} lists the 3 files defining render');
    // one result shown: the card still compares the runner-up of the first five, so it blocks at least as
    // the default does (here also on the twin definitions the one result leaves out)
    const one = await editSearchIn(viewFiles, { query: "Fix `render` escaping of quotes in the span", limit: 1 });
    expect(one.results).toHaveLength(1);
    expect(one.preflight!.ready).toBe(false);
    for (const b of c.blockers!) expect(one.preflight!.blockers).toContain(b);
    expect(one.preflight!.nextAction).toContain(r.results[1]!.file);
  });

  test("the rule counts a name only when the top file alone defines it", () => {
    const s = editSignals({
      query: "Slightly improve `Rack::Session::Cookie` docs",
      results: [
        { file: "lib/rack/session/cookie.rb", score: 1, text: "module Rack module Session class Cookie", isTest: false },
        { file: "lib/rack/session/pool.rb", score: 0.95, text: "module Rack module Session class Pool", isTest: false },
      ],
      definitions: () =>
        new Map([
          ["Rack", ["lib/rack/session/cookie.rb", "lib/rack/session/pool.rb", "lib/rack.rb"]],
          ["Session", ["lib/rack/session/cookie.rb", "lib/rack/session/pool.rb"]],
          ["Cookie", ["lib/rack/session/cookie.rb"]],
        ]),
    });
    expect(s.namedFiles).toEqual({ Rack: 3, Session: 2, Cookie: 1 });
    const close = { ...s, fanIn: 0, runnerUpRatio: 0.95 };
    // the class picks out the top file, whatever the namespaces around it
    expect(signalBlockers(close, READY_RULE)).not.toContain("close-runner-up");
    // the namespaces alone do not
    const namespaces = { ...close, definedInTop: ["Rack", "Session"], namedFiles: { Rack: 3, Session: 2 } };
    expect(signalBlockers(namespaces, READY_RULE)).toContain("close-runner-up");
    // without the bound, as before: any name the top file defines
    expect(signalBlockers(namespaces, { ...READY_RULE, maxNamedFiles: undefined })).not.toContain("close-runner-up");
    // a card recorded before the count was kept counts no name under the bound
    expect(signalBlockers({ ...namespaces, namedFiles: {} }, READY_RULE)).toContain("close-runner-up");
  });
});

describe("tests that use the target", () => {
  test("are named on the card to run, not counted as callers missing", async () => {
    const tests = ["cart", "invoice", "refund", "quote"].map((t) => `test/${t}.test.ts`);
    const project = {
      "src/price/round.ts": "/** Prices in cents, rounded. */\nexport function roundPrice(cents: number): number {\n  return Math.round(cents);\n}\n",
      ...Object.fromEntries(
        tests.map((t) => [t, `import { roundPrice } from "../src/price/round";\ntest("${t}", () => {\n  expect(roundPrice(1.5)).toBe(2);\n});\n`]),
      ),
    };
    const r = await editSearchIn(project, { query: "roundPrice rounds half cents to even", limit: 1 });
    expect(r.results.map((x) => x.file)).toEqual(["src/price/round.ts"]);
    const c = r.preflight!;
    expect(c.impact).toMatchObject({ target: "roundPrice", coverage: "0/0 callers in results", files: [] });
    expect(c.impact!.tests).toHaveLength(3);
    expect(c.blockers ?? []).not.toContain("callers-missing");
    expect(c.ready).toBe(true);
    expect(c.warnings!.some((w) => w.startsWith("4 tests outside the results use roundPrice (test/") && w.endsWith("run them after the change"))).toBe(true);
  });
});
