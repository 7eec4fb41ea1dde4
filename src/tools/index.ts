/**
 * The tool registry: one ordered list. The MCP server registers these, the CLI builds its subcommands
 * from them, docs/tools.md is generated from them (a test keeps it current).
 */
import type { ToolDefinition } from "./define.ts";
import { filesTool } from "./cortex-files.ts";
import { searchTool } from "./cortex-search.ts";
import { semanticTool } from "./search-semantic-concept.ts";
import { getMemoryTool, rememberTool } from "./memory-tools.ts";
import { metadataTool } from "./get-codebase-metadata.ts";
import { refreshTool, statusTool } from "./index-tools.ts";
import { styleTool } from "./get-style-guide.ts";
import { patternsTool } from "./get-team-patterns.ts";
import { patternTool } from "./cortex-pattern.ts";
import { exactTool } from "./cortex-exact.ts";
import { searchTextPatternTool } from "./search-text-pattern.ts";
import { findSymbolOccurrencesTool, getSymbolReferencesTool } from "./symbol-tools.ts";
import { graphTool } from "./cortex-graph.ts";
import { cyclesTool } from "./detect-circular-dependencies.ts";
import { searchCodebaseTool } from "./search-codebase.ts";

export const TOOLS: ToolDefinition<any, any>[] = [
  searchTool,
  filesTool,
  exactTool,
  searchTextPatternTool,
  patternTool,
  semanticTool,
  metadataTool,
  styleTool,
  patternsTool,
  statusTool,
  refreshTool,
  rememberTool,
  getMemoryTool,
  findSymbolOccurrencesTool,
  getSymbolReferencesTool,
  graphTool,
  cyclesTool,
  searchCodebaseTool,
];

export function findTool(name: string): ToolDefinition<any, any> | undefined {
  return TOOLS.find((t) => t.name === name);
}

export { defineTool, READ_ONLY, type ToolDefinition } from "./define.ts";
export { Session } from "./session.ts";
