/**
 * An index run's progress as the indexer reports it, and in words: for the CLI's bar, MCP progress
 * notifications and the server's notices (a module of its own, so that they need not load the indexer).
 */
export interface IndexProgress {
  phase: "walk" | "text" | "parse" | "finish";
  done: number;
  total: number;
  /** In the finish phase, the step running (an index hook's name, "modules", "keyword index"); done and total count steps there. */
  step?: string;
}

/**
 * A progress report in words, for the CLI's bar and MCP progress notifications: which tier, and what it
 * makes ready (the text tier answers grep and exact search as soon as it is written).
 */
export function progressLabel(p: IndexProgress): string {
  switch (p.phase) {
    case "walk":
      return "scanning files";
    case "text":
      return "text tier (grep and exact search when done)";
    case "parse":
      return "parse tier (grep and exact search ready; symbols, graph and search when done)";
    case "finish":
      return p.step ? `finishing: ${p.step}` : "finishing";
  }
}

/**
 * A run's progress as one number that only grows (an MCP progress notification's must), out of 100: the
 * text tier the first tenth, the parse tier to 90, the steps after it the rest; the message says where.
 */
export function overallProgress(p: IndexProgress): { progress: number; total: number; message: string } {
  const part = p.total > 0 ? Math.min(1, p.done / p.total) : p.phase === "walk" ? 0 : 1;
  const [from, to] = p.phase === "walk" ? [0, 0] : p.phase === "text" ? [0, 10] : p.phase === "parse" ? [10, 90] : [90, 100];
  const counts = p.phase === "text" || p.phase === "parse" ? `: ${p.done}/${p.total} files` : "";
  return { progress: Math.floor(from + (to - from) * part), total: 100, message: `${progressLabel(p)}${counts}` };
}
