/**
 * The CLI's edges: results to stdout (JSON with --json), errors as one stderr line with exit code 1,
 * a broken pipe (`cortex … | head`) ends quietly with 0.
 */
import { writeSync } from "node:fs";
import { isCortexError } from "../core/errors.ts";

let pipeClosed = false;
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") {
    pipeClosed = true;
    process.exit(0);
  }
  throw e;
});

/**
 * Writes to stdout synchronously: the CLI ends with process.exit, which drops whatever an asynchronous
 * write has not handed to a pipe yet (a result over 64 KiB came out cut).
 */
function writeOut(text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let off = 0;
  while (off < bytes.length) {
    try {
      off += writeSync(1, bytes, off, bytes.length - off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        Bun.sleepSync(1); // a non-blocking pipe that is full: wait for the reader
        continue;
      }
      if (code === "EPIPE") {
        pipeClosed = true;
        process.exit(0);
      }
      throw e;
    }
  }
}

export function printJson(value: unknown): void {
  if (pipeClosed) return;
  writeOut(JSON.stringify(value, null, 2) + "\n");
}

export function printText(text: string): void {
  if (pipeClosed) return;
  writeOut(text.endsWith("\n") ? text : text + "\n");
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
