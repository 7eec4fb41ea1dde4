/**
 * Which declaration holds which, answered from positions. web-tree-sitter answers `Node.parent` by
 * walking down from the root, so climbing from every definition to its owner costs the nesting depth at
 * each step: quadratic on deeply nested code. The Java, Kotlin and C# modules instead sort the nodes that
 * matter (definitions and the bodies that hide what they hold) by range once and link each to the
 * innermost one around it.
 */
import type { Node } from "web-tree-sitter";

export interface Scope<K extends string> {
  node: Node;
  kind: K;
  start: number;
  end: number;
  /** The innermost scope whose range holds this one. */
  parent?: Scope<K>;
}

/**
 * Links every entry to the innermost entry around it, keyed by node id. Syntax-tree ranges nest or are
 * disjoint, so one pass over the entries sorted by start (outer first on equal starts) with a stack of
 * the open ones does it.
 */
export function nestScopes<K extends string>(entries: Array<{ node: Node; kind: K }>): Map<number, Scope<K>> {
  const scopes: Array<Scope<K>> = entries.map((e) => ({ node: e.node, kind: e.kind, start: e.node.startIndex, end: e.node.endIndex }));
  scopes.sort((a, b) => a.start - b.start || b.end - a.end);
  const byId = new Map<number, Scope<K>>();
  const open: Array<Scope<K>> = [];
  for (const s of scopes) {
    while (open.length > 0 && open[open.length - 1]!.end <= s.start) open.pop();
    const around = open[open.length - 1];
    if (around && around.end >= s.end) s.parent = around;
    open.push(s);
    byId.set(s.node.id, s);
  }
  return byId;
}

/** The first scope above `s` whose kind is not in `through`. */
export function ownerScope<K extends string>(s: Scope<K> | undefined, through: ReadonlySet<K>): Scope<K> | undefined {
  let p = s?.parent;
  while (p && through.has(p.kind)) p = p.parent;
  return p;
}
