/**
 * The symbol engine: definitions by qualified or partial name, their references (resolved ones and the
 * unresolved ones that carry the same name), and near-miss suggestions when a name matches nothing. It
 * reads what reference resolution stored; snippets are cut from the stored content.
 */
import type { IndexReader, RefSite, SymbolRow } from "../../store/contract.ts";
import { staleFiles } from "../freshness.ts";
import { SourceLines } from "../graph/source-lines.ts";
import { languageSelector } from "../../lang/registry.ts";
import { suggestNames } from "./suggest.ts";

export type OccurrenceType = "definition" | "reference" | "import";

export interface Occurrence {
  file_path: string;
  line_number: number;
  column_number: number;
  type: OccurrenceType;
  symbol_fqn: string;
  snippet: string;
  /** definition kind (function, class…) or reference kind (call, type, inherit, implement, import, read) */
  kind: string;
  /** How a reference was tied to its definition: exact, import, name-only, cross-repo (shared store), or unresolved. */
  resolution?: string;
  stale?: true;
}

export interface SymbolQuery {
  /** A name, partial (`Login`, `Handler.ServeHTTP`) or fully qualified (`auth.Handler.ServeHTTP`). */
  name: string;
  /** Root-relative files or folders ("" for all). */
  paths?: string[];
  language?: string;
}

/** A symbol name split into its parts: `a.b::C#m()` → [a, b, C, m]. */
export function nameParts(name: string): string[] {
  return name
    .trim()
    .replace(/\(\)$/, "")
    .split(/::|->|[.\\#/]/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** Languages a filter value selects (`typescript` also selects tsx; `js` the JavaScript family). */
function languageMatcher(language: string | undefined): ((lang: string) => boolean) | undefined {
  return language ? languageSelector(language) : undefined;
}

export function inPaths(file: string, paths: string[] | undefined): boolean {
  if (!paths || paths.length === 0) return true;
  return paths.some((p) => p === "" || file === p || file.startsWith(p.endsWith("/") ? p : p + "/"));
}

export class SymbolsEngine {
  readonly store: IndexReader;
  private readonly root: string;

  constructor(store: IndexReader, root: string) {
    this.store = store;
    this.root = root;
  }

  /** Definitions matching a qualified or partial name (in `paths` and `language` when given). */
  async definitions(q: SymbolQuery): Promise<SymbolRow[]> {
    const lang = languageMatcher(q.language);
    return (await this.allDefinitions(q.name)).filter((s) => (!lang || lang(s.language)) && inPaths(s.file, q.paths));
  }

  /** Every definition matching a qualified or partial name, wherever it is. */
  async allDefinitions(name: string): Promise<SymbolRow[]> {
    const parts = nameParts(name);
    const last = parts[parts.length - 1];
    if (!last) return [];
    const suffix = parts.join(".");
    return (await this.store.symbolsNamed([last])).filter((s) => parts.length === 1 || s.qname === suffix || s.qname.endsWith("." + suffix)).sort(bySite);
  }

  /**
   * References to a name, as sites (RefSite: without the definition each is written in): those resolved
   * to one of `defs`, and unresolved ones with the same name whose qualifier agrees with the qualified part
   * of the query (`auth.Login` admits `auth.Login(…)` only).
   */
  /**
   * `unattributed`, when given, hears how many unresolved references of the name were left out because
   * their qualifier names another owner or none (`c.json(…)` for `Context.json`): they may be usages too.
   */
  async referenceSites(q: SymbolQuery, defs: SymbolRow[], unattributed?: (count: number) => void): Promise<Array<RefSite & { target?: SymbolRow }>> {
    const parts = nameParts(q.name);
    const last = parts[parts.length - 1];
    if (!last) return [];
    const byId = new Map(defs.map((d) => [d.id, d]));
    const lang = languageMatcher(q.language);
    const out: Array<RefSite & { target?: SymbolRow }> = [];
    const [resolved, unresolved] = await Promise.all([
      defs.length ? this.store.refSitesByTargets([...byId.keys()]) : [],
      this.store.unresolvedSitesNamed(last),
    ]);
    // the languages of the referring files, in one question (a language filter needs them)
    const languages = lang ? await this.store.filesInfo([...new Set([...resolved, ...unresolved].map((r) => r.file))]) : undefined;
    const keep = (r: RefSite) => inPaths(r.file, q.paths) && (!lang || lang(languages?.get(r.file)?.language ?? ""));
    for (const r of resolved) if (keep(r)) out.push({ ...r, target: byId.get(r.targetId!)! });
    const owner = parts.length > 1 ? parts[parts.length - 2]! : undefined;
    let leftOut = 0;
    for (const r of unresolved) {
      if (!keep(r)) continue;
      if (owner !== undefined) {
        const qp = r.qualifier ? nameParts(r.qualifier) : [];
        if (qp[qp.length - 1] !== owner) {
          leftOut++;
          continue;
        }
      }
      out.push(r);
    }
    unattributed?.(leftOut);
    return out.sort(bySite);
  }

  /** find_symbol_occurrences: definitions and references of a name, definitions first. */
  async occurrences(q: SymbolQuery, opts: { definitions: boolean; references: boolean; limit: number }): Promise<{ occurrences: Occurrence[]; total: number }> {
    const defs = await this.definitions(q);
    // references in the paths asked for may point at definitions elsewhere
    const targets = q.paths || q.language ? await this.allDefinitions(q.name) : defs;
    const refs = opts.references ? await this.referenceSites(q, targets) : [];
    // every site counts in the total, but only the shown ones need their line: reading the files of a
    // name called thousands of times (kmalloc: most of the kernel) cost more than the rest of the look-up
    const out: Occurrence[] = [];
    if (opts.definitions) {
      for (const d of defs) {
        out.push({ file_path: d.file, line_number: d.line, column_number: d.column, type: "definition", symbol_fqn: d.qname, snippet: "", kind: d.kind });
      }
    }
    if (opts.references) {
      for (const r of refs) {
        out.push({
          file_path: r.file,
          line_number: r.line,
          column_number: r.column,
          type: r.kind === "import" ? "import" : "reference",
          symbol_fqn: r.target ? r.target.qname : r.qualifier ? `${r.qualifier}.${r.name}` : r.name,
          snippet: "",
          kind: r.kind,
          resolution: r.resolution ?? "unresolved",
        });
      }
    }
    const total = out.length;
    const shown = out.slice(0, opts.limit);
    const lines = await new SourceLines(this.store).load(shown.map((o) => o.file_path));
    for (const o of shown) o.snippet = lines.line(o.file_path, o.line_number).trim();
    const stale = await staleFiles(
      this.store,
      this.root,
      shown.map((o) => o.file_path),
    );
    for (const o of shown) if (stale.has(o.file_path)) o.stale = true;
    return { occurrences: shown, total };
  }

  /** Names close to one that matched nothing: other case, containing it, a typo away. */
  async suggestions(name: string, max = 5): Promise<string[]> {
    const parts = nameParts(name);
    const last = parts[parts.length - 1] ?? name;
    const names = await suggestNames(last, this.store, max);
    // show each suggestion as a qualified name where it is unique enough to help
    const byName = new Map<string, SymbolRow[]>();
    for (const s of await this.store.symbolsNamed(names)) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
    return names.map((n) => {
      const defs = byName.get(n) ?? [];
      return defs.length === 1 ? defs[0]!.qname : n;
    });
  }
}

function bySite(a: { file: string; line: number; column: number }, b: { file: string; line: number; column: number }): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column;
}
