/**
 * The paths git tracks, read from a repository's index file (`.git/index`, versions 2 to 4): git applies
 * its ignore rules to untracked files only, so a tracked file that a `.gitignore` rule matches (added
 * with `git add -f`, or before the rule) is still part of the project and the walk keeps it.
 *
 * Format (gitformat-index(5)): "DIRC", version, entry count, then the entries: 40 bytes of stat data, the
 * object id (20 bytes, 32 in a SHA-256 repository), 16 bits of flags (a second 16 bits in version 3 and
 * later when the extended flag is set), then the path: NUL-ended and padded to a multiple of 8 bytes in
 * versions 2 and 3, prefix-compressed against the previous entry's path in version 4. A sparse index
 * holds whole folders as entries of mode 040000 whose paths end with "/". A split index (the `link`
 * extension) keeps most entries in a shared index file, read as well; its bitmap of entries removed since
 * is not read, so a file removed from the index and left on disk counts as tracked until git writes the
 * shared file again (git does at its own threshold): at worst an ignored file stays in the walk.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Tracked paths of one repository as seen from a project root inside it (or at its top). */
export class TrackedPaths {
  /** Tracked files, root-relative. */
  private readonly files = new Set<string>();
  /** Every folder holding a tracked file (or a sparse index's tracked folder), root-relative, and those folders themselves. */
  private readonly folders = new Set<string>();

  /** @param paths the index's paths, relative to the repository's top; `prefix` is the project root's ("" or "a/b/"). */
  constructor(paths: Iterable<string>, prefix: string) {
    for (const p of paths) {
      if (prefix && !p.startsWith(prefix)) continue;
      const rel = p.slice(prefix.length);
      if (rel === "") continue;
      if (rel.endsWith("/")) {
        this.addFolders(rel.slice(0, -1), true);
        continue;
      }
      this.files.add(rel);
      this.addFolders(rel, false);
    }
  }

  private addFolders(path: string, self: boolean): void {
    if (self) this.folders.add(path);
    for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
      const dir = path.slice(0, i);
      if (this.folders.has(dir)) return;
      this.folders.add(dir);
    }
  }

  /** Whether git tracks this file (root-relative). */
  hasFile(rel: string): boolean {
    return this.files.has(rel);
  }

  /** Whether this folder (root-relative) holds a tracked file at any depth. */
  holds(dirRel: string): boolean {
    return this.folders.has(dirRel);
  }
}

/** An index file that cannot be read as git writes it: the walk then knows no tracked paths, as before. */
export class UnreadableIndex extends Error {}

/**
 * The paths of the entries of an index file (stage 0 and conflict stages alike, each once), or undefined
 * when the repository has no index file.
 */
export function readIndexPaths(gitDir: string, objectFormat: "sha1" | "sha256" = "sha1"): string[] | undefined {
  const file = join(gitDir, "index");
  if (!existsSync(file)) return undefined;
  const paths = new Set<string>();
  const shared = parseIndex(readFileSync(file), objectFormat === "sha256" ? 32 : 20, paths);
  if (shared) {
    const sharedFile = join(gitDir, `sharedindex.${shared}`);
    if (existsSync(sharedFile)) parseIndex(readFileSync(sharedFile), objectFormat === "sha256" ? 32 : 20, paths);
  }
  return [...paths];
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** A path's bytes as text: Latin-1 decoding (much the faster for the short names of an index) where they are all ASCII. */
function pathText(buf: Buffer, from: number, to: number): string {
  for (let i = from; i < to; i++) if (buf[i]! >= 0x80) return utf8.decode(buf.subarray(from, to));
  return buf.toString("latin1", from, to);
}

/** Adds the entries' paths of one index file to `paths`; returns the shared index's id when a `link` extension names one. */
function parseIndex(buf: Buffer, hashSize: number, paths: Set<string>): string | undefined {
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") throw new UnreadableIndex("not a git index (no DIRC signature)");
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) throw new UnreadableIndex(`git index version ${version} is not one this reader knows (2-4)`);
  const count = buf.readUInt32BE(8);
  let at = 12;
  let previous: Uint8Array = new Uint8Array(0);
  const fixed = 40 + hashSize; // stat data and object id
  for (let n = 0; n < count; n++) {
    const start = at;
    if (at + fixed + 2 > buf.length) throw new UnreadableIndex(`git index ends inside entry ${n + 1} of ${count}`);
    const flags = buf.readUInt16BE(at + fixed);
    at += fixed + 2;
    if (version >= 3 && flags & 0x4000) at += 2; // extended flags
    let path: Uint8Array;
    if (version === 4) {
      // how many bytes of the previous path to drop (git's offset varint), then the rest, NUL-ended
      let byte = buf[at++]!;
      let drop = byte & 0x7f;
      while (byte & 0x80) {
        byte = buf[at++]!;
        drop = ((drop + 1) << 7) | (byte & 0x7f);
      }
      const end = buf.indexOf(0, at);
      if (end < 0 || drop > previous.length) throw new UnreadableIndex(`git index entry ${n + 1} has a bad path`);
      const rest = buf.subarray(at, end);
      path = new Uint8Array(previous.length - drop + rest.length);
      path.set(previous.subarray(0, previous.length - drop));
      path.set(rest, previous.length - drop);
      at = end + 1;
      previous = path;
    } else {
      // the name's length is in the flags (12 bits; 0xfff: that long or longer)
      const length = flags & 0xfff;
      let end = at + length;
      if (length === 0xfff || buf[end] !== 0) end = buf.indexOf(0, at);
      if (end < 0 || end > buf.length) throw new UnreadableIndex(`git index entry ${n + 1} has no path end`);
      // 1 to 8 NULs pad the entry to a multiple of 8 bytes
      const next = start + Math.ceil((end - start + 1) / 8) * 8;
      // a split index's entry that replaces a shared one has an empty path
      if (end > at) paths.add(pathText(buf, at, end));
      at = next;
      continue;
    }
    if (path.length > 0) paths.add(utf8.decode(path));
  }
  // extensions: a 4-byte signature and a 4-byte size each, until the trailing checksum
  let shared: string | undefined;
  while (at + 8 <= buf.length - hashSize) {
    const signature = buf.toString("latin1", at, at + 4);
    const size = buf.readUInt32BE(at + 4);
    if (signature === "link" && size >= hashSize) shared = buf.toString("hex", at + 8, at + 8 + hashSize);
    at += 8 + size;
  }
  return shared;
}
