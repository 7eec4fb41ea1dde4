/**
 * The CLI's edges: results to stdout (JSON with --json, one JSON row a line with --ndjson), errors as one
 * stderr line with exit code 2 (grep's and ripgrep's code for an error; 1 means nothing found), a broken
 * pipe (`cortex … | head`) ends quietly with 0.
 */
import { writeSync } from "node:fs";
import { describeSystemError, isCortexError } from "../core/errors.ts";
import { cortexHome } from "../core/paths.ts";

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
  // nothing to say prints nothing (`cortex grep` with no match, like ripgrep), not an empty line
  if (pipeClosed || text === "") return;
  writeOut(text.endsWith("\n") ? text : text + "\n");
}

/**
 * Lines printed as they come (grep's rows), gathered into writes of up to 64 KiB when stdout is not a
 * terminal, as ripgrep buffers: one write per line cost more than the search on a broad pattern. A
 * terminal gets each line at once. `flush` before anything else is printed and at the end.
 */
export class LinePrinter {
  private parts: string[] = [];
  private size = 0;
  private readonly direct = process.stdout.isTTY === true;

  print(text: string): void {
    if (pipeClosed || text === "") return;
    const line = text.endsWith("\n") ? text : text + "\n";
    if (this.direct) {
      writeOut(line);
      return;
    }
    this.parts.push(line);
    this.size += line.length;
    if (this.size >= 64 * 1024) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.join("");
    this.parts = [];
    this.size = 0;
    if (!pipeClosed) writeOut(text);
  }
}

/** Exit code of every error: bad input, a failed search, an internal error. */
export const EXIT_ERROR = 2;

/** Prints an error and returns the exit code. Unexpected errors also print their stack. */
export function reportError(e: unknown): number {
  if (isCortexError(e)) {
    process.stderr.write(`cortex: ${e.message}\n`);
    return EXIT_ERROR;
  }
  // the machine's state (permissions, a full disk, a file where a folder should be) is said in one line
  const system = describeSystemError(e, cortexHome());
  if (system) {
    process.stderr.write(`cortex: ${system}\n`);
    return EXIT_ERROR;
  }
  const err = e as Error;
  process.stderr.write(`cortex: internal error: ${err?.message ?? String(e)}\n${err?.stack ?? ""}\n`);
  return EXIT_ERROR;
}
