/**
 * Splits a parse worker's CPU for one language into what tree-sitter does and what JavaScript does around
 * it, on one thread: the parse alone, the language's whole query (the WebAssembly call apart from turning
 * its matches into objects), each of the query's patterns run as a query of its own (with its match
 * count), extraction, line counts and the syntax-error count. parse-check.ts times the same steps as
 * indexing runs them and checks the answers; this script says which part of a step is worth cutting.
 *
 *   bun scripts/parse-split.ts <folder> --only c [--limit 3000] [--patterns] [--repeat 5] [--query]
 *
 * Files are walked, read and chosen as parse-check.ts does; a warm-up over up to 300 of them is not
 * counted. `--patterns` adds one query per top-level pattern of the module's query (each walks the whole
 * tree again, so the run takes several times longer). `--repeat N` runs every step after the parse N times
 * on each tree (the figures are per round): a change to the JavaScript side stands out of the machine's
 * noise better. A module that collects its matches without its query (module.ts, `collect`) is timed
 * that way; `--query` runs its query instead, as the parser did before.
 */
import { readCorpusTexts } from "./corpus-texts.ts";
import { Language, Parser, Query, type Tree } from "web-tree-sitter";
import { FactsParser, countSyntaxErrors } from "../src/lang/parser.ts";
import { grammarFiles } from "../src/lang/grammars.ts";
import { readEmbeddedFile } from "../src/core/embedded.ts";
import { moduleFor } from "../src/lang/registry.ts";
import { countLines } from "../src/lang/kit.ts";
import type { QueryMatch } from "../src/lang/module.ts";
import { threadCpuMicros } from "../src/core/thread-cpu.ts";

const args = process.argv.slice(2);
const root = args[0];
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = flag("--only");
if (!root || !only) {
  console.error("usage: bun scripts/parse-split.ts <folder> --only <language> [--limit N] [--patterns] [--repeat N] [--query]");
  process.exit(1);
}
const module = moduleFor(only);
if (!module) {
  console.error(`no language module ${only}`);
  process.exit(1);
}
const limit = Number(flag("--limit") ?? Infinity);
const perPattern = args.includes("--patterns");
const repeat = Number(flag("--repeat") ?? 1);
const forceQuery = args.includes("--query");
const { project, files } = readCorpusTexts(root, { only, limit });

// the runtime is initialised by FactsParser.create; the grammar and queries are this script's own
await FactsParser.create();
const language = await Language.load(readEmbeddedFile(grammarFiles[module.grammar]!));
const parser = new Parser();
parser.setLanguage(language);
const query = new Query(language, module.query);

/** The query's top-level patterns as written: balanced ( ) or [ ] groups, with their trailing captures. */
function topLevelPatterns(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "(" || ch === "[") {
      if (depth === 0) {
        if (start >= 0) out.push(source.slice(start, i).trim());
        start = i;
      }
      depth++;
    } else if (ch === ")" || ch === "]") depth--;
  }
  if (start >= 0) out.push(source.slice(start).trim());
  return out;
}
const patterns = perPattern ? topLevelPatterns(module.query).map((p) => ({ source: p, query: new Query(language, p), micros: 0, matches: 0 })) : [];

// the stage clock's own (threadCpuMicros: up to the call, where getrusage lags to the last tick)
const cpuMicros = threadCpuMicros;
const clock = { parse: 0, collect: 0, queryCall: 0, matchObjects: 0, lines: 0, errors: 0, extract: 0, treeDelete: 0 };
const counts = { files: 0, matches: 0, captures: 0, references: 0 };

function parseTree(text: string): Tree {
  const tree = parser.parse(text);
  if (!tree) throw new Error("no tree");
  return tree;
}

function run(f: { path: string; text: string }, measure: boolean): void {
  let t = cpuMicros();
  const lap = (stage: keyof typeof clock): void => {
    const now = cpuMicros();
    if (measure) clock[stage] += now - t;
    t = now;
  };
  const tree = parseTree(f.text);
  lap("parse");
  for (let round = 0; round < repeat; round++) afterParse(f, tree, measure, round === 0);
  t = cpuMicros();
  tree.delete();
  lap("treeDelete");
}

function afterParse(f: { path: string; text: string }, tree: Tree, measure: boolean, first: boolean): void {
  let t = cpuMicros();
  const lap = (stage: keyof typeof clock): void => {
    const now = cpuMicros();
    if (measure) clock[stage] += (now - t) / repeat;
    t = now;
  };
  const rootNode = tree.rootNode;
  let matches: QueryMatch[];
  let comments: Array<[number, number]>;
  if (module!.collect && !forceQuery) {
    ({ matches, comments } = module!.collect(rootNode, f.text));
    lap("collect");
  } else {
    const raw = query.matches(rootNode);
    lap("queryCall");
    matches = [];
    comments = [];
    for (const match of raw) {
      const out: QueryMatch = {};
      for (const c of match.captures) out[c.name] = c.node;
      if (measure && first) counts.captures += match.captures.length;
      const comment = out.comment;
      if (comment) comments.push([comment.startIndex, comment.endIndex]);
      else matches.push(out);
    }
    lap("matchObjects");
  }
  if (measure && first) counts.matches += matches.length + comments.length;
  countLines(f.text, comments);
  lap("lines");
  if (rootNode.hasError) countSyntaxErrors(rootNode);
  lap("errors");
  const extracted = module!.extract(tree, { path: f.path, source: f.text, project }, matches);
  lap("extract");
  if (measure && first) {
    counts.files++;
    counts.references += extracted.references.length;
    for (const p of patterns) {
      const s = cpuMicros();
      p.matches += p.query.matches(rootNode).length;
      p.micros += cpuMicros() - s;
    }
  }
}

for (const f of files.slice(0, 300)) run(f, false);
const start = cpuMicros();
for (const f of files) run(f, true);
const total = cpuMicros() - start - patterns.reduce((a, p) => a + p.micros, 0);

const s = (micros: number): string => `${(micros / 1e6).toFixed(2)} s`;
console.log(
  `files: ${counts.files} (${only}); matches ${counts.matches}${counts.captures > 0 ? `, captures ${counts.captures}` : ""}, references ${counts.references}`,
);
console.log(`all (this thread's CPU, patterns apart): ${s(total)}`);
console.log(`  tree-sitter parse: ${s(clock.parse)}`);
if (clock.collect > 0) console.log(`  the module's collect (instead of the query): ${s(clock.collect)}`);
else {
  console.log(`  query, the WebAssembly call and its Node objects (Query.matches): ${s(clock.queryCall)}`);
  console.log(`  query, capture objects by name and comment ranges: ${s(clock.matchObjects)}`);
}
console.log(`  line counts: ${s(clock.lines)}`);
console.log(`  syntax-error count: ${s(clock.errors)}`);
console.log(`  extraction (module.extract): ${s(clock.extract)}`);
console.log(`  tree.delete: ${s(clock.treeDelete)}`);
if (patterns.length > 0) {
  console.log("each top-level pattern as a query of its own (CPU, matches):");
  for (const p of patterns) console.log(`  ${s(p.micros)}  ${String(p.matches).padStart(9)}  ${p.source.replace(/\s+/g, " ").slice(0, 110)}`);
}
