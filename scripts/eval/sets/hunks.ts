/**
 * The lines a diff changes on its old side, and the (outermost) functions of the old file that contain them: the
 * function-level label of a commit or a gold patch. A pure insertion after line a touches the point
 * a + 0.5, so it belongs to a function only when the function spans both a and a + 1.
 */
import type { FunctionFact } from "../../../src/lang/types.ts";

export interface Touched {
  start: number;
  end: number;
}

/**
 * Old-side touched lines per file of a unified diff with any context (SWE-bench gold patches carry three
 * lines, `git diff -U0` none): each run of changed lines between context lines is one span; created files
 * are left out.
 */
export function changedLines(diff: string): Map<string, Touched[]> {
  const out = new Map<string, Touched[]>();
  let file: string | undefined;
  let oldLine = 0;
  let first: number | undefined;
  let last: number | undefined;
  const flush = () => {
    if (file !== undefined && first !== undefined && last !== undefined) {
      const list = out.get(file) ?? [];
      list.push({ start: first, end: last });
      out.set(file, list);
    }
    first = last = undefined;
  };
  for (const line of diff.split("\n")) {
    if (line.startsWith("--- ")) {
      flush();
      const p = line.slice(4).trim();
      file = p === "/dev/null" ? undefined : p.replace(/^a\//, "");
      continue;
    }
    if (line.startsWith("+++ ")) continue;
    const m = /^@@ -(\d+)(?:,(\d+))? /.exec(line);
    if (m) {
      flush();
      // an empty old side (`-a,0`, a pure insertion without context) names the line the insertion follows
      oldLine = m[2] === "0" ? Number(m[1]) + 1 : Number(m[1]);
      continue;
    }
    if (line.startsWith("-")) {
      first ??= oldLine;
      last = oldLine;
      oldLine++;
    } else if (line.startsWith("+") && first === undefined) {
      // a run that only inserts, before old line `oldLine`: the point between oldLine - 1 and oldLine
      first = last = oldLine - 0.5;
    } else if (line.startsWith(" ")) {
      if (first !== undefined) flush();
      oldLine++;
    }
  }
  flush();
  return out;
}

export interface FunctionLabel {
  file: string;
  name: string;
  qualified_name: string;
  start_line: number;
  end_line: number;
}

/**
 * The functions of `functions` that contain a touched line, outermost only: a closure's change is its
 * enclosing function's (as SWE-bench's own function labels name methods, not their inner helpers).
 */
export function touchedFunctions(file: string, functions: readonly FunctionFact[], touched: readonly Touched[]): FunctionLabel[] {
  const hit = functions.filter((f) => touched.some((t) => f.startLine <= t.end && f.endLine >= t.start));
  const outermost = hit.filter(
    (f) => !hit.some((g) => g !== f && g.startLine <= f.startLine && f.endLine <= g.endLine && (g.startLine !== f.startLine || g.endLine !== f.endLine)),
  );
  const seen = new Set<string>();
  const out: FunctionLabel[] = [];
  for (const f of outermost) {
    const key = `${f.qualifiedName}:${f.startLine}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file, name: f.name, qualified_name: f.qualifiedName, start_line: f.startLine, end_line: f.endLine });
  }
  return out;
}
