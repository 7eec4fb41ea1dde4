/**
 * Inserts the rows of one table a group at a time, with one statement of many VALUES tuples per group
 * instead of one statement per row. A file's references and definitions are written this way: each
 * statement run costs its binding call and, for symbol_rows (AUTOINCREMENT), a read and a write of
 * sqlite_sequence, so per row these were most of what SQLite spent on the kernel's millions of rows.
 *
 * The rows of one call get consecutive rowids, in order (each takes the table's largest rowid plus one,
 * and nothing else writes the table meanwhile), which is what the callers' id ranges rely on.
 */
import type { Database, Statement } from "bun:sqlite";

type Value = string | number | bigint | boolean | Uint8Array | null;

/** Rows per statement: past a few dozen, longer statements gained nothing measurable. */
const GROUP = 32;

export class MultiRowInsert {
  private readonly statements = new Map<number, Statement>();
  private readonly tuple: string;

  /** `into`: the table and its column list, as in `INSERT INTO <into> VALUES …`; `width`: the columns. */
  constructor(
    private readonly db: Database,
    private readonly into: string,
    private readonly width: number,
  ) {
    this.tuple = `(${Array(width).fill("?").join(",")})`;
  }

  /**
   * Inserts the rows held in `values`, `width` values a row, one row after another; returns the rowid
   * of the first row (the others follow it one by one), or undefined when there are none.
   */
  insert(values: Value[]): number | undefined {
    const rows = values.length / this.width;
    if (!Number.isInteger(rows)) throw new Error(`${values.length} values do not make rows of ${this.width} columns for ${this.into}`);
    let first: number | undefined;
    for (let at = 0; at < rows; at += GROUP) {
      const n = Math.min(GROUP, rows - at);
      const part = values.slice(at * this.width, (at + n) * this.width);
      const last = Number(this.statement(n).run(...part).lastInsertRowid);
      first ??= last - n + 1;
    }
    return first;
  }

  private statement(rows: number): Statement {
    let st = this.statements.get(rows);
    if (!st) {
      st = this.db.prepare(`INSERT INTO ${this.into} VALUES ${Array(rows).fill(this.tuple).join(",")}`);
      this.statements.set(rows, st);
    }
    return st;
  }
}
