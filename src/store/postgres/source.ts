/**
 * Reading a finished SQLite index for publication: every file's state, and one file's rows at a time in
 * the shapes the shared store's tables take (booleans as booleans, text decompressed, chunk texts
 * rendered from their spans). Store-internal: it reads the index's connection.
 */
import type { Database, Statement } from "bun:sqlite";
import { wordsByLine, wordsText } from "../../core/words.ts";
import { type ChunkSpan, chunkLines, contentLines, decodeSpans, prefixText } from "../chunk-text.ts";
import { contentBytes, contentText } from "../content-codec.ts";
import { ContentIndex, SEGMENTS } from "../content-index.ts";
import { decodePostings, TrigramExtractor, unionSorted } from "../trigrams.ts";
import type { IndexStore } from "../index-store.ts";
import { sqliteOf } from "../sqlite-access.ts";
import { emptyProjectInfo, type ProjectInfo } from "../../lang/project.ts";
import { dirOf } from "../../core/rel-path.ts";
import { ProvidedKeys, requestedKeys } from "./package-keys.ts";
import { decodeQualifiedName, enclosingOfRare, qualifierTypeOfRare, REF_KINDS, RESOLUTIONS, signatureText, SYMBOL_KINDS, TYPE_KINDS } from "../schema.ts";

export interface SourceFile {
  fileId: number;
  path: string;
  language: string;
  contentHash: string;
  sizeBytes: number;
  mtimeMs: number;
}

type Row = Record<string, unknown>;

/**
 * Keyword words kept of one text: a tsvector holds at most 1 MB, and a minified file's words would
 * exceed it; the first 256 K characters of words rank a file as well as all of them.
 */
const MAX_WORDS_CHARS = 256 * 1024;

/** SQLite's 0/1 as JSON booleans for the named columns. */
function booleans(rows: Row[], columns: string[]): Row[] {
  for (const r of rows) for (const c of columns) r[c] = r[c] === null ? null : Boolean(r[c]);
  return rows;
}

/** The chunks' columns read from the index (prefix and spans make the text; the others go to the store). */
const CHUNK_COLUMNS = [
  "chunk_id",
  "chunk_type",
  "title",
  "symbol_path",
  "language",
  "start_line",
  "end_line",
  "tags",
  "lower(hex(text_hash)) AS text_hash",
  "prefix",
  "spans",
] as const;
const CHUNK_NAMES = CHUNK_COLUMNS.map((c) => c.replace(/^.* AS /, ""));
const PREFIX = CHUNK_NAMES.indexOf("prefix");
const SPANS = CHUNK_NAMES.indexOf("spans");

/** A chunk as read from the index: what makes its text, and its row for the store. */
interface StoredChunk {
  filePath: string;
  rowid: number;
  prefix: string | Uint8Array;
  spans: string;
  row: Row;
}

/** The rows of one file, keyed by the shared store's table. */
export interface FileRows {
  /** What digest(f) gives: the publisher compares it with the live generation's. */
  digest: string;
  content: string;
  /** Keyword words of the whole file: its path, the names it defines, its text (the first MAX_WORDS_CHARS of fileWords). */
  words: { path: string; defs: string; code: string };
  /** The words of the file's whole text, of which chunks' words (w_body) name ranges. */
  fileWords: string;
  statFile: Row | undefined;
  types: Row[];
  functions: Row[];
  imports: Row[];
  symbols: Row[];
  refs: Row[];
  sites: Row[];
  edges: Row[];
  chunks: Row[];
  /** Cross-repository resolution (package-keys.ts): the keys the file provides, and those its unresolved imports ask for. */
  packageKeys: Row[];
  importKeys: Row[];
}

/**
 * A chunk's keyword words as pieces joined by spaces: words texts, and ranges [start, end) of its file's
 * words (FileRows.fileWords) that are the words of its whole lines. The publisher tokenizes each file's
 * words once and takes a chunk's whole lines' tokens from there: scanning every chunk's text for its
 * words and tokenizing them again was a fifth of the publisher's CPU, chunks repeating their file's lines.
 */
export type WordPieces = Array<string | readonly [number, number]>;

/** The words text of a chunk's w_body (a text, or pieces of `fileWords`): wordsText of its text, the first MAX_WORDS_CHARS. */
export function bodyWords(body: string | WordPieces, fileWords: string): string {
  if (typeof body === "string") return body;
  return body
    .map((p) => (typeof p === "string" ? p : fileWords.slice(p[0], p[1]).trim()))
    .filter((w) => w !== "")
    .join(" ");
}

/** Whether a character code is one of a word's (core/words.ts: ASCII letters, digits, _). */
function wordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * A chunk's text (renderChunk's) and its words: as pieces when its prefix ends between words (a word
 * cannot run from the prefix into the first line) and the words fit MAX_WORDS_CHARS, else the words text
 * of the whole text cut there, as before.
 */
function chunkBody(
  prefix: string,
  spans: ChunkSpan[],
  lines: string[],
  file: { words: string; starts: Int32Array },
): { text: string; words: string | WordPieces } {
  const out: string[] = [];
  const pieces: WordPieces = [];
  const prefixWords = wordsText(prefix);
  if (prefixWords !== "") pieces.push(prefixWords);
  let length = prefixWords.length;
  let count = prefixWords === "" ? 0 : 1;
  let open: [number, number] | undefined;
  chunkLines(
    spans,
    lines,
    (l) => {
      out.push(lines[l - 1]!);
      const a = file.starts[l - 1]!;
      const b = file.starts[l]!;
      if (b === a) return;
      // the line's words after the space that separates them from the words before them
      length += b - a - (a > 0 ? 1 : 0);
      count++;
      if (open !== undefined && open[1] === a) {
        open[1] = b;
        count--;
        length += a > 0 ? 1 : 0;
      } else {
        open = [a, b];
        pieces.push(open);
      }
    },
    (text) => {
      out.push(text);
      const w = wordsText(text);
      open = undefined;
      if (w === "") return;
      pieces.push(w);
      length += w.length;
      count++;
    },
  );
  const text = prefix + out.join("\n");
  const joinable = prefix === "" || !wordChar(prefix.charCodeAt(prefix.length - 1));
  if (!joinable || length + Math.max(0, count - 1) > MAX_WORDS_CHARS) return { text, words: wordsText(text).slice(0, MAX_WORDS_CHARS) };
  return { text, words: pieces };
}

/** The digest of a file's content hash and graph rows, as read from the index (before booleans are converted). */
function rowsDigest(f: SourceFile, symbols: Row[], refs: Row[], sites: Row[], edges: Row[], cross: { packageKeys: Row[]; importKeys: Row[] }): string {
  return Bun.hash(JSON.stringify([f.contentHash, symbols, refs, sites, edges, cross])).toString(36);
}

/** A file's state as the publisher reads its rows by id range (file_state). */
interface FileRanges {
  symbolFirst: number | null;
  symbolLast: number | null;
  refFirst: number | null;
  refLast: number | null;
  pkg: string | null;
}

/** symbol_rows' columns as the statement `symbols` reads them. */
type SymbolValues = [
  id: number,
  name: string,
  qualified: string | null,
  scope: number | null,
  kind: number,
  container: number | null,
  startLine: number,
  startColumn: number,
  endLine: number,
  exported: number,
  signature: string | null,
];
/** ref_rows' columns as the statement `refs` reads them. */
type RefValues = [
  id: number,
  nameId: number,
  qualifierId: number | null,
  kind: number,
  line: number,
  column: number,
  enclosingOffset: number | null,
  rare: string | null,
  target: number | null,
  resolution: number | null,
];

/**
 * Reads the rows of a finished index for publication from its tables, not its views: the views (symbols,
 * refs, import_sites, import_edge_files, types, functions, imports) find a file by path and join its
 * state, names and scopes per row, which was a third of the publisher's reading (go-src's 785,000
 * references: 1.05 s through the view, 0.27 s from ref_rows with the names read once). Each row is
 * decoded here as the view decodes it (schema.ts), into the same object with the same keys in the same
 * order, so the rows and their digest are the views' (test/store/postgres/source.test.ts compares them).
 */
export class IndexSource {
  private readonly db: Database;
  /**
   * A batch's chunks in one statement (their paths as a JSON array): the chunks view read file by file
   * cost go-src 1.3 s, a statement per 500 files 0.35 s, for the same rows.
   */
  private readonly batchChunks: Statement<unknown[], [string]>;
  private readonly st: {
    content: Statement<Row, [number]>;
    file: Statement<Row, [number]>;
    types: Statement<unknown[], [number]>;
    functions: Statement<unknown[], [number]>;
    imports: Statement<unknown[], [number]>;
    symbols: Statement<unknown[], [number, number, number]>;
    symbol: Statement<unknown[], [number]>;
    refs: Statement<unknown[], [number, number, number]>;
    sites: Statement<unknown[], [number]>;
    edges: Statement<unknown[], [number]>;
  };
  /** Read once, when first needed: every file's id ranges, scope names, reference names, import targets' paths. */
  private ranges: Map<number, FileRanges> | undefined;
  private scopes: Map<number, string> | undefined;
  private refNames: Map<number, string> | undefined;

  constructor(store: IndexStore) {
    this.db = sqliteOf(store);
    this.st = {
      content: this.db.prepare("SELECT z FROM contents WHERE file_id = ?"),
      file: this.db.prepare(`SELECT is_test, module_path, lines_total, lines_code, lines_comment, lines_blank, last_modified, type_count,
        function_count, import_count FROM file_rows WHERE file_id = ?`),
      types: this.db.prepare("SELECT name, kind, start_line, end_line, is_exported, field_count, method_count FROM type_rows WHERE file_id = ?"),
      functions: this.db.prepare(`SELECT name, start_line, end_line, is_exported, is_method, receiver_type, param_count, return_count, lines, complexity
        FROM function_rows WHERE file_id = ?`),
      imports: this.db.prepare(`SELECT m.name, i.is_standard_lib, i.is_external, i.is_relative, i.symbol_count FROM import_rows i
        JOIN import_modules m ON m.module_id = i.module_id WHERE i.file_id = ?`),
      symbols: this.db.prepare(`SELECT symbol_id, name, qualified_name, scope, kind, container, start_line, start_column, end_line, is_exported, signature
        FROM symbol_rows WHERE symbol_id BETWEEN ?1 AND ?2 AND file_id = ?3 ORDER BY symbol_id`),
      symbol: this.db.prepare("SELECT symbol_id, name, qualified_name, scope, kind, container FROM symbol_rows WHERE symbol_id = ?"),
      refs: this.db.prepare(`SELECT ref_id, name_id, qualifier_id, kind, line, "column", enclosing_offset, rare, target_symbol_id, resolution
        FROM ref_rows WHERE ref_id BETWEEN ?1 AND ?2 AND file_id = ?3 ORDER BY ref_id`),
      sites: this.db.prepare(`SELECT s.site_id, m.name, s.alias, s.symbols, s.line, s."column" FROM import_site_rows s
        JOIN import_modules m ON m.module_id = s.module_id WHERE s.file_id = ? ORDER BY s.site_id`),
      // every edge row of the file's sites (a site with one is not open); the targets' paths are read once
      edges: this.db.prepare(`SELECT e.site_id, e.target_id FROM import_site_rows s JOIN import_edge_rows e ON e.site_id = s.site_id
        WHERE s.file_id = ? ORDER BY e.site_id`),
    };
    this.batchChunks = this.db.prepare<unknown[], [string]>(
      `SELECT file_path, rowid, ${CHUNK_COLUMNS.join(", ")} FROM chunks WHERE file_path IN (SELECT value FROM json_each(?))`,
    );
  }

  /** A file's id ranges and package (file_state), all files' read at the first call. */
  private rangesOf(fileId: number): FileRanges | undefined {
    if (this.ranges === undefined) {
      this.ranges = new Map();
      for (const [id, sf, sl, rf, rl, pkg] of this.db
        .query("SELECT file_id, symbol_first, symbol_last, ref_first, ref_last, package_name FROM file_state")
        .values() as Array<[number, number | null, number | null, number | null, number | null, string | null]>)
        this.ranges.set(id, { symbolFirst: sf, symbolLast: sl, refFirst: rf, refLast: rl, pkg });
    }
    return this.ranges.get(fileId);
  }

  /** A scope's or container's text by its symbol_scopes id, every scope read at the first call. */
  private readonly scopeName = (id: number): string | null => {
    if (this.scopes === undefined) this.scopes = new Map(this.db.query("SELECT scope_id, name FROM symbol_scopes").values() as Array<[number, string]>);
    return this.scopes.get(id) ?? null;
  };

  /**
   * Import targets by id: each one's path and its place in the paths' order (SQLite's, bytes), by which a
   * site's edges are ordered as the view's ORDER BY orders them. Read once: go-src's 524,175 edges name
   * 7,000 paths, and a path string per edge was a tenth of the publisher's reading.
   */
  private targets: Map<number, { path: string; rank: number }> | undefined;

  private target(id: number): { path: string; rank: number } | undefined {
    if (this.targets === undefined) {
      this.targets = new Map();
      let rank = 0;
      for (const [tid, path] of this.db.query("SELECT target_id, path FROM import_targets ORDER BY path").values() as Array<[number, string]>)
        this.targets.set(tid, { path, rank: rank++ });
    }
    return this.targets.get(id);
  }

  private refName(id: number): string | undefined {
    if (this.refNames === undefined) this.refNames = new Map(this.db.query("SELECT name_id, name FROM ref_names").values() as Array<[number, string]>);
    return this.refNames.get(id);
  }

  /** The file's definitions as the view symbols gives them (before booleans), and their qualified names by id. */
  private symbolsOf(f: SourceFile, r: FileRanges | undefined): Row[] {
    if (r === undefined || r.symbolFirst === null || r.symbolLast === null) return [];
    const out: Row[] = [];
    for (const v of this.st.symbols.values(r.symbolFirst, r.symbolLast, f.fileId) as SymbolValues[]) {
      const [id, name, qualified, scope, kind, container, startLine, startColumn, endLine, exported, signature] = v;
      out.push({
        symbol_id: id,
        name,
        qualified_name: decodeQualifiedName(name, qualified, scope, container, r.pkg, this.scopeName),
        kind: SYMBOL_KINDS[kind] ?? null,
        container: container === null ? null : this.scopeName(container),
        start_line: startLine,
        start_column: startColumn,
        end_line: endLine,
        is_exported: exported,
        signature: signatureText(signature, name),
      });
    }
    return out;
  }

  /**
   * The file's references as the view refs gives them. A reference's enclosing definition is one of the
   * file's own (`symbols`, by id), named with the file's package as the view's join names it; any other id
   * is read on its own.
   */
  private refsOf(f: SourceFile, r: FileRanges | undefined, symbols: Row[]): Row[] {
    if (r === undefined || r.refFirst === null || r.refLast === null) return [];
    const first = r.symbolFirst;
    const out: Row[] = [];
    for (const v of this.st.refs.values(r.refFirst, r.refLast, f.fileId) as RefValues[]) {
      const [id, nameId, qualifierId, kind, line, column, offset, rare, target, resolution] = v;
      const name = this.refName(nameId);
      if (name === undefined) continue; // the view's inner join
      const enclosingId = first === null || offset === null ? null : first + offset;
      let enclosing = enclosingOfRare(rare);
      if (enclosing === null && enclosingId !== null) {
        const own = enclosingId - (first as number);
        const s = own < symbols.length && symbols[own]!.symbol_id === enclosingId ? symbols[own]! : undefined;
        enclosing = s !== undefined ? (s.qualified_name as string | null) : this.definitionName(enclosingId, r.pkg);
      }
      out.push({
        ref_id: id,
        name,
        qualifier: qualifierId === null ? null : (this.refName(qualifierId) ?? null),
        qualifier_type: qualifierTypeOfRare(rare),
        kind: REF_KINDS[kind] ?? null,
        line,
        column,
        enclosing,
        enclosing_symbol_id: enclosingId,
        target_symbol_id: target,
        resolution: resolution === null ? null : (RESOLUTIONS[resolution - 1] ?? null),
      });
    }
    return out;
  }

  /** The qualified name of definition `id` read on its own, with the package `pkg` (null when there is none). */
  private definitionName(id: number, pkg: string | null): string | null {
    const v = this.st.symbol.values(id)[0] as [number, string, string | null, number | null, number, number | null] | undefined;
    return v === undefined ? null : decodeQualifiedName(v[1], v[2], v[3], v[5], pkg, this.scopeName);
  }

  /** The file's import sites and edges as the views import_sites and import_edge_files give them, and the sites with an edge row. */
  private importsOf(f: SourceFile, hasRow: boolean): { sites: Row[]; edges: Row[]; linked: Set<number> } {
    if (!hasRow) return { sites: [], edges: [], linked: new Set() };
    const sites: Row[] = [];
    for (const [site_id, imported_module, alias, symbols, line, column] of this.st.sites.values(f.fileId) as unknown[][])
      sites.push({ site_id, imported_module, alias, symbols, line, column });
    const edges: Row[] = [];
    const linked = new Set<number>();
    // a site's edges (consecutive, by site) in its targets' paths' order; an edge whose target has no
    // path is left out (the view's inner join)
    let site: Array<{ path: string; rank: number }> = [];
    let siteId = -1;
    const flush = () => {
      if (site.length > 1) site.sort((x, y) => x.rank - y.rank);
      for (const t of site) edges.push({ site_id: siteId, target_file: t.path });
      site = [];
    };
    for (const [site_id, target_id] of this.st.edges.values(f.fileId) as Array<[number, number]>) {
      if (site_id !== siteId) {
        flush();
        siteId = site_id;
        linked.add(site_id);
      }
      const t = this.target(target_id);
      if (t !== undefined) site.push(t);
    }
    flush();
    return { sites, edges, linked };
  }

  /** The file's statistics rows as the views types, functions and imports give them (before booleans). */
  private statsOf(f: SourceFile, statFile: Row | null): { types: Row[]; functions: Row[]; imports: Row[] } {
    if (statFile === null) return { types: [], functions: [], imports: [] };
    const path = f.path;
    const module_path = statFile.module_path;
    const types: Row[] = [];
    for (const [name, kind, start_line, end_line, is_exported, field_count, method_count] of this.st.types.values(f.fileId) as unknown[][])
      types.push({
        type_id: `${path}:${start_line}:${name}`,
        name,
        kind: TYPE_KINDS[kind as number],
        module_path,
        start_line,
        end_line,
        is_exported,
        field_count,
        method_count,
      });
    const functions: Row[] = [];
    for (const [name, start_line, end_line, is_exported, is_method, receiver_type, param_count, return_count, lines, complexity] of this.st.functions.values(
      f.fileId,
    ) as unknown[][])
      functions.push({
        function_id: `${path}:${start_line}:${name}`,
        name,
        module_path,
        start_line,
        end_line,
        is_exported,
        is_method,
        receiver_type,
        param_count,
        return_count,
        lines,
        complexity,
      });
    const imports: Row[] = [];
    for (const [imported_module, is_standard_lib, is_external, is_relative, symbol_count] of this.st.imports.values(f.fileId) as unknown[][])
      imports.push({ import_id: `${path}:${imported_module}`, imported_module, is_standard_lib, is_external, is_relative, symbol_count });
    return { types, functions, imports };
  }

  private provided: ProvidedKeys | undefined;

  /** What the repository provides to importers elsewhere, from its ProjectInfo and file list (built once). */
  private providedKeys(): ProvidedKeys {
    if (this.provided) return this.provided;
    const row = this.db.query("SELECT value FROM meta WHERE key = 'project_info'").get() as { value: string } | null;
    const project: ProjectInfo = row ? (JSON.parse(row.value) as ProjectInfo) : emptyProjectInfo();
    const paths = this.files().map((f) => f.path);
    const set = new Set(paths);
    const byDir = new Map<string, string[]>();
    for (const p of paths) {
      const list = byDir.get(dirOf(p));
      if (list) list.push(p);
      else byDir.set(dirOf(p), [p]);
    }
    this.provided = new ProvidedKeys(project, { project, has: (p) => set.has(p), inDir: (d) => byDir.get(d) ?? [] });
    return this.provided;
  }

  /**
   * The file's package keys and its open import sites' keys (package-keys.ts): the sites that reached no
   * file of this repository (no edge row) and import neither a standard library nor a relative module.
   */
  private crossKeys(f: SourceFile, pkg: string | null, sites: Row[], linked: Set<number>, imports: Row[]): { packageKeys: Row[]; importKeys: Row[] } {
    const packageKeys = this.providedKeys().of(f.path, f.language, pkg) as unknown as Row[];
    const importKeys: Row[] = [];
    for (const s of sites) {
      if (linked.has(s.site_id as number)) continue;
      if (imports.some((i) => i.imported_module === s.imported_module && (Boolean(i.is_standard_lib) || Boolean(i.is_relative)))) continue;
      const symbols = s.symbols ? (JSON.parse(String(s.symbols)) as string[]) : [];
      for (const key of requestedKeys(f.language, { module: String(s.imported_module), symbols })) importKeys.push({ site_id: s.site_id, key });
    }
    return { packageKeys, importKeys };
  }

  /** What the digest covers of a file, read from the index (booleans as stored). */
  private graphRows(f: SourceFile, statFile: Row | null, imports: Row[]) {
    const r = this.rangesOf(f.fileId);
    const symbols = this.symbolsOf(f, r);
    const refs = this.refsOf(f, r, symbols);
    const { sites, edges, linked } = this.importsOf(f, statFile !== null);
    const cross = this.crossKeys(f, r?.pkg ?? null, sites, linked, imports);
    return { symbols, refs, sites, edges, cross, digest: rowsDigest(f, symbols, refs, sites, edges, cross) };
  }

  /** Files the parse tier has still to do: a build must be complete before it is published. */
  unparsedCount(): number {
    return (this.db.query("SELECT count(*) AS n FROM file_state WHERE parsed = 0").get() as { n: number }).n;
  }

  files(): SourceFile[] {
    return this.db
      .query(
        "SELECT file_id AS fileId, file_path AS path, language, content_hash AS contentHash, size_bytes AS sizeBytes, mtime_ms AS mtimeMs FROM file_state ORDER BY file_path",
      )
      .all() as SourceFile[];
  }

  /** Import cycles: each file in one with its component number. */
  components(): Row[] {
    return this.db.query("SELECT file_path, component FROM import_components").all() as Row[];
  }

  /**
   * What the shared store compares to decide whether a file is published again: its content and its
   * graph rows (definitions with their ids, references with their resolution, imports with their edges),
   * which change when other files do, and its package keys (a new module path in go.mod changes them).
   */
  digest(f: SourceFile): string {
    const statFile = this.st.file.get(f.fileId);
    return this.graphRows(f, statFile, statFile === null ? [] : this.statsOf(f, statFile).imports).digest;
  }

  /**
   * The index's trigram posting lists (content-index.ts) with the index's file ids, one trigram at a time:
   * a trigram's segments are merged, and the trigrams of files the lists do not cover (normally none; every
   * file for an index from before the lists) are extracted here. Ids of files deleted since may remain, as
   * in the index itself. Read row by row, so memory follows one list, not the repository.
   */
  *trigramPostings(): Generator<[trigram: number, files: Uint32Array]> {
    const content = new ContentIndex(this.db);
    const extra = this.uncoveredTrigrams(content);
    if (content.available()) {
      let trigram = -1;
      let files: Uint32Array = new Uint32Array(0);
      const done = (): [number, Uint32Array] => {
        const more = extra.get(trigram);
        extra.delete(trigram);
        return [trigram, more === undefined ? files : unionSorted(files, Uint32Array.from(more))];
      };
      for (const { id, postings } of this.db.query("SELECT id, postings FROM trigram_postings ORDER BY id").iterate() as Iterable<{
        id: number;
        postings: Uint8Array;
      }>) {
        const t = Math.floor(id / SEGMENTS);
        if (t !== trigram) {
          if (trigram >= 0) yield done();
          trigram = t;
          files = new Uint32Array(0);
        }
        files = unionSorted(files, decodePostings(postings));
      }
      if (trigram >= 0) yield done();
    }
    for (const [t, more] of extra) yield [t, Uint32Array.from(more)];
  }

  /** The trigrams of the files the index's lists do not cover, each with its files (ascending ids). */
  private uncoveredTrigrams(content: ContentIndex): Map<number, number[]> {
    const out = new Map<number, number[]>();
    const uncovered = content.uncovered().sort((a, b) => a - b);
    if (uncovered.length === 0) return out;
    const extractor = new TrigramExtractor();
    for (const id of uncovered) {
      const z = this.st.content.get(id) as { z: Uint8Array } | null;
      if (z === null) continue;
      for (const t of extractor.extract(contentBytes(z.z))) {
        const list = out.get(t);
        if (list) list.push(id);
        else out.set(t, [id]);
      }
    }
    return out;
  }

  modules(): Row[] {
    return this.db.query("SELECT * FROM modules").all() as Row[];
  }

  /** The rows of each of `files` (a publication's batch), in their order. */
  rowsOfBatch(files: readonly SourceFile[]): FileRows[] {
    const chunks = new Map<string, StoredChunk[]>();
    for (const v of this.batchChunks.values(JSON.stringify(files.map((f) => f.path)))) {
      const path = v[0] as string;
      const chunk: StoredChunk = {
        filePath: path,
        rowid: v[1] as number,
        prefix: v[2 + PREFIX] as string | Uint8Array,
        spans: v[2 + SPANS] as string,
        row: {},
      };
      // the columns the store's chunks take, by name (prefix and spans make the text)
      for (let i = 0; i < CHUNK_COLUMNS.length; i++) if (i !== PREFIX && i !== SPANS) chunk.row[CHUNK_NAMES[i]!] = v[2 + i];
      const list = chunks.get(path);
      if (list) list.push(chunk);
      else chunks.set(path, [chunk]);
    }
    // a file's chunks in the index's order, as reading them file by file gave them
    for (const list of chunks.values()) list.sort((a, b) => a.rowid - b.rowid);
    return files.map((f) => this.fileRows(f, chunks.get(f.path) ?? []));
  }

  rowsOf(f: SourceFile): FileRows {
    return this.rowsOfBatch([f])[0]!;
  }

  private fileRows(f: SourceFile, stored: StoredChunk[]): FileRows {
    const z = this.st.content.get(f.fileId) as { z: Uint8Array } | null;
    // PostgreSQL text cannot hold NUL; the indexer refuses binary files, so this is a stray byte in text
    const content = z === null ? "" : contentText(z.z).replaceAll("\u0000", "\uFFFD");
    // the file's words once, with where each line's begin: a chunk's whole lines take theirs from there
    const fileWords = wordsByLine(content);
    let lines: string[] | undefined;
    const statFile = this.st.file.get(f.fileId);
    const isTest = statFile !== null && Boolean(statFile.is_test);
    const pathWords = wordsText(f.path);
    const chunks = stored.map((c) => {
      const spans = decodeSpans(c.spans);
      const prefix = prefixText(c.prefix, f.path);
      const row = c.row;
      if (spans.length === 0) {
        row.text = prefix.replaceAll("\u0000", "\uFFFD");
        row.w_body = wordsText(prefix).slice(0, MAX_WORDS_CHARS);
      } else {
        lines ??= contentLines(content);
        const body = chunkBody(prefix, spans, lines, fileWords);
        row.text = body.text.replaceAll("\u0000", "\uFFFD");
        row.w_body = body.words;
      }
      row.is_test = isTest;
      row.w_symbols = wordsText(`${String(row.symbol_path ?? "")}`);
      row.w_title = wordsText(String(row.title));
      row.w_path = pathWords;
      return row;
    });
    const stats = this.statsOf(f, statFile);
    // the digest of the rows as read, so that a first publication reads each file's rows once
    const { symbols: raw, refs, sites, edges, cross, digest } = this.graphRows(f, statFile, stats.imports);
    const symbols = booleans(raw, ["is_exported"]);
    return {
      digest,
      content,
      fileWords: fileWords.words,
      words: { path: pathWords, defs: wordsText(symbols.map((y) => String(y.name)).join(" ")), code: fileWords.words.slice(0, MAX_WORDS_CHARS) },
      statFile: statFile === null ? undefined : booleans([statFile], ["is_test"])[0],
      types: booleans(stats.types, ["is_exported"]),
      functions: booleans(stats.functions, ["is_exported", "is_method"]),
      imports: booleans(stats.imports, ["is_standard_lib", "is_external", "is_relative"]),
      symbols,
      refs,
      sites,
      edges,
      chunks,
      ...cross,
    };
  }
}
