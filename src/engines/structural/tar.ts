/**
 * A small reader for (gzipped) tar archives: enough of ustar, pax and GNU tar to read an npm package
 * tarball, and strict about damage. cortex never shells out to `tar`; it reads the archive in memory and
 * picks one entry by name, so entry names are never used as paths on disk.
 */
import { gunzipSync } from "node:zlib";

export type TarEntryType = "file" | "directory" | "symlink" | "hardlink" | "other";

export interface TarEntry {
  name: string;
  type: TarEntryType;
  mode: number;
  size: number;
  /** The entry's bytes (a view into the archive) for files; empty otherwise. */
  data: Uint8Array;
  linkName?: string;
}

export class ArchiveError extends Error {
  override readonly name = "ArchiveError";
}

const BLOCK = 512;
const decoder = new TextDecoder("utf-8");

/** Decompresses a gzip stream, refusing anything that is not one whole gzip stream. */
export function gunzip(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new ArchiveError("not a gzip archive");
  try {
    return gunzipSync(bytes);
  } catch (e) {
    throw new ArchiveError(`damaged or truncated gzip archive (${(e as Error).message})`);
  }
}

function cString(bytes: Uint8Array, start: number, length: number): string {
  let end = start;
  const limit = start + length;
  while (end < limit && bytes[end] !== 0) end++;
  return decoder.decode(bytes.subarray(start, end));
}

/** A numeric header field: octal text, or base-256 when the first byte has its high bit set. */
function numberField(bytes: Uint8Array, start: number, length: number, what: string, at: number): number {
  if ((bytes[start]! & 0x80) !== 0) {
    let n = bytes[start]! & 0x7f;
    for (let i = start + 1; i < start + length; i++) n = n * 256 + bytes[i]!;
    return n;
  }
  const text = cString(bytes, start, length).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError(`bad ${what} field '${text}' in the tar header at offset ${at}`);
  return parseInt(text, 8);
}

function isZeroBlock(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < at + BLOCK; i++) if (bytes[i] !== 0) return false;
  return true;
}

function checksumOk(bytes: Uint8Array, at: number): boolean {
  const stored = numberField(bytes, at + 148, 8, "checksum", at);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : bytes[at + i]!;
  return sum === stored;
}

/** Parses pax extended header records ("<len> <key>=<value>\n"). */
function paxRecords(data: Uint8Array, at: number): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < data.length) {
    let sp = i;
    while (sp < data.length && data[sp] !== 0x20) sp++;
    const len = Number(decoder.decode(data.subarray(i, sp)));
    if (!Number.isInteger(len) || len <= 0 || i + len > data.length) throw new ArchiveError(`bad pax record in the tar header at offset ${at}`);
    const record = decoder.decode(data.subarray(sp + 1, i + len - 1));
    const eq = record.indexOf("=");
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    i += len;
  }
  return out;
}

const TYPES: Record<string, TarEntryType> = { "0": "file", "\0": "file", "7": "file", "5": "directory", "2": "symlink", "1": "hardlink" };

/** Lists every entry of an uncompressed tar archive. Throws ArchiveError on truncation or damage. */
export function readTar(bytes: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax: Map<string, string> | undefined;
  for (;;) {
    if (at === bytes.length) break; // archives without the end-of-archive blocks still list whole
    if (at + BLOCK > bytes.length) throw new ArchiveError(`truncated tar archive: partial header at offset ${at}`);
    if (isZeroBlock(bytes, at)) break;
    if (!checksumOk(bytes, at)) throw new ArchiveError(`damaged tar archive: header checksum mismatch at offset ${at}`);
    const typeflag = String.fromCharCode(bytes[at + 156]!);
    const magic = cString(bytes, at + 257, 6);
    let size = numberField(bytes, at + 124, 12, "size", at);
    if (pax?.has("size")) size = Number(pax.get("size"));
    const dataStart = at + BLOCK;
    const dataEnd = dataStart + size;
    if (dataEnd > bytes.length) throw new ArchiveError(`truncated tar archive: entry at offset ${at} needs ${size} bytes, ${bytes.length - dataStart} remain`);
    const data = bytes.subarray(dataStart, dataEnd);
    const next = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    if (typeflag === "x") {
      pax = paxRecords(data, at);
    } else if (typeflag === "g") {
      // global pax headers carry archive-wide defaults cortex does not need
    } else if (typeflag === "L") {
      longName = cString(data, 0, data.length);
    } else if (typeflag === "K") {
      longLink = cString(data, 0, data.length);
    } else {
      let name = cString(bytes, at, 100);
      if (magic === "ustar") {
        const prefix = cString(bytes, at + 345, 155);
        if (prefix) name = `${prefix}/${name}`;
      }
      name = pax?.get("path") ?? longName ?? name;
      const linkName = pax?.get("linkpath") ?? longLink ?? cString(bytes, at + 157, 100);
      const type = TYPES[typeflag] ?? "other";
      const entry: TarEntry = {
        name,
        type,
        mode: numberField(bytes, at + 100, 8, "mode", at),
        size,
        data: type === "file" ? data : new Uint8Array(0),
      };
      if ((type === "symlink" || type === "hardlink") && linkName) entry.linkName = linkName;
      entries.push(entry);
      longName = undefined;
      longLink = undefined;
      pax = undefined;
    }
    at = next;
  }
  return entries;
}
