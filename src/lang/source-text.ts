/**
 * Bounded reads of source text for qualifiers and receivers. The text is sliced from the file with a
 * cap before whitespace is collapsed, so each link of a 5,000-link call chain costs the cap, not the
 * chain's length (reading `node.text` whole at every link made extraction quadratic).
 */
import type { Node } from "web-tree-sitter";

/** A node's text with whitespace collapsed, at most `max` characters. */
export function boundedText(source: string, n: Node, max = 120): string {
  const start = n.startIndex;
  const text = source
    .slice(start, Math.min(n.endIndex, start + max * 4))
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? text.slice(0, max) : text;
}

/** An ASCII identifier character of Python and JavaScript (`$` is JavaScript's alone; pass it or not). */
function isWordChar(c: number, dollar: boolean): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || (dollar && c === 36);
}

/**
 * Where one of `names` stands as a whole word that may be a read, in text order: not a member (`.NAME`),
 * not a call or a definition's name (`NAME(`), not an object (`NAME.`), not an assignment's or keyword
 * argument's target (`NAME =`, unless the `=` starts one of `notAssign`: `==`, `=>`). The tree decides the
 * rest. One indexOf pass per name: far faster than an alternation of the names as one regular expression
 * (JavaScriptCore tries each name at every position) or splitting the text into words.
 */
export function nameOccurrences(src: string, names: Iterable<string>, options: { dollar: boolean; notAssign: string }): number[] {
  const out: number[] = [];
  const { dollar, notAssign } = options;
  for (const name of names) {
    if (name.length === 0) continue;
    for (let at = src.indexOf(name); at >= 0; at = src.indexOf(name, at + name.length)) {
      const before = at > 0 ? src.charCodeAt(at - 1) : 32;
      if (isWordChar(before, dollar) || before === 46) continue;
      let end = at + name.length;
      const after = end < src.length ? src.charCodeAt(end) : 32;
      if (isWordChar(after, dollar) || after === 46 || after === 40) continue;
      while (end < src.length && (src.charCodeAt(end) === 32 || src.charCodeAt(end) === 9)) end++;
      if (src.charCodeAt(end) === 61 && !notAssign.includes(src[end + 1] ?? "")) continue;
      out.push(at);
    }
  }
  return out.sort((a, b) => a - b);
}
