/**
 * Search chunks from one file, in the four types of the cortex_search specification:
 *   symbols        a code file's overview (package, imports, types, functions with their lines)
 *   definitions    each function, method and type with its doc comment and body (long ones split with
 *                  overlap; a class keeps its members' signatures, their bodies live in their own chunks)
 *   data           constants, variables and enum members; configuration files
 *   documentation  Markdown / reST / text split by headings at every level, size-bounded
 * Ids are stable across edits elsewhere in the file (type, path, symbol path or heading path, part),
 * never line numbers. Runs in the parse workers, from the facts of the one parse.
 */
import type { ChunkRecord } from "../store/types.ts";
import type { FileFacts, TypeFact, VariableFact } from "../lang/types.ts";
import { TEXT_KEY_HEX, sha256, textKey } from "../core/hash.ts";
import { textWords, type TextWords } from "../store/keyword-words.ts";
import { MAX_LINE_CHARS, clipLine, contentLines, encodeSpans, type ChunkSpan } from "../store/chunk-text.ts";
import { parse as parseYaml } from "yaml";

/**
 * The hasher of chunk texts rendered piece by piece (ChunkSink.render), reused from chunk to chunk: a
 * digest starts it again. Checked once, since that is how Bun's hasher behaves rather than what it
 * documents: when it does not, texts are built and hashed whole.
 */
const chunkHasher = new Bun.CryptoHasher("sha256");
const reusableHasher = ((): boolean => {
  chunkHasher.update("a");
  chunkHasher.digest("hex");
  chunkHasher.update("b");
  return chunkHasher.digest("hex") === sha256("b");
})();

const MAX_LINES = 80;
const MAX_CHARS = 4000;
const OVERLAP = 10;

const DOC_LANGUAGES = new Set(["markdown", "restructuredtext", "asciidoc", "text"]);
/** Formats with no search value of their own (generated, tabular or binary-like text). */
const NOT_CHUNKED = new Set(["lockfile", "go-sum", "csv", "tsv", "svg", "jupyter"]);
const CONFIG_LANGUAGES = new Set(["json", "yaml", "toml", "ini", "config", "dotenv", "xml", "properties", "hcl", "terraform", "editorconfig"]);

export interface ChunkInput {
  path: string;
  language: string;
  text: string;
  isTest: boolean;
  facts?: FileFacts;
  /** The text's words (store/keyword-words.ts textWords), when the caller has scanned it already. */
  words?: TextWords;
}

/** Directory segments of a path, as tags ("internal/auth/x.go" → internal, auth). */
function pathTags(path: string): string[] {
  return path
    .split("/")
    .slice(0, -1)
    .filter((s) => s.length > 0 && s !== "." && s.length <= 40)
    .map((s) => s.toLowerCase());
}

class ChunkSink {
  readonly chunks: ChunkRecord[] = [];
  private readonly ids = new Set<string>();
  private readonly repeats = new Map<string, number>();
  private readonly pathWords: string;
  /** The tags of a chunk of each type without tags of its own: one array for all of them. */
  private readonly typeTags = new Map<string, string[]>();
  private readonly titles = new Map<string, string>();
  constructor(
    private readonly input: ChunkInput,
    private readonly words: TextWords,
    private readonly baseTags: string[],
  ) {
    this.pathWords = words.keywordText(input.path);
  }

  /**
   * Adds a chunk whose text is `prefix` followed by the spans' lines (store/chunk-text.ts): the store keeps
   * the prefix and the spans, and reads the lines back from the file's content.
   */
  add(
    type: ChunkRecord["chunkType"],
    key: string,
    title: string,
    startLine: number,
    endLine: number,
    prefix: string,
    spans: ChunkSpan[],
    extra: { symbolPath?: string; tags?: string[]; metadata?: Record<string, unknown> } = {},
  ): void {
    // the body's words as the text is rendered, but for an overview (its prefix is its text) and a prefix
    // whose last line would run into the first line's words (none is written so)
    const bodyWords = type !== "symbols" && (prefix === "" || prefix.endsWith("\n"));
    if (bodyWords) {
      this.words.begin();
      this.words.addText(prefix.slice(prefix.indexOf("\n") + 1));
    }
    // a chunk under a header (its first character not blank, so neither is its text) is hashed as it is
    // rendered, its text never built; any other is rendered, and left out when blank
    let text = "";
    let textHash: string;
    if (bodyWords && prefix.charCodeAt(0) > 32 && reusableHasher) {
      this.render(prefix, spans, true, true);
      textHash = chunkHasher.digest("hex").slice(0, TEXT_KEY_HEX);
    } else {
      text = this.render(prefix, spans, bodyWords, false);
      if (!(prefix.charCodeAt(0) > 32) && text.trim() === "") return;
      textHash = textKey(text);
    }
    // without the prefix's first line (not an overview's: its prefix is its text), a header whose words
    // the other columns hold: the kind and symbol path (title, symbols) and the file's path (path).
    // Kept, they were a quarter of boost's body words, 5.9 MiB of its keyword index. Finished before the
    // other columns' compactions begin.
    const body = bodyWords ? this.words.finish() : this.words.keywordText(type === "symbols" ? text : text.slice(prefix.indexOf("\n") + 1));
    const id = this.uniqueId(`${type}:${this.input.path}#${key}`);
    let tags: string[];
    if (extra.tags === undefined) {
      let shared = this.typeTags.get(type);
      if (!shared) this.typeTags.set(type, (shared = [...new Set([...this.baseTags, type])]));
      tags = shared;
    } else tags = [...new Set([...this.baseTags, type, ...extra.tags])];
    const c: ChunkRecord = {
      id,
      chunkType: type,
      title,
      language: this.input.language,
      startLine,
      endLine,
      tags,
      prefix,
      spans: encodeSpans(spans),
      textHash,
    };
    c.words = {
      symbols: this.words.keywordText(extra.symbolPath ?? ""),
      // the title without the symbol path its title repeats (a definition's `<symbol path> (<kind>)`, a
      // section's `<document> > <heading path>`): the symbols column holds those words, and keyword search
      // weighs it with the title's weight added (store/chunk-search.ts). 2.5 million of boost's positions.
      title: extra.symbolPath && title.includes(extra.symbolPath) ? this.titleWords(title.replace(extra.symbolPath, " ")) : this.words.keywordText(title),
      path: this.pathWords,
      body,
    };
    if (extra.symbolPath) c.symbolPath = extra.symbolPath;
    if (extra.metadata) c.metadata = extra.metadata;
    this.chunks.push(c);
  }

  /**
   * The words of a title without its symbol path: the same few texts again and again in a file (a
   * definition's `  (function)`, a section's `guide.md >  `), kept.
   */
  private titleWords(rest: string): string {
    let words = this.titles.get(rest);
    if (words === undefined) this.titles.set(rest, (words = this.words.keywordText(rest)));
    return words;
  }

  /**
   * renderChunk's text (store/chunk-text.ts) from the file's text: each run of whole lines one slice of it,
   * rather than the file split into lines and joined again. With `words`, each rendered line's words are
   * added to the compaction begun: a whole line's from the file's scan, any other line's scanned. With
   * `hash`, the text goes to chunkHasher piece by piece instead (its sha256 is the whole text's), and ""
   * is returned: a chunk's text was a copy of its lines made only to be hashed.
   */
  private render(prefix: string, spans: ChunkSpan[], words: boolean, hash: boolean): string {
    const w = this.words;
    const text = w.text;
    const starts = w.lineStarts;
    let out = hash ? "" : prefix;
    if (hash) chunkHasher.update(prefix);
    let first = true;
    for (const sp of spans) {
      if (sp === "…") {
        if (hash) chunkHasher.update(first ? "    …" : "\n    …");
        else out += first ? "    …" : "\n    …";
        first = false;
        continue;
      }
      const to = Math.min(sp.to, w.lines);
      let l = sp.from;
      while (l <= to) {
        if (sp.end === undefined && w.lineLength(l) <= MAX_LINE_CHARS) {
          let b = l;
          while (b < to && w.lineLength(b + 1) <= MAX_LINE_CHARS) b++;
          const a = starts[l - 1]!;
          if (!hash) out += first ? text.slice(a, starts[b]! - 1) : "\n" + text.slice(a, starts[b]! - 1);
          // after another piece: from the newline ending the line before (a line after the first has one)
          else if (first || a === 0) {
            if (!first) chunkHasher.update("\n");
            chunkHasher.update(text.slice(a, starts[b]! - 1));
          } else chunkHasher.update(text.slice(a - 1, starts[b]! - 1));
          first = false;
          if (words) w.addLines(l, b);
          l = b + 1;
          continue;
        }
        // as store/chunk-text.ts chunkLines: a line cut at its columns, or clipped
        let line = text.slice(starts[l - 1]!, starts[l]! - 1);
        let col = l === sp.from ? (sp.col ?? 1) : 1;
        if (sp.end !== undefined) {
          line = line.slice(l === sp.from ? col - 1 : 0, l === sp.to ? Math.max(0, sp.end - 1) : line.length);
          col = 1;
        }
        const part = clipLine(line, col);
        if (hash) chunkHasher.update(first ? part : "\n" + part);
        else out += first ? part : "\n" + part;
        first = false;
        if (words) w.addText(part);
        l++;
      }
    }
    return out;
  }

  /**
   * The id itself, or with "~2", "~3"… when a chunk of the file already has it (overloads, repeated keys).
   * Ids are unique within a file by construction: the store inserts them plainly, since INSERT OR REPLACE
   * with foreign keys on made every chunk insert of an incremental run 40 times slower.
   */
  private uniqueId(base: string): string {
    // the usual id, met for the first time: a base in `repeats` is in `ids` too
    if (!this.ids.has(base)) {
      this.ids.add(base);
      return base;
    }
    let n = this.repeats.get(base) ?? 1;
    let id = base;
    while (this.ids.has(id)) id = `${base}~${++n}`;
    this.repeats.set(base, n);
    this.ids.add(id);
    return id;
  }
}

/**
 * Splits lines [from, to] (1-based, inclusive) into windows of at most MAX_LINES / MAX_CHARS with overlap:
 * windowsOver of the lines from `from` to `to`, without their list.
 */
function windows(words: TextWords, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const total = to - from + 1;
  let start = 0;
  while (start < total) {
    let end = start;
    let chars = 0;
    while (end < total && end - start < MAX_LINES && chars + words.lineLength(from + end) + 1 <= MAX_CHARS) {
      chars += words.lineLength(from + end) + 1;
      end++;
    }
    if (end === start) end = start + 1; // a single over-long line still makes progress
    out.push([from + start, from + end - 1]);
    if (end >= total) break;
    start = Math.max(start + 1, end - OVERLAP);
  }
  return out;
}

/**
 * Splits the listed lines (ascending 1-based numbers) into windows of at most MAX_LINES / MAX_CHARS of
 * them, overlapping by OVERLAP; each window as its first and last line.
 */
function windowsOver(words: TextWords, numbers: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  while (start < numbers.length) {
    let end = start;
    let chars = 0;
    while (end < numbers.length && end - start < MAX_LINES && chars + words.lineLength(numbers[end]!) + 1 <= MAX_CHARS) {
      chars += words.lineLength(numbers[end]!) + 1;
      end++;
    }
    if (end === start) end = start + 1; // a single over-long line still makes progress
    out.push([numbers[start]!, numbers[end - 1]!]);
    if (end >= numbers.length) break;
    start = Math.max(start + 1, end - OVERLAP);
  }
  return out;
}

/** Lines [from, to], the first from `firstColumn`, the last before `endColumn` when given. */
function span(from: number, to: number, firstColumn = 1, endColumn?: number): ChunkSpan[] {
  const s: ChunkSpan = { from, to };
  if (firstColumn > 1) s.col = firstColumn;
  if (endColumn !== undefined) s.end = endColumn;
  return [s];
}

/**
 * Where a definition's text ends on its last line: at the first column where another definition (not one
 * of its own members) starts on that line, after its own start; or, for a one-line definition after
 * another one on its line (not its container), at the line's end (the span then starts at its column).
 * Facts carry no end column, and generated C++ puts hundreds of definitions on one line of thousands of
 * characters (boost's typeof/vector100.hpp: 16,164 definitions in 321 lines); each chunk ran to the end
 * of the line, up to MAX_LINE_CHARS, so the line's words were indexed once per definition on it (130,000
 * of boost's chunks, 111 MB of text).
 */
function endColumns(
  facts: FileFacts,
  words: TextWords,
): (d: { qualifiedName: string; startLine: number; endLine: number; startColumn: number }) => number | undefined {
  const starts = new Map<number, Array<{ column: number; qualifiedName: string }>>();
  for (const d of [...facts.functions, ...facts.types]) {
    let onLine = starts.get(d.startLine);
    if (!onLine) starts.set(d.startLine, (onLine = []));
    onLine.push({ column: d.startColumn, qualifiedName: d.qualifiedName });
  }
  for (const onLine of starts.values()) onLine.sort((a, b) => a.column - b.column);
  return (d) => {
    const onLine = starts.get(d.endLine);
    if (!onLine || onLine.length < 2) return undefined;
    const oneLine = d.startLine === d.endLine;
    const after = oneLine ? d.startColumn : 0;
    const member = d.qualifiedName + ".";
    for (const o of onLine) if (o.column > after && !o.qualifiedName.startsWith(member)) return o.column;
    const shared = oneLine && onLine.some((o) => o.column < d.startColumn && !d.qualifiedName.startsWith(o.qualifiedName + "."));
    return shared ? words.lineLength(d.endLine) + 1 : undefined;
  };
}

function definitionChunks(sink: ChunkSink, input: ChunkInput, words: TextWords, facts: FileFacts): void {
  // every definition by its first line, to find a type's members by binary search: generated files hold
  // thousands of one-line types, and a scan of every definition for each of them was quadratic
  const byStart = [...facts.functions, ...facts.types].sort((a, b) => a.startLine - b.startLine);
  const membersOf = (t: TypeFact) => {
    let lo = 0;
    let hi = byStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byStart[mid]!.startLine <= t.startLine) lo = mid + 1;
      else hi = mid;
    }
    const out: Array<FileFacts["functions"][number] | TypeFact> = [];
    for (let i = lo; i < byStart.length && byStart[i]!.startLine <= t.endLine; i++) if (byStart[i]!.endLine <= t.endLine) out.push(byStart[i]!);
    return out;
  };
  const endOf = endColumns(facts, words);
  const emit = (
    kind: string,
    symbolPath: string,
    name: string,
    parts: Array<[number, number]>,
    signature: string | undefined,
    body: (from: number, to: number) => ChunkSpan[],
  ) => {
    parts.forEach(([a, b], i) => {
      const header = `${kind} ${symbolPath} (${input.path}:${a}-${b})`;
      const prefix = i > 0 && signature ? `${header}\n${signature} …\n` : `${header}\n`;
      const key = parts.length > 1 ? `${symbolPath}@${i + 1}` : symbolPath;
      sink.add("definitions", key, `${symbolPath} (${kind})`, a, b, prefix, body(a, b), {
        symbolPath,
        metadata: { kind, name, part: i + 1, parts: parts.length },
      });
    });
  };
  const firstLine = (d: { startLine: number; docStartLine?: number }) =>
    d.docStartLine !== undefined && d.docStartLine < d.startLine ? d.docStartLine : d.startLine;
  for (const fn of facts.functions) {
    const symbolPath = symbolPathOf(fn.qualifiedName, facts.packageName);
    const end = endOf(fn);
    emit(fn.isMethod ? "method" : "function", symbolPath, fn.name, windows(words, firstLine(fn), fn.endLine), fn.signature, (a, b) =>
      span(a, b, a === fn.startLine ? fn.startColumn : 1, b === fn.endLine ? end : undefined),
    );
  }
  for (const t of facts.types) {
    const symbolPath = symbolPathOf(t.qualifiedName, facts.packageName);
    // a type's chunk (a namespace's too) shows its members' first lines: their doc comments and bodies,
    // nested types' included, are searchable in their own chunks (boost's namespaces repeated their whole
    // files, once per level of nesting: 175 MB of its chunk text; jdk17's classes every method's Javadoc)
    const hidden = new Set<number>();
    for (const m of membersOf(t)) {
      const from = m.docStartLine !== undefined && m.docStartLine > t.startLine && m.docStartLine < m.startLine ? m.docStartLine : m.startLine + 1;
      for (let l = from; l <= m.endLine; l++) if (l !== m.startLine) hidden.add(l);
    }
    const end = endOf(t);
    const visible: number[] = [];
    for (let l = firstLine(t); l <= t.endLine; l++) if (!hidden.has(l)) visible.push(l);
    const body = (a: number, b: number): ChunkSpan[] => {
      const out: ChunkSpan[] = [];
      let open: { from: number; to: number; col?: number; end?: number } | undefined;
      for (let l = a; l <= b && l <= words.lines; l++) {
        if (hidden.has(l)) {
          if (open || out[out.length - 1] !== "…") out.push("…");
          open = undefined;
          continue;
        }
        // the type's first line starts at its column: a span of its own starting there
        if (!open || l === t.startLine) {
          open = l === t.startLine && t.startColumn > 1 ? { from: l, to: l, col: t.startColumn } : { from: l, to: l };
          out.push(open);
        } else open.to = l;
        if (l === t.endLine && end !== undefined) open.end = end;
      }
      return out;
    };
    emit(t.kind, symbolPath, t.name, windowsOver(words, visible), undefined, body);
  }
}

/** `auth.Handler.ServeHTTP` in package auth → `Handler.ServeHTTP`; a Python module path stays. */
function symbolPathOf(qualifiedName: string, packageName: string | undefined): string {
  // the package and its dot compared apart: no `${packageName}.` string per definition
  const n = packageName ? packageName.length : 0;
  if (n > 0 && qualifiedName.charCodeAt(n) === 46 && qualifiedName.startsWith(packageName!)) return qualifiedName.slice(n + 1);
  return qualifiedName;
}

function dataChunks(sink: ChunkSink, input: ChunkInput, words: TextWords, variables: VariableFact[], facts: FileFacts): void {
  if (variables.length === 0) return;
  // merge the declarations' line ranges (a const block is one range), then window them
  const ranges = variables.map((v) => [v.startLine, v.endLine] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 2) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  let part = 0;
  for (const [a, b] of merged) {
    for (const [x, y] of windows(words, a, b)) {
      const names = variables.filter((v) => v.startLine <= y && v.endLine >= x).map((v) => symbolPathOf(v.qualifiedName, facts.packageName));
      part++;
      sink.add(
        "data",
        `values@${part}`,
        `${input.path} values: ${names.slice(0, 6).join(", ")}${names.length > 6 ? ", …" : ""}`,
        x,
        y,
        `values in ${input.path}:${x}-${y}\n`,
        span(x, y),
        { metadata: { names } },
      );
    }
  }
}

function symbolsChunk(sink: ChunkSink, input: ChunkInput, facts: FileFacts): void {
  const out: string[] = [`File: ${input.path}`, `Language: ${input.language}`];
  if (facts.packageName) out.push(`Package: ${facts.packageName}`);
  if (facts.imports.length) out.push(`Imports: ${[...new Set(facts.imports.map((i) => i.module))].join(", ")}`);
  if (facts.types.length) {
    out.push("Types:");
    for (const t of facts.types) out.push(`  - ${symbolPathOf(t.qualifiedName, facts.packageName)} (${t.kind}) (lines ${t.startLine}-${t.endLine})`);
  }
  if (facts.functions.length) {
    out.push("Functions:");
    for (const f of facts.functions) out.push(`  - ${f.signature || f.name} (lines ${f.startLine}-${f.endLine})`);
  }
  const consts = facts.variables.filter((v) => v.kind === "constant" || v.kind === "enum_member");
  if (consts.length) out.push(`Constants: ${consts.map((v) => v.name).join(", ")}`);
  sink.add("symbols", "file", `${input.path} symbols`, 1, facts.lines.total, out.join("\n"), [], {
    metadata: {
      package: facts.packageName ?? null,
      imports_count: facts.imports.length,
      types_count: facts.types.length,
      functions_count: facts.functions.length,
    },
  });
}

/** YAML front matter `tags:` (list or [a, b]) and inline #hashtags outside code. */
export function documentTags(text: string): { tags: string[]; bodyStart: number } {
  const tags = new Set<string>();
  let bodyStart = 0;
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  if (fm) {
    bodyStart = fm[0].split("\n").length - 1;
    let data: unknown;
    try {
      data = parseYaml(fm[1]!);
    } catch {
      data = undefined; // front matter that is not YAML carries no tags
    }
    const raw = data && typeof data === "object" ? ((data as Record<string, unknown>).tags ?? (data as Record<string, unknown>).keywords) : undefined;
    const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(/[,\s]+/) : [];
    for (const t of list)
      if (typeof t === "string" || typeof t === "number") {
        const v = String(t).trim().toLowerCase();
        if (v) tags.add(v);
      }
  }
  let inFence = false;
  for (const line of text.split("\n").slice(bodyStart)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || /^\s{4}/.test(line)) continue;
    for (const m of line.replace(/`[^`]*`/g, "").matchAll(/(?:^|[\s(])#([A-Za-z][\w-]{1,40})\b/g)) tags.add(m[1]!.toLowerCase());
  }
  return { tags: [...tags], bodyStart };
}

function documentationChunks(sink: ChunkSink, input: ChunkInput, words: TextWords): void {
  const lines = contentLines(input.text);
  const { tags, bodyStart } = documentTags(input.text);
  // headings: ATX (# …) and, for Markdown and reST, underlined ones (===, ---, ~~~)
  interface Section {
    level: number;
    title: string;
    start: number;
  }
  const heads: Section[] = [];
  let inFence = false;
  for (let i = bodyStart; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\s*(```|~~~)/.test(l)) inFence = !inFence;
    if (inFence) continue;
    const atx = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(l);
    if (atx) {
      heads.push({ level: atx[1]!.length, title: atx[2]!, start: i + 1 });
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && l.trim() !== "" && /^(={3,}|-{3,}|~{3,}|\^{3,})\s*$/.test(next) && !/^\s*[-*]\s/.test(l)) {
      heads.push({ level: next.startsWith("=") ? 1 : next.startsWith("-") ? 2 : 3, title: l.trim(), start: i + 1 });
      i++;
    }
  }
  const docName = input.path.slice(input.path.lastIndexOf("/") + 1);
  const sections: Array<{ path: string[]; start: number; end: number }> = [];
  const firstStart = heads[0]?.start ?? lines.length + 1;
  if (firstStart > bodyStart + 1) sections.push({ path: [], start: bodyStart + 1, end: firstStart - 1 });
  const stack: Section[] = [];
  heads.forEach((h, i) => {
    while (stack.length && stack[stack.length - 1]!.level >= h.level) stack.pop();
    stack.push(h);
    const end = (heads[i + 1]?.start ?? lines.length + 1) - 1;
    sections.push({ path: stack.map((s) => s.title), start: h.start, end });
  });
  for (const s of sections) {
    const parts = windows(words, s.start, Math.max(s.start, s.end));
    parts.forEach(([a, b], i) => {
      const headingPath = s.path.join(" > ");
      const key = (headingPath || "(top)") + (parts.length > 1 ? `@${i + 1}` : "");
      const title = headingPath ? `${docName} > ${headingPath}` : docName;
      const prefix = i > 0 && headingPath ? `${headingPath} (continued)\n` : "";
      sink.add("documentation", key, title, a, b, prefix, span(a, b), { tags, ...(headingPath ? { symbolPath: headingPath } : {}) });
    });
  }
}

export function buildChunks(input: ChunkInput): ChunkRecord[] {
  if (NOT_CHUNKED.has(input.language) || input.text.length === 0) return [];
  const isDoc = DOC_LANGUAGES.has(input.language);
  const base = [input.language, isDoc ? "documentation" : "code", ...pathTags(input.path)];
  if (input.isTest) base.push("test");
  const words = input.words ?? textWords(input.text);
  const sink = new ChunkSink(input, words, base);
  if (isDoc) documentationChunks(sink, input, words);
  else if (input.facts) {
    symbolsChunk(sink, input, input.facts);
    definitionChunks(sink, input, words, input.facts);
    dataChunks(sink, input, words, input.facts.variables, input.facts);
  } else if (CONFIG_LANGUAGES.has(input.language)) {
    windows(words, 1, words.lines).forEach(([a, b], i) =>
      sink.add("data", `config@${i + 1}`, `${input.path} (configuration)`, a, b, `configuration ${input.path}:${a}-${b}\n`, span(a, b)),
    );
  } else {
    windows(words, 1, words.lines).forEach(([a, b], i) =>
      sink.add("definitions", `lines@${i + 1}`, `${input.path}:${a}-${b}`, a, b, `${input.path}:${a}-${b}\n`, span(a, b)),
    );
  }
  return sink.chunks;
}
