/**
 * The trigram index (src/store/trigrams.ts, src/store/content-index.ts) over real index databases built by
 * the real indexer: posting lists hold exactly the files containing each trigram, incremental runs add
 * segments that are merged later, and files the postings do not cover are found and scanned.
 */
import { compressText, contentText } from "../../src/store/content-codec.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { BASE_SEGMENTS, ContentIndex, TrigramBaseWriter, updateTrigramIndex } from "../../src/store/content-index.ts";
import { TrigramExtractor, decodePostings, encodePostings, foldedBytes, intersectSorted, trigramsOf, unionSorted } from "../../src/store/trigrams.ts";
import { PathFilter } from "../../src/engines/exact/index.ts";

const projects: TmpProject[] = [];
const sessions: Session[] = [];
afterEach(() => {
  sessions.splice(0).forEach((s) => s.close());
  projects.splice(0).forEach((p) => p.cleanup());
});

async function indexed(files: Record<string, string>): Promise<{ p: TmpProject; s: Session }> {
  const p = tmpProject(files);
  projects.push(p);
  const s = new Session(p.root);
  sessions.push(s);
  await s.index();
  return { p, s };
}

function dbPathOf(s: Session): string {
  return s.location.current()!;
}

/** Every trigram of every stored file, the slow way: trigram → file paths. */
function bruteForce(db: Database): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  const rows = db.query("SELECT s.file_path AS path, c.z AS z FROM contents c JOIN file_state s ON s.file_id = c.file_id").all() as Array<{
    path: string;
    z: Uint8Array;
  }>;
  for (const r of rows) {
    for (const t of trigramsOf(contentText(r.z))) {
      if (!out.has(t)) out.set(t, new Set());
      out.get(t)!.add(r.path);
    }
  }
  return out;
}

function postingsByPath(index: ContentIndex, t: number): Set<string> {
  const ids = index.postings(t);
  return new Set(index.files(ids, false).map((r) => r.path));
}

/** Files whose postings hold every trigram of a word. */
function filesWithAll(index: ContentIndex, word: string): Set<string> {
  let ids: Uint32Array | undefined;
  for (const t of trigramsOf(word)) ids = ids ? intersectSorted(ids, index.postings(t)) : index.postings(t);
  return new Set(index.files(ids!, false).map((r) => r.path));
}

describe("trigram primitives", () => {
  test("folding: ASCII case, long s and Kelvin sign fold to the ASCII letters", () => {
    expect(foldedBytes("AbC")).toEqual([97, 98, 99]);
    expect(foldedBytes("ſK")).toEqual([0x73, 0x6b]);
    expect(foldedBytes("é")).toEqual([0xc3, 0xa9]);
    const ex = new TrigramExtractor();
    const fromBytes = [...ex.extract(new TextEncoder().encode("SYNC ſync"))].sort();
    expect(fromBytes).toEqual([...trigramsOf("sync sync")].sort());
  });

  test("extraction de-duplicates within a text and starts fresh for the next, across stamp-table resets", () => {
    const ex = new TrigramExtractor();
    expect(ex.extract(new TextEncoder().encode("aaaaaa")).length).toBe(1);
    expect(ex.extract(new TextEncoder().encode("aaa")).length).toBe(1);
    expect(ex.extract(new TextEncoder().encode("ab")).length).toBe(0);
    // the stamp table is cleared every 255 texts: results stay exact through several clearings
    for (let i = 0; i < 700; i++) {
      const text = `item ${i % 7} Item ${i} ſKé`;
      expect([...ex.extract(new TextEncoder().encode(text))].sort()).toEqual(trigramsOf(text).sort());
    }
  });

  test("posting lists round-trip through delta varints; set operations", () => {
    const ids = Uint32Array.from([1, 2, 130, 20000, 2 ** 31 + 5]);
    const buf = new Uint8Array(64);
    const len = encodePostings(ids, 0, ids.length, buf, 0);
    expect([...decodePostings(buf.subarray(0, len))]).toEqual([...ids]);
    expect([...intersectSorted(Uint32Array.from([1, 3, 5, 7]), Uint32Array.from([3, 4, 5]))]).toEqual([3, 5]);
    expect([...unionSorted(Uint32Array.from([1, 5]), Uint32Array.from([2, 5, 9]))]).toEqual([1, 2, 5, 9]);
  });
});

describe("trigram index maintenance", () => {
  test("a full index run builds postings holding exactly the files that contain each trigram", async () => {
    const { s } = await indexed({
      "a.go": "package a\nfunc Alpha() {}\n",
      "b/b.py": "def beta():\n    return 'Alpha'\n",
      "c.md": "# Notes\nnothing to see, ünïcödé\r\n",
    });
    const db = new Database(dbPathOf(s), { readonly: true });
    const index = new ContentIndex(db);
    const truth = bruteForce(db);
    expect(truth.size).toBeGreaterThan(30);
    for (const [t, paths] of truth) expect(postingsByPath(index, t)).toEqual(paths);
    expect(index.uncovered()).toEqual([]);
    // a trigram in no file has no postings
    expect(index.postings(trigramsOf("zzq")[0]!).length).toBe(0);
    db.close();
  });

  test("a first build writes its trigram index with the text tier, row for row what a rebuild from the stored contents writes", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) files[`d${i % 5}/f${i}.txt`] = `File ${i} ünïcödé ſ K\r\nword${i * 7919} ${"shared ".repeat(i % 4)}\n`;
    files["tiny.txt"] = "ab";
    // the files the text tier handed the writer with their trigrams: without that, the run's own rebuild
    // after the text tier would write the same rows
    let handed = 0;
    const takeTrigrams = TrigramBaseWriter.prototype.takeTrigrams;
    TrigramBaseWriter.prototype.takeTrigrams = function (this: TrigramBaseWriter, ...args) {
      handed++;
      takeTrigrams.apply(this, args);
    };
    let s: Session;
    try {
      ({ s } = await indexed(files));
    } finally {
      TrigramBaseWriter.prototype.takeTrigrams = takeTrigrams;
    }
    expect(handed).toBe(151);
    const w = new Database(dbPathOf(s));
    w.exec("PRAGMA foreign_keys = ON");
    const rows = () => ({
      postings: w.query("SELECT id, postings FROM trigram_postings ORDER BY id").values(),
      coverage: w.query("SELECT file_id, content_hash, segment FROM trigram_coverage ORDER BY file_id").values(),
    });
    const written = rows();
    expect(written.coverage.length).toBe(151);
    // the run's own update found nothing left to cover: a rebuild now starts from empty tables
    w.exec("DELETE FROM trigram_postings; DELETE FROM trigram_coverage");
    expect(updateTrigramIndex(w)).toMatchObject({ action: "rebuild", files: 151 });
    expect(rows()).toEqual(written);
    w.close();
  });

  test("incremental runs add segments; postings stay a superset and every live file is covered", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 80; i++) files[`f${i}.txt`] = `file number ${i}\nshared line\n`;
    const { p, s } = await indexed(files);
    p.write("f3.txt", "changed content with uniqueword\n");
    p.write("new.txt", "brand new file, uniqueword too\n");
    p.remove("f5.txt");
    await s.index();
    const db = new Database(dbPathOf(s), { readonly: true });
    const segments = db.query("SELECT segment, count(*) AS n FROM trigram_coverage GROUP BY segment ORDER BY segment").all();
    expect(segments).toEqual([
      { segment: 0, n: 78 },
      { segment: BASE_SEGMENTS, n: 2 },
    ]);
    const index = new ContentIndex(db);
    const truth = bruteForce(db);
    for (const [t, paths] of truth) {
      const got = postingsByPath(index, t);
      for (const path of paths) expect(got.has(path)).toBe(true);
    }
    expect(filesWithAll(index, "uniqueword")).toEqual(new Set(["f3.txt", "new.txt"]));
    expect(index.uncovered()).toEqual([]);
    db.close();
  });

  test("many small segments are merged into one, and a large change rebuilds the base", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`f${i}.txt`] = `file ${i}\n`;
    const { p, s } = await indexed(files);
    for (let run = 0; run < 9; run++) {
      p.write(`f${run}.txt`, `edit ${run} marker${run}\n`);
      await s.index();
    }
    const db = new Database(dbPathOf(s), { readonly: true });
    const segs = () => (db.query("SELECT DISTINCT segment FROM trigram_coverage ORDER BY segment").values() as number[][]).map((r) => r[0]);
    expect(segs()).toEqual([0, BASE_SEGMENTS]); // the ninth small segment triggered a merge into the first small one
    expect(filesWithAll(new ContentIndex(db), "marker8")).toEqual(new Set(["f8.txt"]));
    db.close();
    for (let i = 0; i < 120; i++) p.write(`f${i}.txt`, `rewritten ${i}\n`);
    await s.index();
    const db2 = new Database(dbPathOf(s), { readonly: true });
    expect((db2.query("SELECT DISTINCT segment FROM trigram_coverage").values() as number[][]).map((r) => r[0])).toEqual([0]);
    expect(new ContentIndex(db2).uncovered()).toEqual([]);
    db2.close();
  });

  test("a large rebuild writes several base segments of bounded size; postings are exact across them", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`d${i % 7}/f${i}.txt`] = `file ${i} of group ${i % 13}\nword${i * 7919} and more text ${i % 5}\n`;
    const { s } = await indexed(files);
    const w = new Database(dbPathOf(s));
    w.exec("PRAGMA foreign_keys = ON");
    w.exec("DELETE FROM trigram_coverage");
    const r = updateTrigramIndex(w, { groupPostings: 500 });
    expect(r.action).toBe("rebuild");
    expect(r.files).toBe(120);
    const segs = w.query("SELECT segment, count(*) AS n FROM trigram_coverage GROUP BY segment ORDER BY segment").all() as Array<{
      segment: number;
      n: number;
    }>;
    expect(segs.length).toBeGreaterThan(3);
    expect(segs.every((x) => x.segment < BASE_SEGMENTS)).toBe(true);
    expect(segs.reduce((n, x) => n + x.n, 0)).toBe(120);
    const index = new ContentIndex(w);
    for (const [t, paths] of bruteForce(w)) expect(postingsByPath(index, t)).toEqual(paths);
    w.close();
  });

  test("a rebuild in several large groups (counting sort, buffers reused between groups) has exact postings", async () => {
    // 60 files of 24,000 pseudo-random characters of 64 kinds (case folds to 38): about 10,000 distinct
    // trigrams each, so a group of at least 270,000 postings takes the counting-sort path (over 262,144)
    // and the next group reuses its arrays
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ";
    const files: Record<string, string> = {};
    for (let f = 0; f < 60; f++) files[`r${f}.txt`] = Array.from({ length: 24_000 }, () => alphabet[Math.floor(next() * alphabet.length)]).join("") + "\n";
    const { s } = await indexed(files);
    const w = new Database(dbPathOf(s));
    w.exec("PRAGMA foreign_keys = ON");
    w.exec("DELETE FROM trigram_coverage");
    const r = updateTrigramIndex(w, { groupPostings: 270_000 });
    expect(r).toMatchObject({ action: "rebuild", files: 60 });
    expect(r.postings).toBeGreaterThan(2 * 270_000);
    const segs = w.query("SELECT DISTINCT segment FROM trigram_coverage ORDER BY segment").values() as number[][];
    expect(segs.length).toBeGreaterThanOrEqual(2);
    const index = new ContentIndex(w);
    const truth = [...bruteForce(w)];
    // every 50th trigram, and the rarest and commonest ones, across all groups
    const sample = truth.filter((_, i) => i % 50 === 0);
    sample.push(...[...truth].sort((a, b) => a[1].size - b[1].size).slice(0, 20), ...[...truth].sort((a, b) => b[1].size - a[1].size).slice(0, 20));
    for (const [t, paths] of sample) expect(postingsByPath(index, t)).toEqual(paths);
    w.close();
  }, 60_000);

  test("files the postings do not cover are reported and still searched; the next update covers them", async () => {
    const { s } = await indexed({ "a.txt": "needle in a\n", "b.txt": "hay\n" });
    const path = dbPathOf(s);
    // simulate a crash between writing files and the index hook: coverage of b.txt is lost
    const w = new Database(path);
    w.exec("PRAGMA foreign_keys = ON");
    w.query("UPDATE contents SET z = ? WHERE file_id = (SELECT file_id FROM file_state WHERE file_path = 'b.txt')").run(compressText("needle in b"));
    w.exec("DELETE FROM trigram_coverage WHERE file_id = (SELECT file_id FROM file_state WHERE file_path = 'b.txt')");
    w.close();
    const engine = await s.exact();
    const r = await engine.searchText({
      query: "needle",
      isRegex: false,
      caseSensitive: true,
      contextLines: 0,
      paths: PathFilter.ALL,
      extensions: [],
      fresh: false,
      maxMatches: 10,
      maxChars: 1e6,
      deadline: Date.now() + 10_000,
    });
    expect(r.matches.map((m) => m.file_path)).toEqual(["a.txt", "b.txt"]);
    const w2 = new Database(path);
    w2.exec("PRAGMA foreign_keys = ON");
    expect(updateTrigramIndex(w2)).toMatchObject({ action: "segment", files: 1 });
    expect(new ContentIndex(w2).uncovered()).toEqual([]);
    w2.close();
  });

  test("an index written before the trigram tables existed is searched by scanning, and the next run adds them", async () => {
    const { p, s } = await indexed({ "a.txt": "old index needle\n" });
    const w = new Database(dbPathOf(s));
    w.exec("DROP TABLE trigram_postings; DROP TABLE trigram_coverage;");
    w.close();
    const search = async () =>
      (
        await (
          await s.exact()
        ).searchText({
          query: "NEEDLE",
          isRegex: false,
          caseSensitive: false,
          contextLines: 0,
          paths: PathFilter.ALL,
          extensions: [],
          fresh: false,
          maxMatches: 10,
          maxChars: 1e6,
          deadline: Date.now() + 10_000,
        })
      ).matches.map((m) => m.line_number);
    expect(await search()).toEqual([1]);
    p.write("b.txt", "x\n");
    await s.index();
    const db = new Database(dbPathOf(s), { readonly: true });
    expect(new ContentIndex(db).available()).toBe(true);
    expect(new ContentIndex(db).uncovered()).toEqual([]);
    db.close();
    expect(await search()).toEqual([1]);
  });
});
