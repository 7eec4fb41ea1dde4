/**
 * Where cortex writes outside the project. Everything lives under CORTEX_HOME (default ~/.cortex)
 * so tests and users can move or wipe it in one place.
 */
import { homedir } from "node:os";
import { join, resolve, relative, isAbsolute, sep } from "node:path";
import { existsSync, realpathSync, statSync } from "node:fs";
import { CortexError } from "./errors.ts";

export function cortexHome(): string {
  const fromEnv = process.env.CORTEX_HOME;
  return fromEnv && fromEnv.length > 0 ? resolve(fromEnv) : join(homedir(), ".cortex");
}

export const homePaths = {
  cache: () => join(cortexHome(), "cache"),
  bin: () => join(cortexHome(), "bin"),
  models: () => join(cortexHome(), "models"),
  lib: () => join(cortexHome(), "lib"),
  embeddings: () => join(cortexHome(), "embeddings"),
};

/** The project's own folder for files a team may commit (.cortex/config.yml, .cortex/memory.json). */
export function projectDir(root: string): string {
  return join(root, ".cortex");
}

/** Canonical absolute path of a root folder (symlinks resolved), so one worktree has one key. */
export function canonicalRoot(root: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(root));
  } catch (e) {
    throw new CortexError("NOT_FOUND", `project root does not exist: ${root}`, { cause: e });
  }
  // a file given as the root would index nothing and leave a cache entry named after it
  if (!statSync(real).isDirectory()) throw new CortexError("INVALID_INPUT", `project root is not a folder: ${root}`);
  return real;
}

/**
 * Resolves a user-supplied path (relative to the root, or absolute) and refuses anything outside the
 * root, symlinks included. Returns the root-relative path ("" for the root itself).
 */
export function resolveInsideRoot(root: string, userPath: string): string {
  const candidate = isAbsolute(userPath) ? userPath : join(root, userPath);
  const lexical = relative(root, resolve(candidate));
  if (lexical === ".." || lexical.startsWith(".." + sep) || isAbsolute(lexical)) {
    throw new CortexError("PATH_OUTSIDE_ROOT", `path is outside the project root: ${userPath}`, { data: { path: userPath } });
  }
  let real: string | undefined;
  try {
    real = realpathSync(candidate);
  } catch {
    real = undefined; // a path that does not exist yet cannot escape through a symlink
  }
  if (real !== undefined) {
    const viaLinks = relative(root, real);
    if (viaLinks === ".." || viaLinks.startsWith(".." + sep) || isAbsolute(viaLinks)) {
      throw new CortexError("PATH_OUTSIDE_ROOT", `path leads outside the project root through a symlink: ${userPath}`, {
        data: { path: userPath },
      });
    }
  }
  return lexical === "" ? "" : lexical.split(sep).join("/");
}

/** "the root of the file system" or "your home folder" when `root` is one of them: a project would be the whole machine. */
export function broadRoot(root: string): string | undefined {
  const abs = resolve(root);
  return abs === "/" ? "the root of the file system" : abs === resolve(process.env.HOME || homedir()) ? "your home folder" : undefined;
}

/**
 * Refuses the root of the file system and the user's home folder as a project, unless they hold a
 * .git or .cortex folder: `cd / && cortex index` walked the whole machine for minutes with no output,
 * and an MCP server configured from there would index it in the background.
 */
export function checkProjectRoot(root: string): void {
  const abs = resolve(root);
  const broad = broadRoot(abs);
  if (!broad || existsSync(join(abs, ".git")) || existsSync(join(abs, ".cortex"))) return;
  throw new CortexError(
    "INVALID_INPUT",
    `${abs} is ${broad}, not a project: run cortex in the project's folder or give its path (a folder holding .git or .cortex/ is taken as a project wherever it is)`,
  );
}
