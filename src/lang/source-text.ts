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
