/**
 * The verification workers' packed hits (src/engines/exact/hit-wire.ts): what crosses threads packed
 * comes out as the objects that went in, strings of any content and optional fields included.
 */
import { describe, expect, test } from "bun:test";
import { packHits, unpackHits } from "../../src/engines/exact/hit-wire.ts";
import { LineMatcher } from "../../src/engines/exact/line-scan.ts";
import { compilePattern } from "../../src/engines/exact/text-query.ts";
import type { VerifiedFile } from "../../src/engines/exact/pool.ts";

describe("hit wire", () => {
  test("files, hits, context, details with groups (null ones too) and named groups survive packing", () => {
    const files: VerifiedFile[] = [
      {
        item: 3,
        hits: [
          {
            line: 7,
            text: "héllo wörld — 🙂",
            contextStart: 6,
            context: ["", "after\twith tab"],
            matches: [
              { text: "wörld", column: 7, groups: ["w", null, ""], named_groups: { first: "w", gone: null } },
              { text: "", column: 1 },
            ],
          },
          { line: 9, text: "", contextStart: 9, context: [], matches: [{ text: "", column: 1, groups: [] }], truncated: true },
        ],
        stale: true,
      },
      { item: 0, hits: [{ line: 1, text: "a\u0000b", contextStart: 1, context: [], matches: [{ text: "a", column: 1, named_groups: {} }] }] },
      { item: 12, hits: [] },
    ];
    const back = unpackHits(structuredClone(packHits(files)));
    expect(back).toEqual(files);
    // the details keep their key order (JSON output prints them as the matcher made them)
    expect(Object.keys(back[0]!.hits[0]!.matches[0]!)).toEqual(["text", "column", "groups", "named_groups"]);
    expect(unpackHits(packHits([]))).toEqual([]);
  });

  test("a real matcher's hits round-trip", () => {
    const spec = compilePattern(String.raw`(?<verb>get|set)(\w+)?\(`, true, true).spec;
    const text = "x = getA(1)\r\nset(2)\nnothing\n  getB( set(\n";
    const hits = new LineMatcher(spec).scan(text, 1, 100, () => false);
    expect(hits.length).toBe(3);
    const files: VerifiedFile[] = [{ item: 1, hits }];
    expect(unpackHits(packHits(files))).toEqual(files);
  });
});
