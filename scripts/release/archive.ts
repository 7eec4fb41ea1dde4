/**
 * The two archive formats a release ships, written here rather than by the system's tar and zip so that a
 * release is the same bytes on every machine that builds it (fixed times, owners and modes) and needs no
 * program beyond Bun: .tar.gz for Linux and macOS (what install.sh unpacks with tar), .zip for Windows
 * (what install.ps1 unpacks with Expand-Archive).
 */
import { deflateRawSync, gzipSync } from "node:zlib";

export interface ArchiveEntry {
  name: string;
  data: Uint8Array;
  /** Unix permission bits; executables get 0o755. */
  mode: number;
}

/** A fixed time for every entry: 2020-01-01T00:00:00Z, so archives depend only on their contents. */
const FIXED_TIME = 1577836800;

function tarHeader(e: ArchiveEntry): Buffer {
  if (Buffer.byteLength(e.name) > 100) throw new Error(`archive entry name too long for ustar: ${e.name}`);
  const h = Buffer.alloc(512);
  const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, "0") + "\0";
  h.write(e.name, 0, 100, "utf8");
  h.write(octal(e.mode, 8), 100, "latin1");
  h.write(octal(0, 8), 108, "latin1"); // uid
  h.write(octal(0, 8), 116, "latin1"); // gid
  h.write(octal(e.data.length, 12), 124, "latin1");
  h.write(octal(FIXED_TIME, 12), 136, "latin1");
  h.write("        ", 148, "latin1"); // checksum field counts as spaces while summing
  h.write("0", 156, "latin1"); // regular file
  h.write("ustar\0", 257, "latin1");
  h.write("00", 263, "latin1");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "latin1");
  return h;
}

/** A gzip-compressed ustar archive of regular files (level 9: 2 % smaller than 6, twice as slow). */
export function tarGz(entries: ArchiveEntry[], level = 9): Uint8Array {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(tarHeader(e), Buffer.from(e.data), Buffer.alloc((512 - (e.data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024)); // two empty blocks end the archive
  return gzipSync(Buffer.concat(parts), { level });
}

/** DOS date and time fields of FIXED_TIME (2020-01-01 00:00). */
const DOS_TIME = 0;
const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1;

/** A zip archive of deflated regular files (no zip64: each file and the whole must stay under 4 GiB). */
export function zip(entries: ArchiveEntry[], level = 9): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const body = deflateRawSync(e.data, { level });
    const crc = Bun.hash.crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below is honoured
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | e.mode) << 16) >>> 0, 38); // external attributes: a regular file and its mode
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
