import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import { expandedWeights, sameStem, type ExpansionSettings } from "../../scripts/eval/expansion/query-expansion.ts";
import { parseNeighbourTable, readNeighbourTable } from "../../scripts/eval/expansion/word-neighbours.ts";
import { keepWordnetSynonyms, wordnetSynsets } from "../../scripts/eval/expansion/wordnet-synonyms.ts";

const table = parseNeighbourTable(
  ["remove delete:80 evict:70 erase:55", "restart reboot:75 restarting:72", "cache caching:81 cached:78", "user users:85 account:66", ""].join("\n"),
);
const settings: ExpansionSettings = { weight: 0.5, minSimilarity: 0.6, perWord: 3, maxTerms: 24, kind: "all" };

describe("parseNeighbourTable", () => {
  test("reads each word's neighbours with their similarity, best first", () => {
    expect(table.get("remove")).toEqual([
      { word: "delete", similarity: 0.8 },
      { word: "evict", similarity: 0.7 },
      { word: "erase", similarity: 0.55 },
    ]);
    expect(table.size).toBe(4);
  });

  test("a pair without a similarity is an error naming the line", () => {
    expect(() => parseNeighbourTable("remove delete")).toThrow("bad pair 'delete' in the line of 'remove'");
  });
});

describe("expandedWeights", () => {
  test("prose words bring their neighbours at weight × similarity × the word's weight", () => {
    const w = expandedWeights(analyzeQuery("remove the user after a restart"), table, settings);
    expect(w.get("remove")).toBe(1);
    expect(w.get("delete")).toBeCloseTo(0.5 * 0.8);
    expect(w.get("evict")).toBeCloseTo(0.5 * 0.7);
    expect(w.get("reboot")).toBeCloseTo(0.5 * 0.75);
    expect(w.get("users")).toBeCloseTo(0.5 * 0.85);
    // under the similarity threshold
    expect(w.has("erase")).toBe(false);
  });

  test("words the query writes as code are not widened", () => {
    const w = expandedWeights(analyzeQuery("remove the entry from userCache on restart"), table, settings);
    expect(w.has("delete")).toBe(true);
    expect(w.has("reboot")).toBe(true);
    // user and cache are parts of the identifier userCache
    expect(w.has("users")).toBe(false);
    expect(w.has("caching")).toBe(false);
  });

  test("a symbol query, or one with a single prose word, is left as it is", () => {
    const symbol = analyzeQuery("removeUser");
    expect(expandedWeights(symbol, table, settings)).toBe(symbol.weights);
    const single = analyzeQuery("remove it");
    expect(expandedWeights(single, table, settings)).toBe(single.weights);
  });

  test("a neighbour the query already has keeps its own weight; at most perWord and maxTerms are added", () => {
    const w = expandedWeights(analyzeQuery("remove or delete the cache"), table, { ...settings, perWord: 1, maxTerms: 1 });
    expect(w.get("delete")).toBe(1);
    expect([...w.keys()].filter((k) => !["remove", "delete", "cache"].includes(k))).toEqual(["caching"]);
  });
});

describe("forms and other neighbours", () => {
  test("forms share their first four letters, or the whole of a short word", () => {
    expect(sameStem("remove", "removal")).toBe(true);
    expect(sameStem("fix", "fixes")).toBe(true);
    expect(sameStem("remove", "delete")).toBe(false);
    expect(sameStem("restart", "resume")).toBe(false);
  });

  test("kind picks forms or the other words only", () => {
    const t = parseNeighbourTable("remove removal:90 delete:80\nrestart restarting:80 reboot:75\n");
    const q = analyzeQuery("remove after restart");
    expect([...expandedWeights(q, t, { ...settings, kind: "forms" }).keys()]).toEqual(["remove", "restart", "removal", "restarting"]);
    expect([...expandedWeights(q, t, { ...settings, kind: "others" }).keys()]).toEqual(["remove", "restart", "delete", "reboot"]);
  });
});

describe("table files", () => {
  test("a zstd-compressed table reads back as written", () => {
    const dir = mkdtempSync(join(tmpdir(), "cortex-neighbours-"));
    try {
      const path = join(dir, "t.txt.zst");
      writeFileSync(path, Bun.zstdCompressSync(new TextEncoder().encode("remove delete:80\n")));
      expect(readNeighbourTable(path).get("remove")).toEqual([{ word: "delete", similarity: 0.8 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("WordNet keeps the neighbours that share a synset with their word", () => {
    const dir = mkdtempSync(join(tmpdir(), "cortex-wordnet-"));
    try {
      // two verb synsets in WordNet's data format: {remove, take} and {delete, erase}
      writeFileSync(join(dir, "data.verb"), "  licence header\n00000001 29 v 02 remove 0 take 0 000 | x\n00000002 29 v 02 delete 0 erase 0 000 | y\n");
      for (const pos of ["noun", "adj", "adv"]) writeFileSync(join(dir, `data.${pos}`), "");
      const t = parseNeighbourTable("remove take:70 delete:80\ndelete erase:60 remove:80\n");
      const kept = keepWordnetSynonyms(t, wordnetSynsets(dir));
      expect(kept.get("remove")).toEqual([{ word: "take", similarity: 0.7 }]);
      expect(kept.get("delete")).toEqual([{ word: "erase", similarity: 0.6 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("commentCodeTable (neighbours learned from the project's documented functions)", () => {
  const file = (name: string, doc: string, body: string) => `# ${doc}\ndef ${name}(entry):\n    ${body}\n    return entry\n`;
  test("a description word leads to the code words that follow it across functions, never to its own description", async () => {
    const { CommentCodeModel, commentCodeTable } = await import("../../scripts/eval/expansion/comment-code.ts");
    const corpus = new Map<string, { blob: string; text: string }>();
    const add = (path: string, text: string) => corpus.set(path, { blob: path, text });
    // "remove" is said above code that evicts, three times; "render" above code that paints
    add("a.py", file("drop_one", "Remove the stale entry from the pool.", "pool.evict(entry)"));
    add("b.py", file("drop_two", "Remove every expired session now.", "sessions.evict(entry)"));
    add("c.py", file("drop_three", "Remove a worker that stopped answering.", "workers.evict(entry)"));
    add("d.py", file("draw_one", "Render the header of the report.", "canvas.paint(entry)"));
    add("e.py", file("draw_two", "Render the footer of the report.", "canvas.paint(entry)"));
    add("f.py", file("draw_three", "Render one page of the report.", "canvas.paint(entry)"));
    const observations = await new CommentCodeModel().observations(corpus);
    expect(observations.length).toBe(6);
    // descriptions are not code: the description's own words never appear among a function's code words
    expect(observations.every((o) => !o.code.includes("remove") && !o.code.includes("render"))).toBe(true);
    const table = commentCodeTable(["remove", "render"], observations, { minPairs: 2, perWord: 3 });
    // the functions' names (drop, draw) follow their descriptions as closely as the calls do; words in
    // every function (def, return, entry) and words seen once (pool, sessions) are no neighbours
    expect(table.get("remove")!.map((n) => n.word)).toEqual(["drop", "evict"]);
    expect(table.get("render")!.map((n) => n.word)).toEqual(["canvas", "draw", "paint"]);
  });
});
