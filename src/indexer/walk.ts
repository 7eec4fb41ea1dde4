/**
 * Walks a project: every regular file the ignore rules keep, with its size and mtime. Symlinks are never
 * followed (a link inside the root reaches a file the walk indexes at its own path; a link out of the root
 * is refused), so loops cannot happen. Everything left out is reported with the reason.
 */
import { readdirSync, statSync, lstatSync, realpathSync, type Dirent } from "node:fs";
import { join, relative, isAbsolute, sep } from "node:path";
import { IgnoreStack } from "./ignore-rules.ts";

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
  } catch {
    return "broken symlink";
  }
  const rel = relative(root, target);
  if (rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel)) return `symlink to ${target}, outside the project root: not followed`;
  return `symlink to ${rel.split(sep).join("/") || "."}: not followed (its target is indexed at its own path)`;
}

export function walkProject(root: string, options: WalkOptions): WalkResult {
  const files: WalkedFile[] = [];
  const excluded: Exclusion[] = [];
  const rules = new IgnoreStack(root, options.extraExcludes);

  const visit = (dirRel: string): void => {
    const dirAbs = dirRel === "" ? root : join(root, dirRel);
    let entries: Dirent[];
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
    } catch (e) {
      excluded.push({ path: dirRel, reason: "unreadable", detail: (e as Error).message, isDir: true });
      return;
    }
    rules.enter(dirRel, new Set(entries.map((e) => e.name)));
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      const rel = dirRel === "" ? ent.name : `${dirRel}/${ent.name}`;
      const abs = join(dirAbs, ent.name);
      if (ent.isSymbolicLink()) {
        const verdict = rules.check(rel, false);
        if (verdict.ignored) excluded.push({ path: rel, reason: "ignored", detail: verdict.rule!, isDir: false });
        else excluded.push({ path: rel, reason: "symlink", detail: describeLink(root, abs), isDir: false });
        continue;
      }
      if (ent.isDirectory()) {
        const verdict = rules.check(rel, true);
        if (verdict.ignored) {
          excluded.push({ path: rel, reason: "ignored", detail: verdict.rule!, isDir: true });
          continue;
        }
        visit(rel);
        continue;
      }
      if (!ent.isFile()) {
        excluded.push({ path: rel, reason: "special", detail: "not a regular file", isDir: false });
        continue;
      }
      const verdict = rules.check(rel, false);
      if (verdict.ignored) {
        excluded.push({ path: rel, reason: "ignored", detail: verdict.rule!, isDir: false });
        continue;
      }
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(abs);
      } catch (e) {
        excluded.push({ path: rel, reason: "unreadable", detail: (e as Error).message, isDir: false });
        continue;
      }
      if (st.size > options.maxFileSize) {
        excluded.push({ path: rel, reason: "too-large", detail: `${st.size} bytes > limit ${options.maxFileSize}`, isDir: false, size: st.size });
        continue;
      }
      files.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs });
    }
    rules.leave(dirRel);
  };

  // The root itself must be a real directory.
  lstatSync(root);
  visit("");
  return { files, excluded };
}

/** The leading bytes looksBinary examines. */
export const BINARY_CHECK_BYTES = 8192;

/** True when the first 8 KB hold a NUL byte: the git and ripgrep test for binary content. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_CHECK_BYTES);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
