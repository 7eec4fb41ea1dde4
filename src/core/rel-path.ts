/**
 * Arithmetic on root-relative paths (forward slashes, no leading slash, "" for the root): the folder of a
 * file, joining an import's relative path onto a folder without climbing out of the root, a file's
 * extension. Language modules, the indexer and the engines share these, so each has one definition.
 */

/** The folder of a root-relative path ("" for a file at the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/**
 * Joins root-relative `dir` and a path (`../x`, `./y`, `z/w`), normalised: empty and `.` segments
 * dropped, `..` taking back the segment before it. Undefined when the result would leave the root; ""
 * for the root itself. A leading slash of `rel` counts for nothing (`/x` from `a` is `a/x`).
 */
export function joinInside(dir: string, rel: string): string | undefined {
  // already normal (no empty, `.` or `..` segment on either side): the join itself, without the split's
  // arrays (C's includes try three candidates under every folder up to the root: 353,652 sites on the kernel)
  if (isNormal(rel) && (dir === "" || isNormal(dir))) return dir === "" ? rel : dir + "/" + rel;
  const out: string[] = [];
  for (const seg of (dir === "" ? rel : dir + "/" + rel).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

/** Whether a path has no empty segment and none that begins with a dot (so none is `.` or `..`). */
function isNormal(p: string): boolean {
  return p !== "" && p.charCodeAt(0) !== 46 && p.charCodeAt(0) !== 47 && p.charCodeAt(p.length - 1) !== 47 && !p.includes("/.") && !p.includes("//");
}

/**
 * The extension of a path's last segment as written, without the dot, as Rust's Path::extension sees
 * it: "go" for `a/b.go`, "ts" for `a.test.ts`, none for `.env` or `Makefile`.
 */
export function extensionOf(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1) : undefined;
}

/**
 * Folders whose files show how to use, measure or test the code rather than being it: examples, samples,
 * demos, benchmarks, fixtures, test data, tests and docs. What they use is not the project's own stack
 * (hono's benchmarks depend on Express and React), and they are no example of how to write its code.
 */
const AUXILIARY_FOLDER = /^(examples?|samples?|demos?|bench|benches|benchmarks?|fixtures?|testdata|tests?|__tests__|specs?|e2e|docs?|playground|sandbox)$/i;

/** Whether a root-relative path lies under an auxiliary folder (see AUXILIARY_FOLDER), at any depth. */
export function inAuxiliaryFolder(path: string): boolean {
  let start = 0;
  for (let slash = path.indexOf("/"); slash >= 0; start = slash + 1, slash = path.indexOf("/", start))
    if (AUXILIARY_FOLDER.test(path.slice(start, slash))) return true;
  return false;
}
