/**
 * A proposed rewrite as a unified diff: the whole lines the replacement touches, before and after, with
 * `context` unchanged lines around them, headed like `git diff` output so any patch tool can apply it.
 * Offsets are UTF-8 byte offsets into the file, as ast-grep reports them.
 */

const NL = 0x0a;
const decoder = new TextDecoder("utf-8");

/** Offset of the first byte of the line holding `offset`. */
export function lineStartAt(bytes: Uint8Array, offset: number): number {
  let i = Math.min(offset, bytes.length);
  while (i > 0 && bytes[i - 1] !== NL) i--;
  return i;
}

/** Offset just past the line holding `offset`, its newline included (or the end of the file). */
export function lineEndAt(bytes: Uint8Array, offset: number): number {
  const nl = bytes.indexOf(NL, offset);
  return nl < 0 ? bytes.length : nl + 1;
}

/** Number of newlines before `offset` (the 0-based line number of that offset). */
export function lineIndexAt(bytes: Uint8Array, offset: number): number {
  let n = 0;
  for (let i = bytes.indexOf(NL); i >= 0 && i < offset; i = bytes.indexOf(NL, i + 1)) n++;
  return n;
}

/** Splits text into lines; a final newline ends the last line rather than starting an empty one. */
function splitLines(text: string): { lines: string[]; endsWithNewline: boolean } {
  if (text === "") return { lines: [], endsWithNewline: true };
  const endsWithNewline = text.endsWith("\n");
  const lines = text.split("\n");
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}

export function unifiedDiff(path: string, bytes: Uint8Array, start: number, end: number, replacement: string, contextLines: number): string {
  const from = lineStartAt(bytes, start);
  const to = lineEndAt(bytes, end > start ? end - 1 : start);
  const before = decoder.decode(bytes.subarray(from, to));
  const after = decoder.decode(bytes.subarray(from, start)) + replacement + decoder.decode(bytes.subarray(end, to));
  if (before === after) return "";
  const oldPart = splitLines(before);
  const newPart = splitLines(after);

  let ctxFrom = from;
  let lead = 0;
  while (lead < contextLines && ctxFrom > 0) {
    ctxFrom = lineStartAt(bytes, ctxFrom - 1);
    lead++;
  }
  let ctxTo = to;
  let trail = 0;
  while (trail < contextLines && ctxTo < bytes.length) {
    ctxTo = lineEndAt(bytes, ctxTo);
    trail++;
  }
  const leading = splitLines(decoder.decode(bytes.subarray(ctxFrom, from))).lines;
  const trailingPart = splitLines(decoder.decode(bytes.subarray(to, ctxTo)));
  const firstLine = lineIndexAt(bytes, from) + 1 - lead;

  const body: string[] = [];
  for (const l of leading) body.push(" " + l);
  // "\ No newline at end of file" belongs to whichever side ends the file without one.
  const atEof = to === bytes.length && trailingPart.lines.length === 0;
  for (const l of oldPart.lines) body.push("-" + l);
  if (atEof && !oldPart.endsWithNewline && oldPart.lines.length > 0) body.push("\\ No newline at end of file");
  for (const l of newPart.lines) body.push("+" + l);
  if (atEof && !newPart.endsWithNewline && newPart.lines.length > 0) body.push("\\ No newline at end of file");
  for (const l of trailingPart.lines) body.push(" " + l);
  if (!trailingPart.endsWithNewline && trailingPart.lines.length > 0) body.push("\\ No newline at end of file");

  const oldCount = leading.length + oldPart.lines.length + trailingPart.lines.length;
  const newCount = leading.length + newPart.lines.length + trailingPart.lines.length;
  const range = (first: number, count: number) => (count === 0 ? `${first - 1},0` : `${first},${count}`);
  return [`--- a/${path}`, `+++ b/${path}`, `@@ -${range(firstLine, oldCount)} +${range(firstLine, newCount)} @@`, ...body].join("\n") + "\n";
}
