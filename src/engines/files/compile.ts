/**
 * Compiles a cortex_files query into one parameterized SQL statement. Every table, column, alias and
 * direction is checked against the statistics schema and emitted quoted; every value is bound, never
 * spliced. This (with src/store/) is the only place that writes SQL; it writes it in the dialect of the
 * store that will run it (src/store/sql-dialect.ts).
 */
import { CortexError } from "../../core/errors.ts";
import { STATS_TABLES, type StatsTable } from "../../store/schema.ts";
import type { FieldFilter, Filter, QueryDefinition } from "./query-schema.ts";
import type { SqlDialect } from "../../store/sql-dialect.ts";
import type { InternedColumn, StatsFileLayout } from "../../store/schema.ts";

export interface CompiledQuery {
  sql: string;
  params: Array<string | number | boolean | null>;
  /** Result columns that hold booleans (rendered as true/false). */
  booleanColumns: Set<string>;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_IN = 1000;

function bad(message: string): CortexError {
  return new CortexError("INVALID_INPUT", message);
}

const isTable = (t: string): t is StatsTable => Object.hasOwn(STATS_TABLES, t);
const hasColumn = (t: StatsTable, c: string): boolean => (STATS_TABLES[t] as readonly string[]).includes(c);
const isBooleanColumn = (c: string): boolean => c.startsWith("is_");
/** The statistics tables' text columns; the rest are numbers, or booleans (is_*). */
const TEXT_COLUMNS = new Set([
  "file_path",
  "language",
  "module_path",
  "last_modified",
  "type_id",
  "name",
  "kind",
  "function_id",
  "receiver_type",
  "import_id",
  "imported_module",
]);

function columnKind(column: string): "boolean" | "text" | "number" {
  return isBooleanColumn(column) ? "boolean" : TEXT_COLUMNS.has(column) ? "text" : "number";
}

/**
 * A compared value of the column's kind: "true" against is_test, "abc" against lines_total, 5 against
 * file_path matched no row and said nothing. Languages are compared in the lower case the index names
 * them in ("Python" found nothing). Aggregations' aliases (not columns) are taken as they come.
 */
function valueFor(column: string | undefined, v: Scalar, field: string, where: string): Scalar {
  if (column === undefined || v === null) return v;
  switch (columnKind(column)) {
    case "boolean":
      if (typeof v === "boolean" || v === 0 || v === 1) return v;
      throw bad(`${where}: ${field} is true or false, not ${JSON.stringify(v)}`);
    case "number":
      if (typeof v === "number") return v;
      throw bad(`${where}: ${field} is a number, not ${JSON.stringify(v)}`);
    case "text":
      if (typeof v !== "string") throw bad(`${where}: ${field} is text: give a string, not ${JSON.stringify(v)}`);
      return column === "language" ? v.toLowerCase() : v;
  }
}

type Scalar = string | number | boolean | null;

/** The values bound so far, each written as the dialect's placeholder. */
class Binder {
  readonly params: Scalar[] = [];

  constructor(readonly dialect: SqlDialect) {}

  bind(v: Scalar): string {
    this.params.push(v);
    return this.dialect.placeholder(this.params.length);
  }
}

/** A column of one of the query's statistics tables. */
interface ColumnRef {
  table: StatsTable;
  column: string;
}

class Scope {
  readonly tables: StatsTable[];
  readonly aliases = new Set<string>();
  /** The table whose join's ON clause is being compiled: its file row is not in the FROM clause yet. */
  joining: StatsTable | undefined;
  /** The tables stored by file id whose file row the query reads (joined right after the table). */
  readonly filesRead = new Set<StatsTable>();
  private readonly layout: StatsFileLayout | undefined;

  constructor(
    from: StatsTable,
    joined: StatsTable[],
    readonly dialect: SqlDialect,
  ) {
    this.tables = [from, ...joined];
    this.layout = dialect.statsLayout;
  }

  private q(identifier: string): string {
    return this.dialect.quote(identifier);
  }

  /** Resolves `col` or `table.col` to a quoted column reference, or throws naming the problem. */
  column(ref: string, allowAlias = false): { sql: string; column: string } {
    if (allowAlias && this.aliases.has(ref)) return { sql: this.q(ref), column: ref };
    const c = this.resolve(ref);
    return { sql: this.sql(c), column: c.column };
  }

  /** The table and column `ref` names, or throws naming the problem. */
  resolve(ref: string): ColumnRef {
    const parts = ref.split(".");
    if (parts.length === 2) {
      const [t, c] = parts as [string, string];
      if (!isTable(t)) throw bad(`invalid table '${t}' in field '${ref}'`);
      if (!this.tables.includes(t)) throw bad(`table '${t}' is not in the query (add it to joins) in field '${ref}'`);
      if (!hasColumn(t, c)) throw bad(`invalid field '${c}' for table '${t}': expected one of ${STATS_TABLES[t].join(", ")}`);
      return { table: t, column: c };
    }
    if (parts.length !== 1 || !IDENT.test(ref)) throw bad(`invalid field '${ref}'`);
    const from = this.tables[0]!;
    if (hasColumn(from, ref)) return { table: from, column: ref };
    const owners = this.tables.filter((t) => hasColumn(t, ref));
    if (owners.length === 1) return { table: owners[0]!, column: ref };
    if (owners.length > 1) throw bad(`field '${ref}' is ambiguous: qualify it (${owners.map((t) => `${t}.${ref}`).join(" or ")})`);
    throw bad(
      `invalid field '${ref}' for table '${from}': expected one of ${this.tables.flatMap((t) => (t === from ? STATS_TABLES[t] : STATS_TABLES[t].map((c) => `${t}.${c}`))).join(", ")}`,
    );
  }

  /** A qualified column usable as the right side of a join condition, if `v` is one. */
  columnValue(v: unknown): ColumnRef | undefined {
    if (typeof v !== "string") return undefined;
    const parts = v.split(".");
    if (parts.length !== 2) return undefined;
    const [t, c] = parts as [string, string];
    if (!isTable(t) || !this.tables.includes(t) || !hasColumn(t, c)) return undefined;
    return { table: t, column: c };
  }

  /** The SQL of a column: the table's own, or (stored by file id) its file's or its id, or the name of its code. */
  sql(c: ColumnRef): string {
    const rows = this.layout?.tables[c.table];
    if (!this.layout || !rows) return `${this.q(c.table)}.${this.q(c.column)}`;
    if (c.column === rows.idColumn) return (rows.rowId ?? this.layout.rowId)(this.fileColumn(c.table, this.layout.filePath), this.q(c.table));
    if (rows.fileColumns.includes(c.column)) return this.fileColumn(c.table, c.column);
    const names = this.codesOf(c);
    if (names) return `CASE ${this.q(c.table)}.${this.q(c.column)} ${names.map((n, i) => `WHEN ${i} THEN '${n}'`).join(" ")} END`;
    const interned = this.internedAs(c);
    if (interned) return `(${this.namesOf(interned, `${this.q(interned.table)}.${this.q(interned.id)} = ${this.stored(c)}`)})`;
    return `${this.q(c.table)}.${this.q(c.column)}`;
  }

  /** The names of a column stored as codes (StatsRowsLayout.codedColumns), if it is one. */
  codesOf(c: ColumnRef): readonly string[] | undefined {
    const coded = this.layout?.tables[c.table]?.codedColumns;
    return coded && Object.hasOwn(coded, c.column) ? coded[c.column] : undefined;
  }

  /** How a column stored as the id of its text is stored (StatsRowsLayout.internedColumns), if it is one. */
  internedAs(c: ColumnRef): InternedColumn | undefined {
    const interned = this.layout?.tables[c.table]?.internedColumns;
    return interned && Object.hasOwn(interned, c.column) ? interned[c.column] : undefined;
  }

  /** The stored column of a column stored as codes or as ids: the code or id itself. */
  stored(c: ColumnRef): string {
    const interned = this.internedAs(c);
    return `${this.q(c.table)}.${this.q(interned ? interned.idColumn : c.column)}`;
  }

  /** `SELECT <the text> FROM <the table of names> WHERE <condition>` of a column stored as ids. */
  namesOf(interned: InternedColumn, condition: string, column = interned.name): string {
    const t = this.q(interned.table);
    return `SELECT ${t}.${this.q(column)} FROM ${t} WHERE ${condition}`;
  }

  /**
   * The SQL that groups as the column does: its stored code or id where it is one, which its index
   * answers (its text is one per group); else the column's SQL.
   */
  groupKey(c: ColumnRef): string {
    return this.codesOf(c) || this.internedAs(c) ? this.stored(c) : this.sql(c);
  }

  /** The SQL that orders as the column does: a stored code (the codes sort as the names); else the column's SQL. */
  orderKey(c: ColumnRef): string {
    return this.codesOf(c) ? this.stored(c) : this.sql(c);
  }

  /**
   * A column of the file of `table`'s row: from its file row, joined after the table; in the table's own
   * ON clause, where that row is not joined yet, by a look-up of the row's file id.
   */
  private fileColumn(table: StatsTable, column: string): string {
    const { fileTable, fileId } = this.layout!;
    const q = (i: string) => this.q(i);
    if (this.joining === table)
      return `(SELECT ${q(fileTable)}.${q(column)} FROM ${q(fileTable)} WHERE ${q(fileTable)}.${q(fileId)} = ${q(table)}.${q(fileId)})`;
    this.filesRead.add(table);
    return `${q(fileAliasOf(table))}.${q(column)}`;
  }

  /**
   * `a = b` in the ON clause that joins `a`'s table, when `a` is a column of its file (stored by file id):
   * a condition on the row's file id, which the index on file ids answers (a comparison of a column read
   * through the file id could only be tested row by row). Undefined when it does not apply.
   */
  fileIdCondition(a: ColumnRef, b: ColumnRef): string | undefined {
    const rows = this.layout?.tables[a.table];
    if (!this.layout || !rows || a.table !== this.joining || b.table === a.table || !rows.fileColumns.includes(a.column)) return undefined;
    const { fileTable, fileId, filePath } = this.layout;
    const q = (i: string) => this.q(i);
    const own = `${q(a.table)}.${q(fileId)}`;
    const file = (column: string, value: string) => `SELECT ${q(fileTable)}.${q(fileId)} FROM ${q(fileTable)} WHERE ${q(fileTable)}.${q(column)} = ${value}`;
    if (a.column === filePath) {
      // the same file as another table's row stored by file id: the same file id
      if (b.column === filePath && this.layout.tables[b.table]) return `${own} = ${q(b.table)}.${q(fileId)}`;
      // the file of a path (one at most)
      return `${own} = (${file(filePath, this.sql(b))})`;
    }
    return `${own} IN (${file(a.column, this.sql(b))})`;
  }
}

/** The alias of the file row joined after a table stored by file id (never a statistics table's name). */
const fileAliasOf = (table: StatsTable): string => `file of ${table}`;

function bindScalar(v: unknown, where: string, b: Binder): string {
  if (v === null || typeof v === "string") return b.bind(v);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw bad(`${where}: the value must be a finite number`);
    return b.bind(v);
  }
  if (typeof v === "boolean") return b.bind(b.dialect.booleanValue(v));
  throw bad(`${where}: the value must be a string, number, boolean or null`);
}

interface FilterContext {
  allowAlias: boolean;
  columnValues: boolean;
  path: string;
  /** Under a NOT, where a condition that is false instead of NULL would change the answer. */
  negated?: boolean;
  /**
   * A grouped query's HAVING: only the grouped columns and the aggregations' aliases have one value per
   * group (SQLite would take any other column from an arbitrary row of it).
   */
  grouped?: Array<{ sql: string }>;
}

function compileFilter(f: Filter, scope: Scope, b: Binder, ctx: FilterContext): string {
  if ("and" in f) return "(" + f.and.map((x, i) => compileFilter(x, scope, b, { ...ctx, path: `${ctx.path}.and[${i}]` })).join(" AND ") + ")";
  if ("or" in f) return "(" + f.or.map((x, i) => compileFilter(x, scope, b, { ...ctx, path: `${ctx.path}.or[${i}]` })).join(" OR ") + ")";
  if ("not" in f) return "(NOT " + compileFilter(f.not, scope, b, { ...ctx, path: `${ctx.path}.not`, negated: true }) + ")";
  return compileFieldFilter(f, scope, b, ctx);
}

function compileFieldFilter(f: FieldFilter, scope: Scope, b: Binder, ctx: FilterContext): string {
  if (ctx.columnValues && f.operator === "=") {
    const other = scope.columnValue(f.value);
    if (other) {
      const self = scope.resolve(f.field);
      // (IN over no file is false where the comparison was NULL: the same in a condition, not under NOT)
      const byFile = ctx.negated ? undefined : (scope.fileIdCondition(self, other) ?? scope.fileIdCondition(other, self));
      if (byFile) return byFile;
    }
  }
  const resolved = scope.column(f.field, ctx.allowAlias);
  const col = resolved.sql;
  const column = scope.aliases.has(f.field) ? undefined : resolved.column;
  // (against another column, in a join's condition, both are compared as text)
  const coded =
    column === undefined || (ctx.columnValues && scope.columnValue(f.value)) ? undefined : codedComparison(f, scope.resolve(f.field), scope, b, ctx);
  if (coded !== undefined) return coded;
  if (ctx.grouped && !scope.aliases.has(f.field) && !ctx.grouped.some((g) => g.sql === col))
    throw bad(`${ctx.path}: '${f.field}' has no one value per group: use a groupBy field or an aggregation's alias`);
  const where = `${ctx.path} (${f.field} ${f.operator})`;
  const op = f.operator;
  switch (op) {
    case "IS NULL":
    case "IS NOT NULL":
      if (f.value !== undefined && f.value !== null) throw bad(`${where}: ${op} takes no value`);
      return `${col} ${op}`;
    case "IN":
    case "NOT IN": {
      if (!Array.isArray(f.value) || f.value.length === 0) throw bad(`${where}: ${op} needs a non-empty array of values`);
      if (f.value.length > MAX_IN) throw bad(`${where}: ${op} takes at most ${MAX_IN} values`);
      return `${col} ${op} (${f.value.map((v) => bindScalar(valueFor(column, v as Scalar, f.field, where), where, b)).join(", ")})`;
    }
    case "BETWEEN": {
      if (!Array.isArray(f.value) || f.value.length !== 2) throw bad(`${where}: BETWEEN needs an array of exactly 2 values [min, max]`);
      return `${col} BETWEEN ${bindScalar(valueFor(column, f.value[0] as Scalar, f.field, where), where, b)} AND ${bindScalar(valueFor(column, f.value[1] as Scalar, f.field, where), where, b)}`;
    }
    case "LIKE":
    case "NOT LIKE":
      if (typeof f.value !== "string") throw bad(`${where}: ${op} needs a string pattern (% and _ are wildcards, \\ escapes them)`);
      // backslash escapes a wildcard in both stores: PostgreSQL's default, SQLite's only when named
      return `${col} ${b.dialect.likeOperator(op === "NOT LIKE")} ${b.bind(f.value)} ESCAPE '\\'`;
    default: {
      if (f.value === undefined) throw bad(`${where}: the operator needs a value`);
      if (Array.isArray(f.value)) throw bad(`${where}: ${op} compares with one value, not an array (use IN)`);
      if (ctx.columnValues) {
        const other = scope.columnValue(f.value);
        if (other) return `${col} ${op} ${scope.sql(other)}`;
      }
      if (f.value === null) throw bad(`${where}: compare with null using IS NULL / IS NOT NULL`);
      return `${col} ${op} ${bindScalar(valueFor(column, f.value as Scalar, f.field, where), where, b)}`;
    }
  }
}

/**
 * `=`, `!=`, IN and NOT IN of a column stored as codes against names: the stored code against
 * theirs, which the column's index answers (a name no row has is a code none has: -1). Undefined for
 * any other comparison, which reads the names.
 */
function codedComparison(f: FieldFilter, c: ColumnRef, scope: Scope, b: Binder, ctx: FilterContext): string | undefined {
  const names = scope.codesOf(c);
  const interned = scope.internedAs(c);
  if ((!names && !interned) || ctx.grouped) return undefined;
  const raw = scope.stored(c);
  const list = (f.operator === "IN" || f.operator === "NOT IN") && Array.isArray(f.value) && f.value.length > 0 && f.value.length <= MAX_IN;
  const strings = list ? (f.value as unknown[]).every((v) => typeof v === "string") : typeof f.value === "string";
  if (!strings || !(list || f.operator === "=" || f.operator === "!=")) return undefined;
  const values = (list ? f.value : [f.value]) as string[];
  if (names) {
    const codes = values.map((v) => b.bind(names.indexOf(v)));
    return list ? `${raw} ${f.operator} (${codes.join(", ")})` : `${raw} ${f.operator} ${codes[0]}`;
  }
  // the ids of the texts compared with (none where no row has the text: = is false, != true)
  const ids = (op: string) => scope.namesOf(interned!, `${scope.dialect.quote(interned!.table)}.${scope.dialect.quote(interned!.name)} ${op}`, interned!.id);
  if (list) return `${raw} ${f.operator} (${ids(`IN (${values.map((v) => b.bind(v)).join(", ")})`)})`;
  return `${raw} ${f.operator === "=" ? "IS" : "IS NOT"} (${ids(`= ${b.bind(values[0]!)}`)})`;
}

/** A statistics table in the FROM clause: its stored rows where the dialect's layout names them. */
function tableSql(t: StatsTable, dialect: SqlDialect): string {
  const rows = dialect.statsLayout?.tables[t];
  return rows ? `${dialect.quote(rows.rows)} AS ${dialect.quote(t)}` : dialect.quote(t);
}

/**
 * The join of the file row of `t`'s row, where the statement reads it. Every row of a table stored by
 * file id has its file: an inner join, which the planner may start from the file (a GROUP BY module_path
 * walks the files by module and counts each file's rows by their index), except where `t` was joined by
 * a LEFT or FULL join, whose rows without a match the inner join would drop.
 */
function fileJoinSql(t: StatsTable, outer: boolean, scope: Scope, dialect: SqlDialect): string {
  const layout = dialect.statsLayout;
  if (!layout || !scope.filesRead.has(t)) return "";
  const q = (i: string) => dialect.quote(i);
  const alias = q(fileAliasOf(t));
  return ` ${outer ? "LEFT OUTER" : "INNER"} JOIN ${q(layout.fileTable)} AS ${alias} ON ${alias}.${q(layout.fileId)} = ${q(t)}.${q(layout.fileId)}`;
}

export function compileQuery(q: QueryDefinition, dialect: SqlDialect): CompiledQuery {
  const quote = (identifier: string) => dialect.quote(identifier);
  if (!isTable(q.from)) throw bad(`invalid table '${q.from}': expected one of ${Object.keys(STATS_TABLES).join(", ")}`);
  const joined: StatsTable[] = [];
  for (const j of q.joins ?? []) {
    if (!isTable(j.table)) throw bad(`invalid join table '${j.table}': expected one of ${Object.keys(STATS_TABLES).join(", ")}`);
    if (j.table === q.from || joined.includes(j.table)) throw bad(`table '${j.table}' appears twice in the query`);
    joined.push(j.table);
  }
  const scope = new Scope(q.from, joined, dialect);
  const b = new Binder(dialect);
  const booleanColumns = new Set<string>();
  const select: string[] = [];
  const outNames = new Set<string>();
  const addOut = (name: string) => {
    if (outNames.has(name)) throw bad(`result column '${name}' appears twice: give aggregations distinct aliases`);
    outNames.add(name);
  };

  const aggs = q.aggregations ?? [];
  const groupCols = (q.groupBy ?? []).map((g) => ({ ...scope.column(g), key: scope.groupKey(scope.resolve(g)) }));
  // a grouped or aggregated query has one row per group: only grouped fields and aggregations have a value
  const grouped = aggs.length > 0 || groupCols.length > 0;
  const fieldList = q.fields ?? (grouped ? (q.groupBy ?? []) : ["*"]);
  for (const f of fieldList) {
    if (f === "*" || /^[A-Za-z_]+\.\*$/.test(f)) {
      if (grouped) throw bad(`'${f}' cannot be combined with groupBy or aggregations: list the grouped fields`);
      const tables = f === "*" ? [q.from] : [f.slice(0, -2)];
      for (const t of tables) {
        if (!isTable(t) || !scope.tables.includes(t)) throw bad(`invalid table '${t}' in field '${f}'`);
        for (const c of STATS_TABLES[t]) {
          const name = t === q.from || f !== "*" ? c : `${t}.${c}`;
          addOut(name);
          select.push(`${scope.sql({ table: t, column: c })} AS ${quote(name)}`);
          if (isBooleanColumn(c)) booleanColumns.add(name);
        }
      }
      continue;
    }
    const c = scope.column(f);
    if (grouped && !groupCols.some((g) => g.sql === c.sql))
      throw bad(`field '${f}' must be in groupBy when ${aggs.length > 0 ? "aggregations are used" : "rows are grouped"}`);
    addOut(f);
    select.push(`${c.sql} AS ${quote(f)}`);
    if (isBooleanColumn(c.column)) booleanColumns.add(f);
  }
  for (const a of aggs) {
    if (!IDENT.test(a.alias)) throw bad(`invalid alias '${a.alias}': use letters, digits and _ (not starting with a digit)`);
    let expr: string;
    if (a.field === undefined || a.field === "*") {
      if (a.function !== "COUNT") throw bad(`aggregation '${a.alias}': ${a.function} needs a field`);
      if (a.distinct) throw bad(`aggregation '${a.alias}': COUNT DISTINCT needs a field`);
      expr = "COUNT(*)";
    } else {
      const c = scope.column(a.field);
      if ((a.function === "SUM" || a.function === "AVG") && columnKind(c.column) === "text")
        throw bad(`aggregation '${a.alias}': ${a.function} needs a number column; ${a.field} is text (COUNT, MIN and MAX take it)`);
      expr = `${a.function}(${a.distinct ? "DISTINCT " : ""}${c.sql})`;
    }
    addOut(a.alias);
    scope.aliases.add(a.alias);
    select.push(`${expr} AS ${quote(a.alias)}`);
  }

  const joins: string[] = [];
  for (const [i, j] of (q.joins ?? []).entries()) {
    const table = joined[i]!;
    scope.joining = table;
    const on = compileFilter(j.on, scope, b, { allowAlias: false, columnValues: true, path: `joins[${i}].on` });
    scope.joining = undefined;
    joins.push(
      `${j.type === "FULL" ? "FULL OUTER" : j.type === "INNER" ? "INNER" : j.type === "LEFT" ? "LEFT OUTER" : "RIGHT OUTER"} JOIN ${tableSql(table, dialect)} ON ${on}`,
    );
  }
  // the rest of the statement, before the FROM clause, which joins the file rows the whole statement reads
  let rest = "";
  if (q.where) rest += ` WHERE ${compileFilter(q.where, scope, b, { allowAlias: false, columnValues: false, path: "where" })}`;
  if (groupCols.length > 0) rest += ` GROUP BY ${groupCols.map((g) => g.key).join(", ")}`;
  if (q.having) {
    if (groupCols.length === 0 && aggs.length === 0) throw bad("having needs groupBy or aggregations");
    rest += ` HAVING ${compileFilter(q.having, scope, b, { allowAlias: true, columnValues: false, path: "having", grouped: groupCols })}`;
  }
  if (q.orderBy && q.orderBy.length > 0) {
    const parts = q.orderBy.map((o, i) => {
      const ref = outNames.has(o.field) && !o.field.includes(".") ? quote(o.field) : scope.column(o.field, true).sql;
      if (grouped && !outNames.has(o.field) && !scope.aliases.has(o.field) && !groupCols.some((g) => g.sql === ref))
        throw bad(`orderBy[${i}]: '${o.field}' has no one value per group: order by a groupBy field or an aggregation's alias`);
      // a column stored as codes orders by its code (the names' order), not by the names written out
      const column = scope.aliases.has(o.field) ? undefined : scope.resolve(o.field);
      const key = column && scope.codesOf(column) ? scope.orderKey(column) : ref;
      return `${key} ${o.direction}`;
    });
    rest += ` ORDER BY ${parts.join(", ")}`;
  }
  rest += ` LIMIT ${b.bind(q.limit)}`;
  if (q.offset !== undefined && q.offset > 0) rest += ` OFFSET ${b.bind(q.offset)}`;
  const outer = (i: number) => i > 0 && (q.joins![i - 1]!.type === "LEFT" || q.joins![i - 1]!.type === "FULL");
  const from = [q.from, ...joined].map((t, i) => `${i === 0 ? tableSql(t, dialect) : joins[i - 1]}${fileJoinSql(t, outer(i), scope, dialect)}`);
  const sql = `SELECT ${select.join(", ")} FROM ${from.join(" ")}${rest}`;
  return { sql, params: b.params, booleanColumns };
}
