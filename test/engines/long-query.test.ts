/**
 * Long questions (issue 15, item 7): a query past the budget is condensed, not refused; cortex_search
 * says what it dropped, and a 50,000-character pasted issue whose traceback sits far past the budget still
 * finds the file the traceback names.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { condenseQuery, QUERY_BUDGET_CHARS } from "../../src/engines/search/long-query.ts";
import { Session } from "../../src/tools/session.ts";
import { findTool } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

/** Prose lines without identifiers: a long log of a worker's life, 36 distinct lines past their numbers. */
function proseLines(n: number): string[] {
  const verbs = ["waited", "resumed", "slept", "polled", "yielded", "listened"];
  return Array.from(
    { length: n },
    (_, i) => `worker ${i} ${verbs[i % 6]} then ${verbs[Math.floor(i / 6) % 6]} for ${i * 7} ms while the queue was quiet and nothing happened`,
  );
}

/** An issue: a short description, a long log, a traceback far past the budget, then the log repeating itself. */
function pastedIssue(): string {
  const head = "Saving a report crashes the server after a long idle period.\n\nLog follows.\n";
  const log = proseLines(500).join("\n");
  const traceback = [
    "Traceback (most recent call last):",
    '  File "server/handlers.py", line 88, in handle_save',
    "    summary = reconcile_ledger_entries(snapshot)",
    '  File "billing/ledger.py", line 41, in reconcile_ledger_entries',
    "    LedgerSnapshot.merge_pending(snapshot)",
    "KeyError: 'pending_balance'",
  ].join("\n");
  const tail = Array.from({ length: 400 }, () => "worker 0 waited then waited for 0 ms while the queue was quiet and nothing happened").join("\n");
  let text = `${head}${log}\n${traceback}\n${tail}\n`;
  while (text.length < 50_000) text += "retrying connection to the upstream service, please wait\n";
  return text;
}

describe("condenseQuery", () => {
  test("leaves a query within the budget untouched", () => {
    const q = "where are sessions expired";
    expect(condenseQuery(q)).toEqual({ query: q });
  });

  test("keeps the opening and the lines naming new identifiers, drops repeats, reports it", () => {
    const issue = pastedIssue();
    expect(issue.length).toBeGreaterThanOrEqual(50_000);
    expect(issue.indexOf("reconcile_ledger_entries")).toBeGreaterThan(QUERY_BUDGET_CHARS);
    const { query, condensed } = condenseQuery(issue);
    expect(query.length).toBeLessThanOrEqual(QUERY_BUDGET_CHARS);
    expect(query.startsWith("Saving a report crashes the server")).toBe(true);
    for (const id of ["billing/ledger.py", "reconcile_ledger_entries", "LedgerSnapshot.merge_pending", "pending_balance", "server/handlers.py"])
      expect(query).toContain(id);
    expect(condensed).toBeDefined();
    expect(condensed!.original_chars).toBe(issue.length);
    expect(condensed!.kept_chars).toBe(query.length);
    // log lines that differ only in their numbers are repeats; the log's lines that bring no new word are dropped too
    expect(condensed!.repeated_lines_dropped).toBeGreaterThanOrEqual(400);
    expect(condensed!.other_lines_dropped).toBeGreaterThan(0);
    expect(condensed!.note).toContain(`condensed to ${query.length}`);
    // every line kept is a line of the original (or its start), in the original order
    let at = 0;
    for (const line of query.split("\n")) {
      const found = issue.indexOf(line, at);
      expect(found).toBeGreaterThanOrEqual(at);
      at = found + line.length;
    }
  });

  test("cuts very long lines instead of letting one blob take the budget", () => {
    const blob = "x".repeat(30_000);
    const { query, condensed } = condenseQuery(`first line\n${blob}\nparse_header failed`);
    expect(query).toContain("parse_header");
    expect(query.length).toBeLessThan(1_000);
    expect(condensed!.note).toContain("cut lines to 400 characters");
  });
});

describe("cortex_search with a pasted issue", () => {
  let p: TmpProject;
  let session: Session;
  beforeAll(async () => {
    process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
    p = tmpProject({
      "billing/ledger.py":
        "class LedgerSnapshot:\n    def merge_pending(self):\n        return self.balances['pending_balance']\n\n\ndef reconcile_ledger_entries(snapshot):\n    LedgerSnapshot.merge_pending(snapshot)\n",
      "server/worker.py":
        'def poll_queue(queue):\n    """The worker waits while the queue is quiet, then resumes."""\n    while queue.quiet():\n        queue.wait()\n',
      "server/retry.py":
        'def retry_connection(upstream):\n    """Retrying connection to the upstream service: please wait."""\n    return upstream.connect()\n',
      "reports/save.py": 'def save_report(report):\n    """Saving a report writes it to the server\'s store."""\n    return report.store()\n',
    });
    session = new Session(p.root);
    await session.index();
  });
  afterAll(() => {
    session.close();
    p.cleanup();
    delete process.env.CORTEX_EMBEDDINGS_PROVIDER;
  });

  test("accepts a 50,000-character issue, finds the file its traceback names and says what it dropped", async () => {
    const r = (await invokeTool(
      findTool("cortex_search")!,
      { query: pastedIssue(), mode: "keyword", one_per_file: true },
      { session, signal: new AbortController().signal, deadline: Date.now() + 30_000 },
    )) as {
      results: Array<{ chunk: { metadata: { file_path: string } } }>;
      query_condensed?: { original_chars: number; kept_chars: number; note: string };
    };
    expect(r.results[0]!.chunk.metadata.file_path).toBe("billing/ledger.py");
    expect(r.query_condensed!.original_chars).toBeGreaterThanOrEqual(50_000);
    expect(r.query_condensed!.kept_chars).toBeLessThanOrEqual(QUERY_BUDGET_CHARS);
  });

  test("a short query's result carries no condensation note", async () => {
    const r = (await invokeTool(
      findTool("cortex_search")!,
      { query: "reconcile ledger entries", mode: "keyword" },
      { session, signal: new AbortController().signal, deadline: Date.now() + 30_000 },
    )) as Record<string, unknown>;
    expect("query_condensed" in r).toBe(false);
  });

  test("search_codebase accepts the same issue: the result names the ledger first, says what was dropped, and does not echo it whole", async () => {
    const issue = pastedIssue();
    const r = (await invokeTool(
      findTool("search_codebase")!,
      { query: issue, intent: "edit", limit: 3 },
      { session, signal: new AbortController().signal, deadline: Date.now() + 30_000 },
    )) as { results: Array<{ file: string }>; query: string; query_condensed?: { original_chars: number; note: string } };
    expect(r.results[0]!.file).toBe("billing/ledger.py");
    expect(r.query_condensed!.original_chars).toBe(issue.trim().length); // the schema trims the question
    expect(r.query.length).toBeLessThan(300);
    expect(r.query.startsWith("Saving a report crashes the server")).toBe(true);
  });
});
