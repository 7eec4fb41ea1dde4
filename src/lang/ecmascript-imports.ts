/**
 * Import specifiers of TypeScript and JavaScript: which kind each is (relative, Node/Bun built-in, one of
 * the project's own packages, external) and which project file it names. Kept apart from the syntax
 * module because both the parser (classification) and the import graph (resolution) need it, and neither
 * needs a tree.
 */
import type { ImportFact } from "./types.ts";
import type { ProjectFiles } from "./module.ts";
import type { NpmWorkspace, ProjectInfo } from "./project.ts";
import { dirOf, joinInside } from "../core/rel-path.ts";

/**
 * Node's built-in modules (`require("module").builtinModules` of Node 20, plus the subpath modules). Names
 * that exist only with the `node:` prefix (`node:test`, `node:sqlite`, `node:sea`) are covered by the
 * prefix rule, never by this list, so a package named `test` stays external.
 */
const NODE_BUILTINS = new Set([
  "_http_agent",
  "_http_client",
  "_http_common",
  "_http_incoming",
  "_http_outgoing",
  "_http_server",
  "_stream_duplex",
  "_stream_passthrough",
  "_stream_readable",
  "_stream_transform",
  "_stream_wrap",
  "_stream_writable",
  "_tls_common",
  "_tls_wrap",
  "assert",
  "assert/strict",
  "async_hooks",
  "buffer",
  "child_process",
  "cluster",
  "console",
  "constants",
  "crypto",
  "dgram",
  "diagnostics_channel",
  "dns",
  "dns/promises",
  "domain",
  "events",
  "fs",
  "fs/promises",
  "http",
  "http2",
  "https",
  "inspector",
  "inspector/promises",
  "module",
  "net",
  "os",
  "path",
  "path/posix",
  "path/win32",
  "perf_hooks",
  "process",
  "punycode",
  "querystring",
  "readline",
  "readline/promises",
  "repl",
  "stream",
  "stream/consumers",
  "stream/promises",
  "stream/web",
  "string_decoder",
  "sys",
  "timers",
  "timers/promises",
  "tls",
  "trace_events",
  "tty",
  "url",
  "util",
  "util/types",
  "v8",
  "vm",
  "wasi",
  "worker_threads",
  "zlib",
]);

export type ImportClass = Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative">;

const RELATIVE: ImportClass = { isStandardLib: false, isExternal: false, isRelative: true };
const STANDARD: ImportClass = { isStandardLib: true, isExternal: false, isRelative: false };
const EXTERNAL: ImportClass = { isStandardLib: false, isExternal: true, isRelative: false };
const PROJECT: ImportClass = { isStandardLib: false, isExternal: false, isRelative: false };

export function isRelativeSpecifier(spec: string): boolean {
  return spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../") || spec.startsWith("/");
}

/** The package part of a bare specifier: `lodash/fp` → `lodash`, `@scope/pkg/x` → `@scope/pkg`. */
export function packageNameOf(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/**
 * A name npm could publish (upper case only in legacy names such as JSONStream), optionally scoped, no
 * leading dot or underscore. Specifiers that cannot be npm packages (`@/components/x`, `~/lib`,
 * `#internal/db`) are path aliases or package.json subpath imports: the project's own code.
 */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[A-Za-z0-9][A-Za-z0-9._~-]*$/;

export function classifySpecifier(spec: string, project: ProjectInfo): ImportClass {
  if (isRelativeSpecifier(spec)) return RELATIVE;
  if (spec.startsWith("node:") || spec.startsWith("bun:")) return STANDARD;
  if (NODE_BUILTINS.has(spec)) return STANDARD;
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec)) return EXTERNAL; // npm:, jsr:, https: …
  const pkg = packageNameOf(spec);
  if (project.npmPackages.includes(pkg)) return PROJECT;
  if (!NPM_NAME.test(pkg)) return PROJECT;
  return EXTERNAL;
}

/** Extensions tried, in order, for a specifier written without one (TypeScript's own order first). */
const EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json"];

/** What TypeScript ESM lets a `.js`-style specifier stand for. */
const SOURCE_FOR_OUTPUT: Record<string, string[]> = {
  ".js": [".ts", ".tsx", ".d.ts"],
  ".jsx": [".tsx"],
  ".mjs": [".mts", ".d.mts"],
  ".cjs": [".cts", ".d.cts"],
};

/** Normalises `a/./b/../c` to `a/c`; undefined when the path climbs above the root. */
export function normalizePath(path: string): string | undefined {
  return joinInside("", path);
}

/** The project file a path-like specifier names, by Node/TypeScript rules: as written, with an extension, as a folder index. */
function resolveFile(path: string, files: ProjectFiles): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  if (dot > 0) {
    const ext = base.slice(dot);
    const stem = path.slice(0, path.length - ext.length);
    // A TypeScript source wins over the `.js` it compiles to: ESM imports name the output.
    for (const src of SOURCE_FOR_OUTPUT[ext] ?? []) if (files.has(stem + src)) return stem + src;
    if (files.has(path)) return path;
  }
  if (path !== "") for (const ext of EXTENSIONS) if (files.has(path + ext)) return path + ext;
  const index = path === "" ? "index" : `${path}/index`;
  for (const ext of EXTENSIONS) if (files.has(index + ext)) return index + ext;
  return undefined;
}

/** Build-output folders whose sources usually live in src/ (a workspace package's `main: dist/index.js`). */
const OUTPUT_DIRS = new Set(["dist", "lib", "build", "out"]);

/** Resolves a path inside a package folder, falling back from build output to the sources it came from. */
function resolveInPackage(dir: string, rel: string, files: ProjectFiles): string | undefined {
  const target = joinInside(dir, rel);
  if (target === undefined) return undefined;
  const direct = resolveFile(target, files);
  if (direct) return direct;
  const inner = normalizePath(rel);
  if (inner === undefined) return undefined;
  const segs = inner.split("/");
  if (segs.length > 1 && OUTPUT_DIRS.has(segs[0]!)) {
    // dist/index.js, dist/index.d.ts, lib/index.mjs → src/index.<any extension>
    const fromSrc = joinInside(dir, ["src", ...segs.slice(1)].join("/"));
    const stem = fromSrc?.replace(/(\.d)?\.[cm]?[jt]sx?$/, "");
    if (stem) return resolveFile(stem, files);
  }
  return undefined;
}

/** Matches a subpath against package.json `exports` keys, including one `*` wildcard. */
function exportTarget(ws: NpmWorkspace, subpath: string): string | undefined {
  const exact = ws.exports?.[subpath];
  if (exact) return exact;
  for (const [key, target] of Object.entries(ws.exports ?? {})) {
    const star = key.indexOf("*");
    if (star < 0) continue;
    const head = key.slice(0, star);
    const tail = key.slice(star + 1);
    if (subpath.length >= head.length + tail.length && subpath.startsWith(head) && subpath.endsWith(tail)) {
      return target.replace("*", subpath.slice(head.length, subpath.length - tail.length));
    }
  }
  return undefined;
}

function resolveWorkspace(spec: string, files: ProjectFiles): string | undefined {
  const pkg = packageNameOf(spec);
  const ws = files.project.npmWorkspaces?.find((w) => w.name === pkg);
  if (!ws) return undefined;
  const subpath = spec === pkg ? "." : "." + spec.slice(pkg.length);
  const mapped = exportTarget(ws, subpath);
  if (mapped) {
    const hit = resolveInPackage(ws.dir, mapped, files);
    if (hit) return hit;
  }
  if (subpath === ".") {
    for (const entry of ws.entries) {
      const hit = resolveInPackage(ws.dir, entry, files);
      if (hit) return hit;
    }
    return resolveInPackage(ws.dir, "src/index", files) ?? resolveInPackage(ws.dir, "index", files);
  }
  return resolveInPackage(ws.dir, subpath, files) ?? resolveInPackage(ws.dir, "src/" + subpath.slice(2), files);
}

/**
 * The project file an import refers to: relative specifiers from the importing file's folder (with the
 * extension and `/index` rules, and `./x.js` standing for `./x.ts`), workspace package names through
 * their package.json entry points. Built-ins and external packages resolve to nothing.
 */
export function resolveEcmaImport(imp: ImportFact, fromPath: string, files: ProjectFiles): string[] {
  const spec = imp.module.split(/[?#]/)[0]!; // `./worker.js?url` (bundler queries) names the file before the query
  let hit: string | undefined;
  if (imp.isRelative) {
    const target = spec.startsWith("/") ? normalizePath(spec) : joinInside(dirOf(fromPath), spec);
    if (target !== undefined) hit = resolveFile(target, files);
  } else if (!imp.isStandardLib && !imp.isExternal) {
    hit = resolveWorkspace(imp.module, files);
  }
  return hit ? [hit] : [];
}

/** Export conditions in the order a source-reading tool prefers them. */
const CONDITIONS = ["source", "types", "typings", "import", "module", "default", "require", "node", "browser"];

/** Every target path of an `exports` value (a string, an array, or nested condition objects), preferred first. */
function exportTargets(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(exportTargets);
  if (!v || typeof v !== "object") return [];
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort((a, b) => rank(a) - rank(b));
  return keys.flatMap((k) => exportTargets(o[k]));
}

function rank(condition: string): number {
  const i = CONDITIONS.indexOf(condition);
  return i < 0 ? CONDITIONS.length : i;
}

/** Reads what import resolution needs from a parsed package.json; undefined when it declares no name. */
export function npmWorkspaceOf(manifest: unknown, dir: string): NpmWorkspace | undefined {
  if (!manifest || typeof manifest !== "object") return undefined;
  const m = manifest as Record<string, unknown>;
  if (typeof m.name !== "string" || m.name.length === 0) return undefined;
  const entries: string[] = [];
  const add = (v: unknown) => {
    for (const t of exportTargets(v)) if (!entries.includes(t)) entries.push(t);
  };
  add(m.source);
  const exp = m.exports;
  const subpaths: Record<string, string> = {};
  if (typeof exp === "string" || Array.isArray(exp)) add(exp);
  else if (exp && typeof exp === "object") {
    const keys = Object.keys(exp);
    if (keys.some((k) => k.startsWith("."))) {
      for (const k of keys) {
        const value = (exp as Record<string, unknown>)[k];
        if (k === ".") add(value);
        else if (k.startsWith("./")) {
          const first = exportTargets(value)[0];
          if (first) subpaths[k] = first;
        }
      }
    } else add(exp); // conditions only: they all describe "."
  }
  add(m.module);
  add(m.main);
  add(m.types);
  add(m.typings);
  const ws: NpmWorkspace = { name: m.name, dir, entries };
  if (Object.keys(subpaths).length > 0) ws.exports = subpaths;
  return ws;
}
