/**
 * Path filters for exact search: root-relative paths (a file, or a folder and everything below it) and
 * globs (`src/**\/*.ts`; a glob without a slash, like `*.go`, matches the file name at any depth, as in
 * .gitignore). Anything that resolves outside the project root is refused.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CortexError } from "../../core/errors.ts";
import { resolveInsideRoot } from "../../core/paths.ts";

type Rule = { kind: "all" } | { kind: "prefix"; path: string } | { kind: "glob"; glob: InstanceType<typeof Bun.Glob> };

const GLOB_CHARS = /[*?[\]{}]/;

/** Whether `spec` names a file or folder inside the root as it is written. */
function existingPath(root: string, spec: string): boolean {
  try {
    return existsSync(join(root, resolveInsideRoot(root, spec)));
  } catch {
    return false;
  }
}

export class PathFilter {
  private constructor(private readonly rules: Rule[]) {}

  static readonly ALL = new PathFilter([]);

  /**
   * Builds a filter from user input. `field` names the input field in errors; with `mustExist`, a plain
   * path that exists neither on disk nor as a glob is an error.
   */
  static parse(root: string, specs: string[] | undefined, field: string, mustExist: boolean): PathFilter {
    if (!specs || specs.length === 0) return PathFilter.ALL;
    const rules: Rule[] = [];
    specs.forEach((raw, i) => {
      const spec = raw.trim();
      const where = `${field}[${i}]`;
      if (spec === "") throw new CortexError("INVALID_INPUT", `${where}: must not be empty`);
      // a path that exists is a path whatever its characters (a Next.js route folder, pages/[id])
      if (GLOB_CHARS.test(spec) && !existingPath(root, spec)) {
        const segments = spec.split("/");
        if (spec.startsWith("/") || /^[A-Za-z]:/.test(spec) || segments.includes("..")) {
          throw new CortexError("PATH_OUTSIDE_ROOT", `${where}: a glob must stay inside the project root: ${spec}`, { data: { path: spec } });
        }
        const pattern = spec.replace(/^\.\//, "");
        rules.push({ kind: "glob", glob: new Bun.Glob(pattern.includes("/") ? pattern : `**/${pattern}`) });
        return;
      }
      let rel: string;
      try {
        rel = resolveInsideRoot(root, spec);
      } catch (e) {
        if (e instanceof CortexError) throw new CortexError(e.code, `${where}: ${e.message}`, e.data ? { data: e.data } : {});
        throw e;
      }
      if (mustExist && !existsSync(join(root, rel)))
        throw new CortexError("NOT_FOUND", `${where}: no such file or directory: ${spec}`, { data: { path: spec } });
      rules.push(rel === "" ? { kind: "all" } : { kind: "prefix", path: rel.replace(/\/+$/, "") });
    });
    return new PathFilter(rules);
  }

  get isAll(): boolean {
    return this.rules.length === 0 || this.rules.some((r) => r.kind === "all");
  }

  matches(path: string): boolean {
    if (this.isAll) return true;
    for (const r of this.rules) {
      if (r.kind === "prefix" && (path === r.path || path.startsWith(r.path + "/"))) return true;
      if (r.kind === "glob" && r.glob.match(path)) return true;
    }
    return false;
  }
}

/** Normalises file extensions (`py`, `.PY` → `.py`); empty means every file. */
export function normaliseExtensions(exts: string[] | undefined, field: string): string[] {
  // a comma-separated list in one value (`--ext .go,.md`, as ripgrep's globs and many tools take them) is several
  return (exts ?? []).flatMap((e, i) =>
    (e.includes(",") ? e.split(",") : [e]).map((one) => {
      const t = one.trim().toLowerCase();
      if (t === "" || t === ".") throw new CortexError("INVALID_INPUT", `${field}[${i}]: must not be empty${e.includes(",") ? ` (in '${e}')` : ""}`);
      if (t.includes("/")) throw new CortexError("INVALID_INPUT", `${field}[${i}]: an extension cannot contain '/': ${e}`);
      return t.startsWith(".") ? t : "." + t;
    }),
  );
}

export function hasExtension(path: string, exts: string[]): boolean {
  if (exts.length === 0) return true;
  const p = path.toLowerCase();
  return exts.some((e) => p.endsWith(e));
}
