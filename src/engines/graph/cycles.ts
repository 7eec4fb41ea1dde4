/**
 * Import cycles: strongly connected components of the file import graph (Tarjan's algorithm, iterative
 * so a deep graph cannot overflow the stack), each reported with one shortest cycle through it: the
 * chain of files and the import statements that close it.
 */

/**
 * Meta key of the import graph's size (files with imports, file-to-file edges): written by reference
 * resolution with the components it keeps, read by the graph engine's cycle report.
 */
export const IMPORT_GRAPH_SIZE_KEY = "import_graph_size";

export interface ImportEdge {
  from: string;
  to: string;
  line: number;
  column: number;
  module: string;
}

/** Strongly connected components with more than one file, each sorted, largest first then by name. */
export function stronglyConnected(nodes: string[], out: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    // frames: node and the position in its successor list
    const frames: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const f = frames[frames.length - 1]!;
      const succ = out.get(f.node) ?? [];
      if (f.i < succ.length) {
        const w = succ[f.i++]!;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          frames.push({ node: w, i: 0 });
        } else if (onStack.has(w)) low.set(f.node, Math.min(low.get(f.node)!, index.get(w)!));
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(f.node)!));
      }
      if (low.get(f.node) === index.get(f.node)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== f.node);
        if (comp.length > 1) components.push(comp.sort());
      }
    }
  }
  return components.sort((a, b) => b.length - a.length || (a[0]! < b[0]! ? -1 : 1));
}

/** The shortest cycle through `start` inside a component: files in order, ending where they began. */
export function shortestCycle(start: string, component: Set<string>, out: Map<string, string[]>): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const w of out.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = parent.get(v); p !== undefined; p = parent.get(p)) path.push(p);
        path.reverse();
        if (path[0] !== start) path.unshift(start);
        return [...path, start];
      }
      if (!parent.has(w) && w !== start) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}
