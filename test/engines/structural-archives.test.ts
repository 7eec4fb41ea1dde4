import { describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ArchiveError, gunzip, readTar } from "../../src/engines/structural/tar.ts";
import { extractZipEntry, listZip } from "../../src/engines/structural/zip.ts";
import { buildTar, buildZip, packageDir, packedTarball, testRelease } from "../helpers/ast-grep.ts";
import { sha256 } from "../../src/core/hash.ts";

describe("tar reader", () => {
  test("lists the real npm package tarball with names, modes and sizes as npm packed them", async () => {
    const entries = readTar(gunzip(await packedTarball()));
    const rel = testRelease();
    const names = entries.map((e) => e.name).sort();
    expect(names).toEqual(
      [`package/${rel.executable}`, "package/README.md", "package/package.json", `package/${rel.executable.replace("ast-grep", "sg")}`].sort(),
    );
    const exe = entries.find((e) => e.name === `package/${rel.executable}`)!;
    expect(exe.type).toBe("file");
    expect(exe.mode & 0o111).not.toBe(0);
    expect(sha256(exe.data)).toBe(rel.executableSha256);
    const pkg = entries.find((e) => e.name === "package/package.json")!;
    expect(Buffer.from(pkg.data).equals(readFileSync(join(packageDir(), "package.json")))).toBe(true);
  }, 120_000);

  test("reads ustar prefixes, pax paths and sizes, GNU long names and directories", () => {
    const long = "deep/".repeat(30) + "file.txt";
    const tar = buildTar([
      { kind: "dir", name: "package/" },
      { kind: "file", name: "short.txt", data: "hello" },
      { kind: "file", name: "name.txt", prefix: "some/prefix", data: "prefixed" },
      { kind: "pax", records: { path: "pax/" + long } },
      { kind: "file", name: "ignored-by-pax", data: "from pax" },
      { kind: "gnu-long-name", name: "gnu/" + long },
      { kind: "file", name: "ignored-by-gnu", data: "from gnu", mode: 0o755 },
    ]);
    const entries = readTar(tar);
    expect(entries.map((e) => [e.name, e.type, Buffer.from(e.data).toString()])).toEqual([
      ["package/", "directory", ""],
      ["short.txt", "file", "hello"],
      ["some/prefix/name.txt", "file", "prefixed"],
      ["pax/" + long, "file", "from pax"],
      ["gnu/" + long, "file", "from gnu"],
    ]);
    expect(entries[4]!.mode).toBe(0o755);
  });

  test("refuses a truncated archive: a partial header and an entry running past the end", () => {
    const tar = buildTar([{ kind: "file", name: "big.bin", data: new Uint8Array(5000).fill(7) }]);
    expect(() => readTar(tar.subarray(0, 300))).toThrow(/truncated tar archive: partial header/);
    expect(() => readTar(tar.subarray(0, 2048))).toThrow(/truncated tar archive: entry at offset 0 needs 5000 bytes/);
  });

  test("refuses a header whose checksum does not add up", () => {
    const tar = buildTar([{ kind: "file", name: "a.txt", data: "x" }]);
    tar[10] = 0x41; // change the name after the checksum was written
    expect(() => readTar(tar)).toThrow(/header checksum mismatch at offset 0/);
  });

  test("gunzip refuses data that is not gzip and a cut gzip stream", () => {
    expect(() => gunzip(new TextEncoder().encode("plain text, long enough to look at"))).toThrow(ArchiveError);
    const gz = gzipSync(Buffer.alloc(100_000, 1));
    expect(() => gunzip(gz.subarray(0, gz.length - 10))).toThrow(/damaged or truncated gzip archive/);
  });
});

describe("zip reader", () => {
  const files = [
    { name: "ast-grep", data: new Uint8Array(70_000).map((_, i) => (i * 31) & 0xff), deflate: true },
    { name: "sg", data: new TextEncoder().encode("#!/bin/sh\n"), deflate: false },
  ];

  test("lists and extracts stored and deflated entries", () => {
    const zip = buildZip(files);
    const entries = listZip(zip);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ["ast-grep", 8, 70_000],
      ["sg", 0, 10],
    ]);
    expect(Buffer.from(extractZipEntry(zip, entries[0]!)).equals(Buffer.from(files[0]!.data))).toBe(true);
    expect(new TextDecoder().decode(extractZipEntry(zip, entries[1]!))).toBe("#!/bin/sh\n");
  });

  test("refuses an archive without its central directory (truncated) and a corrupted entry (CRC-32)", () => {
    const zip = buildZip(files);
    expect(() => listZip(zip.subarray(0, zip.length - 40))).toThrow(/no end-of-central-directory record/);
    const entries = listZip(zip);
    const damaged = new Uint8Array(zip);
    damaged[30 + "ast-grep".length + 5]! ^= 0xff; // inside the deflated data of the first entry
    expect(() => extractZipEntry(damaged, entries[0]!)).toThrow(ArchiveError);
    const stored = new Uint8Array(zip);
    const sgData = entries[1]!.localHeaderOffset + 30 + 2;
    stored[sgData]! ^= 0x01;
    expect(() => extractZipEntry(stored, entries[1]!)).toThrow(/CRC-32 mismatch for sg/);
  });
});
