/**
 * Cross-repository resolution in the shared store, at query time. Each repository's index resolves its
 * own imports and references when it is built; an import of another repository's package stays open
 * there. Publication records what each file provides and what each open import site asks for (package
 * keys, package-keys.ts); a reader of several repositories joins the two over the live generations of
 * the repositories in its scope, so an import of `example.com/lib/strs` in one repository reaches the
 * files of that package in another, and a reference through it (`strs.Shout(…)`) reaches the definition.
 *
 * Nothing is written when a repository is published that another repository would have to re-link:
 * the join reads whatever generation each side has live (one statement, one snapshot), so republishing
 * the library (a renamed function, a new file in the package, a changed module path) changes the answer
 * at once, whichever side was published first (docs/design.md, "The shared store").
 *
 * Ids: a reader of several repositories names a definition or reference by `repo_id * 2^32 + id`
 * (crossId), since the building indexes' ids are unique within one repository only.
 */
import type { PgValue } from "./client.ts";

type Params = PgValue[];

/** Ids of the building index stay below this; a reader of several repositories adds repo_id times it. */
export const REPO_ID_FACTOR = 2 ** 32;

/** The SQL of a reader-wide id (`repo` the SQL of a repo_id, `id` of the local id). */
export const crossIdSql = (repo: string, id: string): string => `(${repo}::bigint * ${REPO_ID_FACTOR} + ${id})`;

/** Splits reader-wide ids into [repo_id, local id] pairs. */
export function splitIds(ids: readonly number[]): Array<[number, number]> {
  return ids.map((id) => [Math.floor(id / REPO_ID_FACTOR), id % REPO_ID_FACTOR]);
}

const bind = (params: Params, v: PgValue): string => {
  params.push(v);
  return `$${params.length}`;
};

/**
 * `(repo, id)` is one of the reader-wide `ids`: the local id in a bound array (which the planner reads
 * through the id column's index, with an estimate of the array's length), then the whole id as a filter.
 * As a join of (repo, id) pairs from JSON, the planner went from the pairs to every file of the
 * repository (a callers question on Django, 150-220 ms against 25 ms for a reader of one repository).
 */
export function pairIn(params: Params, repo: string, id: string, ids: readonly number[]): string {
  const locals = bind(params, `{${[...new Set(splitIds(ids).map((p) => p[1]))].join(",")}}`);
  return `${id} = ANY(${locals}::text::bigint[]) AND ${crossIdSql(repo, id)} = ANY(${bind(params, `{${ids.join(",")}}`)}::text::bigint[])`;
}

/** A condition on the rows of the SQL builders below, each given the params to bind into. */
type Cond = (params: Params) => string;

/**
 * The SQL of cross-repository edges and references for one reader: its schema (quoted) and the condition
 * that keeps a live file (alias given) inside the reader's scope.
 */
export class CrossRepoSql {
  constructor(
    private readonly s: string,
    private readonly inScope: (params: Params, alias: string) => string,
  ) {}

  /**
   * Cross-repository import edges as a FROM item aliased `e`: the importing live file (`file_id`,
   * `repo_id`, `repo`, `path`), the import site (`site_id`) and the file of another repository it reaches
   * (`t_file_id`, `t_repo_id`, `t_repo`, `t_path`, and `binds`, the name the import binds when it gives
   * none). A site keeps only its longest matching key, wherever the targets are (a Java import of
   * `com.acme.Strings` reaches Strings.java, not its whole package). `importer` filters on the importing
   * file `f`, `target` on the reached file `tf`.
   */
  edges(params: Params, importer?: Cond, target?: Cond): string {
    const s = this.s;
    const conds = [this.inScope(params, "f"), this.inScope(params, "tf")];
    if (importer) conds.push(importer(params));
    if (target) conds.push(target(params));
    const tf2Scope = this.inScope(params, "tf2");
    return `(SELECT f.file_id, f.repo_id, f.repo, f.path, k.site_id, tf.file_id AS t_file_id, tf.repo_id AS t_repo_id, tf.repo AS t_repo, tf.path AS t_path, p.binds
      FROM ${s}.live_files f JOIN ${s}.import_keys k ON k.file_id = f.file_id
        JOIN ${s}.package_keys p ON p.key = k.key
        JOIN ${s}.live_files tf ON tf.file_id = p.file_id AND tf.repo_id <> f.repo_id
      WHERE ${conds.join(" AND ")}
        AND length(k.key) = (SELECT max(length(k2.key)) FROM ${s}.import_keys k2 JOIN ${s}.package_keys p2 ON p2.key = k2.key
          JOIN ${s}.live_files tf2 ON tf2.file_id = p2.file_id AND tf2.repo_id <> f.repo_id
          WHERE k2.file_id = k.file_id AND k2.site_id = k.site_id AND ${tf2Scope})) e`;
  }

  /**
   * References left unresolved by their own repository's index that an import of another repository's
   * package binds to a definition there: a reference resolves through a cross-repository edge of its
   * file when
   *  - it names a definition the import lists (`from acme.text import slugify`, `import { parseHeader }`,
   *    Rust's `use acme::text::slugify`) or the name the import binds itself (a Java class);
   *  - its qualifier is the name the import binds (its alias, the Go package's clause name, a Python or
   *    Rust module's last part) or the imported module as written (`acme.text.slugify(…)`), and it names
   *    a top-level definition of the reached file, or a member of the type the qualifier names.
   * Calls on values of another repository's types (`client.Do()`) are not resolved: the reference's
   * receiver type would need the other repository's definitions at build time.
   *
   * One row per reference (its first fitting definition by path and position), with the reference's
   * columns as `r`, its file as `f`, the definition as `y` in file `tf`. `ref` filters on `r` and `f`,
   * `def` on `y` and `tf`.
   */
  refs(params: Params, columns: string, ref?: Cond, def?: Cond, importer?: Cond, target?: Cond): string {
    const s = this.s;
    const edges = this.edges(params, importer, target);
    const conds = ["TRUE"];
    if (ref) conds.push(ref(params));
    if (def) conds.push(def(params));
    const bound = "coalesce(si.alias, e.binds)";
    return `SELECT DISTINCT ON (f.repo_id, r.ref_id) ${columns}
      FROM ${edges}
        JOIN ${s}.live_files f ON f.file_id = e.file_id
        JOIN ${s}.live_files tf ON tf.file_id = e.t_file_id
        JOIN ${s}.import_sites si ON si.file_id = e.file_id AND si.site_id = e.site_id
        JOIN ${s}.refs r ON r.file_id = e.file_id AND r.target_symbol_id IS NULL
        JOIN ${s}.symbols y ON y.file_id = e.t_file_id AND y.name = r.name
      WHERE ${conds.join(" AND ")} AND (
        (r.qualifier IS NULL AND y.container IS NULL
          AND ((si.symbols IS NOT NULL AND (si.symbols::jsonb @> to_jsonb(r.name) OR si.symbols::jsonb @> '"*"'::jsonb)) OR y.name = ${bound}))
        OR (r.qualifier IS NOT NULL AND y.container IS NULL AND r.qualifier IN (${bound}, si.imported_module))
        OR (r.qualifier IS NOT NULL AND y.container IS NOT NULL AND r.qualifier = ${bound}
          AND (y.container = r.qualifier OR y.container LIKE '%.' || r.qualifier)))
      ORDER BY f.repo_id, r.ref_id, tf.path, y.start_line, y.start_column`;
  }
}
