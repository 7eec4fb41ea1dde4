/**
 * Definitions by name for reference resolution, loaded in batches as references need them and dropped
 * together, so a resolution holds a bounded part of the index whatever the project's size.
 */
import type { RefToResolve, SymbolRow } from "../../store/graph-store.ts";
import { CONSTRUCTOR_MEMBERS } from "../../lang/registry.ts";
import { lastSegment, type FileScope } from "./scope.ts";

/**
 * Definitions by name, loaded as they are needed (a batch's names at once) and dropped together when
 * the caller decides they are too many (forget), so a resolution holds a bounded part of them.
 */
/** Where definitions are read from: a GraphStore, or a full run's ResolutionReads (the same rows, cheaper). */
export interface DefinitionReads {
  symbolsNamed(names: Iterable<string>): SymbolRow[];
  symbolsOfFiles(paths: Iterable<string>): SymbolRow[];
}

export class SymbolIndex {
  private readonly byName = new Map<string, SymbolRow[]>();
  private readonly store: DefinitionReads;
  private readonly shared: SharedStrings;
  private loaded = 0;

  /** `shared`: makes loaded definitions share their repeated strings (see SharedStrings). */
  constructor(store: DefinitionReads, shared: SharedStrings = new SharedStrings(new Map())) {
    this.store = store;
    this.shared = shared;
  }

  /** Makes sure these names are loaded (one query per 500 names). */
  ensure(names: Iterable<string>): void {
    const missing: string[] = [];
    for (const n of names)
      if (!this.byName.has(n)) {
        this.byName.set(n, []);
        missing.push(n);
      }
    for (let i = 0; i < missing.length; i += 500) {
      for (const s of this.store.symbolsNamed(missing.slice(i, i + 500))) {
        this.byName.get(s.name)!.push(this.shared.row(s));
        this.loaded++;
      }
    }
  }

  named(name: string): SymbolRow[] {
    const list = this.byName.get(name);
    if (list) return list;
    this.ensure([name]);
    return this.byName.get(name)!;
  }

  /**
   * The positions in named(name) of the definitions of that name inside `container`, in order: a member
   * look-up asks for one type's members, and common names (get, value, type) have thousands of
   * definitions in other types (jdk17, boost). Grouped once per loaded name.
   */
  positionsIn(name: string, container: string): readonly number[] {
    return this.grouped(this.byContainer, name, (s) => s.container).get(container) ?? NONE;
  }

  /** The positions in named(name) of the definitions of that name in `file`, in order (grouped once per name). */
  positionsInFile(name: string, file: string): readonly number[] {
    return this.grouped(this.byFile, name, (s) => s.file).get(file) ?? NONE;
  }

  /** named(name)'s positions grouped by `keyOf` (null: in no group), built once per name and kept in `cache`. */
  private grouped(cache: Map<string, Map<string, number[]>>, name: string, keyOf: (s: SymbolRow) => string | null): Map<string, number[]> {
    let groups = cache.get(name);
    if (groups) return groups;
    groups = new Map();
    const all = this.named(name);
    for (let i = 0; i < all.length; i++) {
      const key = keyOf(all[i]!);
      if (key === null) continue;
      const list = groups.get(key);
      if (list) list.push(i);
      else groups.set(key, [i]);
    }
    cache.set(name, groups);
    return groups;
  }

  private readonly byFile = new Map<string, Map<string, number[]>>();

  /** positionsIn's groups by name, dropped with the name's definitions (forget). */
  private readonly byContainer = new Map<string, Map<string, number[]>>();

  /** Definitions held now. */
  loadedCount(): number {
    return this.loaded;
  }

  /**
   * Drops the loaded definitions, but those named in `keep` (the next batch's names: on boost
   * consecutive batches share most of them, and `type` or `value` alone have thousands of
   * definitions to load again); later look-ups load the rest again.
   */
  forget(keep: ReadonlySet<string> = new Set()): void {
    if (keep.size > 0) {
      this.loaded = 0;
      for (const [name, list] of this.byName) {
        if (keep.has(name)) this.loaded += list.length;
        else {
          this.byName.delete(name);
          this.byContainer.delete(name);
          this.byFile.delete(name);
        }
      }
      return;
    }
    this.byName.clear();
    this.byContainer.clear();
    this.byFile.clear();
    this.loaded = 0;
  }
}

const NONE: readonly number[] = [];

/**
 * One copy of the strings loaded definitions repeat: each row comes from SQLite with strings of its own,
 * its file's path, kind and language among them, and its qualified name where that is its name (every C
 * definition). A resolution holds tens of thousands of definitions at once, and every full collection
 * marks their strings again: on the kernel they were most of the 400,000-970,000 strings alive.
 */
export class SharedStrings {
  private readonly paths: ReadonlyMap<string, { path: string }>;
  /** Kinds and languages: a few dozen values. */
  private readonly words = new Map<string, string>();

  /** `paths`: the project's files by path, whose keys' own strings rows then point at. */
  constructor(paths: ReadonlyMap<string, { path: string }>) {
    this.paths = paths;
  }

  /** The row itself, its strings replaced by their shared copies. */
  row(s: SymbolRow): SymbolRow {
    s.file = this.paths.get(s.file)?.path ?? s.file;
    s.kind = this.word(s.kind);
    s.language = this.word(s.language);
    if (s.qname === s.name) s.qname = s.name;
    return s;
  }

  private word(w: string): string {
    const known = this.words.get(w);
    if (known !== undefined) return known;
    if (this.words.size < 1000) this.words.set(w, w);
    return w;
  }
}

/**
 * Names a batch of references may look up, so they can be loaded in one go. Left out: the name of an
 * unqualified reference (not an import, not a type) that its own file defines at the top level, in a
 * language without an implicit `this`: the file's own definition answers it first (Resolver.computeInScope),
 * without the index. A look-up that asks for such a name all the same (a definition of another kind)
 * loads it then (SymbolIndex.named). On the kernel the batches asked for 1.2 million names (2.4 million
 * definitions, each read by a seek into symbol_rows) where 0.5 million (1.1 million) are looked up.
 */
export function namesNeeded(refs: RefToResolve[], scopes: Iterable<FileScope>): Set<string> {
  const names = new Set<string>(CONSTRUCTOR_MEMBERS);
  const byPath = new Map<string, FileScope>();
  for (const s of scopes) byPath.set(s.info.path, s);
  for (const r of refs) {
    if (!r.qualifier && !r.qualifierType && r.kind !== "import" && r.kind !== "type" && answeredInFile(byPath.get(r.file), r.name)) continue;
    names.add(r.name);
    if (r.qualifier) names.add(lastSegment(r.qualifier.endsWith("()") ? r.qualifier.slice(0, -2) : r.qualifier));
    if (r.qualifierType) names.add(lastSegment(r.qualifierType));
  }
  for (const s of scopes) for (const b of s.names.values()) names.add(b.name);
  return names;
}

/** Whether an unqualified name is defined at the top level of this file, where members are not in scope unqualified. */
function answeredInFile(scope: FileScope | undefined, name: string): boolean {
  if (!scope || scope.info.rules.implicitThis) return false;
  const list = scope.byName.get(name);
  if (!list) return false;
  for (const s of list) if (s.container === null) return true;
  return false;
}
