/**
 * The definition a definition chunk shows, whole: its qualified name and its full line span. A chunk is
 * a view (a long function is split into windows of 80 lines; a chunk starts at the doc comment), so a
 * hit on one window of a long function still names the function and the lines an edit must read.
 * Read from the symbols table, which holds every definition's span as parsed.
 */
import type { SymbolRow } from "../../store/contract.ts";

export interface DefinitionSpan {
  qualified_name: string;
  kind: string;
  start_line: number;
  end_line: number;
}

export interface DefinitionChunk {
  filePath: string;
  /** The chunk's symbol path (the qualified name without the package, see indexer/chunker.ts). */
  symbolPath: string;
  /** metadata.name of the chunk: the definition's own name. */
  name: string;
  startLine: number;
  endLine: number;
}

/**
 * For each chunk (by index), the definition it belongs to: a symbol of the same file and name whose
 * span meets the chunk's lines, the one whose qualified name ends with the chunk's symbol path first.
 */
export function definitionSpans(symbols: readonly SymbolRow[], chunks: readonly DefinitionChunk[]): Array<DefinitionSpan | undefined> {
  if (chunks.length === 0) return [];
  const byFile = new Map<string, SymbolRow[]>();
  for (const s of symbols) {
    const list = byFile.get(s.file);
    if (list) list.push(s);
    else byFile.set(s.file, [s]);
  }
  return chunks.map((c) => {
    const meets = (byFile.get(c.filePath) ?? []).filter((s) => s.name === c.name && s.line <= c.endLine && s.endLine >= c.startLine);
    const s = meets.find((x) => x.qname === c.symbolPath || x.qname.endsWith(`.${c.symbolPath}`)) ?? meets[0];
    return s ? { qualified_name: s.qname, kind: s.kind, start_line: s.line, end_line: s.endLine } : undefined;
  });
}
