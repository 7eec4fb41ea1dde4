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

/** What each errno the file system gives means, in words. */
const SYSTEM_ERRORS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "a part of the path is a file, not a folder",
  EISDIR: "it is a folder",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  ENOENT: "no such file or folder",
  EEXIST: "it already exists",
  EMFILE: "too many open files",
};

/**
 * A file system error (errno code, syscall, path) as one line a user can act on, or undefined for any
 * other error: "cannot mkdir /x/cache: a part of the path is a file, not a folder", with a word on
 * CORTEX_HOME when the path lies under it. These are the machine's state, not bugs: no stack trace.
 */
export function describeSystemError(e: unknown, cortexHome?: string): string | undefined {
  const err = e as { code?: unknown; syscall?: unknown; path?: unknown; message?: unknown };
  if (!err || typeof err.code !== "string" || !(err.code in SYSTEM_ERRORS)) return undefined;
  const path = typeof err.path === "string" ? err.path : undefined;
  const action = typeof err.syscall === "string" ? err.syscall : "use";
  const line = `cannot ${action}${path ? ` ${path}` : ""}: ${SYSTEM_ERRORS[err.code]} (${err.code})`;
  const underHome = path !== undefined && cortexHome !== undefined && (path === cortexHome || path.startsWith(`${cortexHome}/`));
  return underHome
    ? `${line}; cortex keeps its indexes in CORTEX_HOME (${cortexHome}), which must be a folder it can write: fix its permissions, or set CORTEX_HOME to another folder`
    : line;
}
