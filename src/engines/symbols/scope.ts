/**
 * What one file can see, for reference resolution: its own definitions, the names and modules its
 * imports bind, the files it includes wholesale, and which other files share its package. Built from
 * the stored import sites and their resolved targets; what each language means (includes, package
 * scope, strict modules) comes from its ResolutionRules.
 */
import type { FileRow, ImportNameRow, ImportSiteRow, SymbolRow } from "../../store/graph-store.ts";
import { dirOf } from "../../core/rel-path.ts";
import { rulesOf } from "../../lang/registry.ts";
import type { ResolutionRules } from "../../lang/resolution.ts";

export interface FileInfo {
  path: string;
  language: string;
  family: string;
  dir: string;
  pkg: string | null;
  rules: ResolutionRules;
  /** Language, folder and package in one string: files alike in these see the same package (Resolver.samePackage's memo). */
  packageKey: string;
}

export interface Binding {
  files: string[];
  /** The definition's own name when the binding renames it (an alias). */
  name: string;
  /** The import is of something outside the project (standard library, external package). */
  outside: boolean;
  /** The imported name as a dotted qualified name (`Shop\Support\format` → `Shop.Support.format`). */
  qname?: string;
  /** A whole module, package or file is imported (no names listed): the name can only be a type's. */
  whole?: boolean;
}

/** A binding that names nothing of the project: resolution stops there. */
export const isOutsideBinding = (b: Binding): boolean => b.files.length === 0 && b.outside;

/** What one file can see: its own definitions and the names its imports bind. */
export interface FileScope {
  info: FileInfo;
  symbols: SymbolRow[];
  byId: Map<number, SymbolRow>;
  /** Qualifier text → files (`store` → every file of the imported package). */
  modules: Map<string, Binding>;
  /** Unqualified local name → files holding the definition (`from x import Y`, `import a.b.C`). */
  names: Map<string, Binding>;
  /** Files whose top-level names this file sees unqualified (includes, requires, star imports). */
  wholesale: string[];
  /** The file's lines, read on first need (local variable declarations). */
  lines?: string[];
  /** The file's definitions by name. */
  byName: Map<string, SymbolRow[]>;
  /** The class around each enclosing definition, once looked up. */
  classOf: Map<number, SymbolRow | undefined>;
  /** A field's declared type by class id and field name, once read from the class body (Resolver.fieldType). */
  fieldTypes: Map<string, string | undefined>;
  /** Whether a function's value named so comes from outside the project, by function id and name (Resolver.rootIsOutside). */
  outsideRoots: Map<string, boolean>;
  /** The file's types other than namespaces, in order, listed on first need (Resolver.findEnclosingClass). */
  types?: SymbolRow[];
  /** What an unqualified name of a kind resolves to anywhere in the file, by kind and name (Resolver.inScope). */
  answers: Map<string, Map<string, { id: number; how: "exact" | "import" | "name-only" } | undefined>>;
  /** What a written type name resolves to in the file, made on first need (Resolver.typeNamed). */
  typeAnswers?: Map<string, { sym: SymbolRow; how: "exact" | "import" | "name-only" } | undefined>;
}

/**
 * The last segment of a module path or qualified name: `a/b/c`, `a.b.c`, `A\B\C`, `A::B::C` → c. The
 * separators are `::`, `.`, `/` and `\` as a left-to-right split meets them (`a:::b` → `:b`), empty
 * segments skipped, `s` itself when it has none. One scan without the split's arrays: resolution asks
 * this of nearly every qualified reference (go-src: 0.2 s of its CPU as a split and a filter).
 */
export function lastSegment(s: string): string {
  const n = s.length;
  let start = 0; // where the segment being scanned began
  let lastStart = -1;
  let lastEnd = -1;
  for (let i = 0; i < n; ) {
    const c = s.charCodeAt(i);
    const sep = c === 46 || c === 47 || c === 92 ? 1 : c === 58 && s.charCodeAt(i + 1) === 58 ? 2 : 0;
    if (sep === 0) {
      i++;
      continue;
    }
    if (i > start) {
      lastStart = start;
      lastEnd = i;
    }
    i += sep;
    start = i;
  }
  if (n > start) return start === 0 ? s : s.slice(start);
  return lastStart < 0 ? s : s.slice(lastStart, lastEnd);
}

export function fileInfo(row: FileRow): FileInfo {
  const rules = rulesOf(row.language);
  const dir = dirOf(row.path);
  return {
    path: row.path,
    language: row.language,
    family: rules.family,
    dir,
    pkg: row.packageName,
    rules,
    packageKey: `${row.language}\u0000${dir}\u0000${row.packageName}`,
  };
}

/** Builds file scopes from import sites and their resolved targets. */
export function buildScope(
  info: FileInfo,
  symbols: SymbolRow[],
  sites: Array<ImportSiteRow & { targets: string[] }>,
  files: Map<string, FileInfo>,
  importNames: ImportNameRow[] = [],
): FileScope {
  const byName = new Map<string, SymbolRow[]>();
  for (const s of symbols) {
    const list = byName.get(s.name);
    if (list) list.push(s);
    else byName.set(s.name, [s]);
  }
  const scope: FileScope = {
    info,
    symbols,
    byId: new Map(symbols.map((s) => [s.id, s])),
    modules: new Map(),
    names: new Map(),
    wholesale: [],
    byName,
    classOf: new Map(),
    fieldTypes: new Map(),
    outsideRoots: new Map(),
    answers: new Map(),
  };
  const strict = info.rules.strictModules;
  const wholesale = new Set<string>();
  // includes (C's #include, Ruby's require, PHP's include of a path) load a file and bind no name
  const includes = info.rules.includes;
  for (const site of sites) {
    const targets = site.targets;
    if (includes === "all" || (includes === "relative" && site.isRelative === 1)) {
      for (const t of targets) wholesale.add(t);
      continue;
    }
    const outside = site.isStandardLib === 1 || site.isExternal === 1;
    const dotted = site.module.replace(/::|[\\/]/g, ".").replace(/^\.+/, "");
    const symbols: string[] = site.symbols ? (JSON.parse(site.symbols) as string[]) : [];
    const named = symbols.filter((s) => s !== "*");
    for (const s of named) if (!scope.names.has(s)) scope.names.set(s, { files: targets, name: s, outside, qname: `${dotted}.${s}` });
    if (symbols.includes("*")) for (const t of targets) wholesale.add(t);
    else if (!strict) for (const t of targets) wholesale.add(t);
    const last = lastSegment(site.module);
    // the package's declared name (Go's package clause), which may differ from the folder's
    const declared = info.rules.importBindsDeclaredPackage && targets.length > 0 ? (files.get(targets[0]!)?.pkg ?? undefined) : undefined;
    const local = site.alias && site.alias !== "_" && site.alias !== "." ? site.alias : (declared ?? last);
    if (site.alias === ".") {
      for (const t of targets) wholesale.add(t);
      continue;
    }
    if (named.length === 0 || site.alias) {
      const b: Binding = { files: targets, name: last, outside, qname: dotted, whole: named.length === 0 };
      if (!scope.modules.has(local)) scope.modules.set(local, b);
      if (!scope.modules.has(site.module)) scope.modules.set(site.module, b);
      if (named.length === 0 && !scope.names.has(local)) scope.names.set(local, b);
    }
  }
  // Local names written in import statements (`import Foo from`, `import {a as b}`, `from x import a as b`):
  // a name the statement does not list is a renaming of its one listed name, or of the default export.
  if (importNames.length > 0) {
    const byLine = new Map<number, Array<ImportSiteRow & { targets: string[] }>>();
    for (const site of sites) {
      let list = byLine.get(site.line);
      if (!list) byLine.set(site.line, (list = []));
      list.push(site);
    }
    for (const n of importNames) {
      if (scope.names.has(n.name) || scope.modules.has(n.name)) continue;
      const onLine = byLine.get(n.line);
      if (onLine?.length !== 1) continue;
      const site = onLine[0]!;
      const listed: string[] = site.symbols ? (JSON.parse(site.symbols) as string[]).filter((x) => x !== "*") : [];
      const real = listed.length === 1 && listed[0] !== "default" ? listed[0]! : n.name;
      scope.names.set(n.name, { files: site.targets, name: real, outside: site.isStandardLib === 1 || site.isExternal === 1 });
    }
  }
  scope.wholesale = [...wholesale];
  return scope;
}

/** Whether two files share unqualified names, by the first one's language's package scope. */
export function samePackage(a: FileInfo, b: FileInfo): boolean {
  if (a.family !== b.family) return false;
  switch (a.rules.packageScope) {
    case "folder-and-clause":
      return a.dir === b.dir && a.pkg === b.pkg;
    case "file":
      return false;
    case "declared":
      return a.pkg !== null && b.pkg !== null && a.pkg === b.pkg;
    case "declared-or-folder":
      if (a.pkg !== null && b.pkg !== null) return a.pkg === b.pkg;
      return a.pkg === null && b.pkg === null && a.dir === b.dir;
  }
}
