/**
 * Reading a finished SQLite index for publication: every file's state, and one file's rows at a time in
 * the shapes the shared store's tables take (booleans as booleans, text decompressed, chunk texts
 * rendered from their spans). Store-internal: it reads the index's connection.
 */
import type { Database, Statement } from "bun:sqlite";
import { wordsText } from "../../core/words.ts";
import { chunkTexts } from "../chunk-text.ts";
import { contentBytes, contentText } from "../content-codec.ts";
import { ContentIndex, SEGMENTS } from "../content-index.ts";
import { decodePostings, TrigramExtractor, unionSorted } from "../trigrams.ts";
import type { IndexStore } from "../index-store.ts";
import { sqliteOf } from "../sqlite-access.ts";
import { emptyProjectInfo, type ProjectInfo } from "../../lang/project.ts";
import { dirOf } from "../../core/rel-path.ts";
import { ProvidedKeys, requestedKeys } from "./package-keys.ts";

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
  /** Keyword words of the whole file: its path, the names it defines, its text. */
  words: { path: string; defs: string; code: string };
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

/** The digest of a file's content hash and graph rows, as read from the index (before booleans are converted). */
function rowsDigest(f: SourceFile, symbols: Row[], refs: Row[], sites: Row[], edges: Row[], cross: { packageKeys: Row[]; importKeys: Row[] }): string {
  return Bun.hash(JSON.stringify([f.contentHash, symbols, refs, sites, edges, cross])).toString(36);
}

export class IndexSource {
  private readonly db: Database;
  /**
   * A batch's chunks in one statement (their paths as a JSON array): the chunks view read file by file
   * cost go-src 1.3 s, a statement per 500 files 0.35 s, for the same rows.
   */
  private readonly batchChunks: Statement<unknown[], [string]>;
  private readonly st: Record<
    "content" | "file" | "types" | "functions" | "imports" | "symbols" | "refs" | "sites" | "edges" | "openSites" | "pkg",
    Statement<Row, [string | number]>
  >;

  constructor(store: IndexStore) {
    this.db = sqliteOf(store);
    const q = (sql: string) => this.db.prepare<Row, [string | number]>(sql);
    this.st = {
      content: q("SELECT z FROM contents WHERE file_id = ?"),
      file: q(`SELECT is_test, module_path, lines_total, lines_code, lines_comment, lines_blank, last_modified, type_count,
        function_count, import_count FROM files WHERE file_path = ?`),
      types: q(`SELECT type_id, name, kind, module_path, start_line, end_line, is_exported, field_count, method_count
        FROM types WHERE file_path = ?`),
      functions: q(`SELECT function_id, name, module_path, start_line, end_line, is_exported, is_method, receiver_type,
        param_count, return_count, lines, complexity FROM functions WHERE file_path = ?`),
      imports: q(`SELECT import_id, imported_module, is_standard_lib, is_external, is_relative, symbol_count
        FROM imports WHERE file_path = ?`),
      symbols: q(`SELECT symbol_id, name, qualified_name, kind, container, start_line, start_column, end_line, is_exported, signature
        FROM symbols WHERE file_path = ? ORDER BY symbol_id`),
      refs: q(`SELECT ref_id, name, qualifier, qualifier_type, kind, line, "column", enclosing, enclosing_symbol_id, target_symbol_id,
        resolution FROM refs WHERE file_path = ? ORDER BY ref_id`),
      sites: q(`SELECT site_id, imported_module, alias, symbols, line, "column" FROM import_sites WHERE file_path = ? ORDER BY site_id`),
      edges: q("SELECT site_id, target_file FROM import_edge_files WHERE file_path = ? ORDER BY site_id, target_file"),
      // import sites that reached no file of this repository and are neither relative nor standard library
      openSites: q(`SELECT s.site_id, s.imported_module, s.symbols FROM import_sites s WHERE s.file_path = ?1
        AND NOT EXISTS (SELECT 1 FROM import_edge_rows e WHERE e.site_id = s.site_id)
        AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.file_path = s.file_path AND i.imported_module = s.imported_module AND (i.is_standard_lib OR i.is_relative))
        ORDER BY s.site_id`),
      pkg: q("SELECT package_name FROM file_state WHERE file_path = ?"),
    };
    this.batchChunks = this.db.prepare<unknown[], [string]>(
      `SELECT file_path, rowid, ${CHUNK_COLUMNS.join(", ")} FROM chunks WHERE file_path IN (SELECT value FROM json_each(?))`,
    );
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

  /** The file's package keys and its open import sites' keys (package-keys.ts). */
  private crossKeys(f: SourceFile): { packageKeys: Row[]; importKeys: Row[] } {
    const pkg = (this.st.pkg.get(f.path) as { package_name: string | null } | null)?.package_name ?? null;
    const packageKeys = this.providedKeys().of(f.path, f.language, pkg) as unknown as Row[];
    const importKeys: Row[] = [];
    for (const s of this.st.openSites.all(f.path)) {
      const symbols = s.symbols ? (JSON.parse(String(s.symbols)) as string[]) : [];
      for (const key of requestedKeys(f.language, { module: String(s.imported_module), symbols })) importKeys.push({ site_id: s.site_id, key });
    }
    return { packageKeys, importKeys };
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
    return rowsDigest(f, this.st.symbols.all(f.path), this.st.refs.all(f.path), this.st.sites.all(f.path), this.st.edges.all(f.path), this.crossKeys(f));
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
    const texts = chunkTexts(stored, () => content);
    const statFile = this.st.file.get(f.path);
    const isTest = statFile !== null && Boolean(statFile.is_test);
    const pathWords = wordsText(f.path);
    const chunks = stored.map((c) => {
      const text = texts.get(c)!.replaceAll("\u0000", "\uFFFD");
      const row = c.row;
      row.text = text;
      row.is_test = isTest;
      row.w_symbols = wordsText(`${String(row.symbol_path ?? "")}`);
      row.w_title = wordsText(String(row.title));
      row.w_path = pathWords;
      row.w_body = wordsText(text).slice(0, MAX_WORDS_CHARS);
      return row;
    });
    const raw = this.st.symbols.all(f.path);
    const refs = this.st.refs.all(f.path);
    const sites = this.st.sites.all(f.path);
    const edges = this.st.edges.all(f.path);
    const cross = this.crossKeys(f);
    // the digest of the rows as read, so that a first publication reads each file's rows once
    const digest = rowsDigest(f, raw, refs, sites, edges, cross);
    const symbols = booleans(raw, ["is_exported"]);
    return {
      digest,
      content,
      words: { path: pathWords, defs: wordsText(symbols.map((y) => String(y.name)).join(" ")), code: wordsText(content).slice(0, MAX_WORDS_CHARS) },
      statFile: statFile === null ? undefined : booleans([statFile], ["is_test"])[0],
      types: booleans(this.st.types.all(f.path), ["is_exported"]),
      functions: booleans(this.st.functions.all(f.path), ["is_exported", "is_method"]),
      imports: booleans(this.st.imports.all(f.path), ["is_standard_lib", "is_external", "is_relative"]),
      symbols,
      refs,
      sites,
      edges,
      chunks,
      ...cross,
    };
  }
}
