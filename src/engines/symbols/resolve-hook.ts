/**
 * The index step that resolves imports to files (import_edges) and references to definitions
 * (refs.target_symbol_id, refs.resolution). A full build resolves everything; an incremental run
 * resolves again only what a change can move:
 *   - the import sites of written files, of importers of folders that gained or lost files, and those
 *     that resolved to nothing before;
 *   - every reference of written files and of files whose imports now reach other files;
 *   - references that pointed at a definition deleted since (dead_symbols, filled by a trigger);
 *   - references named like a definition that appeared or disappeared, in the files that can see it
 *     (same folder or package, importers), and everywhere when the change decides whether that name is
 *     unique (what 'name-only' rests on).
 * Symbol ids of unchanged files never change, so their references stay valid untouched.
 */
import type { IndexStore } from "../../store/index-store.ts";
import type { IndexChanges, IndexHook } from "../../indexer/hooks.ts";
import type { ProjectInfo } from "../../lang/project.ts";
import type { ImportFact } from "../../lang/types.ts";
import type { ProjectFiles } from "../../lang/module.ts";
import {
  GraphStore,
  importTargetsDigest,
  type DeadSymbol,
  type ImportNameRow,
  type ImportSiteRow,
  type RefRow,
  type RefToResolve,
  type SymbolRow,
} from "../../store/graph-store.ts";
import { moduleFor } from "../../lang/registry.ts";
import { SharedStrings, type DefinitionReads } from "./symbol-index.ts";
import { Resolver, SymbolIndex, buildScope, fileInfo, namesNeeded, type FileInfo, type FileScope } from "./resolve.ts";
import type { Binding } from "./scope.ts";
import { kindFits } from "./kinds.ts";
import { familyOf } from "../../lang/registry.ts";
import { IMPORT_GRAPH_SIZE_KEY, stronglyConnected } from "../graph/cycles.ts";
import { log } from "../../core/log.ts";
import { dirOf } from "../../core/rel-path.ts";
import { SiteTargets } from "./site-targets.ts";
import { RESOLUTION_REBUILT_INDEXES, type ResolutionWrite } from "../../store/full-text-load.ts";
import { resolutionCode } from "../../store/schema.ts";
import { collectIfOver, collectNow, collectOnGrowth, collectYoungEvery } from "../../core/memory.ts";

export interface ResolveReport {
  sites: number;
  refs: number;
  updated: number;
  ms: number;
  /** Wall milliseconds a full run waited, its computation done, for the keyword load beside to end before writing. */
  waitedMs: number;
  /** This thread's CPU milliseconds by part (import sites, reading references, scopes, definitions, look-ups, collections, writes, index builds). */
  cpu: Record<string, number>;
}

/** Splits this thread's CPU time into parts: each mark charges the time since the last mark to a part. */
class CpuParts {
  readonly parts: Record<string, number> = {};
  private last = CpuParts.now();

  private static now(): number {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  }

  mark(part: string): void {
    const t = CpuParts.now();
    this.parts[part] = (this.parts[part] ?? 0) + t - this.last;
    this.last = t;
  }

  /** The parts in whole milliseconds. */
  rounded(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.parts).map(([k, v]) => [k, Math.round(v)]));
  }
}

type SiteWithTargets = ImportSiteRow & { targets: string[] };

/** Import sites resolved between two young collections in a full resolution's first step (collectYoungEvery). */
const SITES_PER_YOUNG_COLLECTION = 2048;

/**
 * The version of the resolution rules. An index resolved by other rules (an older cortex with the same
 * schema) is resolved again whole on its next run, so improvements reach it without a rebuild.
 */
export const RESOLVER_VERSION = "1";
const RESOLVER_VERSION_KEY = "resolver_version";

/** The index hook: imports to files, references to definitions, after every run's writes. */
export const referenceResolution: IndexHook = {
  name: "reference resolution",
  async run(store, changes, project) {
    const r = await resolveReferences(store, changes, project);
    if (process.env.CORTEX_TRACE) {
      const parts = Object.entries(r.cpu)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");
      log.warn(
        `reference resolution: ${r.sites} import sites, ${r.refs} references (${r.updated} changed) in ${r.ms} ms, ${r.waitedMs} ms of it waiting for the keyword load [this thread's CPU ms: ${parts}]`,
      );
    }
  },
};

export async function resolveReferences(store: IndexStore, changes: IndexChanges, project: ProjectInfo): Promise<ResolveReport> {
  const g = new GraphStore(store);
  const started = performance.now();
  const cpu = new CpuParts();
  const upgrade = !changes.full && store.getMeta(RESOLVER_VERSION_KEY) !== RESOLVER_VERSION;
  const run: IndexChanges = upgrade ? { ...changes, full: true } : changes;
  let report: ResolveReport;
  if (run.full) {
    // A full resolution reads and computes everything first and writes after: in a full build another
    // connection is meanwhile loading the keyword index (IndexStore.whenWritable), on another core.
    const deferred: Array<() => void> = [];
    // In a full build that load's thread takes the import edges and the references' targets as they are
    // computed, and writes them after its load while this thread goes on (then whenWritable waits for
    // their commit too); the rest (digests, cycles) stays deferred here.
    const aside = store.resolutionWritesAside();
    report = resolve(store, g, run, project, deferred, cpu, aside);
    // the computation's garbage goes before the writes: collectIfOver only runs over the budget (a sixth
    // of the kernel: 100 MiB freed by collectNow, RSS 391 -> 295 MiB); with the writes aside, this
    // thread's are a few rows, and the collection runs while the keyword load's thread writes
    if (aside) collectNow();
    else collectIfOver(); // what the computation dropped, while the keyword load may still run beside
    cpu.mark("collections");
    const waitFrom = performance.now();
    await store.whenWritable();
    report.waitedMs = Math.round(performance.now() - waitFrom);
    if (!aside) collectNow();
    cpu.mark("collections");
    g.transaction(() => {
      const writeAll = () => {
        deferred.forEach((write) => write());
        cpu.mark("writes");
      };
      // written aside, the old resolution was forgotten there first (ResolutionWriter)
      if (aside) writeAll();
      else {
        g.forgetResolution();
        g.withoutIndexes(RESOLUTION_REBUILT_INDEXES, writeAll);
      }
      store.setMeta(RESOLVER_VERSION_KEY, RESOLVER_VERSION);
    });
    cpu.mark("indexes");
  } else {
    await store.whenWritable();
    report = g.transaction(() => resolve(store, g, run, project, undefined, cpu));
  }
  report.ms = Math.round(performance.now() - started);
  report.cpu = cpu.rounded();
  return report;
}

/**
 * Resolves what `changes` can move. A full run (`deferred` given) only reads: its writes are queued in
 * `deferred`, to run in one transaction after the old resolution is forgotten; other runs write as they go.
 */
function resolve(
  store: IndexStore,
  g: GraphStore,
  changes: IndexChanges,
  project: ProjectInfo,
  deferred: Array<() => void> | undefined,
  cpu: CpuParts,
  aside?: (w: ResolutionWrite) => void,
): ResolveReport {
  {
    // a full run resolves everything again, whatever was deleted since (forgetResolution clears the list)
    const dead = deferred ? [] : g.takeDeadSymbols();
    if (!changes.full && changes.written.length === 0 && changes.deleted.length === 0 && dead.length === 0) {
      return { sites: 0, refs: 0, updated: 0, ms: 0, waitedMs: 0, cpu: {} };
    }
    const files = new Map<string, FileInfo>();
    const byDir = new Map<string, string[]>();
    for (const row of g.files()) {
      const info = fileInfo(row);
      files.set(info.path, info);
      let list = byDir.get(info.dir);
      if (!list) byDir.set(info.dir, (list = []));
      list.push(info.path);
    }
    const projectFiles: ProjectFiles = { project, has: (p) => files.has(p), inDir: (d) => byDir.get(d) ?? [] };

    // 1. import sites → files
    const written = new Set(changes.written);
    const touchedDirs = new Set([...changes.written, ...changes.deleted].map(dirOf));
    let sites: ImportSiteRow[];
    if (changes.full) sites = g.allSites();
    else {
      const byId = new Map<number, ImportSiteRow>();
      for (const s of g.sitesOfFiles(written)) byId.set(s.siteId, s);
      for (const s of g.sitesIntoDirs([...membershipDirs(g, changes, dead)].map((d) => (d === "" ? "" : d + "/")))) {
        if (!byId.has(s.siteId)) byId.set(s.siteId, s);
      }
      for (const s of g.sitesWithoutEdges()) if (!byId.has(s.siteId)) byId.set(s.siteId, s);
      sites = [...byId.values()];
      if (changes.deleted.length) g.deleteEdgesInto(changes.deleted);
    }
    const lines = new Map<string, string[]>();
    const lineOf = (file: string, line: number): string => {
      let l = lines.get(file);
      if (!l) lines.set(file, (l = (g.content(file) ?? "").split("\n")));
      return l[line - 1] ?? "";
    };
    const rebound = new Set<string>(); // files whose imports now reach other files
    const reached = new Map<string, Set<string>>(); // a full run's file graph, as it is written
    // a full run's edges by site, before they are written
    const fullEdges = deferred ? new SiteTargets(sites.reduce((max, x) => Math.max(max, x.siteId), 0)) : undefined;
    // the candidate paths tried for every site are garbage at once, and young: on the kernel (353,652
    // sites, most of them includes) the process grew by 310 MiB over this loop (its live part by 42 MiB),
    // and the build's peak came at its end (832 MiB, beside the keyword load); a young collection every
    // SITES_PER_YOUNG_COLLECTION sites frees them as they go (grown by 84 MiB, the loop as fast)
    const young = collectYoungEvery(SITES_PER_YOUNG_COLLECTION);
    for (const site of sites) {
      young();
      const info = files.get(site.file);
      if (!info) continue;
      const targets = resolveSite(site, info, projectFiles, files, lineOf);
      const before = changes.full || written.has(site.file) ? undefined : g.edgeTargetsOfSite(site.siteId);
      if (before && sameSet(before, targets)) continue;
      if (fullEdges) {
        if (targets.length) {
          fullEdges.set(site.siteId, targets);
          let set = reached.get(site.file);
          if (!set) reached.set(site.file, (set = new Set()));
          for (const t of targets) set.add(t);
        }
      } else g.replaceEdges(site.siteId, targets);
      if (before) rebound.add(site.file);
    }

    // 1b. import cycles, computed again when some file's import targets changed
    const checked = changes.full ? undefined : [...new Set([...written, ...rebound, ...sites.map((x) => x.file), ...changes.deleted])];
    // what step 1 read is not needed past here: a full run on the kernel holds hundreds of thousands of sites
    const siteCount = sites.length;
    sites = [];
    lines.clear();
    if (aside) aside({ kind: "edges", ...fullEdges!.flat() });
    else if (deferred)
      deferred.push(() => {
        g.insertManyEdges((fn) => fullEdges!.forEach(fn), collectYoungEvery());
      });
    const digests = checked ? g.edgeDigests(checked) : new Map([...reached].map(([f, t]) => [f, importTargetsDigest(t)]));
    let graphChanged = changes.full;
    if (checked) {
      const stored = g.storedDigests(checked);
      const updates = new Map<string, string | undefined>();
      for (const f of checked) {
        if (digests.get(f) === stored.get(f)) continue;
        updates.set(f, digests.get(f));
        graphChanged = true;
      }
      g.saveDigests(updates);
    } else deferred!.push(() => g.saveDigests(digests));
    if (graphChanged) {
      const out = new Map<string, string[]>();
      let edges = 0;
      const pairs = changes.full ? [...reached].flatMap(([file, t]) => [...t].map((target) => ({ file, target }))) : g.filePairs();
      for (const p of pairs) {
        if (p.file === p.target) continue;
        edges++;
        const list = out.get(p.file);
        if (list) list.push(p.target);
        else out.set(p.file, [p.target]);
      }
      const nodes = new Set<string>(out.keys());
      for (const list of out.values()) for (const t of list) nodes.add(t);
      reached.clear(); // the file graph is in `out` now (and a full run's digests were taken from it above)
      const components = stronglyConnected([...nodes].sort(), out);
      const size = JSON.stringify({ files: out.size, edges });
      const write = () => {
        g.replaceComponents(components);
        store.setMeta(IMPORT_GRAPH_SIZE_KEY, size);
      };
      if (deferred) deferred.push(write);
      else write();
    }

    cpu.mark("sites");

    // 2. references → definitions
    const shared = new SharedStrings(files);
    // a full run reads every reference and most definitions: from the tables, decoded here, rather than
    // through the views (reading the file states first costs more than an incremental run's few reads)
    const reads = changes.full ? g.resolutionReads() : undefined;
    const definitions: DefinitionReads = reads ?? g;
    const index = new SymbolIndex(definitions, shared);
    const loader = new ScopeLoader(g, definitions, files, fullEdges, shared);
    const resolver = new Resolver(g, index, files, (p) => loader.scope(p), {
      prepare: (paths) => loader.prepareBindings(paths),
      of: (p) => loader.bindings(p),
    });
    let refs = 0;
    let updated = 0;
    // a full run's new targets, written after: typed columns (9 bytes a reference; 9.1 million on the kernel)
    const newTargets = new TargetColumns(deferred && !aside ? g.refCount() : 0);
    if (deferred && !aside)
      deferred.push(() => {
        const written = collectYoungEvery();
        newTargets.write(g, written);
      });
    const apply = (batch: RefToResolve[]) => {
      // definitions are loaded by name for each batch; past a bound they are dropped with what was
      // derived from them, so memory follows the batch, not the project (3.2 million on the kernel)
      cpu.mark("references");
      const scopes = loader.prepare(
        batch.map((r) => r.file),
        changes.full ? batch.filter((r) => r.kind === "import").map((r) => ({ file: r.file, name: r.name, line: r.line })) : undefined,
      );
      const needed = namesNeeded(batch, scopes);
      cpu.mark("scopes");
      if (index.loadedCount() > MAX_LOADED_SYMBOLS) {
        index.forget(needed);
        resolver.forgetDerived();
      }
      // collected after the drop, before the next names load: collected before it, the dropped
      // definitions stayed resident beside the ones loaded in their place until the next collection
      collectOnGrowth();
      cpu.mark("collections");
      index.ensure(needed);
      cpu.mark("definitions");
      // a batch's changed targets, handed aside once it is resolved
      const out = aside ? new AsideTargets(batch.length) : undefined;
      for (const r of batch) {
        const scope = loader.scope(r.file);
        if (!scope) continue;
        const t = resolver.resolve(r, scope);
        refs++;
        const id = t?.id ?? null;
        const how = t?.how ?? null;
        if (id !== r.targetId || how !== r.resolution) {
          if (out) out.push(r.id, id, how);
          else if (deferred) newTargets.push(r.id, id, how);
          else g.setTarget(r.id, id, how);
          updated++;
        }
      }
      if (out && out.n > 0) aside!(out.write());
      // a file's lines serve its own references only, which come together (in id order, or sorted by
      // file): its scope may stay cached for other files' look-ups, its text need not
      for (const s of scopes) s.lines = undefined;
      cpu.mark("lookups");
    };
    if (changes.full) {
      let batch: RefToResolve[] = [];
      reads!.forEachRefToResolve((r) => {
        if (batch.length >= 20_000 && batch[batch.length - 1]!.file !== r.file) {
          apply(batch);
          batch = [];
        }
        batch.push(r);
      });
      apply(batch);
    } else {
      const todo = new Map<number, RefRow>();
      const add = (rows: RefRow[]) => rows.forEach((r) => todo.set(r.id, r));
      add(g.refsOfFiles([...written, ...rebound]));
      // A definition written again as it was (same file, qualified name and kind) gets a new id only:
      // the references to it follow it there. Only what appeared or disappeared is resolved again.
      const { changedDead, changedBorn } = carryOver(g, dead, g.symbolsOfFiles(written));
      if (changedDead.length) add(g.refsByTargets(changedDead.map((d) => d.id)));
      const born = changedBorn;
      const names = new Set([...changedDead.map((d) => d.name), ...born.map((s) => s.name)]);
      if (names.size > 0) {
        // files that can see a definition of the changed files: same folder, importers
        const near = new Set<string>();
        for (const d of touchedDirs) for (const p of byDir.get(d) ?? []) near.add(p);
        for (const e of g.edgesInto([...written, ...changes.deleted])) near.add(e.file);
        const global = uniquenessMoved(names, born, changedDead, index);
        for (const r of g.refsNamedIn(names, near)) if (!todo.has(r.id)) todo.set(r.id, r);
        if (global.size > 0) for (const r of g.refsNamedLoose(global)) if (!todo.has(r.id)) todo.set(r.id, r);
      }
      const all = [...todo.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
      for (let i = 0; i < all.length; i += 20_000) apply(all.slice(i, i + 20_000));
    }
    // A full run's writes come after the keyword load (deferred), and their closures keep this scope, so
    // the loaded definitions, memos and scopes with it: dropped here, they are not resident while the
    // writes run (on the kernel the build's peak came there)
    index.forget();
    resolver.forgetDerived();
    loader.forget();
    cpu.mark(changes.full ? "references" : "lookups");
    return { sites: siteCount, refs, updated, ms: 0, waitedMs: 0, cpu: {} };
  }
}

/**
 * Folders whose set of files changed: those of deleted files and of new ones (a written file that had
 * no definitions and no imports before). Imports into these folders may now reach other files; a file
 * changed in place changes no import's targets.
 */
function membershipDirs(g: GraphStore, changes: IndexChanges, dead: DeadSymbol[]): Set<string> {
  const dirs = new Set(changes.deleted.map(dirOf));
  const existed = new Set(dead.map((d) => d.file));
  for (const f of g.storedDigests(changes.written).keys()) existed.add(f);
  for (const f of changes.written) if (!existed.has(f)) dirs.add(dirOf(f));
  return dirs;
}

/** Pairs deleted and re-created definitions; moves references from the old ids to the new. */
function carryOver(g: GraphStore, dead: DeadSymbol[], born: SymbolRow[]): { changedDead: DeadSymbol[]; changedBorn: SymbolRow[] } {
  const key = (file: string, qname: string, kind: string) => `${file}\u0000${qname}\u0000${kind}`;
  const waiting = new Map<string, SymbolRow[]>();
  for (const s of [...born].sort((a, b) => a.id - b.id)) {
    const k = key(s.file, s.qname, s.kind);
    const list = waiting.get(k);
    if (list) list.push(s);
    else waiting.set(k, [s]);
  }
  const changedDead: DeadSymbol[] = [];
  for (const d of dead) {
    const again = waiting.get(key(d.file, d.qname, d.kind))?.shift();
    if (again) g.retarget(d.id, again.id);
    else changedDead.push(d);
  }
  return { changedDead, changedBorn: [...waiting.values()].flat() };
}

function resolveSite(
  site: ImportSiteRow,
  info: FileInfo,
  files: ProjectFiles,
  infos: Map<string, FileInfo>,
  lineOf: (file: string, line: number) => string,
): string[] {
  const module = moduleFor(info.language);
  if (!module?.resolveImport) return [];
  // a site that declares structure rather than a dependency (Rust's `mod x;`): no edge
  const structural = info.rules.structuralImport;
  if (structural && !site.symbols && structural(lineOf(site.file, site.line))) return [];
  const imp: ImportFact = {
    module: site.module,
    isStandardLib: site.isStandardLib === 1,
    isExternal: site.isExternal === 1,
    isRelative: site.isRelative === 1,
    symbols: site.symbols ? (JSON.parse(site.symbols) as string[]) : [],
    line: site.line,
    column: site.column,
  };
  if (site.alias) imp.alias = site.alias;
  const out = new Set<string>();
  // the files map's own string for each target: a full run keeps every edge until it writes them
  for (const t of module.resolveImport(imp, site.file, files)) if (t !== site.file && files.has(t)) out.add(infos.get(t)?.path ?? t);
  const narrow = info.rules.importTargets;
  return narrow ? narrow([...out], (t) => infos.get(t)?.pkg ?? null) : [...out];
}

function sameSet(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

const REF_KINDS = ["call", "type", "read"] as const;

/**
 * Names whose count of fitting definitions (per language family and reference kind) moved to or from
 * one: those decide 'name-only' resolutions anywhere in the project.
 */
function uniquenessMoved(
  names: Set<string>,
  born: SymbolRow[],
  dead: Array<{ name: string; kind: string; language: string }>,
  index: SymbolIndex,
): Set<string> {
  index.ensure(names);
  const key = (name: string, language: string, refKind: string) => `${name}\u0000${familyOf(language)}\u0000${refKind}`;
  const delta = new Map<string, number>();
  const bump = (name: string, kind: string, language: string, by: number) => {
    for (const k of REF_KINDS) if (kindFits(k, kind)) delta.set(key(name, language, k), (delta.get(key(name, language, k)) ?? 0) + by);
  };
  for (const s of born) bump(s.name, s.kind, s.language, -1);
  for (const d of dead) bump(d.name, d.kind, d.language, +1);
  const moved = new Set<string>();
  for (const name of names) {
    const after = new Map<string, number>();
    for (const s of index.named(name))
      for (const k of REF_KINDS) if (kindFits(k, s.kind)) after.set(key(name, s.language, k), (after.get(key(name, s.language, k)) ?? 0) + 1);
    for (const [k, d] of delta) {
      if (!k.startsWith(name + "\u0000") || d === 0) continue;
      const now = after.get(k) ?? 0;
      const was = now + d;
      if (was <= 1 || now <= 1) moved.add(name);
    }
  }
  return moved;
}

/**
 * Builds and caches file scopes, loading a batch's files at once. A full run's import edges are not
 * written yet when scopes are built: they come from the run's own map instead of the database.
 */
class ScopeLoader {
  private readonly g: GraphStore;
  private readonly definitions: DefinitionReads;
  private readonly files: Map<string, FileInfo>;
  private readonly cache = new Map<string, FileScope>();
  private readonly pendingEdges: SiteTargets | undefined;
  private readonly shared: SharedStrings;
  /** Files of the last batch prepared: a batch of many small files keeps them all, whatever the bound. */
  private batchFiles = 0;

  /** `pendingEdges`: a full run's import targets by site, not written yet. */
  constructor(g: GraphStore, definitions: DefinitionReads, files: Map<string, FileInfo>, pendingEdges: SiteTargets | undefined, shared: SharedStrings) {
    this.shared = shared;
    this.g = g;
    this.definitions = definitions;
    this.files = files;
    this.pendingEdges = pendingEdges;
  }

  /** The definitions of these files, sharing their repeated strings (a scope keeps them while it is cached). */
  private symbolsOf(paths: string[]): SymbolRow[] {
    return this.definitions.symbolsOfFiles(paths).map((s) => this.shared.row(s));
  }

  private sitesOf(paths: string[]): SiteWithTargets[] {
    const sites = this.g.sitesOfFiles(paths);
    if (this.pendingEdges) return sites.map((s) => ({ ...s, targets: this.pendingEdges!.get(s.siteId) }));
    const targets = new Map<number, string[]>();
    for (const e of this.g.edgesOf(paths)) {
      let list = targets.get(e.siteId);
      if (!list) targets.set(e.siteId, (list = []));
      list.push(e.target);
    }
    return sites.map((s) => ({ ...s, targets: targets.get(s.siteId) ?? [] }));
  }

  /** Loads the scopes of these files (one query each for symbols, sites and edges) and returns them. */
  /**
   * `importNames`: every import name of these files when the caller holds them (a full run's batch holds
   * all the references of its files): not read again through the refs view, which scans each file's
   * references for its few imports.
   */
  prepare(paths: string[], importNames?: ImportNameRow[]): FileScope[] {
    const distinct = [...new Set(paths)];
    const missing = distinct.filter((p) => !this.cache.has(p) && this.files.has(p));
    this.batchFiles = distinct.length;
    if (this.cache.size + missing.length > MAX_CACHED_SCOPES) this.cache.clear();
    if (missing.length) {
      const symbols = groupBy(this.symbolsOf(missing), (s) => s.file);
      const sites = groupBy(this.sitesOf(missing), (s) => s.file);
      const names = groupBy(importNames ?? this.g.importNamesOf(missing), (n) => n.file);
      for (const p of missing) this.cache.set(p, buildScope(this.files.get(p)!, symbols.get(p) ?? [], sites.get(p) ?? [], this.files, names.get(p) ?? []));
    }
    return distinct.map((p) => this.scope(p)).filter((s): s is FileScope => s !== undefined);
  }

  /** Drops every cached scope and binding. */
  forget(): void {
    this.cache.clear();
    this.bindingCache.clear();
  }

  /** Files' bindings read without their scopes (bindings), kept up to MAX_CACHED_BINDINGS files. */
  private readonly bindingCache = new Map<string, Map<string, Binding>>();

  /** The names a file's imports bind (its scope's `names`), without loading its definitions. */
  bindings(path: string): Map<string, Binding> | undefined {
    const known = this.cache.get(path)?.names ?? this.bindingCache.get(path);
    if (known) return known;
    if (!this.files.has(path)) return undefined;
    this.prepareBindings([path]);
    return this.bindingCache.get(path);
  }

  /** Loads the bindings of these files (one query each for sites, edges and import names). */
  prepareBindings(paths: string[]): void {
    const missing = [...new Set(paths)].filter((p) => !this.cache.has(p) && !this.bindingCache.has(p) && this.files.has(p));
    if (missing.length === 0) return;
    if (this.bindingCache.size + missing.length > MAX_CACHED_BINDINGS) this.bindingCache.clear();
    const sites = groupBy(this.sitesOf(missing), (s) => s.file);
    const names = groupBy(this.g.importNamesOf(missing), (n) => n.file);
    // a scope's names come from its sites and import names alone, not from its definitions
    for (const p of missing) this.bindingCache.set(p, buildScope(this.files.get(p)!, [], sites.get(p) ?? [], this.files, names.get(p) ?? []).names);
  }

  scope(path: string): FileScope | undefined {
    const cached = this.cache.get(path);
    if (cached) return cached;
    const info = this.files.get(path);
    if (!info) return undefined;
    const scope = buildScope(info, this.symbolsOf([path]), this.sitesOf([path]), this.files, this.g.importNamesOf([path]));
    if (this.cache.size > MAX_CACHED_SCOPES + this.batchFiles) this.cache.clear();
    this.cache.set(path, scope);
    return scope;
  }
}

/**
 * Definitions held in memory at most during a resolution before they are dropped and loaded again as
 * needed. A lower bound means fewer collections under the memory budget (core/memory.ts): on a fifth of
 * the kernel 400,000 took 17 collections and 8.9 s, 100,000 took 8 and 7.5 s; go-src (263,652
 * definitions) resolves in the same time either way. With what is derived from them (memos, groups) a
 * definition holds about 1.3 KiB of heap: 100,000 were 130 MiB of go-src's resolution beside the keyword
 * load (the build's peak); 50,000 resolve go-src in the same CPU time (13.7 s against 13.8 s, alone).
 */
const MAX_LOADED_SYMBOLS = 50_000;

/**
 * File scopes cached at most (ScopeLoader), then dropped together. A scope holds the file's definitions
 * and bindings (about 27 KiB on go-src): 5,000 were up to 135 MiB of the resolution's heap; with 1,000
 * its RSS while computing averaged 40-60 MiB less on go-src, in the same CPU time there and on a sixth
 * of the kernel (batches come in path order, so the scopes a batch asks for again are recent ones).
 */
const MAX_CACHED_SCOPES = 1000;

/** Files whose bindings alone (ScopeLoader.bindings) are cached at most: a few kilobytes each. */
const MAX_CACHED_BINDINGS = 5000;

const HOW_CODES = [null, "exact", "import", "name-only"] as const;

/**
 * A full run's resolved targets, as growable typed columns, sized up front to the references there are
 * (at most one target each): grown by doubling, the kernel's 9.1 million took 150 MB of columns, and
 * 225 MB while the last doubling copied them.
 */
class TargetColumns {
  private ids: Int32Array;
  private targets: Int32Array;
  private hows: Uint8Array;
  private n = 0;

  constructor(expected: number) {
    const size = Math.max(1 << 10, expected);
    this.ids = new Int32Array(size);
    this.targets = new Int32Array(size);
    this.hows = new Uint8Array(size);
  }

  push(id: number, target: number | null, how: string | null): void {
    if (this.n === this.ids.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.ids = grow(this.ids);
      this.targets = grow(this.targets);
      this.hows = grow(this.hows);
    }
    this.ids[this.n] = id;
    this.targets[this.n] = target ?? -1;
    this.hows[this.n] = Math.max(0, HOW_CODES.indexOf(how as (typeof HOW_CODES)[number]));
    this.n++;
  }

  /** Writes every target, in the order they were pushed; `afterEach` runs once per row. */
  write(g: GraphStore, afterEach: () => void): void {
    const row = { id: 0, targetId: null as number | null, resolution: null as string | null };
    g.setTargets(this.n, (i) => {
      row.id = this.ids[i]!;
      row.targetId = this.targets[i]! < 0 ? null : this.targets[i]!;
      row.resolution = HOW_CODES[this.hows[i]!]!;
      afterEach();
      return row;
    });
  }
}

/** One batch's changed targets for the keyword load's thread (ResolutionWrite "targets"), sized to the batch. */
class AsideTargets {
  private readonly ids: Int32Array;
  private readonly targets: Int32Array;
  private readonly hows: Uint8Array;
  n = 0;

  constructor(size: number) {
    this.ids = new Int32Array(size);
    this.targets = new Int32Array(size);
    this.hows = new Uint8Array(size);
  }

  push(id: number, target: number | null, how: string | null): void {
    this.ids[this.n] = id;
    this.targets[this.n] = target ?? -1;
    this.hows[this.n] = resolutionCode(how) ?? 0;
    this.n++;
  }

  /** The write, its arrays cut to what was pushed (copies: the message moves them). */
  write(): ResolutionWrite {
    return { kind: "targets", ids: this.ids.slice(0, this.n), targets: this.targets.slice(0, this.n), hows: this.hows.slice(0, this.n) };
  }
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    let list = m.get(k);
    if (!list) m.set(k, (list = []));
    list.push(it);
  }
  return m;
}
