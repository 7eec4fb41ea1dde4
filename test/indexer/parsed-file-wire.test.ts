import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { deepEquals } from "bun";
import { decodeParsedFile, encodeParsedFile, type ParsedFileWire, recycleWireBuffer } from "../../src/indexer/parsed-file-wire.ts";
import { parseStoredFile } from "../../src/indexer/file-record.ts";
import { parseFiles } from "../../src/indexer/parse-pool.ts";
import { compressContent } from "../../src/store/content-codec.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import type { ParsedFile, UnparsedFile } from "../../src/store/types.ts";

const parser = await FactsParser.create();
const project = emptyProjectInfo();
const encoder = new TextEncoder();

async function parsed(path: string, text: string, fileId = 1, mtimeMs = 1_764_000_000_123): Promise<ParsedFile> {
  const content = compressContent(encoder.encode(text));
  return parseStoredFile({ fileId, path, sizeBytes: encoder.encode(text).length, mtimeMs, content }, parser, project);
}

/** Through the wire as a worker sends it: the buffer transferred, the rest cloned. */
function viaMessage(wire: ParsedFileWire): ParsedFileWire {
  return structuredClone(wire, { transfer: [wire.ints.buffer as ArrayBuffer] });
}

function roundTrip(f: ParsedFile): ParsedFile {
  return decodeParsedFile(viaMessage(encodeParsedFile(f)));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const polyglot = join(import.meta.dir, "../fixtures/polyglot");

describe("parsed-file wire", () => {
  test("gives back every fixture file of every language exactly, facts, chunks and words included", async () => {
    const paths = filesUnder(polyglot);
    expect(paths.length).toBeGreaterThan(40);
    let withFacts = 0;
    for (const [i, p] of paths.entries()) {
      const f = await parsed(relative(polyglot, p), readFileSync(p, "utf8"), i + 1);
      if (f.facts && f.facts.references.length > 0) withFacts++;
      const back = roundTrip(f);
      // strict: an absent optional field stays absent (not undefined), types and values alike
      expect(deepEquals(back, f, true)).toBe(true);
      expect(back).toEqual(f);
    }
    expect(withFacts).toBeGreaterThan(20);
  });

  test("an empty file", async () => {
    const f = await parsed("src/empty.go", "");
    expect(roundTrip(f)).toEqual(f);
    const text = await parsed("notes/empty.txt", "");
    expect(deepEquals(roundTrip(text), text, true)).toBe(true);
  });

  test("a huge file: more ints than the writer's first buffer, and the file after it", async () => {
    const body = Array.from({ length: 6000 }, (_, i) => `func f${i}(a int) int { return g${i}(a) + h(a) }`).join("\n");
    const big = await parsed("pkg/big.go", `package pkg\n\n${body}\n`);
    expect(big.facts!.references.length).toBeGreaterThan(10_000);
    const wire = encodeParsedFile(big);
    expect(wire.ints.length).toBeGreaterThan(1 << 16);
    expect(deepEquals(decodeParsedFile(wire), big, true)).toBe(true);
    const small = await parsed("pkg/small.go", "package pkg\n\nfunc One() int { return 1 }\n");
    expect(deepEquals(roundTrip(small), small, true)).toBe(true);
  });

  test("non-ASCII names, paths and text, surrogate pairs included", async () => {
    const go = [
      "package café",
      "",
      "// Größe berechnet 大小 👍",
      "type Größe struct{ 名前 string }",
      "",
      "func (g *Größe) Länge() int { return 𝑓(g.名前) }",
      "",
      'const grüß = "ß😀"',
    ].join("\n");
    const f = await parsed("pkg/ünïcödé/大小.go", go);
    expect(f.facts!.functions.map((fn) => fn.name)).toContain("Länge");
    const back = roundTrip(f);
    expect(deepEquals(back, f, true)).toBe(true);
    expect(back.path).toBe("pkg/ünïcödé/大小.go");
  });

  test("absent and present optional fields, and numbers beyond 32 bits in the header", () => {
    const f: ParsedFile = {
      fileId: 7,
      path: "a/b.ts",
      language: "typescript",
      isTest: true,
      modulePath: "a",
      sizeBytes: 12,
      mtimeMs: 0,
      lines: { total: 1, code: 1, comment: 0, blank: 0 },
      facts: {
        language: "typescript",
        lines: { total: 1, code: 1, comment: 0, blank: 0 },
        types: [
          {
            name: "T",
            qualifiedName: "T",
            kind: "class",
            startLine: 1,
            endLine: 1,
            startColumn: 1,
            exported: false,
            fieldCount: 0,
            methodCount: 0,
            docStartLine: 1,
            container: "",
          },
        ],
        functions: [
          {
            name: "f",
            qualifiedName: "T.f",
            startLine: 1,
            endLine: 1,
            startColumn: 3,
            exported: true,
            isMethod: true,
            paramCount: 0,
            returnCount: 0,
            bodyLines: 0,
            complexity: 1,
            signature: "",
          },
        ],
        variables: [],
        imports: [{ module: "x", isStandardLib: false, isExternal: true, isRelative: false, symbols: [], alias: "y", line: 1, column: 1 }],
        references: [
          { name: "f", kind: "call", line: 1, column: 2 },
          { name: "f", qualifier: "this", qualifierType: "T", kind: "call", line: 1, column: 9, enclosing: "T.f" },
        ],
        syntaxErrors: 0,
      },
      chunks: [
        {
          id: "symbols:a/b.ts#file",
          chunkType: "symbols",
          title: "t",
          language: "typescript",
          startLine: 1,
          endLine: 1,
          tags: [],
          prefix: "",
          spans: "",
          textHash: "00",
          metadata: { package: null, n: [1, "two"], nested: { ok: true } },
        },
      ],
    };
    expect(deepEquals(roundTrip(f), f, true)).toBe(true);
    const later = { ...f, mtimeMs: 1_764_000_000_123, facts: undefined, chunks: undefined };
    delete later.facts;
    delete later.chunks;
    expect(deepEquals(roundTrip(later), later, true)).toBe(true);
  });

  test("refuses a value that is not a 32-bit integer, and a wire form that is not one", async () => {
    const f = await parsed("x.go", "package x\n\nfunc A() {}\n");
    const bad = structuredClone(f);
    bad.facts!.functions[0]!.startLine = 1.5;
    expect(() => encodeParsedFile(bad)).toThrow("1.5 is not a 32-bit integer");
    // the writer is whole again after a refusal
    expect(deepEquals(roundTrip(f), f, true)).toBe(true);
    const wire = encodeParsedFile(f);
    expect(() => decodeParsedFile({ ...wire, ints: new Int32Array(20) })).toThrow("not a parsed file's wire form");
    expect(() => decodeParsedFile({ ...wire, bytes: new Uint8Array([...wire.bytes, 33]) })).toThrow("string lengths do not add up");
  });

  test("a buffer handed back carries the next file, and nothing of the one before leaks into it", async () => {
    const first = await parsed("pkg/first.go", `package pkg\n\n${"func Long() { veryLongNameIndeed() }\n".repeat(400)}`);
    const wire = encodeParsedFile(first);
    const buffer = wire.ints.buffer as ArrayBuffer;
    expect(deepEquals(decodeParsedFile(wire), first, true)).toBe(true);
    recycleWireBuffer(buffer);
    const second = await parsed("pkg/second.go", "package pkg\n\nfunc Short() {}\n");
    const next = encodeParsedFile(second);
    expect(next.ints.buffer).toBe(buffer);
    expect(next.bytes.byteLength).toBeLessThan(wire.bytes.byteLength);
    expect(deepEquals(decodeParsedFile(viaMessage(next)), second, true)).toBe(true);
    // a huge file's buffer is not kept: the next small file gets one of its own
    const huge = new ArrayBuffer(8 * 2 ** 20);
    recycleWireBuffer(huge);
    expect(encodeParsedFile(second).ints.buffer).not.toBe(huge);
  });

  test("text of more UTF-8 bytes than UTF-16 units grows the buffer mid-file", async () => {
    // megabytes of distinct names in three-byte characters: past a first guess of one byte a unit, and
    // larger than any spare buffer
    const names = Array.from({ length: 12_000 }, (_, i) => `func 関数名前の長い識別子${i}大小() { 呼出処理の長い名前${i}() }`).join("\n");
    const f = await parsed("pkg/多.go", `package pkg\n\n${names}\n`);
    const wire = encodeParsedFile(f);
    expect(wire.bytes.byteLength).toBeGreaterThan(4 * 2 ** 20);
    expect(deepEquals(decodeParsedFile(viaMessage(wire)), f, true)).toBe(true);
  });

  test("a lone surrogate arrives as U+FFFD, as SQLite's UTF-8 would store it; the lengths still add up", async () => {
    const f = await parsed("pkg/s.go", "package pkg\n\nfunc A() {}\n");
    const odd = structuredClone(f);
    odd.chunks![0]!.title = `half \ud83d of a pair`;
    const back = roundTrip(odd);
    expect(back.chunks![0]!.title).toBe("half \ufffd of a pair");
    expect(deepEquals({ ...back, chunks: back.chunks!.slice(1) }, { ...odd, chunks: odd.chunks!.slice(1) }, true)).toBe(true);
  });

  test("workers hand the pool the same files the calling thread parses", async () => {
    const paths = filesUnder(polyglot);
    // more files than the pool parses inline, so they go through the workers and the wire
    const files: UnparsedFile[] = [];
    const contents = new Map<number, Uint8Array>();
    const texts = new Map<number, string>();
    for (let i = 0; files.length < 80; i++) {
      const p = paths[i % paths.length]!;
      const text = readFileSync(p, "utf8");
      const fileId = files.length + 1;
      const path = `${Math.floor(i / paths.length)}/${relative(polyglot, p)}`;
      files.push({ fileId, path, language: "", sizeBytes: encoder.encode(text).length, mtimeMs: 1_700_000_000_000 + i });
      contents.set(fileId, compressContent(encoder.encode(text)));
      texts.set(fileId, text);
    }
    const got = new Map<number, ParsedFile>();
    // a copy each call, as the store reads one: the pool moves a job's bytes to its worker; the list is
    // the pool's (it empties each file's slot once parsed), so it gets a copy of its own
    for await (const o of parseFiles([...files], (f) => new Uint8Array(contents.get(f.fileId)!), project, 2)) {
      if (o.kind !== "parsed") throw new Error(`${o.path}: ${o.error}`);
      got.set(o.file.fileId, o.file);
    }
    expect(got.size).toBe(files.length);
    for (const f of files) {
      const inline = await parseStoredFile({ ...f, content: contents.get(f.fileId)! }, parser, project);
      expect(deepEquals(got.get(f.fileId), inline, true)).toBe(true);
    }
  });
});
