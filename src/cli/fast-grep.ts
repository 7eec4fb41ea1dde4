/**
 * `cortex grep` on an existing index without loading the rest of cortex: the same tool definition, input
 * validation, engine, output budget and rendering as the full command (commands.ts runTool), over the
 * current index opened read-only. Returns undefined when it cannot answer alone (no index yet, an index
 * of another version, --help): the full command then builds the index or prints the help.
 */
import { searchTextPatternTool } from "../tools/search-text-pattern.ts";
import { exposedInput } from "../tools/invoke.ts";
import { runToolForCli } from "./run-tool.ts";
import type { ToolContext } from "../tools/context.ts";
import { checkToolInput, outputMode, parseToolArgs } from "./args.ts";
import { isCortexError } from "../core/errors.ts";
import { canonicalRoot } from "../core/paths.ts";
import { indexLocation } from "../store/location.ts";
import { openIndexReader } from "../store/open-reader.ts";
import type { IndexReader } from "../store/contract.ts";
import { ExactEngine } from "../engines/exact/index.ts";

export async function runFastGrep(argv: string[]): Promise<number | undefined> {
  const tool = searchTextPatternTool;
  const parsed = parseToolArgs(argv, exposedInput(tool).shape as Record<string, any>, tool.cli);
  if (parsed.help) return undefined;
  checkToolInput(exposedInput(tool), parsed.input, tool.cli);
  const root = canonicalRoot(parsed.root ?? process.cwd());
  const current = indexLocation(root).current();
  if (!current) return undefined;
  let store: IndexReader;
  try {
    store = openIndexReader(current);
  } catch (e) {
    if (isCortexError(e) && e.code === "INDEX_CORRUPT") return undefined;
    throw e;
  }
  try {
    const engine = new ExactEngine(store, root);
    // search_text_pattern reads only the root and the exact engine of its session (a text-tier tool:
    // invokeTool asks nothing else of it)
    const session = { root, exact: async () => engine } as unknown as ToolContext["session"];
    return await runToolForCli(tool, parsed.input, outputMode(parsed), session);
  } finally {
    await store.close();
  }
}
