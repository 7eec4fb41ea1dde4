/**
 * The one error type of cortex. Engines throw a CortexError with a code from a closed set;
 * the edges (MCP server, CLI) decide how to present it. Anything else that is thrown is a bug.
 */

export type ErrorCode =
  | "INVALID_INPUT"
  | "PATH_OUTSIDE_ROOT"
  | "NOT_FOUND"
  | "INDEX_MISSING"
  | "INDEX_LOCKED"
  | "INDEX_CORRUPT"
  | "DEADLINE"
  | "AST_GREP_MISSING"
  | "DOWNLOAD_FAILED"
  | "EMBEDDINGS_UNAVAILABLE"
  | "UNSUPPORTED"
  | "IO";

export class CortexError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: { data?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CortexError";
    this.code = code;
    this.data = options.data;
  }
}

export function isCortexError(e: unknown): e is CortexError {
  return e instanceof CortexError;
}

/** A readable one-line message for any thrown value. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
