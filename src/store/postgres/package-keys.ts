/**
 * Package keys: how an import in one repository finds the files of another in the shared store. At
 * publication each file records the keys it *provides* (the module path, package or specifier another
 * repository's code writes to import it, from the repository's ProjectInfo: go.mod, package.json,
 * Python's top-level packages, Java/Kotlin packages, Cargo crates), and each import site that reached no
 * file of its own repository records the keys it *asks for*. The reader joins the two at query time,
 * over the live generations of the repositories in its scope (store/postgres/cross-repo.ts), so neither
 * side depends on the other's generation.
 *
 * Keys are exact strings: an importer lists every candidate (`com.acme.Strings.upper` asks for itself,
 * `com.acme.Strings` and `com.acme`), and the reader keeps each site's longest match. Languages without
 * packages another repository could import by name (C and C++ includes, shell, CSS) record none.
 */
import { dirOf } from "../../core/rel-path.ts";
import { resolveEcmaImport } from "../../lang/ecmascript-imports.ts";
import { importedName } from "../../lang/managed-imports.ts";
import type { ProjectFiles } from "../../lang/module.ts";
import type { NpmWorkspace, ProjectInfo } from "../../lang/project.ts";

/** A key a file provides, and the name an importer's code uses for it when the import gives none (Go's package clause). */
export interface ProvidedKey {
  key: string;
  binds: string | null;
}

const ECMA = new Set(["typescript", "tsx", "javascript"]);
const JVM = new Set(["java", "kotlin"]);
const ECMA_EXTENSION = /\.(?:d\.)?[cm]?[jt]sx?$/;

const under = (dir: string, path: string): boolean => dir === "" || path.startsWith(`${dir}/`);
const relTo = (dir: string, path: string): string => (dir === "" ? path : path.slice(dir.length + 1));

/** The file's folders holding vendored or fixture code, which no importer outside means. */
const NOT_PROVIDED = /(^|\/)(vendor|node_modules|testdata)\//;

/** What every file of a repository provides, built once per publication from its ProjectInfo and file list. */
export class ProvidedKeys {
  private readonly ecmaEntries = new Map<string, string[]>();

  constructor(
    private readonly project: ProjectInfo,
    files: ProjectFiles,
  ) {
    // each workspace package's bare name and exported subpaths, resolved as an importer inside the repository would
    for (const ws of project.npmWorkspaces ?? []) {
      for (const spec of [ws.name, ...Object.keys(ws.exports ?? {}).map((k) => `${ws.name}/${k.slice(2)}`)]) {
        if (spec.includes("*")) continue;
        const imp = { module: spec, isStandardLib: false, isExternal: false, isRelative: false, symbols: [], line: 1, column: 1 };
        for (const target of resolveEcmaImport(imp, "", files)) {
          const list = this.ecmaEntries.get(target);
          if (list) list.push(spec);
          else this.ecmaEntries.set(target, [spec]);
        }
      }
    }
  }

  /** The keys `path` provides; `pkg` is the package name the indexer recorded for it (Go's clause, Python's module). */
  of(path: string, language: string, pkg: string | null): ProvidedKey[] {
    if (NOT_PROVIDED.test(path)) return [];
    if (language === "go") return this.go(path, pkg);
    if (language === "python") return this.python(pkg);
    if (ECMA.has(language)) return this.ecma(path);
    if (JVM.has(language)) return this.jvm(path);
    if (language === "rust") return this.rust(path);
    return [];
  }

  /** A Go package: the module path and the folder inside the module (commands and test files are not importable, as in go.ts). */
  private go(path: string, pkg: string | null): ProvidedKey[] {
    if (pkg === null || pkg === "main" || path.endsWith("_test.go")) return [];
    const dir = dirOf(path);
    const m = this.project.goModules.filter((g) => g.module !== "std" && under(g.dir, path)).sort((a, b) => b.dir.length - a.dir.length)[0];
    if (!m) return [];
    const rest = m.dir === dir ? "" : relTo(m.dir, dir);
    return [{ key: rest === "" ? m.module : `${m.module}/${rest}`, binds: pkg }];
  }

  /** A Python module of one of the repository's top-level packages, by its dotted name. */
  private python(module: string | null): ProvidedKey[] {
    if (!module) return [];
    const top = module.split(".")[0]!;
    if (top !== this.project.pythonRootPackage && !this.project.pythonTopLevel.includes(top)) return [];
    return [{ key: module, binds: module.slice(module.lastIndexOf(".") + 1) }];
  }

  /** A workspace package's entry points (its bare name), and each source file by its path inside the package. */
  private ecma(path: string): ProvidedKey[] {
    const out = new Set(this.ecmaEntries.get(path) ?? []);
    const ws = (this.project.npmWorkspaces ?? []).filter((w) => under(w.dir, path)).sort((a, b) => b.dir.length - a.dir.length)[0];
    if (ws) for (const sub of subpaths(ws, path)) out.add(`${ws.name}/${sub}`);
    return [...out].map((key) => ({ key, binds: null }));
  }

  /** A Java or Kotlin file: its package, and the type named after the file. */
  private jvm(path: string): ProvidedKey[] {
    const dir = dirOf(path);
    const out: ProvidedKey[] = [];
    for (const [pkg, dirs] of Object.entries(this.project.jvmPackages ?? {})) {
      if (!dirs.includes(dir)) continue;
      const stem = path.slice(path.lastIndexOf("/") + 1).replace(/\.\w+$/, "");
      out.push({ key: pkg, binds: null }, { key: `${pkg}.${stem}`, binds: stem });
    }
    return out;
  }

  /** A Rust module of one of the repository's crates: `crate`, `crate::a::b` for src/a/b.rs or src/a/b/mod.rs. */
  private rust(path: string): ProvidedKey[] {
    for (const c of this.project.rustCrateDirs ?? []) {
      const src = c.dir === "" ? "src" : `${c.dir}/src`;
      if (!under(src, path)) continue;
      const segs = relTo(src, path).replace(/\.rs$/, "").split("/");
      if (segs.length === 1 && (segs[0] === "lib" || segs[0] === "main")) return [{ key: c.name, binds: c.name }];
      if (segs[segs.length - 1] === "mod") segs.pop();
      return [{ key: [c.name, ...segs].join("::"), binds: segs[segs.length - 1]! }];
    }
    return [];
  }
}

/** The import paths of a source file inside its package: `src/util/x.ts` → `util/x`, `src/util/x`; an index file also as its folder. */
function subpaths(ws: NpmWorkspace, path: string): string[] {
  if (!ECMA_EXTENSION.test(path)) return [];
  const rel = relTo(ws.dir, path).replace(ECMA_EXTENSION, "");
  const forms = [rel];
  if (rel.startsWith("src/")) forms.push(rel.slice(4));
  for (const f of [...forms]) if (f.endsWith("/index")) forms.push(f.slice(0, -6));
  return forms.filter((f) => f !== "");
}

/** An import site as the key computation needs it. */
export interface SiteForKeys {
  module: string;
  symbols: string[];
}

/**
 * The keys an import site asks for, most specific first: what another repository would have to provide
 * for the site to reach it. Relative and standard-library imports are never asked for (the caller
 * leaves them out), nor are sites that reached a file of their own repository.
 */
export function requestedKeys(language: string, site: SiteForKeys): string[] {
  const { module, symbols } = site;
  if (language === "go" || ECMA.has(language)) return [module];
  if (language === "python") {
    if (module.startsWith(".")) return [];
    return [...symbols.filter((s) => s !== "*").map((s) => `${module}.${s}`), ...prefixes(module, ".")];
  }
  if (JVM.has(language)) return prefixes(importedName(module), ".");
  if (language === "rust") {
    const withSymbols = symbols.flatMap((s) => {
      const segs = s.split("::").filter((x) => x !== "*" && x !== "self");
      return segs.length === 0 ? [] : [`${module}::${segs.join("::")}`];
    });
    return [...new Set([...withSymbols.flatMap((m) => prefixes(m, "::")), ...prefixes(module, "::")])];
  }
  return [];
}

/** `a.b.c` → `a.b.c`, `a.b`, `a`. */
function prefixes(name: string, sep: string): string[] {
  const segs = name.split(sep).filter((s) => s !== "");
  const out: string[] = [];
  for (let n = segs.length; n >= 1; n--) out.push(segs.slice(0, n).join(sep));
  return out;
}
