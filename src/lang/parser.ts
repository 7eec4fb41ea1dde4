/**
 * Parses files into FileFacts with web-tree-sitter. One FactsParser per thread: it loads each grammar once,
 * compiles each query once, and frees every tree after extraction (trees live in WASM memory).
 */
import { Parser, Language, Query, Node } from "web-tree-sitter";
import * as jsc from "bun:jsc";
import type { FileFacts, LineCounts } from "./types.ts";
import type { CollectedMatches, Extracted, LanguageModule, QueryMatch } from "./module.ts";
import type { ProjectInfo } from "./project.ts";
import { countLines } from "./kit.ts";
import { grammarFiles, runtimeWasm } from "./grammars.ts";
import { readEmbeddedFile } from "../core/embedded.ts";
import { languageFor } from "./registry.ts";
import { log } from "../core/log.ts";
import { threadCpuMicros } from "../core/thread-cpu.ts";

let runtimeReady: Promise<void> | undefined;

/**
 * web-tree-sitter's Node getters and methods (childForFieldName, namedChildren, text…) each marshal the
 * node through WASM memory. JSC's optimizing compiler inlined them into every extraction function calling
 * them and spent 11.1 s compiling on a go-src cold index (1 s per thread for Go's functionDeclaration
 * alone). Kept out of line, each is compiled once: 4.7 s of compiling, cold go-src 40.0 → 37.1 s, Django
 * unchanged. Per thread, since each worker has its own engine; a Bun without bun:jsc's noInline inlines.
 */
function keepNodeAccessOutOfLine(): void {
  const noInline = (jsc as { noInline?: (f: unknown) => void }).noInline;
  if (typeof noInline !== "function") return;
  for (const key of Object.getOwnPropertyNames(Node.prototype)) {
    const d = Object.getOwnPropertyDescriptor(Node.prototype, key);
    if (d?.get) noInline(d.get);
    if (typeof d?.value === "function" && key !== "constructor") noInline(d.value);
  }
}
keepNodeAccessOutOfLine();

/** Longest a single file may take to parse. */
export const PARSE_TIME_LIMIT_MS = 10_000;

function initRuntime(): Promise<void> {
  // bytes rather than a path: inside the executable the runtime and grammars are embedded compressed
  runtimeReady ??= Parser.init({ wasmBinary: readEmbeddedFile(runtimeWasm) });
  return runtimeReady;
}

export interface ParsedFile {
  language: string;
  module?: LanguageModule;
  lines: LineCounts;
  facts?: FileFacts;
  /** The comments' [start, end) string offsets, for separating prose from code in keyword search. */
  comments?: Array<[number, number]>;
}

/** Counts lines of a text file that has no grammar: every non-blank line is content ("code"). */
export function plainLineCounts(text: string): LineCounts {
  return countLines(text, []);
}

/** CPU microseconds of the parse steps over the files parsed, for scripts/parse-check.ts. */
export interface ParseStageClock {
  parse: number;
  matches: number;
  lines: number;
  errors: number;
  extract: number;
}

export class FactsParser {
  /** When set, each step's thread CPU time is added to it (a measurement; off in indexing). */
  stageClock: ParseStageClock | undefined;
  private readonly parser: Parser;
  private readonly languages = new Map<string, Language>();
  private readonly queries = new Map<string, Query>();

  private readonly timeLimitMs: number;

  private constructor(parser: Parser, timeLimitMs: number) {
    this.parser = parser;
    this.timeLimitMs = timeLimitMs;
  }

  static async create(options: { timeLimitMs?: number } = {}): Promise<FactsParser> {
    await initRuntime();
    return new FactsParser(new Parser(), options.timeLimitMs ?? PARSE_TIME_LIMIT_MS);
  }

  private async language(m: LanguageModule): Promise<Language> {
    let lang = this.languages.get(m.id);
    if (!lang) {
      const file = grammarFiles[m.grammar];
      if (!file) throw new Error(`no grammar file ${m.grammar} for ${m.id}`);
      lang = await Language.load(readEmbeddedFile(file));
      this.languages.set(m.id, lang);
    }
    return lang;
  }

  private query(lang: Language, key: string, source: string): Query {
    // One compiled query per language per thread.
    let q = this.queries.get(key);
    if (!q) {
      q = new Query(lang, source);
      this.queries.set(key, q);
    }
    return q;
  }

  /** Parses one file. Files without a grammar get line counts only. */
  async parse(path: string, text: string, project: ProjectInfo): Promise<ParsedFile> {
    const choice = languageFor(path, text);
    const m = choice.module;
    if (!m) return { language: choice.language, lines: plainLineCounts(text) };
    const lang = await this.language(m);
    this.parser.setLanguage(lang);
    // A time limit per file: some grammars spend seconds recovering from errors in a pathological file
    // (a preprocessor maze, a generated table); such a file is indexed as text rather than holding up the run.
    const clock = this.stageClock;
    let t = clock ? threadCpuMicros() : 0;
    const lap = (stage: keyof ParseStageClock): void => {
      if (!clock) return;
      const now = threadCpuMicros();
      clock[stage] += now - t;
      t = now;
    };
    const deadline = performance.now() + this.timeLimitMs;
    let timedOut = false;
    const tree = this.parser.parse(text, null, {
      progressCallback: () => {
        if (performance.now() > deadline) timedOut = true;
        return timedOut;
      },
    } as never);
    if (!tree || timedOut) {
      tree?.delete();
      if (timedOut) log.warn(`${path}: parsing took over ${this.timeLimitMs / 1000} s; indexed as text without code facts`);
      this.parser.reset();
      return { language: choice.language, lines: plainLineCounts(text) };
    }
    lap("parse");
    try {
      const root = tree.rootNode;
      const { matches, comments } = m.collect ? m.collect(root, text) : queryMatches(this.query(lang, m.id, m.query), root);
      lap("matches");
      const lines = countLines(text, comments);
      lap("lines");
      let syntaxErrors = 0;
      const missingStarts = new Set<number>();
      if (root.hasError) syntaxErrors = countSyntaxErrors(root, missingStarts);
      lap("errors");
      let extracted: Extracted;
      try {
        extracted = m.extract(tree, { path, source: text, project, missingStarts }, matches);
      } catch (e) {
        log.warn(`could not extract facts from ${path}: ${(e as Error).message}`);
        extracted = { types: [], functions: [], variables: [], imports: [], references: [] };
      }
      lap("extract");
      return { language: m.id, module: m, lines, comments, facts: { language: m.id, lines, syntaxErrors, ...extracted } };
    } finally {
      tree.delete();
    }
  }
}

/** A query's matches by capture name, the comments apart (as [start, end) offsets). */
export function queryMatches(query: Query, root: Node): CollectedMatches {
  const matches: QueryMatch[] = [];
  const comments: Array<[number, number]> = [];
  for (const match of query.matches(root)) {
    const out: QueryMatch = {};
    for (const c of match.captures) out[c.name] = c.node;
    const comment = out.comment;
    if (comment) comments.push([comment.startIndex, comment.endIndex]);
    else matches.push(out);
  }
  return { matches, comments };
}

/**
 * Counts ERROR and MISSING nodes (MISSING: tokens the parser inserted to recover). Only subtrees that
 * hold an error are entered (`hasError` is true on every ancestor of one): the whole-tree walks this
 * replaced (descendantsOfType("ERROR") in WASM, then every node through a cursor in JavaScript) took
 * 9.6 of 48.7 s of parse-tier CPU on a sixth of the kernel, where 43 % of the files have errors (macros).
 * Cursors live in WASM memory: delete them.
 */
export function countSyntaxErrors(root: Node, missingStarts?: Set<number>): number {
  let n = 0;
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      // an ERROR node can have no error cost of its own (hasError false): counted where it is met
      if (node.isError) n++;
      else if (node.isMissing) {
        n++;
        missingStarts?.add(node.startIndex);
      }
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return n;
    }
  } finally {
    cursor.delete();
  }
}
