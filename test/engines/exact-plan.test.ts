/**
 * The planner must never exclude a file that holds a match, and the line scanner must report exactly the
 * lines a naive per-line regex test reports. Both are checked on thousands of random patterns and texts
 * (a seeded generator, so failures reproduce), plus hand-picked cases whose plans are known.
 */
import { describe, expect, test } from "bun:test";
import { parseRegex } from "../../src/engines/exact/regex-parse.ts";
import { describeQuery, planLiteral, planRegex, type TrigramQuery } from "../../src/engines/exact/plan.ts";
import { compilePattern } from "../../src/engines/exact/text-query.ts";
import { LineMatcher } from "../../src/engines/exact/line-scan.ts";
import { ByteLiteralScanner } from "../../src/engines/exact/byte-scan.ts";
import { TrigramExtractor } from "../../src/store/trigrams.ts";

/** Mulberry32: a small seeded generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const extractor = new TrigramExtractor();
function trigramSet(text: string): Set<number> {
  return new Set(extractor.extract(new TextEncoder().encode(text)));
}

function holds(q: TrigramQuery, grams: Set<number>): boolean {
  switch (q.op) {
    case "all":
      return true;
    case "tri":
      return grams.has(q.t);
    case "and":
      return q.args.every((a) => holds(a, grams));
    case "or":
      return q.args.some((a) => holds(a, grams));
  }
}

const ATOMS = [
  "a",
  "b",
  "c",
  "ab",
  "abc",
  "bca",
  "A",
  "B",
  "ſ",
  "K",
  "é",
  "É",
  "x",
  "\\.",
  ".",
  "[ab]",
  "[^a]",
  "[a-c]",
  "\\w",
  "\\s",
  "\\d",
  "\\b",
  "^",
  "$",
  " ",
  "\\x61",
  "\\u0062",
  "(?=ab)",
  "(?<!c)",
  "\\1",
  "[Bb]c",
];

function randomRegex(r: () => number, depth = 0): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const n = 1 + Math.floor(r() * 4);
  let out = "";
  for (let i = 0; i < n; i++) {
    let atom: string;
    const k = r();
    let group = true;
    if (depth < 2 && k < 0.2) atom = `(${randomRegex(r, depth + 1)}|${randomRegex(r, depth + 1)})`;
    else if (depth < 2 && k < 0.3) atom = `(?:${randomRegex(r, depth + 1)})`;
    else {
      atom = pick(ATOMS);
      group = false;
    }
    const q = r();
    // groups get no unbounded quantifier: nested ones backtrack exponentially and slow the test down
    if (group) atom += q < 0.1 ? "?" : q < 0.15 ? "{2}" : q < 0.2 ? "{1,3}" : "";
    else if (q < 0.1) atom += "*";
    else if (q < 0.2) atom += "+";
    else if (q < 0.3) atom += "?";
    else if (q < 0.35) atom += "{2}";
    else if (q < 0.4) atom += "{1,3}";
    else if (q < 0.42) atom += "{4,}";
    out += atom;
  }
  return out;
}

const TEXT_CHARS = ["a", "b", "c", "A", "B", "C", "x", ".", " ", "\n", "\r\n", "ſ", "K", "é", "É", "1"];
function randomText(r: () => number): string {
  let s = "";
  const n = Math.floor(r() * 40);
  for (let i = 0; i < n; i++) s += TEXT_CHARS[Math.floor(r() * TEXT_CHARS.length)]!;
  return s;
}

/** Matching line numbers the slow, obvious way. */
function naiveLines(text: string, re: RegExp): number[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  const out: number[] = [];
  lines.forEach((l, i) => {
    const line = l.endsWith("\r") ? l.slice(0, -1) : l;
    re.lastIndex = 0;
    if (re.test(line)) out.push(i + 1);
  });
  return out;
}

describe("trigram plan (random patterns)", () => {
  for (const ci of [false, true]) {
    test(`never excludes a text with a matching line (${ci ? "case-insensitive" : "case-sensitive"})`, () => {
      const r = rng(ci ? 7 : 11);
      let checked = 0;
      let excluding = 0;
      for (let i = 0; i < 2500; i++) {
        const source = randomRegex(r);
        let compiled: ReturnType<typeof compilePattern>;
        try {
          compiled = compilePattern(source, true, !ci);
        } catch {
          continue; // an invalid random pattern
        }
        const re = new RegExp(compiled.spec.source, "m" + compiled.spec.flags);
        for (let j = 0; j < 6; j++) {
          const text = randomText(r);
          const lines = naiveLines(text, re);
          const grams = trigramSet(text);
          if (!holds(compiled.plan.query, grams)) {
            excluding++;
            if (lines.length > 0)
              throw new Error(`plan ${describeQuery(compiled.plan.query)} of /${source}/${compiled.spec.flags} excludes ${JSON.stringify(text)}`);
          }
          if (lines.length > 0 && compiled.spec.factors) {
            const hay = ci ? text.toLowerCase() : text;
            // every matching line holds a factor (checked loosely on the whole text for ſ/K folding)
            const ok = compiled.spec.factors.some(
              (f) => hay.includes(f) || new RegExp(f.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), compiled.spec.flags).test(text),
            );
            if (!ok) throw new Error(`factors ${JSON.stringify(compiled.spec.factors)} of /${source}/ miss ${JSON.stringify(text)}`);
          }
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(5000);
      // the plans are not vacuous: a good share of random texts is excluded
      expect(excluding).toBeGreaterThan(checked / 20);
    }, 60_000);

    test(`line scan reports exactly the lines a per-line test does (${ci ? "case-insensitive" : "case-sensitive"})`, () => {
      const r = rng(ci ? 3 : 5);
      let nonEmpty = 0;
      for (let i = 0; i < 2500; i++) {
        const source = randomRegex(r);
        let compiled: ReturnType<typeof compilePattern>;
        try {
          compiled = compilePattern(source, true, !ci);
        } catch {
          continue;
        }
        const matcher = new LineMatcher(compiled.spec);
        const re = new RegExp(compiled.spec.source, "gm" + compiled.spec.flags);
        for (let j = 0; j < 6; j++) {
          const text = randomText(r);
          const expected = naiveLines(text, re);
          const got = matcher.scan(text, 1, 1000).map((h) => h.line);
          if (JSON.stringify(got) !== JSON.stringify(expected)) {
            throw new Error(`/${source}/${compiled.spec.flags} on ${JSON.stringify(text)}: got ${got}, expected ${expected}`);
          }
          if (expected.length > 0) nonEmpty++;
        }
      }
      expect(nonEmpty).toBeGreaterThan(1000);
    }, 60_000);
  }
});

describe("literal line scan (random)", () => {
  for (const ci of [false, true]) {
    test(`lines and columns equal a per-line search (${ci ? "case-insensitive" : "case-sensitive"})`, () => {
      const r = rng(ci ? 17 : 19);
      const pieces = ["a", "b", "A", "é", "É", "ab", " ", "x"];
      let nonEmpty = 0;
      for (let i = 0; i < 3000; i++) {
        let literal = "";
        for (let k = 0, n = 1 + Math.floor(r() * 3); k < n; k++) literal += pieces[Math.floor(r() * pieces.length)];
        const { spec, plan } = compilePattern(literal, false, !ci);
        const matcher = new LineMatcher(spec);
        const re = new RegExp(literal.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "g" + (ci ? "i" : ""));
        const text = randomText(r);
        const expected = naiveLines(text, re);
        const hits = matcher.scan(text, 0, 1000);
        expect(hits.map((h) => h.line)).toEqual(expected);
        for (const h of hits) {
          re.lastIndex = 0;
          expect(h.matches.map((m) => m.column)).toEqual([...h.text.matchAll(re)].map((m) => m.index! + 1).slice(0, 16));
        }
        if (expected.length > 0) {
          nonEmpty++;
          expect(holds(plan.query, trigramSet(text))).toBe(true);
        }
      }
      expect(nonEmpty).toBeGreaterThan(500);
    });
  }
});

describe("byte-level literal scan (random)", () => {
  for (const ci of [false, true]) {
    test(`gives exactly the string scanner's hits (${ci ? "case-insensitive" : "case-sensitive"})`, () => {
      const r = rng(ci ? 23 : 29);
      const pieces = ci ? ["a", "b", "A", "ab", " ", "x", "."] : ["a", "b", "A", "é", "É", "ab", " ", "x", "ſ", "😀"];
      let compared = 0;
      for (let i = 0; i < 3000; i++) {
        let literal = "";
        for (let k = 0, n = 1 + Math.floor(r() * 3); k < n; k++) literal += pieces[Math.floor(r() * pieces.length)];
        const { spec } = compilePattern(literal, false, !ci);
        const bytes = ByteLiteralScanner.for(spec);
        expect(bytes).toBeDefined();
        let text = randomText(r);
        if (r() < 0.3) text += "😀 ab\r\nx";
        const context = Math.floor(r() * 3);
        const max = 1 + Math.floor(r() * 5);
        const expected = new LineMatcher(spec).scan(text, context, max);
        expect(bytes!.scan(new TextEncoder().encode(text), context, max)).toEqual(expected);
        if (expected.length > 0) compared++;
      }
      expect(compared).toBeGreaterThan(500);
    });
  }
  test("non-ASCII case-insensitive literals stay on the string scanner", () => {
    expect(ByteLiteralScanner.for(compilePattern("café", false, false).spec)).toBeUndefined();
    expect(ByteLiteralScanner.for(compilePattern("a.b", true, true).spec)).toBeUndefined();
  });
});

describe("trigram plan (known patterns)", () => {
  const plan = (source: string, ci = false) => describeQuery(planRegex(parseRegex(source, true).root, ci).query);

  test("a literal needs all its trigrams", () => {
    expect(describeQuery(planLiteral("sync.RWMutex", false).query)).toBe(
      ["syn", "ync", "nc.", "c.r", ".rw", "rwm", "wmu", "mut", "ute", "tex"].map((t) => JSON.stringify(t)).join(" AND "),
    );
  });

  test("alternation becomes OR, optional parts are dropped", () => {
    expect(plan("foo|bar")).toBe('"foo" OR "bar"');
    expect(plan("colou?r")).toBe('("col" AND "olo" AND "lou" AND "our") OR ("col" AND "olo" AND "lor")');
    expect(plan("\\w+_test\\(")).toBe('"_te" AND "tes" AND "est" AND "st("');
  });

  test("small classes expand, large ones do not", () => {
    expect(plan("[Hh]ello")).toBe('"hel" AND "ell" AND "llo"');
    expect(plan("[0-9]{4}-[0-9]{2}")).toBe("ALL");
  });

  test("case-insensitive plans skip letters whose case folding leaves ASCII", () => {
    expect(plan("straße", true)).toBe('"str" AND "tra"');
    expect(describeQuery(planLiteral("été", true).query)).toBe("ALL");
    expect(describeQuery(planLiteral("été", false).query)).toBe('"\\xc3\\xa9t" AND "\\xa9t\\xc3" AND "t\\xc3\\xa9"');
  });

  test("line prefilters are the strings every match contains", () => {
    expect(compilePattern("\\w+_test\\(", true, true).spec.factors).toEqual(["_test("]);
    expect(compilePattern("(foo|bar)baz", true, true).spec.factors).toEqual(["foobaz", "barbaz"]);
    expect(compilePattern("Foo", false, false).spec.factors).toEqual(["foo"]);
    expect(compilePattern("a.b", true, true).spec.factors).toBeNull();
  });

  test("an invalid regex is an INVALID_INPUT error carrying the engine's message", () => {
    expect(() => compilePattern("(unclosed", true, false)).toThrow(/query: Invalid regular expression/);
    expect(() => compilePattern("a\nb", false, false)).toThrow(/line break/);
  });
});
