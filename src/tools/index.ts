/**
 * The tool registry: one ordered list. The MCP server registers these, the CLI builds its subcommands
 * from them, docs/tools.md is generated from them (a test keeps it current).
 */
import type { ToolDefinition } from "./define.ts";
import { filesTool } from "./files.ts";
import { searchTool } from "./search.ts";
import { semanticTool } from "./semantic.ts";
import { getMemoryTool, rememberTool } from "./memory.ts";
import { metadataTool } from "./metadata.ts";
import { refreshTool, statusTool } from "./status.ts";
import { styleTool } from "./style.ts";
import { patternsTool } from "./patterns.ts";
import { patternTool } from "./pattern.ts";
import { exactTool } from "./exact.ts";
import { searchTextPatternTool } from "./search-text-pattern.ts";
import { findSymbolOccurrencesTool, getSymbolReferencesTool } from "./symbols.ts";
import { graphTool } from "./graph.ts";
import { cyclesTool } from "./cycles.ts";
import { searchCodebaseTool } from "./search-codebase.ts";

export const TOOLS: ToolDefinition<any, any>[] = [searchTool, filesTool, exactTool, searchTextPatternTool, patternTool, semanticTool, metadataTool, styleTool, patternsTool, statusTool, refreshTool, rememberTool, getMemoryTool, findSymbolOccurrencesTool, getSymbolReferencesTool, graphTool, cyclesTool, searchCodebaseTool];

export function findTool(name: string): ToolDefinition<any, any> | undefined {
  return TOOLS.find((t) => t.name === name);
}

export { defineTool, READ_ONLY, type ToolDefinition } from "./define.ts";
export { Session } from "./session.ts";
