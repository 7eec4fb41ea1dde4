/**
 * What a tool handler receives: the project, its engines (created lazily over the current index) and
 * the call's deadline. Handlers never see a transport or a database.
 */
import type { Session } from "./session.ts";

export interface ToolContext {
  session: Session;
  /** Aborted when the call's deadline passes or the client cancels. */
  signal: AbortSignal;
  /** Epoch milliseconds by which the handler should return what it has. */
  deadline: number;
  /** Reports progress of long calls (MCP progress notifications, CLI progress bar). */
  progress?(done: number, total: number, message?: string): void;
  /**
   * Receives each row of the result as soon as it is final, in result order, from tools whose engine finds
   * rows one by one (the CLI's --ndjson streams them). Rows handed here are the first rows of the result.
   */
  onRow?(row: unknown): void;
  /**
   * The caller prints every row onRow hands it and needs none in the result (the CLI's text and --ndjson
   * output without --max-tokens): a tool that streams its rows then takes them all, as ripgrep prints
   * every line, with no result limit or output budget, and leaves them out of its result.
   */
  everyRow?: boolean;
  /**
   * Indexed files a live server's watcher saw change since the index last caught up with them (absent
   * outside a server, or when too many changed to read them per call): text searches read them from disk.
   */
  changedOnDisk?: readonly string[];
  /**
   * The tools the caller can call (an MCP server's --tools): advice that names a tool says only these.
   * Absent: every tool (the CLI, where each is a command).
   */
  servedTools?: ReadonlySet<string>;
}
