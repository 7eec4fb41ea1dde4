/**
 * The graph engine behind cortex_graph and detect_circular_dependencies: callers and callees, import
 * dependencies and dependents (file or module level), type usages, implementations, the shortest call
 * or import path, impact, and import cycles. Every traversal is a breadth-first search one level (one
 * query) at a time with a visited set, so any depth terminates on cyclic graphs, stops at the result
 * limit (truncated) or the deadline (partial), and reports each edge with the site that makes it.
 */
import type { IndexReader, RefRow, SymbolRow } from "../../store/contract.ts";
import { CortexError } from "../../core/errors.ts";
import { SymbolsEngine } from "../symbols/index.ts";
import { TYPE_KINDS } from "../symbols/kinds.ts";
import { SourceLines } from "./source-lines.ts";
import { IMPORT_GRAPH_SIZE_KEY, shortestCycle, stronglyConnected, type ImportEdge } from "./cycles.ts";
import { staleFiles } from "../freshness.ts";
import { dirOf } from "../../core/rel-path.ts";
import { rulesOf } from "../../lang/registry.ts";

export const GRAPH_OPERATIONS = ["callers", "callees", "dependencies", "dependents", "type_usages", "implementations", "path", "impact"] as const;
export type GraphOperation = (typeof GRAPH_OPERATIONS)[number];

/** One end of an edge: a definition, a file, a module (folder), or a name nothing resolved. */
export interface GraphNode {
  kind: "symbol" | "file" | "module" | "unresolved";
  /** Qualified name for symbols; path for files and modules; the name as written for unresolved ones. */
  name: string;
  symbol_kind?: string;
  file_path?: string;
  line?: number;
}

export interface GraphEdge {
  depth: number;
  from: GraphNode;
  to: GraphNode;
  /** call, type, inherit, implement, read, import, or method-set (Go's implicit implementation) */
  relation: string;
  /** Where the edge is written (the call, the import statement…). */
  site?: { file_path: string; line: number; column: number; resolution?: string };
  context?: { start_line: number; lines: string[] };
  stale?: true;
}

export interface GraphRequest {
  operation: GraphOperation;
  target: string;
  to?: string;
  depth: number;
  maxResults: number;
  level: "file" | "module";
  includeContext: boolean;
  contextLines: number;
  deadline?: number;
}

export interface GraphResult {
  operation: GraphOperation;
  targets: GraphNode[];
  edges: GraphEdge[];
  count: number;
  truncated: boolean;
  partial: boolean;
  /** For path: whether a path was found within the depth. */
  found?: boolean;
  /** For impact: the distinct files reached. */
  affected_files?: string[];
  took_ms: number;
}

export interface CycleReport {
  files: string[];
  length: number;
  severity: "high" | "medium" | "low";
  /** Files in the whole strongly connected component (the cycle shown is its shortest through the first file). */
  component_size: number;
  component?: string[];
  imports: Array<{ file_path: string; line: number; column: number; imports: string; statement: string; target: string }>;
  /** Files of the cycle that changed on disk (or went) since indexing: the cycle is as indexed. */
  stale_files?: string[];
}

export interface CyclesResult {
  status: "success" | "warning";
  message: string;
  scope?: string;
  cycles: CycleReport[];
  count: number;
  truncated: boolean;
  graphStats: { files: number; edges: number };
  advice?: string;
  took_ms: number;
}

type Target = { kind: "symbols"; symbols: SymbolRow[] } | { kind: "files"; files: string[]; module?: string };

const symNode = (s: SymbolRow): GraphNode => ({ kind: "symbol", name: s.qname, symbol_kind: s.kind, file_path: s.file, line: s.line });
const fileNode = (f: string): GraphNode => ({ kind: "file", name: f, file_path: f });

export class GraphEngine {
  private readonly store: IndexReader;
  private readonly root: string;
  readonly symbols: SymbolsEngine;
  private readonly resolvePath: (p: string) => string;

  constructor(store: IndexReader, root: string, resolvePath: (p: string) => string) {
    this.store = store;
    this.root = root;
    this.symbols = new SymbolsEngine(store, root);
    this.resolvePath = resolvePath;
  }

  private get g(): IndexReader {
    return this.store;
  }

  /** Whether a path is an indexed (parse-tier) file. */
  private async isFile(path: string): Promise<boolean> {
    return (await this.g.filesInfo([path])).has(path);
  }

  /** A target: a path (file or folder) when it looks like one or names an indexed file, else a symbol. */
  private async target(input: string, field: string, want: "symbols" | "files" | "either"): Promise<Target> {
    const text = input.trim();
    if (text.length === 0) throw new CortexError("INVALID_INPUT", `${field}: must not be empty`);
    const looksLikePath = text.includes("/") || text === "." || (await this.isFile(text));
    if (looksLikePath || want === "files") {
      const rel = this.resolvePath(text);
      if (await this.isFile(rel)) return { kind: "files", files: [rel] };
      const under = await this.g.filesUnder(rel);
      if (under.length > 0) return { kind: "files", files: under, module: rel };
      if (looksLikePath) throw new CortexError("NOT_FOUND", `${field}: no indexed file or folder '${text}'`);
    }
    const defs = await this.symbols.definitions({ name: text });
    if (defs.length === 0) {
      const hint = await this.symbols.suggestions(text);
      throw new CortexError(
        "NOT_FOUND",
        `${field}: no definition named '${text}'${hint.length ? ` (did you mean ${hint.map((h) => `'${h}'`).join(", ")}?)` : ""}`,
        { data: { suggestions: hint } },
      );
    }
    if (want === "files") return { kind: "files", files: [...new Set(defs.map((d) => d.file))] };
    return { kind: "symbols", symbols: defs };
  }

  async run(req: GraphRequest): Promise<GraphResult> {
    const started = performance.now();
    const ctx = new Traversal(req);
    let targets: GraphNode[] = [];
    let extra: Partial<GraphResult> = {};
    switch (req.operation) {
      case "callers":
      case "callees":
      case "type_usages":
      case "implementations": {
        const t = await this.target(req.target, "target", "symbols");
        if (t.kind !== "symbols") throw new CortexError("INVALID_INPUT", `target: ${req.operation} needs a symbol name, not a path`);
        targets = t.symbols.map(symNode);
        if (req.operation === "callers") await this.callers(t.symbols, ctx);
        else if (req.operation === "callees") await this.callees(t.symbols, ctx);
        else if (req.operation === "type_usages") await this.typeUsages(t.symbols, ctx);
        else await this.implementations(t.symbols, ctx);
        break;
      }
      case "dependencies":
      case "dependents": {
        const t = await this.target(req.target, "target", "files");
        if (t.kind !== "files") throw new CortexError("INVALID_INPUT", "target: expected a file or folder");
        targets = t.module !== undefined && req.level === "module" ? [{ kind: "module", name: t.module }] : t.files.map(fileNode);
        await this.imports(t.files, req.operation === "dependencies" ? "out" : "in", req.level, ctx);
        break;
      }
      case "impact": {
        const t = await this.target(req.target, "target", "either");
        if (t.kind === "symbols") {
          targets = t.symbols.map(symNode);
          await this.symbolImpact(t.symbols, ctx);
        } else {
          targets = t.files.map(fileNode);
          await this.fileImpact(t.files, ctx);
        }
        const files = new Set<string>();
        for (const e of ctx.edges) if (e.from.file_path) files.add(e.from.file_path);
        extra = { affected_files: [...files].sort() };
        break;
      }
      case "path": {
        if (!req.to) throw new CortexError("INVALID_INPUT", "to: required for operation 'path' (the end of the path)");
        const a = await this.target(req.target, "target", "either");
        const b = await this.target(req.to, "to", a.kind === "files" ? "files" : "either");
        targets = a.kind === "symbols" ? a.symbols.map(symNode) : a.files.map(fileNode);
        if (a.kind === "symbols" && b.kind === "symbols") extra = { found: await this.callPath(a.symbols, b.symbols, ctx) };
        else {
          const af = a.kind === "files" ? a.files : [...new Set(a.symbols.map((s) => s.file))];
          const bf = b.kind === "files" ? b.files : [...new Set(b.symbols.map((s) => s.file))];
          extra = { found: await this.importPath(af, bf, ctx) };
        }
        break;
      }
    }
    await this.decorate(ctx.edges, req);
    return {
      operation: req.operation,
      targets,
      edges: ctx.edges,
      count: ctx.edges.length,
      truncated: ctx.truncated,
      partial: ctx.partial,
      ...extra,
      took_ms: Math.round((performance.now() - started) * 10) / 10,
    };
  }

  /** Adds context lines and stale marks to edges that have a site. */
  private async decorate(edges: GraphEdge[], req: GraphRequest): Promise<void> {
    const sites = edges.filter((e) => e.site).map((e) => e.site!.file_path);
    const stale = await staleFiles(this.store, this.root, sites);
    const lines = req.includeContext ? await new SourceLines(this.store).load(sites) : undefined;
    for (const e of edges) {
      if (!e.site) continue;
      if (stale.has(e.site.file_path)) e.stale = true;
      if (lines) e.context = lines.window(e.site.file_path, e.site.line, req.contextLines);
    }
  }

  private async loadSymbols(ids: Iterable<number>, known: Map<number, SymbolRow>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !known.has(id));
    for (let i = 0; i < missing.length; i += 900) for (const s of await this.g.symbolsById(missing.slice(i, i + 900))) known.set(s.id, s);
  }

  private site(r: RefRow) {
    return { file_path: r.file, line: r.line, column: r.column, ...(r.resolution ? { resolution: r.resolution } : {}) };
  }

  /** Who calls the targets, then who calls those, up to the depth. */
  private callers(targets: SymbolRow[], ctx: Traversal): Promise<void> {
    return this.reverse(targets, ctx, (r) => r.kind === "call");
  }

  /** Everything that uses the targets (any reference), transitively. */
  private symbolImpact(targets: SymbolRow[], ctx: Traversal): Promise<void> {
    return this.reverse(targets, ctx, (r) => r.kind !== "import");
  }

  private async reverse(targets: SymbolRow[], ctx: Traversal, keep: (r: RefRow) => boolean): Promise<void> {
    const known = new Map(targets.map((s) => [s.id, s]));
    const visited = new Set(targets.map((s) => s.id));
    let frontier = [...visited];
    for (let depth = 1; depth <= ctx.depth && frontier.length > 0 && ctx.open(); depth++) {
      const rows = (await this.g.refsByTargets(frontier)).filter(keep);
      await this.loadSymbols(
        rows.flatMap((r) => (r.enclosingId === null ? [] : [r.enclosingId])),
        known,
      );
      const next: number[] = [];
      for (const r of sortRefs(rows)) {
        const callee = known.get(r.targetId!)!;
        const caller = r.enclosingId === null ? undefined : known.get(r.enclosingId);
        if (!ctx.add({ depth, from: caller ? symNode(caller) : fileNode(r.file), to: symNode(callee), relation: r.kind, site: this.site(r) })) return;
        if (caller && !visited.has(caller.id)) {
          visited.add(caller.id);
          next.push(caller.id);
        }
      }
      frontier = next;
    }
  }

  /** What the targets call (resolved calls are followed; unresolved ones are listed at their level). */
  private async callees(targets: SymbolRow[], ctx: Traversal): Promise<void> {
    const known = new Map(targets.map((s) => [s.id, s]));
    const visited = new Set(targets.map((s) => s.id));
    let frontier = [...visited];
    for (let depth = 1; depth <= ctx.depth && frontier.length > 0 && ctx.open(); depth++) {
      const rows = (await this.g.refsInside(frontier)).filter((r) => r.kind === "call");
      await this.loadSymbols(
        rows.flatMap((r) => (r.targetId === null ? [] : [r.targetId])),
        known,
      );
      const next: number[] = [];
      for (const r of sortRefs(rows)) {
        const caller = known.get(r.enclosingId!)!;
        const callee = r.targetId === null ? undefined : known.get(r.targetId);
        const to: GraphNode = callee ? symNode(callee) : { kind: "unresolved", name: r.qualifier ? `${r.qualifier}.${r.name}` : r.name };
        if (!ctx.add({ depth, from: symNode(caller), to, relation: "call", site: this.site(r) })) return;
        if (callee && !visited.has(callee.id)) {
          visited.add(callee.id);
          next.push(callee.id);
        }
      }
      frontier = next;
    }
  }

  /** Where the types are named; deeper levels add the usages of their subtypes. */
  private async typeUsages(targets: SymbolRow[], ctx: Traversal): Promise<void> {
    const types = targets.filter((s) => TYPE_KINDS.has(s.kind));
    if (types.length === 0) throw new CortexError("INVALID_INPUT", `target: '${targets[0]!.qname}' is a ${targets[0]!.kind}, not a type`);
    const known = new Map(types.map((s) => [s.id, s]));
    const visited = new Set(types.map((s) => s.id));
    let frontier = [...visited];
    for (let depth = 1; depth <= ctx.depth && frontier.length > 0 && ctx.open(); depth++) {
      const rows = (await this.g.refsByTargets(frontier)).filter((r) => r.kind !== "import");
      await this.loadSymbols(
        rows.flatMap((r) => (r.enclosingId === null ? [] : [r.enclosingId])),
        known,
      );
      const next: number[] = [];
      for (const r of sortRefs(rows)) {
        const user = r.enclosingId === null ? undefined : known.get(r.enclosingId);
        if (!ctx.add({ depth, from: user ? symNode(user) : fileNode(r.file), to: symNode(known.get(r.targetId!)!), relation: r.kind, site: this.site(r) }))
          return;
        if ((r.kind === "inherit" || r.kind === "implement") && user && TYPE_KINDS.has(user.kind) && !visited.has(user.id)) {
          visited.add(user.id);
          next.push(user.id);
        }
      }
      frontier = next;
    }
  }

  /**
   * Types that extend or implement the targets (inherit / implement references), transitively. Where a
   * language declares no implementations (ResolutionRules.implicitInterfaces: Go), a type implements an
   * interface when its methods include every method the interface declares by name (signatures are not
   * compared; methods of embedded interfaces and types are not counted), so those come from the method sets.
   */
  private async implementations(targets: SymbolRow[], ctx: Traversal): Promise<void> {
    const types = targets.filter((s) => TYPE_KINDS.has(s.kind));
    if (types.length === 0) throw new CortexError("INVALID_INPUT", `target: '${targets[0]!.qname}' is a ${targets[0]!.kind}, not a type`);
    const known = new Map(types.map((s) => [s.id, s]));
    const visited = new Set(types.map((s) => s.id));
    let frontier = types;
    for (let depth = 1; depth <= ctx.depth && frontier.length > 0 && ctx.open(); depth++) {
      const next: SymbolRow[] = [];
      const rows = (await this.g.refsByTargets(frontier.map((t) => t.id))).filter((r) => r.kind === "inherit" || r.kind === "implement");
      await this.loadSymbols(
        rows.flatMap((r) => (r.enclosingId === null ? [] : [r.enclosingId])),
        known,
      );
      for (const r of sortRefs(rows)) {
        const sub = r.enclosingId === null ? undefined : known.get(r.enclosingId);
        if (!sub || !TYPE_KINDS.has(sub.kind)) continue;
        if (!ctx.add({ depth, from: symNode(sub), to: symNode(known.get(r.targetId!)!), relation: r.kind, site: this.site(r) })) return;
        if (!visited.has(sub.id)) {
          visited.add(sub.id);
          next.push(sub);
        }
      }
      for (const iface of frontier.filter((t) => t.kind === "interface" && rulesOf(t.language).implicitInterfaces)) {
        for (const impl of await this.methodSetImplementers(iface)) {
          if (visited.has(impl.id)) continue;
          if (!ctx.add({ depth, from: symNode(impl), to: symNode(iface), relation: "method-set" })) return;
          visited.add(impl.id);
          next.push(impl);
        }
      }
      frontier = next;
    }
  }

  /**
   * Named types (not interfaces) of the interface's language whose declared methods, in one folder, cover
   * every method of the interface: implementations where a language declares none (Go).
   */
  private async methodSetImplementers(iface: SymbolRow): Promise<SymbolRow[]> {
    const methods = (await this.g.symbolsOfFiles([iface.file])).filter((s) => s.container === iface.qname && s.kind === "method").map((s) => s.name);
    if (methods.length === 0) return [];
    const have = new Map<string, { names: Set<string>; dir: string }>();
    for (const r of await this.g.methodOwners(iface.language, [...new Set(methods)])) {
      if (r.container === iface.qname) continue;
      const dir = dirOf(r.file);
      const key = `${dir}\u0000${r.container}`;
      let entry = have.get(key);
      if (!entry) have.set(key, (entry = { names: new Set(), dir }));
      entry.names.add(r.name);
    }
    const out: SymbolRow[] = [];
    const complete = [...have].filter(([, entry]) => entry.names.size >= new Set(methods).size);
    const lastOf = (qname: string) => qname.slice(qname.lastIndexOf(".") + 1);
    // the candidate types by name, in one question
    const named = await this.g.symbolsNamed([...new Set(complete.map(([key]) => lastOf(key.slice(key.indexOf("\u0000") + 1))))]);
    for (const [key, entry] of complete) {
      const qname = key.slice(key.indexOf("\u0000") + 1);
      const last = lastOf(qname);
      const type = named
        .filter((s) => s.name === last)
        .find(
          (s) =>
            s.qname === qname &&
            s.language === iface.language &&
            s.kind !== "interface" &&
            TYPE_KINDS.has(s.kind) &&
            s.file.startsWith(entry.dir === "" ? "" : entry.dir + "/") &&
            !s.file.slice(entry.dir.length + 1).includes("/"),
        );
      if (type) out.push(type);
    }
    return out.sort((a, b) => (a.qname < b.qname ? -1 : a.qname > b.qname ? 1 : 0));
  }

  /** Import edges out of (dependencies) or into (dependents) the files, at file or module level. */
  private async imports(files: string[], direction: "out" | "in", level: "file" | "module", ctx: Traversal): Promise<void> {
    const moduleOf = async (paths: string[]) => new Map([...(await this.g.filesInfo([...new Set(paths)]))].map(([p, f]) => [p, f.modulePath]));
    const visited = new Set<string>(level === "module" ? [...new Set((await moduleOf(files)).values())] : files);
    // a folder's own imports among its files are neither its dependencies nor its dependents
    const target = new Set(files);
    let frontier = files;
    for (let depth = 1; depth <= ctx.depth && frontier.length > 0 && ctx.open(); depth++) {
      const rows = direction === "out" ? await this.g.edgesOf(frontier) : await this.g.edgesInto(frontier);
      rows.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.target < b.target ? -1 : 1)));
      const modules = level === "module" ? await moduleOf(rows.flatMap((r) => [r.file, r.target])) : undefined;
      const next: string[] = [];
      const reachedModules: string[] = [];
      const seenEdge = new Set<string>();
      for (const r of rows) {
        if (target.has(r.file) && target.has(r.target)) continue;
        const site = { file_path: r.file, line: r.line, column: r.column };
        if (modules) {
          const from = modules.get(r.file)!;
          const to = modules.get(r.target)!;
          if (from === to || seenEdge.has(`${from}\u0000${to}`)) continue;
          seenEdge.add(`${from}\u0000${to}`);
          if (!ctx.add({ depth, from: { kind: "module", name: from }, to: { kind: "module", name: to }, relation: "import", site })) return;
          const reached = direction === "out" ? to : from;
          if (!visited.has(reached)) {
            visited.add(reached);
            reachedModules.push(reached);
          }
        } else {
          if (!ctx.add({ depth, from: fileNode(r.file), to: fileNode(r.target), relation: "import", site })) return;
          const reached = direction === "out" ? r.target : r.file;
          if (!visited.has(reached)) {
            visited.add(reached);
            next.push(reached);
          }
        }
      }
      // the files of the modules reached at this level, in one question
      if (reachedModules.length > 0) next.push(...(await this.g.filesOfModules(reachedModules)));
      frontier = next;
    }
  }

  /** Files that import the targets or use their definitions, transitively. */
  private async fileImpact(files: string[], ctx: Traversal): Promise<void> {
    const visited = new Set(files);
    let frontier = files;
    for (let depth = 1; depth <= ctx.depth && frontier.length > 0 && ctx.open(); depth++) {
      const next: string[] = [];
      const pairs = new Map<string, { from: string; to: string; file: string; line: number; column: number; relation: string }>();
      const [into, refs] = await Promise.all([this.g.edgesInto(frontier), this.g.refsIntoFiles(frontier)]);
      for (const e of into) {
        const k = `${e.file}\u0000${e.target}`;
        if (!pairs.has(k)) pairs.set(k, { from: e.file, to: e.target, file: e.file, line: e.line, column: e.column, relation: "import" });
      }
      for (const r of refs) {
        const k = `${r.file}\u0000${r.targetFile}`;
        if (!pairs.has(k)) pairs.set(k, { from: r.file, to: r.targetFile, file: r.file, line: r.line, column: r.column, relation: r.kind });
      }
      const sorted = [...pairs.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : 1));
      for (const p of sorted) {
        if (!ctx.add({ depth, from: fileNode(p.from), to: fileNode(p.to), relation: p.relation, site: { file_path: p.file, line: p.line, column: p.column } }))
          return;
        if (!visited.has(p.from)) {
          visited.add(p.from);
          next.push(p.from);
        }
      }
      frontier = next;
    }
  }

  /** The shortest chain of calls from any of `from` to any of `to`, as edges in order. */
  private async callPath(from: SymbolRow[], to: SymbolRow[], ctx: Traversal): Promise<boolean> {
    const goal = new Set(to.map((s) => s.id));
    const known = new Map([...from, ...to].map((s) => [s.id, s]));
    const parent = new Map<number, { prev: number; ref: RefRow }>();
    const visited = new Set(from.map((s) => s.id));
    let frontier = [...visited];
    for (let depth = 1; depth <= ctx.depth && frontier.length > 0 && ctx.open(); depth++) {
      const next: number[] = [];
      for (const r of sortRefs((await this.g.refsInside(frontier)).filter((r) => r.kind === "call" && r.targetId !== null))) {
        const t = r.targetId!;
        if (visited.has(t)) continue;
        visited.add(t);
        parent.set(t, { prev: r.enclosingId!, ref: r });
        if (goal.has(t)) {
          const chain: Array<{ prev: number; ref: RefRow; id: number }> = [];
          for (let at: number | undefined = t; at !== undefined && parent.has(at); at = parent.get(at)!.prev) chain.push({ ...parent.get(at)!, id: at });
          chain.reverse();
          await this.loadSymbols(
            chain.flatMap((c) => [c.prev, c.id]),
            known,
          );
          chain.forEach((c, i) =>
            ctx.add({ depth: i + 1, from: symNode(known.get(c.prev)!), to: symNode(known.get(c.id)!), relation: "call", site: this.site(c.ref) }),
          );
          return true;
        }
        next.push(t);
      }
      frontier = next;
    }
    return false;
  }

  /** The shortest chain of imports from any of `from` to any of `to`. */
  private async importPath(from: string[], to: string[], ctx: Traversal): Promise<boolean> {
    const goal = new Set(to);
    const parent = new Map<string, { prev: string; line: number; column: number }>();
    const visited = new Set(from);
    let frontier = from;
    for (let depth = 1; depth <= ctx.depth && frontier.length > 0 && ctx.open(); depth++) {
      const next: string[] = [];
      const rows = (await this.g.edgesOf(frontier)).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
      for (const e of rows) {
        if (visited.has(e.target)) continue;
        visited.add(e.target);
        parent.set(e.target, { prev: e.file, line: e.line, column: e.column });
        if (goal.has(e.target)) {
          const chain: Array<{ prev: string; to: string; line: number; column: number }> = [];
          for (let at: string | undefined = e.target; at !== undefined && parent.has(at); at = parent.get(at)!.prev) chain.push({ ...parent.get(at)!, to: at });
          chain.reverse();
          chain.forEach((c, i) =>
            ctx.add({
              depth: i + 1,
              from: fileNode(c.prev),
              to: fileNode(c.to),
              relation: "import",
              site: { file_path: c.prev, line: c.line, column: c.column },
            }),
          );
          return true;
        }
        next.push(e.target);
      }
      frontier = next;
    }
    return false;
  }

  /**
   * Import cycles among the files under `scope` (a path prefix; all files when absent). Reads the
   * components reference resolution keeps; within a scope, a component's files are split again by the
   * edges among them alone (a scope can cut a cycle).
   */
  async cycles(opts: { scope?: string; limit: number; deadline?: number }): Promise<CyclesResult> {
    const started = performance.now();
    const scope = opts.scope !== undefined ? this.resolvePath(opts.scope) : undefined;
    const dir = scope === undefined || scope === "" ? "" : scope;
    // a scope that names nothing indexed is an error, not "no cycles"
    if (dir !== "" && !(await this.isFile(dir)) && (await this.g.filesUnder(dir)).length === 0)
      throw new CortexError("NOT_FOUND", `scope: no indexed file or folder '${opts.scope}'`);
    const found: Array<{ comp: string[]; out: Map<string, string[]>; first: Map<string, ImportEdge> }> = [];
    for (const files of (await this.g.componentFiles(dir === "" ? undefined : dir)).values()) {
      if (files.length < 2) continue;
      const out = new Map<string, string[]>();
      const first = new Map<string, ImportEdge>();
      for (const e of await this.g.edgesAmong(files)) {
        if (e.file === e.target) continue;
        const key = `${e.file}\u0000${e.target}`;
        const prev = first.get(key);
        if (prev && prev.line <= e.line) continue;
        if (!prev) {
          const list = out.get(e.file);
          if (list) list.push(e.target);
          else out.set(e.file, [e.target]);
        }
        first.set(key, { from: e.file, to: e.target, line: e.line, column: e.column, module: e.module });
      }
      for (const list of out.values()) list.sort();
      for (const comp of stronglyConnected([...files].sort(), out)) found.push({ comp, out, first });
    }
    found.sort((a, b) => b.comp.length - a.comp.length || (a.comp[0]! < b.comp[0]! ? -1 : 1));
    const cycles: CycleReport[] = [];
    const shown = found.slice(0, opts.limit).map((c) => ({ ...c, chain: shortestCycle(c.comp[0]!, new Set(c.comp), c.out) }));
    // every cycle's import statements and their lines, in one question each
    const pairs = shown.flatMap(({ chain }) => chain.slice(0, -1).map((f, i) => [f, chain[i + 1]!] as const));
    const firstImports = await this.g.firstImports(pairs);
    const lines = await new SourceLines(this.store).load(pairs.map(([f]) => f));
    for (const { comp, first, chain } of shown) {
      const imports = chain.slice(0, -1).map((f, i) => {
        const to = chain[i + 1]!;
        const e = firstImports.get(`${f}\u0000${to}`) ?? { line: first.get(`${f}\u0000${to}`)!.line, column: 1, module: "" };
        return { file_path: f, line: e.line, column: e.column, imports: e.module, statement: lines.line(f, e.line).trim(), target: to };
      });
      const length = chain.length - 1;
      cycles.push({
        files: chain,
        length,
        severity: length === 2 ? "high" : length <= 3 ? "medium" : "low",
        component_size: comp.length,
        ...(comp.length > length ? { component: comp } : {}),
        imports,
      });
    }
    // a cycle through files changed or deleted since indexing may no longer close: said, as for every hit
    const stale = await staleFiles(
      this.store,
      this.root,
      cycles.flatMap((c) => c.files),
    );
    for (const c of cycles) {
      const changed = [...new Set(c.files.filter((f) => stale.has(f)))];
      if (changed.length > 0) c.stale_files = changed;
    }
    const size = dir === "" ? await this.wholeGraphSize() : await this.g.importGraphSize(dir);
    const where = scope ? ` in scope: ${scope}` : " in the codebase";
    const n = found.length;
    return {
      status: n ? "warning" : "success",
      message: n ? `Found ${n} circular dependenc${n === 1 ? "y" : "ies"}${where}.` : `No circular dependencies detected${where}.`,
      ...(scope !== undefined ? { scope } : {}),
      cycles,
      count: cycles.length,
      truncated: n > cycles.length,
      graphStats: size,
      ...(n
        ? {
            advice:
              "Shorter cycles (2-3 files) are usually the most harmful; break one by moving what both sides need into a module they can both import, or by inverting one import.",
          }
        : {}),
      took_ms: Math.round((performance.now() - started) * 10) / 10,
    };
  }

  private async wholeGraphSize(): Promise<{ files: number; edges: number }> {
    const stored = await this.store.meta(IMPORT_GRAPH_SIZE_KEY);
    return stored ? (JSON.parse(stored) as { files: number; edges: number }) : this.g.importGraphSize("");
  }
}

function sortRefs(rows: RefRow[]): RefRow[] {
  return rows.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
}

/** Result collection shared by traversals: the limit, the deadline, the flags they set. */
class Traversal {
  readonly edges: GraphEdge[] = [];
  readonly depth: number;
  private readonly max: number;
  private readonly deadline: number | undefined;
  truncated = false;
  partial = false;

  constructor(req: GraphRequest) {
    this.depth = req.depth;
    this.max = req.maxResults;
    this.deadline = req.deadline;
  }

  /** Whether to go on (false once the deadline passed or the limit was reached). */
  open(): boolean {
    if (this.deadline !== undefined && Date.now() > this.deadline) this.partial = true;
    return !this.partial && !this.truncated;
  }

  /** Adds an edge; false when the limit is reached (the edge is not added, the result is truncated). */
  add(e: GraphEdge): boolean {
    if (this.edges.length >= this.max) {
      this.truncated = true;
      return false;
    }
    this.edges.push(e);
    return true;
  }
}
