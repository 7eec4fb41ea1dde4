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
  /** Rust crate names declared by Cargo.toml files. */
  rustCrates: string[];
  /**
   * Where each of those crates lives: its name as code writes it (`-` → `_`, the `[lib] name` when given)
   * and the folder of its Cargo.toml ("" for the root). Absent in project info stored by older indexes.
   */
  rustCrateDirs?: { name: string; dir: string }[];
}

export function emptyProjectInfo(): ProjectInfo {
  return { goModules: [], npmPackages: [], pythonTopLevel: [], jvmPackagePrefixes: [], rustCrates: [], rustCrateDirs: [] };
}
