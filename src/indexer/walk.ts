/**
 * Walks a project: every regular file the ignore rules keep, with its size and mtime. Symlinks are never
 * followed (a link inside the root reaches a file the walk indexes at its own path; a link out of the root
 * is refused), so loops cannot happen. Everything left out is reported with the reason.
 */
import { readdirSync, statSync, lstatSync, realpathSync, type Dirent } from "node:fs";
import { join, relative, isAbsolute, sep } from "node:path";
import { IgnoreStack } from "./ignore-rules.ts";
import { CortexError } from "../core/errors.ts";

export interface WalkedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export type ExclusionReason = "ignored" | "too-large" | "binary" | "symlink" | "unreadable" | "special";

export interface Exclusion {
  path: string;
  reason: ExclusionReason;
  detail: string;
  isDir: boolean;
  size?: number;
}

export interface WalkOptions {
  maxFileSize: number;
  extraExcludes: string[];
}

export interface WalkResult {
  files: WalkedFile[];
  excluded: Exclusion[];
}

function describeLink(root: string, abs: string): string {
  let target: string;
  try {
    target = realpathSync(abs);
  } catch (e) {
    // ELOOP: the link leads back to itself; ENOENT: its target is gone
    return (e as NodeJS.ErrnoException).code === "ELOOP" ? "symlink loop" : "broken symlink";
  }
  const rel = relative(root, target);
  if (rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel)) return `symlink to ${target}, outside the project root: not followed`;
  return `symlink to ${rel.split(sep).join("/") || "."}: not followed (its target is indexed at its own path)`;
}

/** Where a walk puts what it finds, in the order a walk from the root finds it. */
export interface WalkSink {
  file(found: WalkedFile): void;
  exclude(left: Exclusion): void;
  /** A kept subdirectory, met in its place among its parent's entries. */
  directory(rel: string): void;
}

/**
 * One thread's walk: the ignore rules of the folder it is in and the per-entry decisions. A walk from the
 * root (walkFrom("")) is the whole walk; a parallel walk (walk-parallel.ts) gives each thread whole
 * subtrees, which it starts with moveTo, as if it had come down from the root.
 */
export class TreeWalker {
  private readonly rules: IgnoreStack;
  /** Folders above the current subtree whose ignore files moveTo entered, outermost first. */
  private readonly entered: string[] = [];

  constructor(
    readonly root: string,
    private readonly options: WalkOptions,
  ) {
    this.rules = new IgnoreStack(root, options.extraExcludes);
  }

  /** Walks `dirRel` and everything under it into the arrays (the rules must stand at its parent: moveTo). */
  walkFrom(dirRel: string, files: WalkedFile[], excluded: Exclusion[]): void {
    const sink: WalkSink = {
      file: (f) => files.push(f),
      exclude: (e) => excluded.push(e),
      directory: (rel) => this.readDirectory(rel, sink),
    };
    this.readDirectory(dirRel, sink);
  }

  /**
   * Reads one folder: its files and exclusions go to the sink in name order, each kept subdirectory to
   * sink.directory in its place (which may walk it at once, or leave it for later). The rules of the
   * folder's own ignore files hold while the sink is called.
   */
  readDirectory(dirRel: string, sink: WalkSink): void {
    const { root, rules } = this;
    const dirAbs = dirRel === "" ? root : join(root, dirRel);
    const entries = this.enter(dirRel, dirAbs, sink);
    if (!entries) return;
    for (const ent of entries) {
      const rel = dirRel === "" ? ent.name : `${dirRel}/${ent.name}`;
      const abs = join(dirAbs, ent.name);
      if (ent.isSymbolicLink()) {
        const verdict = rules.check(rel, false);
        if (verdict.ignored) sink.exclude({ path: rel, reason: "ignored", detail: verdict.rule!, isDir: false });
        else sink.exclude({ path: rel, reason: "symlink", detail: describeLink(root, abs), isDir: false });
        continue;
      }
      if (ent.isDirectory()) {
        const verdict = rules.check(rel, true);
        if (!verdict.ignored) sink.directory(rel);
        else if (!verdict.tracked) sink.exclude({ path: rel, reason: "ignored", detail: verdict.rule!, isDir: true });
        else {
          // git ignores the folder's untracked files only: its tracked ones stay, in their place
          sink.exclude({ path: rel, reason: "ignored", detail: `${verdict.rule!} (untracked files; the files git tracks in it are kept)`, isDir: true });
          this.readTracked(rel, sink);
        }
        continue;
      }
      if (!ent.isFile()) {
        sink.exclude({ path: rel, reason: "special", detail: "not a regular file", isDir: false });
        continue;
      }
      const verdict = rules.check(rel, false);
      if (verdict.ignored && !verdict.tracked) {
        sink.exclude({ path: rel, reason: "ignored", detail: verdict.rule!, isDir: false });
        continue;
      }
      this.keepFile(rel, abs, sink);
    }
    rules.leave(dirRel);
  }

  /** A folder's entries in name order, its ignore files read (the caller leaves it); undefined, and said, when it cannot be read. */
  private enter(dirRel: string, dirAbs: string, sink: WalkSink): Dirent[] | undefined {
    let entries: Dirent[];
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
    } catch (e) {
      sink.exclude({ path: dirRel, reason: "unreadable", detail: (e as Error).message, isDir: true });
      return undefined;
    }
    this.rules.enter(dirRel, new Set(entries.map((e) => e.name)));
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A file the rules keep: found with its size and mtime, or left out as too large or unreadable. */
  private keepFile(rel: string, abs: string, sink: WalkSink): void {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(abs);
    } catch (e) {
      sink.exclude({ path: rel, reason: "unreadable", detail: (e as Error).message, isDir: false });
      return;
    }
    if (st.size > this.options.maxFileSize) {
      sink.exclude({ path: rel, reason: "too-large", detail: `${st.size} bytes > limit ${this.options.maxFileSize}`, isDir: false, size: st.size });
      return;
    }
    sink.file({ path: rel, size: st.size, mtimeMs: st.mtimeMs });
  }

  /**
   * The tracked files of a folder git ignores (readDirectory has reported the folder as ignored): only
   * those, and the folders holding them, at any depth; cortex's own rules (built-in, the config's,
   * .cortexignore) still leave paths out. Walked here on this thread, in name order, in the folder's place.
   */
  private readTracked(dirRel: string, sink: WalkSink): void {
    const { rules } = this;
    const tracked = rules.tracked()!;
    const dirAbs = join(this.root, dirRel);
    const entries = this.enter(dirRel, dirAbs, sink);
    if (!entries) return;
    for (const ent of entries) {
      const rel = `${dirRel}/${ent.name}`;
      const isDir = ent.isDirectory();
      if (isDir ? !tracked.holds(rel) : !tracked.hasFile(rel)) continue; // untracked: the folder's exclusion covers it
      const verdict = rules.check(rel, isDir);
      if (verdict.ignored && !verdict.tracked) sink.exclude({ path: rel, reason: "ignored", detail: verdict.rule!, isDir });
      else if (isDir) this.readTracked(rel, sink);
      else if (ent.isSymbolicLink()) sink.exclude({ path: rel, reason: "symlink", detail: describeLink(this.root, join(dirAbs, ent.name)), isDir: false });
      else if (!ent.isFile()) sink.exclude({ path: rel, reason: "special", detail: "not a regular file", isDir: false });
      else this.keepFile(rel, join(dirAbs, ent.name), sink);
    }
    rules.leave(dirRel);
  }

  /**
   * Whether the walk leaves a path out by the ignore rules (a folder above it, or the path itself; what git
   * tracks stays), as a walk from the root would decide it. For the watcher, which hears of paths one by one.
   */
  ignores(rel: string, isDir = false): boolean {
    const parts = rel.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const path = parts.slice(0, i).join("/");
      this.moveTo(path);
      const verdict = this.rules.check(path, i < parts.length || isDir);
      if (verdict.ignored && !verdict.tracked) return true;
    }
    return false;
  }

  /**
   * Puts the rules where a walk from the root stands when it reaches `dirRel`: the ignore files of every
   * folder above it entered (each read once while consecutive subtrees share it), those of folders left
   * behind dropped.
   */
  moveTo(dirRel: string): void {
    const above: string[] = [];
    for (let i = dirRel.indexOf("/"); i >= 0; i = dirRel.indexOf("/", i + 1)) above.push(dirRel.slice(0, i));
    let shared = 0;
    while (shared < above.length && shared < this.entered.length && above[shared] === this.entered[shared]) shared++;
    while (this.entered.length > shared) this.rules.leave(this.entered.pop()!);
    for (const dir of above.slice(shared)) {
      this.rules.enter(dir);
      this.entered.push(dir);
    }
  }
}

/** The project root must still be there: moved or deleted under a running server, it is an error saying so. */
export function checkRoot(root: string): void {
  try {
    if (lstatSync(root).isDirectory()) return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new CortexError("NOT_FOUND", `the project folder ${root} no longer exists (moved or deleted)`);
    throw e;
  }
  throw new CortexError("INVALID_INPUT", `the project root ${root} is not a folder`);
}

export function walkProject(root: string, options: WalkOptions): WalkResult {
  const files: WalkedFile[] = [];
  const excluded: Exclusion[] = [];
  checkRoot(root);
  new TreeWalker(root, options).walkFrom("", files, excluded);
  return { files, excluded };
}

/** The leading bytes looksBinary examines. */
export const BINARY_CHECK_BYTES = 8192;

/**
 * The UTF-16 encoding a byte-order mark announces, if any: such text holds a NUL in every ASCII character,
 * which looksBinary would take for binary content. ripgrep searches it the same way (it transcodes).
 */
export function utf16Encoding(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/** True when the first 8 KB hold a NUL byte: the git and ripgrep test for binary content. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_CHECK_BYTES);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
