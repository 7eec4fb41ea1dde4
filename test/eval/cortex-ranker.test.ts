/**
 * The `cortex` ranker's adapter to the cortex_search tool: through the real registry over a real index,
 * and with registries of the tests' own: one without the tool (the harness must refuse clearly) and one
 * with a search tool whose answers take every shape the adapter reads.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { defineTool, READ_ONLY, Session } from "../../src/tools/index.ts";
import { createCortexRanker, filesFromResult, requireSearchTool } from "../../scripts/eval/cortex-ranker.ts";
import { tmpProject } from "../helpers/tmp-project.ts";

const calls: Array<{ query: string; mode: string; limit: number; one_per_file: boolean }> = [];
const searchTool = defineTool({
  name: "cortex_search",
  title: "search",
  description: "test search",
  input: z
    .object({ query: z.string().min(1), mode: z.enum(["keyword", "vector", "hybrid"]), limit: z.number().int().max(100), one_per_file: z.boolean() })
    .strict(),
  annotations: READ_ONLY,
  profiles: ["cortex"],
  sharedStore: "reads",
  needsIndex: true,
  cli: { command: ["search"], summary: "search" },
  example: { query: "x", mode: "hybrid", limit: 10, one_per_file: true },
  handler(input, ctx) {
    calls.push(input);
    return {
      results: [
        { chunk: { metadata: { file_path: "b.py" } }, combined_score: 0.9 },
        { file_path: "a.py", score: 0.8 },
        { chunk: { metadata: { file_path: "b.py" } }, combined_score: 0.7 },
        { path: ctx.session.root.length > 0 ? "c.py" : "?", score: 0.1 },
      ],
    };
  },
});

describe("cortex ranker adapter", () => {
  test("finds cortex_search in the registry, and refuses a registry without it, saying what to do", () => {
    expect(requireSearchTool().name).toBe("cortex_search");
    expect(() => requireSearchTool(() => undefined)).toThrow(
      "the 'cortex' ranker needs the cortex_search tool, which is not registered in src/tools/index.ts; use --ranker bm25",
    );
    expect(() => createCortexRanker({ mode: "keyword", lookup: () => undefined })).toThrow("not registered");
  });

  test("ranks the files of a real index through the registered tool", async () => {
    const project = tmpProject({
      "billing/invoice.py": "def total_invoice_amount(lines):\n    return sum(l.amount for l in lines)\n",
      "shipping/parcel.py": "def parcel_weight(items):\n    return sum(i.weight for i in items)\n",
    });
    const session = new Session(project.root);
    try {
      await session.index({});
      const ranker = createCortexRanker({ mode: "keyword" });
      const files = await ranker.rank({
        instance: {} as never,
        query: "invoice amount total",
        corpus: new Map(),
        change: { commit: "", written: [], deleted: [], unchanged: 0, missing: [] },
        session,
      });
      expect(files[0]).toBe("billing/invoice.py");
    } finally {
      session.close();
      project.cleanup();
    }
  });

  test("calls the tool with the mode and turns chunk hits into files in first-hit order", async () => {
    const project = tmpProject({ "a.py": "x = 1\n" });
    const session = new Session(project.root);
    try {
      const ranker = createCortexRanker({ mode: "vector", limit: 50, lookup: (n) => (n === "cortex_search" ? searchTool : undefined) });
      expect(ranker.name).toBe("cortex-vector");
      const files = await ranker.rank({
        instance: {} as never,
        query: "why is a broken",
        corpus: new Map(),
        change: { commit: "", written: [], deleted: [], unchanged: 0, missing: [] },
        session,
      });
      expect(files).toEqual(["b.py", "a.py", "c.py"]);
      expect(calls.at(-1)).toEqual({ query: "why is a broken", mode: "vector", limit: 50, one_per_file: true });
      // The tool's own schema validates what the adapter sends.
      const tooMany = createCortexRanker({ mode: "hybrid", limit: 500, lookup: () => searchTool });
      await expect(
        tooMany.rank({
          instance: {} as never,
          query: "q",
          corpus: new Map(),
          change: { commit: "", written: [], deleted: [], unchanged: 0, missing: [] },
          session,
        }),
      ).rejects.toThrow("limit: must be at most 100");
    } finally {
      session.close();
      project.cleanup();
    }
  });

  test("a result it cannot read is an error, not an empty ranking", () => {
    expect(() => filesFromResult({ hits: [] })).toThrow("answered without a 'results' array");
    expect(() => filesFromResult({ results: [{ score: 1 }] })).toThrow("hit names no file");
    expect(filesFromResult({ results: [] })).toEqual([]);
  });
});
