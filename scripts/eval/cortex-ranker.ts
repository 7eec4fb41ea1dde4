/**
 * The `cortex` ranker: asks cortex's own search tool, `cortex_search`, through the tool registry (the
 * same definition the MCP server and the CLI call), in one of its modes: keyword, vector or hybrid.
 * With one_per_file the tool ranks whole files (one hit per file). A registry without the tool (a
 * rename, a lookup of a test's own) makes the ranker refuse to start, with a message saying so.
 */
import { CortexError } from "../../src/core/errors.ts";
import { findTool, type ToolDefinition } from "../../src/tools/index.ts";
import { parseInput } from "../../src/core/zod-issues.ts";
import type { RankedChunk, Ranker, RankRequest } from "./ranker.ts";

export const SEARCH_TOOL = "cortex_search";
export const SEARCH_MODES = ["keyword", "vector", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface CortexRankerOptions {
  mode: SearchMode;
  /** Hits to ask for (chunks, so the number of distinct files is lower). */
  limit?: number;
  /** How a tool is looked up by name: the registry's findTool unless a test passes its own. */
  lookup?: (name: string) => ToolDefinition<any, any> | undefined;
  /** Per-query deadline in ms. */
  deadlineMs?: number;
}

/** The file path a search hit is about, in any of the shapes cortex_search may answer with. */
export function hitPath(hit: unknown): string | undefined {
  if (!hit || typeof hit !== "object") return undefined;
  const h = hit as Record<string, any>;
  const candidates = [h.file_path, h.path, h.file, h.chunk?.metadata?.file_path, h.chunk?.file_path, h.metadata?.file_path];
  return candidates.find((c): c is string => typeof c === "string" && c.length > 0);
}

/** Files in order of their first hit. */
export function filesFromResult(result: unknown): string[] {
  const hits = (result as { results?: unknown })?.results;
  if (!Array.isArray(hits))
    throw new CortexError("UNSUPPORTED", `${SEARCH_TOOL} answered without a 'results' array; the eval adapter (scripts/eval/cortex-ranker.ts) needs updating`);
  const files: string[] = [];
  const seen = new Set<string>();
  for (const hit of hits) {
    const path = hitPath(hit);
    if (path === undefined)
      throw new CortexError(
        "UNSUPPORTED",
        `a ${SEARCH_TOOL} hit names no file (looked for file_path, path, file, chunk.metadata.file_path): ${JSON.stringify(hit).slice(0, 200)}`,
      );
    if (!seen.has(path)) {
      seen.add(path);
      files.push(path);
    }
  }
  return files;
}

/** The chunks of a cortex_search result, in order, with their spans. */
export function chunksFromResult(result: unknown): RankedChunk[] {
  const hits = (result as { results?: unknown })?.results;
  if (!Array.isArray(hits))
    throw new CortexError("UNSUPPORTED", `${SEARCH_TOOL} answered without a 'results' array; the eval adapter (scripts/eval/cortex-ranker.ts) needs updating`);
  return hits.map((hit) => {
    const c = (hit as { chunk?: { chunk_type?: string; metadata?: Record<string, unknown> } }).chunk;
    const m = c?.metadata;
    const path = hitPath(hit);
    if (!c || !m || path === undefined || typeof m.start_line !== "number" || typeof m.end_line !== "number") {
      throw new CortexError("UNSUPPORTED", `a ${SEARCH_TOOL} hit has no chunk with file_path, start_line and end_line: ${JSON.stringify(hit).slice(0, 200)}`);
    }
    return {
      path,
      start_line: m.start_line,
      end_line: m.end_line,
      chunk_type: c.chunk_type ?? "",
      ...(typeof m.kind === "string" ? { kind: m.kind } : {}),
      ...(typeof m.name === "string" ? { name: m.name } : {}),
    };
  });
}

/** Throws unless the registry holds cortex_search; called before any work so a run fails at once. */
export function requireSearchTool(lookup: CortexRankerOptions["lookup"] = findTool): ToolDefinition<any, any> {
  const tool = lookup(SEARCH_TOOL);
  if (!tool) {
    throw new CortexError("UNSUPPORTED", `the 'cortex' ranker needs the ${SEARCH_TOOL} tool, which is not registered in src/tools/index.ts; use --ranker bm25`);
  }
  return tool;
}

export function createCortexRanker(options: CortexRankerOptions): Ranker {
  const tool = requireSearchTool(options.lookup);
  const limit = options.limit ?? 100;
  const deadlineMs = options.deadlineMs ?? 60_000;
  const search = async (req: RankRequest, onePerFile: boolean): Promise<unknown> => {
    const input = parseInput(tool.input, { query: req.query, mode: options.mode, limit, one_per_file: onePerFile });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new CortexError("DEADLINE", `${SEARCH_TOOL} ran out of time`)), deadlineMs);
    try {
      return await tool.handler(input, { session: req.session, signal: controller.signal, deadline: Date.now() + deadlineMs });
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    name: `cortex-${options.mode}`,
    // one_per_file ranks whole files, the protocol's unit
    rank: async (req) => filesFromResult(await search(req, true)),
    // chunks as an agent gets them by default, for function-level metrics
    rankChunks: async (req) => chunksFromResult(await search(req, false)),
  };
}
