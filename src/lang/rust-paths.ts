/**
 * Rust's file-to-module mapping, which both qualified names and import resolution need:
 * - a crate's root module is src/lib.rs or src/main.rs; each file of tests/, benches/, examples/ and
 *   src/bin/ is the root of a crate of its own; build.rs too;
 * - src/a/b.rs and src/a/b/mod.rs are the module a::b, whose child modules live in src/a/b/;
 * - `mod x;` in a module loads x.rs or x/mod.rs from that module's folder.
 * `#[path = "..."]` attributes are not followed.
 */
import type { ImportFact } from "./types.ts";
import type { ProjectFiles } from "./module.ts";
import { dirOf } from "../core/rel-path.ts";

const CRATE_DIRS = new Set(["tests", "benches", "examples"]);

function joinPath(dir: string, rel: string): string {
  return dir === "" ? rel : dir + "/" + rel;
}

interface FilePlace {
  /** The folder holding the crate root file (src, src/bin, tests, ...), "" when no such folder. */
  crateDir: string;
  /** Module segments from the crate root to this file's module. */
  module: string[];
  /** True when this file is a crate root (lib.rs, main.rs, a file directly in tests/, src/bin/x.rs...). */
  crateRoot: boolean;
}

/** Where a .rs file sits in its crate. */
export function placeOf(path: string): FilePlace {
  const segs = path.split("/");
  const file = segs.pop()!;
  const stem = file.endsWith(".rs") ? file.slice(0, -3) : file;
  // the innermost src/ (crates/x/src/...), else the first tests/ benches/ examples/ folder
  let root = segs.lastIndexOf("src");
  if (root < 0) root = segs.findIndex((s) => CRATE_DIRS.has(s));
  if (root < 0) {
    const crateRoot = stem === "lib" || stem === "main" || stem === "build";
    return { crateDir: segs.join("/"), module: crateRoot || stem === "mod" ? [] : [stem], crateRoot };
  }
  let crateDir = segs.slice(0, root + 1).join("/");
  let dirs = segs.slice(root + 1);
  if (segs[root] === "src" && dirs[0] === "bin") {
    // src/bin/tool.rs is a binary crate root; so is src/bin/tool/main.rs, with its modules beside it
    crateDir = joinPath(crateDir, "bin");
    dirs = dirs.slice(1);
    if (dirs.length > 0) {
      crateDir = joinPath(crateDir, dirs[0]!);
      dirs = dirs.slice(1);
      if (dirs.length === 0 && stem === "main") return { crateDir, module: [], crateRoot: true };
    } else return { crateDir, module: [], crateRoot: true };
  } else if (dirs.length === 0 && (segs[root] !== "src" || stem === "lib" || stem === "main")) {
    return { crateDir, module: [], crateRoot: true };
  }
  return { crateDir, module: stem === "mod" ? dirs : [...dirs, stem], crateRoot: false };
}

/** Module path of a file, dot-joined for qualified names: src/a/b.rs → "a.b", src/lib.rs → "". */
export function modulePrefix(path: string): string[] {
  return placeOf(path).module;
}

/**
 * The module a path qualifier names from `file` (`self`, `super::super::x`, `crate::a::b`): its items'
 * qualified-name prefix ("a.b") and whether a file is of the same crate. Undefined when the path does not
 * start at `crate`, `self` or `super`, climbs above the crate root, or goes on past the modules into an
 * item (`crate::geo::Point`: a type, resolved as one).
 */
export function moduleOfPath(qualifier: string, file: string): { prefix: string; holds(file: string): boolean } | undefined {
  const segs = qualifier.split("::");
  // `self` alone is the receiver (`self.run()`); `self::run()` is written without its qualifier (rust.ts)
  if (segs.length === 1 && segs[0] === "self") return undefined;
  const place = placeOf(file);
  let module: string[];
  let i = 1;
  if (segs[0] === "crate") module = [];
  else if (segs[0] === "self") module = [...place.module];
  else if (segs[0] === "super") {
    module = [...place.module];
    for (i = 0; segs[i] === "super"; i++) {
      if (module.length === 0) return undefined;
      module.pop();
    }
  } else return undefined;
  for (; i < segs.length; i++) {
    if (!/^[a-z_][a-z0-9_]*$/.test(segs[i]!)) return undefined;
    module.push(segs[i]!);
  }
  const crateDir = place.crateDir;
  return { prefix: module.join("."), holds: (f) => placeOf(f).crateDir === crateDir };
}

/** The folder where the child modules of a file's module live. */
export function childModuleDir(path: string): string {
  const place = placeOf(path);
  const dir = dirOf(path);
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (place.crateRoot || base === "mod.rs") return dir;
  return joinPath(dir, base.endsWith(".rs") ? base.slice(0, -3) : base);
}

/** The file of the module at `dir/segs` (x.rs or x/mod.rs), longest prefix first; the folder's own module file last. */
function longestModuleFile(dir: string, segs: string[], files: ProjectFiles, rootFiles: string[]): string | undefined {
  for (let k = segs.length; k >= 1; k--) {
    const p = joinPath(dir, segs.slice(0, k).join("/"));
    if (files.has(p + ".rs")) return p + ".rs";
    if (files.has(p + "/mod.rs")) return p + "/mod.rs";
  }
  for (const f of rootFiles) if (files.has(f)) return f;
  return undefined;
}

/** Files that hold the module whose children live in `dir`. */
function moduleFilesOf(dir: string, crateDir: string): string[] {
  if (dir === crateDir) return [joinPath(dir, "lib.rs"), joinPath(dir, "main.rs")];
  return [dir + ".rs", joinPath(dir, "mod.rs")];
}

/**
 * The project files a `use` path or `mod x;` refers to: `crate::`, `self::`, `super::`, a crate of this
 * project (ProjectInfo.rustCrateDirs) or a module declared in the importing file. Each item path resolves to
 * the file of its longest module prefix (`crate::a::b::Item` → src/a/b.rs, else src/a.rs...).
 */
export function resolveRustImport(imp: ImportFact, fromPath: string, files: ProjectFiles): string[] {
  if (imp.isStandardLib || imp.isExternal) return [];
  const moduleSegs = imp.module.split("::").filter((s) => s.length > 0);
  const paths = imp.symbols.length === 0 ? [moduleSegs] : imp.symbols.map((s) => [...moduleSegs, ...s.split("::").filter((x) => x !== "*" && x !== "self")]);
  const out = new Set<string>();
  const place = placeOf(fromPath);
  for (const segs of paths) {
    let dir: string;
    let crateDir = place.crateDir;
    let rest = segs;
    const first = segs[0];
    if (first === "crate") {
      dir = place.crateDir;
      rest = segs.slice(1);
    } else if (first === "self" || first === "super") {
      dir = childModuleDir(fromPath);
      rest = segs.slice(1);
      if (first === "super") dir = dirOf(dir);
      while (rest[0] === "super") {
        dir = dirOf(dir);
        rest = rest.slice(1);
      }
    } else {
      const crate = (files.project.rustCrateDirs ?? []).find((c) => c.name === first);
      if (crate) {
        crateDir = joinPath(crate.dir, "src");
        dir = crateDir;
        rest = segs.slice(1);
      } else dir = childModuleDir(fromPath); // a module declared in this file (`mod x;` / `use x::..`)
    }
    const file = longestModuleFile(dir, rest, files, moduleFilesOf(dir, crateDir));
    if (file && file !== fromPath) out.add(file);
  }
  return [...out];
}
