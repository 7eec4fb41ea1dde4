/**
 * Precision and recall of definitions, resolved references, callers / callees, implementations and
 * import cycles against the hand-written truth of a fixture repository (test/fixtures/graph/<lang>/
 * truth.txt). Each language's test indexes its fixture with the real indexer and fails when any figure
 * is below 0.95; the figures are printed so a run shows where each language stands.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { copyFixture } from "../../helpers/tmp-project.ts";
import { Session } from "../../../src/tools/session.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";

export const THRESHOLD = 0.95;

export interface Truth {
  defs: string[];
  refs: string[];
  calls: string[];
  impls: string[];
  cycles: string[];
}

/** Parses truth.txt: `def`, `ref`, `impl` and `cycle` lines; `#` starts a comment line. */
export function readTruth(path: string): Truth {
  const t: Truth = { defs: [], refs: [], calls: [], impls: [], cycles: [] };
  for (const raw of readFileSync(path, "utf8").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [word, ...rest] = line.split(/\s+/);
    if (word === "def") {
      const [qname, kind, site] = rest;
      t.defs.push(`${qname} ${kind} ${site}`);
    } else if (word === "ref") {
      // ref <file>:<line> <kind> <name> -> <target> in <enclosing>
      const [site, kind, name, arrow, target, inWord, enclosing] = rest;
      if (arrow !== "->" || inWord !== "in" || !enclosing) throw new Error(`bad truth line: ${line}`);
      t.refs.push(`${site} ${kind} ${name} -> ${target} in ${enclosing}`);
      if (kind === "call" && enclosing !== "-") t.calls.push(`${enclosing} -> ${target}`);
    } else if (word === "impl") t.impls.push(`${rest[0]} -> ${rest[2]}`);
    else if (word === "cycle") t.cycles.push([...rest].sort().join(" "));
    else throw new Error(`bad truth line: ${line}`);
  }
  t.calls = [...new Set(t.calls)];
  return t;
}

export interface Score {
  precision: number;
  recall: number;
  missing: string[];
  extra: string[];
}

/** Precision and recall of a predicted multiset against the truth multiset. */
export function score(predicted: string[], truth: string[]): Score {
  const left = new Map<string, number>();
  for (const t of truth) left.set(t, (left.get(t) ?? 0) + 1);
  const extra: string[] = [];
  let hit = 0;
  for (const p of predicted) {
    const n = left.get(p) ?? 0;
    if (n > 0) {
      hit++;
      left.set(p, n - 1);
    } else extra.push(p);
  }
  const missing = [...left.entries()].flatMap(([k, n]) => Array(n).fill(k) as string[]);
  return {
    precision: predicted.length === 0 ? (truth.length === 0 ? 1 : 0) : hit / predicted.length,
    recall: truth.length === 0 ? 1 : hit / truth.length,
    missing,
    extra,
  };
}

const TYPE_KINDS = new Set(["struct", "interface", "class", "enum", "type_alias", "trait", "union", "record", "object", "module", "namespace"]);

/** Indexes the fixture of `lang` and measures every category against its truth. */
export function truthSuite(lang: string): void {
  test(`${lang}: definitions, references, callers, callees, implementations and cycles reach ${THRESHOLD} precision and recall`, async () => {
    const p = copyFixture(join("graph", lang));
    const session = new Session(p.root);
    try {
      await session.index();
      const truth = readTruth(join(p.root, "truth.txt"));
      const store = await session.requireStore();
      const g = new GraphStore(store);
      const engine = await session.graph();
      const symbols = g.allSymbols();
      const byId = new Map(symbols.map((s) => [s.id, s]));

      const defs = symbols.map((s) => `${s.qname} ${s.kind} ${s.file}:${s.line}`);
      const refs: string[] = [];
      g.forEachRef((r) => {
        if (r.targetId === null) return;
        const target = byId.get(r.targetId);
        const enclosing = r.enclosingId === null ? undefined : byId.get(r.enclosingId);
        refs.push(`${r.file}:${r.line} ${r.kind} ${r.name} -> ${target?.qname ?? "?"} in ${enclosing?.qname ?? "-"}`);
      });

      const run = (operation: "callers" | "callees" | "implementations", target: string) =>
        engine.run({ operation, target, depth: 1, maxResults: 500, level: "file", includeContext: false, contextLines: 0 });
      const callerPairs = new Set<string>();
      const calleePairs = new Set<string>();
      for (const f of symbols) {
        for (const e of (await run("callers", f.qname)).edges)
          if (e.from.kind === "symbol" && e.to.name === f.qname) callerPairs.add(`${e.from.name} -> ${e.to.name}`);
        for (const e of (await run("callees", f.qname)).edges)
          if (e.to.kind === "symbol" && e.from.name === f.qname) calleePairs.add(`${e.from.name} -> ${e.to.name}`);
      }
      const implPairs = new Set<string>();
      for (const t of symbols.filter((s) => TYPE_KINDS.has(s.kind))) {
        for (const e of (await run("implementations", t.qname)).edges)
          if (e.depth === 1 && e.to.name === t.qname) implPairs.add(`${e.from.name} -> ${e.to.name}`);
      }
      const cycles = (await engine.cycles({ limit: 500 })).cycles.map((c) => [...(c.component ?? c.files.slice(0, -1))].sort().join(" "));

      const scores: Record<string, Score> = {
        definitions: score(defs, truth.defs),
        references: score(refs, truth.refs),
        callers: score([...callerPairs], truth.calls),
        callees: score([...calleePairs], truth.calls),
        implementations: score([...implPairs], truth.impls),
        cycles: score(cycles, truth.cycles),
      };
      const lines = Object.entries(scores).map(
        ([k, s]) => `  ${lang.padEnd(10)} ${k.padEnd(16)} precision ${s.precision.toFixed(3)}  recall ${s.recall.toFixed(3)}`,
      );
      console.log(lines.join("\n"));
      for (const [k, s] of Object.entries(scores)) {
        if (s.precision < 1 || s.recall < 1)
          console.log(`${lang} ${k}: missing ${JSON.stringify(s.missing, null, 1)}\nextra ${JSON.stringify(s.extra, null, 1)}`);
      }
      for (const [k, s] of Object.entries(scores)) {
        expect(`${k} precision ${s.precision >= THRESHOLD ? "ok" : s.precision.toFixed(3)}`).toBe(`${k} precision ok`);
        expect(`${k} recall ${s.recall >= THRESHOLD ? "ok" : s.recall.toFixed(3)}`).toBe(`${k} recall ok`);
      }
    } finally {
      session.close();
      p.cleanup();
    }
  }, 60_000);
}
