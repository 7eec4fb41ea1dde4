/**
 * search_semantic_concept (the kit tool): code snippets related to a natural-language concept. Semantic
 * ranking when embeddings are ready; otherwise the keyword ranking, with status embeddings_not_ready and
 * a message saying why, so the caller still gets an answer.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import { existingPaths, indexedLanguages } from "./filters.ts";
import type { EmbeddingProvider } from "../embed/index.ts";

const input = z
  .object({
    concept_description: z.string().trim().min(1).max(20_000).describe("The functionality or concept to find, in words"),
    target_paths: z.array(z.string().min(1)).optional().describe("Only under these folders or files (root-relative)"),
    top_n_results: z.number().int().min(1).max(20).default(5).describe("Maximum results (1-20, default 5)"),
    language: z.string().min(1).optional().describe("Only this language"),
  })
  .strict();

const output = z.object({
  status: z.enum(["success", "no_results_found", "error", "embeddings_not_ready"]),
  results: z.array(
    z.object({
      file_path: z.string(),
      start_line: z.number().int(),
      end_line: z.number().int(),
      text: z.string(),
      score: z.number(),
      snippet_id: z.string(),
      stale: z.boolean().optional(),
    }),
  ),
  result_count: z.number().int(),
  error_message: z.string().optional(),
});

type Output = z.infer<typeof output>;

/** The longest a call waits for the model to load (a download included), and the time left for the search. */
const MODEL_WAIT_MS = 60_000;
const DEADLINE_MARGIN_MS = 2_000;

/** Starts loading the model and waits until it is loaded or unavailable, `ms` pass, or the call is aborted. */
async function modelLoaded(provider: EmbeddingProvider, ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) {
    provider.ready().catch(() => {});
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  await Promise.race([
    provider.ready().catch(() => {}),
    new Promise<void>((r) => (timer = setTimeout(r, ms))),
    new Promise<void>((r) => {
      onAbort = () => r();
      signal.addEventListener("abort", onAbort, { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onAbort) signal.removeEventListener("abort", onAbort);
}

export const semanticTool = defineTool({
  name: "search_semantic_concept",
  title: "Find code related to a concept",
  description:
    "Find code snippets semantically related to a natural-language description ('functions that hash passwords'). " +
    "Returns file path, line range, text and a relevance score per snippet. Uses local embeddings; while they are " +
    "not ready it answers from keyword ranking with status embeddings_not_ready.",
  input,
  output,
  annotations: READ_ONLY,
  profiles: ["kit"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  cli: {
    command: ["concept"],
    positionals: ["concept_description"],
    flags: { "--lang": "language", "--path": "target_paths", "--top": "top_n_results" },
    summary: 'semantic search for a concept: cortex concept "<description>"',
  },
  example: { concept_description: "reading configuration from files", top_n_results: 3 },
  async handler(args, ctx): Promise<Output> {
    const engine = await ctx.session.search();
    const filters = {
      ...(args.language ? { languages: await indexedLanguages(ctx, [args.language], "language", false) } : {}),
      ...(args.target_paths ? { pathPrefixes: existingPaths(ctx, args.target_paths, "target_paths") } : {}),
    };
    let state = await engine.embeddingsState();
    if (state.startsWith("partial")) {
      // Every vector may be cached while no model is loaded: only a search's query loads it, so this tool,
      // which reads the state first, answered "partial 100%" by keywords for ever. Load it, and wait for it
      // within the call's time (a cached model loads in about a second).
      const provider = ctx.session.embedder()?.provider;
      if (provider && provider.state().status !== "ready") {
        await modelLoaded(provider, Math.min(MODEL_WAIT_MS, ctx.deadline - Date.now() - DEADLINE_MARGIN_MS), ctx.signal);
        state = await engine.embeddingsState();
      }
    }
    const ready = state === "ready";
    const r = await engine.search({
      query: args.concept_description,
      limit: args.top_n_results,
      filters,
      mode: ready ? "vector" : "keyword",
      signal: ctx.signal,
    });
    const results = r.results.map((h) => ({
      file_path: h.chunk.metadata.file_path,
      start_line: h.chunk.metadata.start_line,
      end_line: h.chunk.metadata.end_line,
      text: h.chunk.text,
      score: h.combined_score,
      snippet_id: h.chunk.id,
      ...(h.stale ? { stale: true } : {}),
    }));
    if (!ready) {
      return {
        status: "embeddings_not_ready",
        results,
        result_count: results.length,
        error_message: `semantic ranking is ${state}; these results are keyword-ranked`,
      };
    }
    return { status: results.length ? "success" : "no_results_found", results, result_count: results.length };
  },
  rows: (r) => r.results,
  render(r) {
    const lines = [`${r.result_count} result${r.result_count === 1 ? "" : "s"}${r.error_message ? ` (${r.error_message})` : ""}`];
    for (const h of r.results) {
      lines.push("", `${h.file_path}:${h.start_line}-${h.end_line}  (${h.score.toFixed(4)})${h.stale ? "  STALE" : ""}`);
      for (const l of h.text.split("\n").slice(1, 7)) lines.push(`    ${l.slice(0, 160)}`);
    }
    return lines.join("\n");
  },
});
