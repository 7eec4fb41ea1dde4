/**
 * The space of an index database by table, with its indexes (FTS5 shadow tables with their table), in
 * MiB, from SQLite's own accounting (dbstat); with a corpus size in bytes, the whole as × the corpus.
 *
 *   bun scripts/index-space.ts <index.db> [corpus bytes]
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";

const path = process.argv[2];
if (!path || !existsSync(path)) {
  console.error("usage: bun scripts/index-space.ts <index.db> [corpus bytes]");
  process.exit(1);
}
const db = new Database(path, { readonly: true });
const owner = new Map<string, string>();
for (const r of db.query("SELECT name, tbl_name FROM sqlite_master").all() as Array<{ name: string; tbl_name: string }>) owner.set(r.name, r.tbl_name);
const tables = new Map<string, number>();
let all = 0;
for (const r of db.query("SELECT name, SUM(pgsize) AS b FROM dbstat GROUP BY name").all() as Array<{ name: string; b: number }>) {
  const table = owner.get(r.name) ?? r.name;
  const fts = /^(.*_fts)_(data|idx|docsize|config|content)$/.exec(table);
  const key = fts ? fts[1]! : table;
  tables.set(key, (tables.get(key) ?? 0) + r.b);
  all += r.b;
}
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
for (const [t, b] of [...tables].sort((a, b) => b[1] - a[1])) if (b >= 2 ** 19) console.log(`${mib(b).padStart(8)}  ${t}`);
console.log(`${mib(all).padStart(8)}  all`);
const corpus = Number(process.argv[3]);
if (corpus > 0) console.log(`${(all / corpus).toFixed(2)} × the corpus`);
