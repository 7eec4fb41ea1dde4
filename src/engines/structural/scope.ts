/**
 * `file_paths`: which files a search may look at, as paths and globs relative to the project root.
 * Each entry is checked before anything runs: absolute paths must lie inside the root, `..` may not climb
 * out of it and a symlink on the way may not lead out of it. Matching follows ast-grep's --globs (and
 * gitignore): a glob without a slash matches a file name at any depth, `!` excludes, the last entry that
 * matches a file decides, and when every entry is an exclusion everything else is included. A plain
 * path (no glob characters) names a file or everything below a folder.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { CortexError, isCortexError } from "../../core/errors.ts";
import { resolveInsideRoot } from "../../core/paths.ts";

interface Entry {
  exclude: boolean;
  test(path: string): boolean;
}

export interface PathScope {
  /** Whether a root-relative file path is in scope. */
  includes(path: string): boolean;
  /** The entries as they were given, for the result's metadata. */
  readonly given: string[];
  /** The plain paths (no glob) the entries include, root-relative: what a search that skips them must explain. */
  readonly named: string[];
}

/**
 * A plain path to search that is not there is a mistake to name, as grep and the other tools do, not a
 * search of nothing (a typo, or `a.js,b.js` as one entry). Checked apart from compileScope, which is
 * about paths alone.
 */
export function checkNamedPathsExist(root: string, filePaths: readonly string[]): void {
  filePaths.forEach((raw, i) => {
    const { exclude, body } = normalize(root, raw, i);
    if (exclude || body === "" || GLOB_CHARS.test(body) || existsSync(join(root, body))) return;
    refuse(i, raw, `no such file or directory${raw.includes(",") ? " (give each path its own entry: one --path each)" : ""}`, "INVALID_INPUT");
  });
}

const GLOB_CHARS = /[*?[\]{}]/;

function refuse(index: number, entry: string, why: string, code: "INVALID_INPUT" | "PATH_OUTSIDE_ROOT" = "PATH_OUTSIDE_ROOT"): never {
  throw new CortexError(code, `file_paths[${index}]: ${why}: ${entry}`, { data: { field: `file_paths[${index}]`, path: entry } });
}

/** Checks one entry and returns it as a root-relative glob or path, without a leading "!". */
function normalize(root: string, raw: string, index: number): { exclude: boolean; body: string } {
  if (raw.trim() === "") refuse(index, raw, "must not be empty", "INVALID_INPUT");
  if (raw.includes("\0")) refuse(index, JSON.stringify(raw), "must not contain NUL", "INVALID_INPUT");
  const exclude = raw.startsWith("!");
  let body = exclude ? raw.slice(1) : raw;
  if (process.platform === "win32") body = body.replace(/\\/g, "/");
  while (body.startsWith("./")) body = body.slice(2);
  const firstGlob = body.search(GLOB_CHARS);
  const staticPart = firstGlob < 0 ? body : body.slice(0, body.lastIndexOf("/", firstGlob) + 1);
  const rest = body.slice(staticPart.length);
  if (rest.split("/").includes("..")) refuse(index, raw, "'..' inside a glob could climb out of the project root");
  let prefix: string;
  try {
    prefix = staticPart === "" ? "" : resolveInsideRoot(root, staticPart);
  } catch (e) {
    if (isCortexError(e) && e.code === "PATH_OUTSIDE_ROOT") {
      refuse(index, raw, isAbsolute(staticPart) ? "absolute path outside the project root" : e.message.replace(/: .*$/, ""));
    }
    throw e;
  }
  const joined = rest === "" ? prefix : prefix === "" ? rest : `${prefix}/${rest}`;
  return { exclude, body: joined === "" && firstGlob < 0 ? "" : joined };
}

function compileEntry(body: string, exclude: boolean): Entry {
  if (!GLOB_CHARS.test(body)) {
    // A path: the file itself or everything below the folder ("" is the whole root).
    const dir = body.replace(/\/+$/, "");
    return { exclude, test: (p) => dir === "" || p === dir || p.startsWith(dir + "/") };
  }
  const dirOnly = body.endsWith("/");
  let glob = body.replace(/\/+$/, "");
  if (!glob.includes("/")) glob = `**/${glob}`;
  const matcher = new Bun.Glob(glob);
  if (dirOnly) {
    // "build/" style: any folder on the file's path matches
    return {
      exclude,
      test: (p) => {
        for (let i = p.indexOf("/"); i >= 0; i = p.indexOf("/", i + 1)) if (matcher.match(p.slice(0, i))) return true;
        return false;
      },
    };
  }
  return { exclude, test: (p) => matcher.match(p) };
}

/** Validates and compiles `file_paths`; an empty list scopes the whole project. */
export function compileScope(root: string, filePaths: readonly string[]): PathScope {
  const named: string[] = [];
  const entries = filePaths.map((raw, i) => {
    const { exclude, body } = normalize(root, raw, i);
    if (!exclude && body !== "" && !GLOB_CHARS.test(body)) named.push(body);
    return compileEntry(body, exclude);
  });
  const anyInclude = entries.some((e) => !e.exclude);
  return {
    given: [...filePaths],
    named,
    includes(path) {
      for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.test(path)) return !entries[i]!.exclude;
      return !anyInclude;
    },
  };
}
