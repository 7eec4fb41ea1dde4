/**
 * Builds ProjectInfo (which module names belong to this project) from the walked files: go.mod module
 * lines, package.json names, Cargo.toml crate names, top-level Python packages, and the package or
 * namespace prefixes JVM and .NET files declare. Stored in the index's meta table and rebuilt only when
 * a file that can change it changed.
 */
import { readFileSync, openSync, readSync, closeSync } from "node:fs";
import { basename, join, posix } from "node:path";
import type { PhpNamespace, ProjectInfo } from "../lang/project.ts";
import { emptyProjectInfo } from "../lang/project.ts";
import { npmWorkspaceOf } from "../lang/ecmascript-imports.ts";
import { dirOf } from "../core/rel-path.ts";

const JVM_EXT = /\.(java|kt|kts|cs)$/;

/** True when a change to this path can change ProjectInfo. */
export function affectsProjectInfo(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return (
    base === "go.mod" ||
    base === "package.json" ||
    base === "Cargo.toml" ||
    base === "__init__.py" ||
    path.endsWith(".py") ||
    JVM_EXT.test(path) ||
    base === "composer.json" ||
    path.endsWith(".rb")
  );
}

function readHead(abs: string, bytes: number): string {
  const fd = openSync(abs, "r");
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

export function buildProjectInfo(root: string, paths: string[]): ProjectInfo {
  const info = emptyProjectInfo();
  const pyDirs = new Set<string>();
  const initDirs = new Set<string>();
  const pyRootModules = new Set<string>();
  const jvm = new Set<string>();
  const rubyLoadPaths = new Set<string>();
  const rubyTop = new Set<string>();
  const phpNamespaces: PhpNamespace[] = [];
  const jvmDirs = new Map<string, Set<string>>();
  for (const p of paths) {
    const base = p.slice(p.lastIndexOf("/") + 1);
    try {
      if (base === "go.mod") {
        const m = /^\s*module\s+("?)([^\s"]+)\1/m.exec(readFileSync(join(root, p), "utf8"));
        if (m) info.goModules.push({ dir: dirOf(p), module: m[2]! });
      } else if (base === "package.json") {
        const manifest = JSON.parse(readFileSync(join(root, p), "utf8"));
        const name = manifest?.name;
        if (typeof name === "string" && name.length > 0) info.npmPackages.push(name);
        const workspace = npmWorkspaceOf(manifest, dirOf(p));
        if (workspace) (info.npmWorkspaces ??= []).push(workspace);
      } else if (base === "Cargo.toml") {
        const toml = readFileSync(join(root, p), "utf8");
        const m = /^\s*\[package\][^[]*?^\s*name\s*=\s*"([^"]+)"/ms.exec(toml);
        if (m) info.rustCrates.push(m[1]!.replace(/-/g, "_"));
        // code names a library crate by its [lib] name when the manifest gives one
        const lib = /^\s*\[lib\][^[]*?^\s*name\s*=\s*"([^"]+)"/ms.exec(toml);
        const crateName = (lib ?? m)?.[1]?.replace(/-/g, "_");
        if (crateName) {
          info.rustCrateDirs!.push({ name: crateName, dir: dirOf(p) });
          if (!info.rustCrates.includes(crateName)) info.rustCrates.push(crateName);
        }
      } else if (base === "composer.json" && !/(^|\/)vendor\//.test(p)) {
        // vendored packages' composer.json files describe dependencies, not the project
        phpNamespaces.push(...composerNamespaces(dirOf(p), JSON.parse(readFileSync(join(root, p), "utf8"))));
      } else if (JVM_EXT.test(p)) {
        const m = /^\s*(?:package|namespace)\s+([A-Za-z_][\w.]*)/m.exec(readHead(join(root, p), 4096));
        if (m) {
          jvm.add(m[1]!.split(".").slice(0, 2).join("."));
          let dirs = jvmDirs.get(m[1]!);
          if (!dirs) jvmDirs.set(m[1]!, (dirs = new Set()));
          dirs.add(dirOf(p));
        }
      }
    } catch {
      // an unreadable or malformed manifest contributes nothing
    }
    if (p.endsWith(".rb")) {
      // The first lib/ (or spec/, test/: RSpec and rake put those on the load path too) folder on the
      // path is a load path, unless it sits inside vendored code.
      const m = /^(?:(.*?)\/)?(lib|spec|test)\/([^/]+?)(?:\.rb)?(?:\/|$)/.exec(p);
      if (m && !/(^|\/)vendor(\/|$)/.test(m[1] ?? "")) {
        rubyLoadPaths.add(m[1] ? `${m[1]}/${m[2]}` : m[2]!);
        rubyTop.add(m[3]!);
      }
    }
    if (p.endsWith(".py")) {
      const d = dirOf(p);
      pyDirs.add(d);
      if (base === "__init__.py") initDirs.add(d);
      if (d === "" || d === "src" || d === "lib") pyRootModules.add(base.slice(0, -3));
    }
  }
  const top = new Set<string>(pyRootModules);
  for (const d of initDirs) {
    const parent = dirOf(d);
    if (!initDirs.has(parent) || d === "") top.add(d.slice(d.lastIndexOf("/") + 1));
  }
  // Folders of .py files directly under the root or src/ are importable namespaces too.
  for (const d of pyDirs) {
    const segs = d.split("/");
    if (segs.length >= 1 && segs[0] && !initDirs.has(d)) {
      if (segs.length === 1) top.add(segs[0]);
      else if ((segs[0] === "src" || segs[0] === "lib") && segs[1]) top.add(segs[1]);
    }
  }
  top.delete("");
  info.pythonTopLevel = [...top].sort();
  if (initDirs.has("")) info.pythonRootPackage = basename(root);
  if (rubyLoadPaths.size > 0) {
    info.rubyLoadPaths = [...rubyLoadPaths].sort();
    info.rubyTopLevel = [...rubyTop].sort();
  }
  if (phpNamespaces.length > 0) info.phpNamespaces = phpNamespaces.sort((a, b) => b.prefix.length - a.prefix.length || a.prefix.localeCompare(b.prefix));
  info.jvmPackagePrefixes = [...jvm].sort();
  if (jvmDirs.size > 0) {
    const packages: Record<string, string[]> = {};
    for (const name of [...jvmDirs.keys()].sort()) packages[name] = [...jvmDirs.get(name)!].sort();
    info.jvmPackages = packages;
  }
  info.goModules.sort((a, b) => b.dir.length - a.dir.length);
  info.npmPackages.sort();
  info.npmWorkspaces?.sort((a, b) => a.name.localeCompare(b.name));
  info.rustCrates.sort();
  info.rustCrateDirs!.sort((a, b) => a.name.localeCompare(b.name) || a.dir.localeCompare(b.dir));
  return info;
}

/** The namespaces a composer.json autoloads (psr-4 and psr-0, autoload and autoload-dev), folders made root-relative. */
function composerNamespaces(dir: string, composer: unknown): PhpNamespace[] {
  const out: PhpNamespace[] = [];
  if (!composer || typeof composer !== "object") return out;
  for (const section of ["autoload", "autoload-dev"]) {
    const autoload = (composer as Record<string, unknown>)[section];
    if (!autoload || typeof autoload !== "object") continue;
    for (const standard of ["psr-4", "psr-0"]) {
      const map = (autoload as Record<string, unknown>)[standard];
      if (!map || typeof map !== "object") continue;
      for (const [prefix, value] of Object.entries(map as Record<string, unknown>)) {
        const folders = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
        const dirs = folders
          .map((f) => posix.normalize(posix.join(dir || ".", f)).replace(/\/+$/, ""))
          .map((d) => (d === "." ? "" : d))
          .filter((d) => !d.startsWith(".."));
        if (dirs.length > 0) out.push({ prefix: prefix.replace(/\\+$/, "").replace(/^\\+/, ""), dirs, psr0: standard === "psr-0" });
      }
    }
  }
  return out;
}

/** The package directory of a file: its folder relative to the root, "." for files at the root. */
export function modulePathOf(path: string): string {
  const d = dirOf(path);
  return d === "" ? "." : d;
}
