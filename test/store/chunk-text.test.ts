/**
 * Chunk texts are kept as a prefix and spans of the file's lines (src/store/chunk-text.ts): the text read
 * back from the index must be exactly the text the chunker hashed, for every chunk of every language.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sqliteOf } from "../../src/store/sqlite-access.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { chunkIdPaths, chunksById } from "../../src/store/chunk-search.ts";
import { textKey } from "../../src/core/hash.ts";
import { decodeSpans, encodeSpans, renderChunk, contentLines, MAX_LINE_CHARS, prefixText, storedPrefix, type ChunkSpan } from "../../src/store/chunk-text.ts";

describe("chunk text read back from the index", () => {
  let p: TmpProject;
  let s: Session;
  beforeAll(async () => {
    p = copyFixture("polyglot");
    p.write("docs/guide.md", "# Guide\n\nSome words.\n\n## Part\n\nMore words.\n");
    p.write("config/app.yaml", "db:\n  host: localhost\n");
    p.write("dist/app.min.js", Array.from({ length: 300 }, (_, i) => `function fn${i}(a){return a+${i}}`).join("") + "\n");
    s = new Session(p.root);
    await s.index();
  }, 60_000); // indexing the polyglot fixture took over 5 s (the hook default) on a busy 2-core machine
  afterAll(() => {
    s.close();
    p.cleanup();
  });

  test("every chunk's text hashes to the hash recorded when it was built", async () => {
    const store = await s.requireStore();
    const ids = (sqliteOf(store).query("SELECT chunk_id AS id FROM chunks").all() as Array<{ id: string }>).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(200);
    const types = new Set<string>();
    for (let i = 0; i < ids.length; i += 200) {
      const rows = chunksById(store, ids.slice(i, i + 200));
      expect(rows.size).toBe(Math.min(200, ids.length - i));
      for (const r of rows.values()) {
        expect(textKey(r.text as string)).toBe(r.text_hash as string);
        types.add(r.chunk_type as string);
      }
    }
    expect([...types].sort()).toEqual(["data", "definitions", "documentation", "symbols"]);
    // long prefixes (file overviews) are kept compressed, text keys as 8 bytes, the usual spans as NULL
    // or only their cut's column: all read back above
    const n = (sql: string) => (sqliteOf(store).query(sql).get() as { n: number }).n;
    expect(n("SELECT count(*) AS n FROM chunks WHERE typeof(prefix) = 'blob'")).toBeGreaterThan(0);
    expect(n("SELECT count(*) AS n FROM chunks WHERE typeof(text_hash) <> 'blob' OR length(text_hash) <> 8")).toBe(0);
    expect(n("SELECT count(*) AS n FROM chunk_rows WHERE spans IS NULL")).toBeGreaterThan(0);
    expect(n("SELECT count(*) AS n FROM chunk_rows WHERE spans LIKE '@%'")).toBeGreaterThan(0);
    expect(n("SELECT count(*) AS n FROM chunk_rows WHERE spans LIKE '%,%' OR spans LIKE '%~%'")).toBeGreaterThan(0);
    // the spans hold line numbers, not the lines: far less than the texts they stand for
    const stored = sqliteOf(store).query("SELECT SUM(length(prefix) + length(spans)) AS n FROM chunks").get() as { n: number };
    const texts = [...chunksById(store, ids).values()].reduce((n, r) => n + (r.text as string).length, 0);
    expect(stored.n * 2).toBeLessThan(texts);
  });

  test("without their text, the same rows with the same facts (ranking reads no content)", async () => {
    const store = await s.requireStore();
    const ids = (sqliteOf(store).query("SELECT chunk_id AS id FROM chunks ORDER BY rowid LIMIT 50").all() as Array<{ id: string }>).map((r) => r.id);
    const full = chunksById(store, ids);
    const bare = chunksById(store, ids, false);
    expect([...bare.keys()]).toEqual([...full.keys()]);
    for (const [id, r] of bare) {
      expect(r.text).toBe("");
      const { text: _, ...facts } = full.get(id)!;
      expect(r).toMatchObject(facts);
    }
  });
});

describe("spans", () => {
  test("encode and decode round-trip; a malformed span is an error", () => {
    const spans: ChunkSpan[] = [{ from: 3, to: 7, col: 12 }, "…", { from: 10, to: 10 }, { from: 11, to: 11, col: 5, end: 30 }, { from: 12, to: 14, end: 9 }];
    // each span's first line relative to the line before it, an elision as ~
    expect(encodeSpans(spans)).toBe("3+4@12~3,1@5:30,1+2:9");
    expect(decodeSpans(encodeSpans(spans))).toEqual(spans);
    const elided: ChunkSpan[] = ["…", { from: 56, to: 58 }, "…", "…", { from: 62, to: 62 }, { from: 69, to: 69 }, "…"];
    expect(encodeSpans(elided)).toBe("~56+2~~4,7~");
    expect(decodeSpans(encodeSpans(elided))).toEqual(elided);
    expect(decodeSpans("")).toEqual([]);
    expect(() => decodeSpans("3+x")).toThrow("malformed chunk span '3+x'");
  });

  test("rendering: a span's last line stops before its end column", () => {
    const lines = contentLines("int a; int b; int c;\nx\nstruct S { int f; }; struct T {};\n");
    expect(renderChunk("", [{ from: 1, to: 1, col: 8, end: 15 }], lines)).toBe("int b; ");
    expect(renderChunk("", [{ from: 2, to: 3, end: 22 }], lines)).toBe("x\nstruct S { int f; }; ");
  });

  test("rendering: prefix, lines, elisions, an over-long first line from its column, nothing past the end", () => {
    const long = "x".repeat(MAX_LINE_CHARS) + "function f() {}";
    const lines = contentLines(`a\nb\nc\n${long}\n`);
    expect(lines).toEqual(["a", "b", "c", long]);
    expect(renderChunk("head\n", [{ from: 1, to: 2 }, "…", { from: 3, to: 9 }], lines)).toBe(`head\na\nb\n    …\nc\n${long.slice(0, MAX_LINE_CHARS)} …`);
    expect(renderChunk("", [{ from: 4, to: 4, col: MAX_LINE_CHARS + 1 }], lines)).toBe("function f() {}");
  });
});

describe("chunk ids", () => {
  test("the files an id can belong to: the path ends at one of the '#' after the type", () => {
    expect(chunkIdPaths("definitions:src/a.ts#login")).toEqual(["src/a.ts"]);
    expect(chunkIdPaths("definitions:lib/user.rb#User#save")).toEqual(["lib/user.rb", "lib/user.rb#User"]);
    expect(chunkIdPaths("data:odd#dir/x.json#values@1")).toEqual(["odd", "odd#dir/x.json"]);
    expect(chunkIdPaths("no-colon-here#x")).toEqual([]);
  });
});

describe("stored prefixes", () => {
  const path = "net/http/server.go";
  test("the file's path is stored once as a placeholder and read back in place", () => {
    const header = `method Server.Serve (${path}:120-180)\n`;
    const stored = storedPrefix(header, path);
    expect(typeof stored === "string" && stored.includes(path)).toBe(false);
    expect(prefixText(stored, path)).toBe(header);
  });
  test("a long prefix is compressed and a prefix holding the placeholder characters is kept as it is", () => {
    const overview = `${path}\n` + Array.from({ length: 40 }, (_, i) => `func f${i}() // in ${path}`).join("\n");
    const long = storedPrefix(overview, path);
    expect(long).toBeInstanceOf(Uint8Array);
    expect(prefixText(long, path)).toBe(overview);
    for (const odd of [`a\u0001b (${path})`, `\u0002${path}`, "\u0001", ""]) expect(prefixText(storedPrefix(odd, path), path)).toBe(odd);
  });
});
