/**
 * What the files-query compiler (src/engines/files/compile.ts) needs to know about the SQL a store runs:
 * how a bound value and a quoted name are written, and which operator matches a LIKE pattern without
 * regard to case. Every store that runs statistics queries names its dialect (StatsSource.dialect), so
 * the same validated query compiles for SQLite here and for PostgreSQL in a shared store.
 */
import { STATS_FILE_LAYOUT, type StatsFileLayout } from "./schema.ts";

export interface SqlDialect {
  readonly name: "sqlite" | "postgres";
  /** The placeholder of the n-th bound value (1-based). */
  placeholder(n: number): string;
  /** A quoted identifier; callers pass only names validated against the statistics schema. */
  quote(identifier: string): string;
  /** The operator of a case-insensitive LIKE (cortex_files documents LIKE as ignoring ASCII case). */
  likeOperator(negated: boolean): string;
  /** A boolean as a bound value (SQLite stores 0 and 1). */
  booleanValue(v: boolean): number | boolean;
  /**
   * Where types and functions are stored by file id (an index: schema.ts STATS_FILE_LAYOUT), the
   * compiler reads those tables and joins their files itself; without it, it reads the statistics tables
   * by their names (views, or tables that hold every column).
   */
  readonly statsLayout?: StatsFileLayout;
}

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/** SQLite over tables named as the statistics tables (an NDJSON export loaded in memory). */
export const SQLITE_DIALECT: SqlDialect = {
  name: "sqlite",
  placeholder: () => "?",
  quote,
  // SQLite's LIKE ignores ASCII case already; its escape character is PostgreSQL's default (compile.ts)
  likeOperator: (negated) => (negated ? "NOT LIKE" : "LIKE"),
  booleanValue: (v) => (v ? 1 : 0),
};

export const POSTGRES_DIALECT: SqlDialect = {
  name: "postgres",
  placeholder: (n) => `$${n}`,
  quote,
  likeOperator: (negated) => (negated ? "NOT ILIKE" : "ILIKE"),
  booleanValue: (v) => v,
};

/** SQLite over an index database (IndexStore): types and functions are read from their stored rows. */
export const SQLITE_INDEX_DIALECT: SqlDialect = { ...SQLITE_DIALECT, statsLayout: STATS_FILE_LAYOUT };
