/**
 * Project-wide facts a language module needs to classify imports: which module paths belong to this
 * project (Go modules from go.mod, package names from package.json, top-level Python packages).
 * Built once per index run from the walked file list, before any file is parsed.
 */

export interface ProjectInfo {
  /** Go modules declared by go.mod files: directory (root-relative, "" for the root) and module path. */
  goModules: { dir: string; module: string }[];
  /** Names declared by package.json files (workspace packages count as internal). */
  npmPackages: string[];
  /** Top-level Python package and module names found in the project (folders with .py files, top .py files). */
  pythonTopLevel: string[];
  /** Top-level Java/Kotlin/C# package or namespace prefixes declared in the project (first two segments). */
  jvmPackagePrefixes: string[];
  /**
   * Every Java/Kotlin package and C# namespace the project declares, with the folders (root-relative) of
   * the files that declare it: import classification matches whole packages (a shared two-segment prefix
   * such as `com.google` says nothing about `com.google.common`), and import resolution finds the files.
   */
  jvmPackages?: Record<string, string[]>;
  /** Rust crate names declared by Cargo.toml files. */
  rustCrates: string[];
  /**
   * Where each of those crates lives: its name as code writes it (`-` → `_`, the `[lib] name` when given)
   * and the folder of its Cargo.toml ("" for the root). Absent in project info stored by older indexes.
   */
  rustCrateDirs?: { name: string; dir: string }[];
  /** The package name of the root folder when the root itself is a Python package (holds __init__.py). */
  pythonRootPackage?: string;
  /** Ruby load-path folders: each `lib/` folder holding .rb files (root-relative), where `require` looks. */
  rubyLoadPaths?: string[];
  /** Names `require` reaches inside the project's load paths (`shop` for lib/shop.rb and lib/shop/*.rb). */
  rubyTopLevel?: string[];
  /** PHP namespace prefixes the project autoloads (composer.json psr-4 / psr-0, dev included) and their folders. */
  phpNamespaces?: PhpNamespace[];
  /** Where each package.json-declared package lives and what it exports (JS/TS workspace import resolution). */
  npmWorkspaces?: NpmWorkspace[];
}

export interface PhpNamespace {
  /** Namespace prefix without the trailing backslash (`App`, `Acme\Tools`); "" for a fallback folder. */
  prefix: string;
  /** Root-relative folders, without a trailing slash ("" for the root). */
  dirs: string[];
  /** PSR-0 maps the whole class name to a path; PSR-4 only what follows the prefix. */
  psr0: boolean;
}

/** One package.json of the project: its folder and the files its name and subpaths stand for. */
export interface NpmWorkspace {
  name: string;
  /** Root-relative folder of the package.json ("" for the root). */
  dir: string;
  /** Entry points for the bare name, relative to `dir`, most source-like first (source, exports ".", module, main, types). */
  entries: string[];
  /** package.json `exports` subpaths other than "." (`./utils`, `./*`) → target relative to `dir`. */
  exports?: Record<string, string>;
}

export function emptyProjectInfo(): ProjectInfo {
  return { goModules: [], npmPackages: [], pythonTopLevel: [], jvmPackagePrefixes: [], rustCrates: [], rustCrateDirs: [] };
}
