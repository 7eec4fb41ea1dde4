/**
 * search_codebase over a shop written by us (test/helpers/shop-project.ts: Go and Python, committed to git,
 * with team memories of known ages), through the path MCP and the CLI take: the enrichment of each result,
 * filters, search quality, the preflight card, and the preflight test set — edit tasks where the evidence
 * is complete (ready must be true) and tasks where callers are missing, patterns conflict, a memory is
 * stale or the search matched nothing (ready must be false).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { shopProject } from "../helpers/shop-project.ts";
import type { TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { findTool } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import { isCortexError } from "../../src/core/errors.ts";
import type { CodebaseSearchResponse } from "../../src/engines/codebase-search/index.ts";
import { classifyFile } from "../../src/engines/codebase-search/classify.ts";
import { testSubject } from "../../src/engines/codebase-search/evidence.ts";
import { headerComment } from "../../src/engines/codebase-search/summary.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let p: TmpProject;
let session: Session;

async function search(args: Record<string, unknown>): Promise<CodebaseSearchResponse> {
  return (await invokeTool(findTool("search_codebase")!, args, {
    session,
    signal: new AbortController().signal,
    deadline: Date.now() + 30_000,
  })) as CodebaseSearchResponse;
}

async function cortex(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], {
    cwd: p.root,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, CORTEX_EMBEDDINGS_PROVIDER: "none" },
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
  p = shopProject();
  session = new Session(p.root, { autoIndex: true });
  await session.requireStore();
});
afterAll(() => {
  session.close();
  p.cleanup();
  delete process.env.CORTEX_EMBEDDINGS_PROVIDER;
});

/** The preflight test set: [query, intent, limit, ready expected, why]. */
const PREFLIGHT_SET: Array<[string, "edit" | "refactor" | "migrate", number, boolean, string]> = [
  ["invoice total sum of line amounts", "edit", 5, true, "billing.Total's one caller (orders) is in the results; the area wraps errors one way"],
  ["checkout turns cart into paid order", "edit", 5, true, "Checkout's caller (api) is in the results"],
  ["format price cents as currency string", "edit", 5, true, "format_price's caller (view.py) is in the results"],
  [
    "shipping rate price for parcel weight",
    "edit",
    10,
    true,
    "all five callers fit, and the task's words name rates.go (shipping/rates.go: 'rate'), which now leads its caller inbound.go clearly",
  ],
  ["refactor shipping Rate", "refactor", 10, true, "same, as a refactor"],
  [
    "rename the Checkout cart parameter",
    "refactor",
    5,
    false,
    "Checkout's caller is in the results, but checkout.go holds half the task's words (not rename, parameter): the ready rule asks for 60%",
  ],
  [
    "add a line for a SKU to the basket",
    "edit",
    5,
    false,
    "the unbound caller basket/page.py is shown, but it scores as high as cart.py: which file the task means is not settled",
  ],
  ["shipping rate price for parcel weight", "edit", 2, false, "four of Rate's five callers cannot fit in two results"],
  ["add a line for a SKU to the basket", "edit", 1, false, "add_line has no resolved caller and basket/page.py calls an add_line nobody bound"],
  ["charge card payment error wrapping", "edit", 5, false, "payments wraps errors with pkg/errors and with %w"],
  ["refund card payment", "refactor", 5, false, "payments' error wrapping conflict"],
  ["migrate payments errors from pkg/errors Wrap to fmt.Errorf", "migrate", 5, false, "the conflict being migrated"],
  ["product search catalog", "edit", 5, false, "a 400-day-old decision about product search is stale"],
  ["kubernetes helm chart deployment", "edit", 5, false, "nothing in the shop matches"],
  ["change computeLoyaltyPoints calculation", "edit", 5, false, "no such identifier"],
];

describe("preflight test set", () => {
  test("ready is true exactly where the evidence is complete", async () => {
    const wrong: string[] = [];
    for (const [query, intent, limit, expected, why] of PREFLIGHT_SET) {
      const r = await search({ query, intent, limit });
      if (r.preflight!.ready !== expected)
        wrong.push(
          `"${query}" (${intent}, limit ${limit}): ready ${r.preflight!.ready}, expected ${expected} — ${why}; next: ${r.preflight!.nextAction ?? "-"}`,
        );
    }
    const ready = PREFLIGHT_SET.filter((c) => c[3]).length;
    console.log(
      `  preflight set: ${PREFLIGHT_SET.length - wrong.length}/${PREFLIGHT_SET.length} right (${ready} ready, ${PREFLIGHT_SET.length - ready} not ready)`,
    );
    expect(wrong).toEqual([]);
  });
});

describe("search_codebase results", () => {
  test("each result carries summary, role, relationships and hints capped at three", async () => {
    const r = await search({ query: "invoice total", intent: "explore", limit: 3 });
    expect(r.preflight).toBeUndefined();
    // explore shows a file by its overview; edit by the definition to change
    expect(r.results[0]).toMatchObject({ file: "billing/invoice.go", chunkType: "symbols", startLine: 1 });
    expect(r.results[0]!.symbol).toBeUndefined();
    const top = (await search({ query: "invoice total", intent: "edit", limit: 3 })).results[0]!;
    expect(top).toMatchObject({
      file: "billing/invoice.go",
      symbol: "Total",
      chunkType: "definitions",
      summary: "Package billing computes invoice totals for the shop.",
      language: "go",
      relationships: { importedByCount: 1, hasTests: true },
      hints: { callers: ["orders/checkout.go"], consumers: ["orders/checkout.go"], tests: ["billing/invoice_test.go"] },
    });
    expect(top.type).toBe("module:unknown");
    expect(r.searchQuality).toMatchObject({ status: "ok", confidence: 1, matchedTerms: ["invoice", "total"] });
    expect(r.relatedMemories.map((m) => m.id)).toEqual(["m-conv"]);
    const shipping = await search({ query: "shipping rate", limit: 1 });
    expect(shipping.results[0]!.file).toBe("shipping/rates.go");
    expect(shipping.results[0]!.relationships).toEqual({ importedByCount: 5, usedByCount: 5, hasTests: false });
    expect(shipping.results[0]!.hints!.callers).toHaveLength(3);
    expect(shipping.results[0]!.hints!.consumers).toHaveLength(3);
  });

  test("snippets come with a scope line in the language's comment syntax", async () => {
    const go = await search({ query: "invoice total", intent: "edit", limit: 1, includeSnippets: true });
    expect(go.results[0]!.snippet!.split("\n")[0]).toBe("// Total");
    const overview = await search({ query: "invoice total", limit: 1, includeSnippets: true });
    expect(overview.results[0]!.snippet!.split("\n")[0]).toBe("// billing/invoice.go");
    expect(go.results[0]!.snippet).toContain("sum += it.Cents * it.Qty");
    const py = await search({ query: "format price cents currency", intent: "edit", limit: 1, includeSnippets: true });
    expect(py.results[0]!.snippet!.split("\n")[0]).toBe("# format_price");
    const plain = await search({ query: "invoice total", limit: 1 });
    expect(plain.results[0]!.snippet).toBeUndefined();
  });

  test("filters apply inside the search: language, layer, framework, paths", async () => {
    const py = await search({ query: "price", limit: 10, filters: { language: "python" } });
    expect(py.results.length).toBeGreaterThan(0);
    expect(py.results.every((x) => x.file.endsWith(".py"))).toBe(true);
    const presentation = await search({ query: "checkout price label", limit: 10, filters: { layer: "presentation" } });
    expect(presentation.results.map((x) => x.file).sort()).toEqual(["api/handler.go", "catalog/view.py"]);
    const web = await search({ query: "checkout", limit: 10, filters: { framework: "net/http" } });
    expect(web.results.map((x) => x.file)).toEqual(["api/handler.go"]);
    const under = await search({ query: "payment", limit: 10, filters: { paths: ["payments"] } });
    expect(under.results.map((x) => x.file).sort()).toEqual(["payments/charge.go", "payments/refund.go"]);
    const tests = await search({ query: "total", limit: 10, filters: { layer: "test" } });
    expect(tests.results.map((x) => x.file)).toEqual(["billing/invoice_test.go"]);
  });

  test("a framework nothing imports is a clear error; bad input names the field", async () => {
    try {
      await search({ query: "x", filters: { framework: "Django" } });
      throw new Error("expected a failure");
    } catch (e) {
      expect(isCortexError(e) && e.code).toBe("INVALID_INPUT");
      expect((e as Error).message).toContain("filters.framework: no indexed file imports 'Django'");
    }
    for (const [args, field] of [
      [{ query: "x", limit: 0 }, "limit"],
      [{ query: "x", intent: "delete" }, "intent"],
      [{ query: "x", filters: { layer: "ui" } }, "filters.layer"],
      [{ query: "" }, "query"],
    ] as const) {
      // the error must come from the search (a CortexError naming the field), not from this test
      const err = await search(args).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isCortexError(err) && err.code).toBe("INVALID_INPUT");
      expect((err as Error).message).toContain(`${field}:`);
    }
  });

  test("a search that matched nothing says so, with a hint", async () => {
    const r = await search({ query: "kubernetes helm chart deployment" });
    expect(r.results).toEqual([]);
    expect(r.searchQuality.status).toBe("low_confidence");
    expect(r.searchQuality.hint).toContain("Nothing matched");
    const named = await search({ query: "change computeLoyaltyPoints calculation" });
    expect(named.searchQuality.status).toBe("low_confidence");
    expect(named.searchQuality.hint).toContain("'computeLoyaltyPoints'");
  });
});

describe("the preflight card", () => {
  test("complete evidence: ready, impact coverage, patterns and a best example", async () => {
    const r = await search({ query: "invoice total sum of line amounts", intent: "edit" });
    const card = r.preflight!;
    expect(card.ready).toBe(true);
    expect(card.nextAction).toBeUndefined();
    expect(card.whatWouldHelp).toBeUndefined();
    // Total's callers: billing/invoice.go, and billing/invoice_test.go, a test, counted apart (it is in the results)
    expect(card.impact).toEqual({ target: "Total", coverage: "1/1 callers in results", files: [] });
    expect(card.patterns!.do).toContain("Go error wrapping: fmt.Errorf with %w (75%)");
    // net/http routing is in one file (api/handler.go): too few to be a convention
    expect(card.patterns!.do.some((d) => d.startsWith("Go HTTP routing"))).toBe(false);
    expect(card.bestExample).toMatch(/\.go$/);
    expect(card.evidence.score).toBeGreaterThanOrEqual(40);
  });

  test("missing callers: not ready, the coverage, the files to read and the call that lists them", async () => {
    const card = (await search({ query: "shipping rate price for parcel weight", intent: "edit", limit: 2 })).preflight!;
    expect(card.ready).toBe(false);
    expect(card.impact!.coverage).toBe("1/5 callers in results");
    expect(card.impact!.files).toHaveLength(3);
    expect(card.nextAction).toBe(
      "4 of 5 callers of Rate are not in the results (warehouse/outbound.go, warehouse/pallets.go, warehouse/returns.go, …): read them before changing its behaviour or signature",
    );
    expect(card.whatWouldHelp!.length).toBeLessThanOrEqual(4);
    expect(card.whatWouldHelp![0]).toContain('cortex_graph {"operation":"callers","target":"Rate"}');
    expect(card.whatWouldHelp![1]).toMatch(/^read warehouse\/\w+\.go \(uses Rate\)$/);
  });

  test("conflicting patterns and failure memories: not ready, with the team's warning", async () => {
    const card = (await search({ query: "refund card payment", intent: "refactor" })).preflight!;
    expect(card.ready).toBe(false);
    expect(card.blockers).toContain("pattern-conflict");
    expect(card.whatWouldHelp!.some((w) => w.startsWith('get_team_patterns {"category":"errors"}'))).toBe(true);
    expect(card.warnings).toEqual(["A retried refund once paid a card payment back twice (refunds must be idempotent)"]);
    expect(card.risk).toBe("medium");
  });

  test("a stale memory about the area: not ready until checked", async () => {
    const r = await search({ query: "product search catalog", intent: "edit" });
    expect(r.relatedMemories[0]).toMatchObject({ id: "m-stale", stale: true });
    expect(r.preflight!.ready).toBe(false);
    expect(r.preflight!.whatWouldHelp!.some((w) => w.includes("cortex memory remove m-stale"))).toBe(true);
  });
});

describe("unresolved calls", () => {
  test("no resolved caller but unbound calls of the name: not ready, with the files to check", async () => {
    const card = (await search({ query: "add a line for a SKU to the basket", intent: "edit", limit: 1 })).preflight!;
    expect(card.impact).toMatchObject({ target: "Basket.add_line", coverage: "0/0 callers in results" });
    expect(card.nextAction).toBe(
      "No call to Basket.add_line was resolved, but 1 file calls a 'add_line' the index could not bind (an interface or dynamic receiver): check whether they reach it",
    );
    expect(card.whatWouldHelp).toEqual([
      'find_symbol_occurrences {"symbol_name":"add_line"} lists every use of the name',
      "read basket/page.py (calls 'add_line')",
      // the wish list defines an add_line too: a change to the basket's may have to follow there
      "read wishlist/wishes.py (also defines add_line)",
      'find_symbol_occurrences {"symbol_name":"add_line"} lists every definition and use',
    ]);
    // the runner-up is read from the first five results even with one shown
    expect(card.blockers).toEqual(["unresolved-callers", "twin-definitions", "close-runner-up"]);
  });
});

describe("CLI spellings of codebase-context", () => {
  test('search --query --intent answers as search_codebase; search "q" stays cortex_search', async () => {
    const cc = await cortex(["search", "--query", "invoice total sum of line amounts", "--intent", "edit", "--limit", "5", "--json"]);
    expect(cc.code).toBe(0);
    const r = JSON.parse(cc.stdout);
    expect(r.preflight.ready).toBe(true);
    expect(r.results[0].file).toBe("billing/invoice.go");
    const filtered = await cortex(["search", "--query", "price", "--lang", "python", "--layer", "presentation", "--json"]);
    expect(JSON.parse(filtered.stdout).results.map((x: { file: string }) => x.file)).toEqual(["catalog/view.py"]);
    const own = await cortex(["search", "invoice total", "--limit", "1", "--json"]);
    expect(JSON.parse(own.stdout).results[0].chunk.metadata.file_path).toBe("billing/invoice.go");
    const human = await cortex(["search-codebase", "shipping rate", "--intent", "edit", "--limit", "2"]);
    expect(human.stdout).toContain("Preflight: NOT READY");
    expect(human.stdout).toContain("impact of Rate: 1/5 callers in results");
    const bad = await cortex(["search", "--query", "x", "--layer", "ui"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("filters.layer");
  });
});

describe("building blocks", () => {
  test("roles and layers from paths", () => {
    expect(classifyFile("src/controllers/UserController.java", false)).toEqual({ componentType: "controller", layer: "presentation" });
    expect(classifyFile("app/services/billing_service.py", false)).toEqual({ componentType: "service", layer: "application" });
    expect(classifyFile("internal/store/queries.go", false)).toEqual({ componentType: "repository", layer: "data" });
    expect(classifyFile("src/hooks/useAuth.ts", false)).toEqual({ componentType: "hook", layer: "presentation" });
    expect(classifyFile("docs/guide.md", false)).toEqual({ componentType: "doc", layer: "docs" });
    expect(classifyFile("tests/test_x.py", true)).toEqual({ componentType: "test", layer: "test" });
    expect(classifyFile("billing/invoice.go", false)).toEqual({ componentType: "module", layer: "unknown" });
  });

  test("what a test file tests, by each language's convention", () => {
    expect(
      [
        "a/user_test.go",
        "x/a.test.ts",
        "tests/test_service.py",
        "CartTest.java",
        "spec/invoice_spec.rb",
        "TransfersTests.cs",
        "b.spec.tsx",
        "fixtures/index.js",
      ].map(testSubject),
    ).toEqual(["user", "a", "service", "cart", "invoice", "transfers", "b", undefined]);
  });

  test("header comments and docstrings, first sentence, licence lines skipped", () => {
    expect(headerComment("// Copyright 2020 The Go Authors.\n// Package x does a thing. More.\npackage x\n")).toBe("Package x does a thing.");
    expect(headerComment('#!/usr/bin/env python\n"""Loads the data files.\n\nLonger text."""\nimport os\n')).toBe("Loads the data files.");
    expect(headerComment("/**\n * The parser: reads tokens and builds a tree.\n */\nexport const x = 1;\n")).toBe(
      "The parser: reads tokens and builds a tree.",
    );
    expect(headerComment("package main\n\nfunc main() {}\n")).toBeUndefined();
    // a licence header alone gives way to the comment after it (gin's files), or to none
    const gin =
      "// Copyright 2014 Manu Martinez-Almeida. All rights reserved.\n// Use of this source code is governed by a MIT style\n// license that can be found in the LICENSE file.\n\n";
    expect(headerComment(`${gin}package gin\n\nimport "net/http"\n\nfunc x() {}\n`)).toBeUndefined();
    expect(headerComment(`${gin}// Package render turns values into responses.\npackage render\n`)).toBe("Package render turns values into responses.");
    const apache =
      '/*\n * Licensed under the Apache License, Version 2.0 (the "License");\n * you may not use this file except in compliance with the License.\n *\n * Unless required by applicable law or agreed to in writing, software\n * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.\n */\n';
    expect(headerComment(`${apache}/** Reads the configuration. */\nclass Config {}\n`)).toBe("Reads the configuration.");
  });
});
