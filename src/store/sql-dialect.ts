/**
 * What the files-query compiler (src/engines/files/compile.ts) needs to know about the SQL a store runs:
 * how a bound value and a quoted name are written, and which operator matches a LIKE pattern without
 * regard to case. Every store that runs statistics queries names its dialect (StatsSource.dialect), so
 * the same validated query compiles for SQLite here and for PostgreSQL in a shared store.
 */
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
}

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

export const SQLITE_DIALECT: SqlDialect = {
  name: "sqlite",
  placeholder: () => "?",
  quote,
  // SQLite's LIKE ignores ASCII case already
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
