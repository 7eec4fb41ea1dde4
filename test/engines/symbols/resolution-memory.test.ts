/**
 * The compact forms a full resolution holds its data in: import targets by site as typed columns
 * (SiteTargets), and loaded definitions sharing their repeated strings (SharedStrings).
 */
import { expect, test } from "bun:test";
import { SiteTargets } from "../../../src/engines/symbols/site-targets.ts";
import { SharedStrings } from "../../../src/engines/symbols/symbol-index.ts";
import type { SymbolRow } from "../../../src/store/graph-store.ts";

test("SiteTargets gives each site's targets back, in order, with the strings it was given", () => {
  const t = new SiteTargets(5000);
  const a = "src/a.c";
  const b = "include/b.h";
  t.set(4999, [a, b]);
  t.set(3, [b]);
  // more targets than the first column holds, so it grows
  const many = Array.from({ length: 10_000 }, (_, i) => `f${i % 700}.h`);
  t.set(17, many);
  expect(t.get(4999)).toEqual([a, b]);
  expect(t.get(4999)[0]).toBe(a);
  expect(t.get(3)).toEqual([b]);
  expect(t.get(17)).toEqual(many);
  expect(t.get(4)).toEqual([]);
  expect(t.get(1_000_000)).toEqual([]);
  const seen: Array<[number, number]> = [];
  t.forEach((targets, site) => seen.push([site, targets.length]));
  expect(seen).toEqual([
    [4999, 2],
    [3, 1],
    [17, 10_000],
  ]);
  expect(() => t.set(5001, [a])).toThrow("import site 5001 is past the largest id given (5000)");
});

// which copy of a string a row holds cannot be seen from JavaScript (the heap counts in docs/benchmarks.md
// show it): what can break is a value, so every value must stay as it was
test("SharedStrings leaves every value of a row as it was", () => {
  const path = "drivers/net/x.c";
  const shared = new SharedStrings(new Map([[path, { path }]]));
  const row = (): SymbolRow => ({
    id: 1,
    file: ["drivers", "net", "x.c"].join("/"),
    name: "probe",
    qname: ["pro", "be"].join(""),
    kind: ["func", "tion"].join(""),
    container: null,
    language: ["", "c"].join(""),
    line: 1,
    column: 1,
    endLine: 2,
    exported: 0,
    signature: null,
  });
  const a = shared.row(row());
  const b = shared.row(row());
  expect(a).toEqual(row());
  expect(b).toEqual(row());
  // a file the project does not list keeps its own string
  const other = shared.row({ ...row(), file: "elsewhere.c" });
  expect(other.file).toBe("elsewhere.c");
});
