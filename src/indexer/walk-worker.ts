/**
 * A walk worker (walk-parallel.ts): claims units (whole subtrees) from the shared counter until none are
 * left, walks each as a walk from the root would, and answers once with everything it walked, packed.
 *   in:  WalkRequest
 *   out: WalkAnswer
 */
import { TreeWalker } from "./walk.ts";
import { packResults, type UnitResult, type WalkRequest } from "./walk-parallel.ts";

declare const self: Worker;

self.onmessage = (ev: MessageEvent) => {
  const { root, options, units: all, next } = ev.data as WalkRequest;
  const walker = new TreeWalker(root, options);
  const units: number[] = [];
  const results: UnitResult[] = [];
  for (let i = Atomics.add(next, 0, 1); i < all.length; i = Atomics.add(next, 0, 1)) {
    const result: UnitResult = { files: [], excluded: [] };
    walker.moveTo(all[i]!);
    walker.walkFrom(all[i]!, result.files, result.excluded);
    units.push(i);
    results.push(result);
  }
  const answer = packResults(units, results);
  self.postMessage(answer, [answer.numbers.buffer as ArrayBuffer]);
};
