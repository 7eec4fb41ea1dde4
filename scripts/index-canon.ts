/**
 * Hashes what an index answers, through its views only and independently of row ids (two builds of one
 * tree number references and chunks in the order parse workers finish files in): every reference with
 * its qualifier's type, its enclosing definition, its target's file, line, column, name and kind and its resolution, every import edge with its site,
 * every chunk as the view `chunks` gives it, the rows of `symbols` and the statistics tables, and each
 * keyword index's vocabulary (term, column, rows holding it, occurrences; fts5vocab). Two
 * builds by different store code must print the same hashes (how the store's shape changes are kept:
 * issue 19).
 *
 *   bun scripts/index-canon.ts <index.db>
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";

const path = process.argv[2];
if (!path || !existsSync(path)) {
  console.error("usage: bun scripts/index-canon.ts <index.db> (the database of a kept index)");
  process.exit(1);
}
const db = new Database(path, { readonly: true });
// fts5vocab tables live in the temp schema: the index itself stays unwritten
for (const t of ["chunks_fts", "files_fts"]) db.exec(`CREATE VIRTUAL TABLE temp.${t}_vocab USING fts5vocab(main, ${t}, col)`);

/** The hash of a query's rows in its order, and how many there were. */
function hash(sql: string): { rows: number; hash: string } {
  const h = new Bun.CryptoHasher("sha256");
  let rows = 0;
  for (const r of db.prepare(sql).iterate() as IterableIterator<Record<string, unknown>>) {
    rows++;
    h.update(
      `${Object.values(r)
        .map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString("base64") : String(v)))
        .join("\t")}\n`,
    );
  }
  return { rows, hash: h.digest("hex").slice(0, 16) };
}

const out = {
  refs: hash(`SELECT r.file_path, r.line, r."column", r.name, r.kind, r.qualifier, r.qualifier_type, r.enclosing, r.resolution,
    t.file_path AS tf, t.start_line AS tl, t.start_column AS tc, t.name AS tn, t.kind AS tk,
    e.file_path AS ef, e.start_line AS el, e.start_column AS ec, e.name AS en
    FROM refs r LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id LEFT JOIN symbols e ON e.symbol_id = r.enclosing_symbol_id
    ORDER BY r.file_path, r.line, r."column", r.name, r.kind, r.qualifier, tf, tl, tc, ef, el, ec`),
  edges: hash(`SELECT s.file_path, s.line, s."column", s.imported_module, e.target_file FROM import_sites s
    JOIN import_edges e ON e.site_id = s.site_id ORDER BY 1, 2, 3, 4, 5`),
  chunks: hash(`SELECT chunk_id, file_path, chunk_type, title, symbol_path, language, start_line, end_line, tags, prefix, spans,
    text_hash, metadata FROM chunks ORDER BY chunk_id`),
  symbols: hash(`SELECT file_path, name, qualified_name, kind, container, language, start_line, start_column, end_line, is_exported, signature
    FROM symbols ORDER BY file_path, start_line, start_column, name, kind, qualified_name`),
  types: hash("SELECT * FROM types ORDER BY type_id"),
  functions: hash("SELECT * FROM functions ORDER BY function_id"),
  imports: hash("SELECT * FROM imports ORDER BY import_id"),
  files: hash("SELECT * FROM files ORDER BY file_path"),
  modules: hash("SELECT * FROM modules ORDER BY module_path"),
  chunksKeywords: hash("SELECT term, col, doc, cnt FROM temp.chunks_fts_vocab ORDER BY term, col"),
  filesKeywords: hash("SELECT term, col, doc, cnt FROM temp.files_fts_vocab ORDER BY term, col"),
};
console.log(JSON.stringify(out, null, 2));
