/**
 * The CLI's edges: results to stdout (JSON with --json), errors as one stderr line with exit code 1,
 * a broken pipe (`cortex … | head`) ends quietly with 0.
 */
import { isCortexError } from "../core/errors.ts";

let pipeClosed = false;
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") {
    pipeClosed = true;
    process.exit(0);
  }
  throw e;
});

export function printJson(value: unknown): void {
  if (pipeClosed) return;
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

export function printText(text: string): void {
  // nothing to say prints nothing (`cortex grep` with no match, like ripgrep), not an empty line
  if (pipeClosed || text === "") return;
  process.stdout.write(text.endsWith("\n") ? text : text + "\n");
}

/** Prints an error and returns the exit code. Unexpected errors also print their stack. */
export function reportError(e: unknown): number {
  if (isCortexError(e)) {
    process.stderr.write(`cortex: ${e.message}\n`);
    return 1;
  }
  const err = e as Error;
  process.stderr.write(`cortex: internal error: ${err?.message ?? String(e)}\n${err?.stack ?? ""}\n`);
  return 1;
}
