/**
 * A small zip reader for the GitHub release archives of ast-grep: the central directory, stored and
 * deflated entries, CRC-32 checked. No zip64 and no encryption (the archives use neither); such archives
 * are refused with a clear message rather than misread.
 */
import { inflateRawSync } from "node:zlib";
import { ArchiveError } from "./tar.ts";

export interface ZipEntry {
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const decoder = new TextDecoder("utf-8");

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Lists the entries of a zip archive from its central directory. */
export function listZip(bytes: Uint8Array): ZipEntry[] {
  const dv = view(bytes);
  if (bytes.length < 22) throw new ArchiveError("not a zip archive (too short)");
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (dv.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ArchiveError("not a zip archive, or truncated: no end-of-central-directory record");
  const count = dv.getUint16(eocd + 10, true);
  const cdSize = dv.getUint32(eocd + 12, true);
  const cdOffset = dv.getUint32(eocd + 16, true);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new ArchiveError("zip64 archives are not supported");
  if (cdOffset + cdSize > eocd) throw new ArchiveError("damaged zip archive: central directory outside the file");
  const entries: ZipEntry[] = [];
  let at = cdOffset;
  for (let k = 0; k < count; k++) {
    if (at + 46 > eocd || dv.getUint32(at, true) !== CENTRAL) throw new ArchiveError(`damaged zip archive: bad central directory entry ${k}`);
    const flags = dv.getUint16(at + 8, true);
    if (flags & 1) throw new ArchiveError("encrypted zip entries are not supported");
    const nameLength = dv.getUint16(at + 28, true);
    const extraLength = dv.getUint16(at + 30, true);
    const commentLength = dv.getUint16(at + 32, true);
    entries.push({
      method: dv.getUint16(at + 10, true),
      crc32: dv.getUint32(at + 16, true),
      compressedSize: dv.getUint32(at + 20, true),
      size: dv.getUint32(at + 24, true),
      localHeaderOffset: dv.getUint32(at + 42, true),
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The uncompressed bytes of one entry, checked against its recorded size and CRC-32. */
export function extractZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const dv = view(bytes);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || dv.getUint32(at, true) !== LOCAL) throw new ArchiveError(`damaged zip archive: bad local header for ${entry.name}`);
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new ArchiveError(`truncated zip archive: ${entry.name} runs past the end`);
  const raw = bytes.subarray(start, end);
  let data: Uint8Array;
  if (entry.method === 0) data = raw;
  else if (entry.method === 8) {
    try {
      data = inflateRawSync(raw);
    } catch (e) {
      throw new ArchiveError(`damaged zip archive: cannot inflate ${entry.name} (${(e as Error).message})`);
    }
  } else throw new ArchiveError(`zip compression method ${entry.method} is not supported (${entry.name})`);
  if (data.length !== entry.size) throw new ArchiveError(`damaged zip archive: ${entry.name} is ${data.length} bytes, expected ${entry.size}`);
  if (Bun.hash.crc32(data) !== entry.crc32) throw new ArchiveError(`damaged zip archive: CRC-32 mismatch for ${entry.name}`);
  return data;
}
