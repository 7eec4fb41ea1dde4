/**
 * Definitions by name for reference resolution, loaded in batches as references need them and dropped
 * together, so a resolution holds a bounded part of the index whatever the project's size.
 */
import type { GraphStore, RefRow, SymbolRow } from "../../store/graph-store.ts";
import { CONSTRUCTOR_MEMBERS } from "../../lang/registry.ts";
import { lastSegment, type FileScope } from "./scope.ts";

/**
 * Definitions by name, loaded as they are needed (a batch's names at once) and dropped together when
 * the caller decides they are too many (forget), so a resolution holds a bounded part of them.
 */
export class SymbolIndex {
  private readonly byName = new Map<string, SymbolRow[]>();
  private readonly store: GraphStore;
  private loaded = 0;

  constructor(store: GraphStore) {
    this.store = store;
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
        this.byName.get(s.name)!.push(s);
        this.loaded++;
      }
    }
  }

  named(name: string): SymbolRow[] {
    if (!this.byName.has(name)) this.ensure([name]);
    return this.byName.get(name)!;
  }

  /** Definitions held now. */
  loadedCount(): number {
    return this.loaded;
  }

  /** Drops every loaded definition; later look-ups load them again. */
  forget(): void {
    this.byName.clear();
    this.loaded = 0;
  }
}

/** Names a batch of references may look up, so they can be loaded in one go. */
export function namesNeeded(refs: RefRow[], scopes: Iterable<FileScope>): Set<string> {
  const names = new Set<string>(CONSTRUCTOR_MEMBERS);
  for (const r of refs) {
    names.add(r.name);
    if (r.qualifier) names.add(lastSegment(r.qualifier.replace(/\(\)$/, "")));
    if (r.qualifierType) names.add(lastSegment(r.qualifierType));
  }
  for (const s of scopes) for (const b of s.names.values()) names.add(b.name);
  return names;
}
