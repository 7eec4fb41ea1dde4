/**
 * Keyword search ranked by groups under a bound (src/store/keyword-topk.ts) against ranking every
 * matching chunk, on a real index of a project whose files repeat a few common words in every mix: the
 * same rows, the same scores to the bit, the same order, with and without filters, whichever groups the
 * bound needed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import { IndexStore } from "../../src/store/index-store.ts";
import { chunkCount, ftsRowCount, keywordTopK } from "../../src/store/chunk-search.ts";
import type { ChunkFilters } from "../../src/store/contract.ts";
import { BOUNDED_MAX_TERMS, partBound } from "../../src/store/keyword-topk.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

const WORDS = ["page", "cache", "disk", "write", "lock", "timer", "device", "queue", "buffer", "rare"];
const WEIGHTS = { symbols: 4, title: 2, path: 2, body: 1 };

/** A deterministic mix: common words everywhere, in names and bodies, `rare` in a few files. */
function project(): Record<string, string> {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed >>> 16) % n;
  };
  const files: Record<string, string> = {};
  for (let f = 0; f < 60; f++) {
    const dir = f % 3 === 0 ? "mm" : f % 3 === 1 ? "net" : "fs";
    const lines: string[] = [];
    for (let fn = 0; fn < 4; fn++) {
      const name = `${WORDS[next(9)]}_${WORDS[next(9)]}`;
      const body: string[] = [];
      for (let l = 0; l < 2 + next(6); l++) body.push(`    x = ${Array.from({ length: 1 + next(5) }, () => WORDS[next(f % 10 === 0 ? 10 : 9)]).join(" + ")}`);
      lines.push(`def ${name}_${fn}(x):`, ...body, "    return x", "");
    }
    files[`${dir}/${WORDS[next(9)]}_${f}.py`] = lines.join("\n");
  }
  return files;
}

describe("keyword search bounded by groups", () => {
  let p: TmpProject;
  let store: IndexStore;
  let session: Session;

  beforeAll(async () => {
    p = tmpProject(project());
    session = new Session(p.root);
    await session.index();
    store = IndexStore.open(session.reader()!.source, { readonly: true });
  });

  afterAll(() => {
    store.close();
    session.close();
    p.cleanup();
  });

  test("FTS5's row count read from its averages record is the number of chunks", () => {
    expect(ftsRowCount(store, "chunks_fts")).toBe(chunkCount(store));
    expect(chunkCount(store)).toBeGreaterThan(200);
  });

  test("no chunk's part for one word reaches the bound the groups rely on, whatever the weights", () => {
    const n = ftsRowCount(store, "chunks_fts")!;
    for (const weights of [WEIGHTS, { symbols: 1, title: 1, path: 1, body: 1 }, { symbols: 0, title: 0, path: 0, body: 9 }]) {
      for (const word of WORDS) {
        const [best] = keywordTopK(store, [word], weights, {}, 1, Number.POSITIVE_INFINITY).rows;
        const held = keywordTopK(store, [word], weights, {}, 10_000, Number.POSITIVE_INFINITY).rows.length;
        expect(best!.score).toBeGreaterThan(0);
        expect(best!.score).toBeLessThan(partBound(held, n));
      }
    }
  });

  const questions = [
    ["page", "cache", "disk"],
    ["lock", "timer"],
    ["device", "queue", "buffer", "write"],
    ["rare", "page"],
    ["rare", "lock", "cache", "timer", "device"],
    ["page", "absent"],
    ["write"],
  ];
  const filterSets: ChunkFilters[] = [{}, { pathPrefixes: ["net"] }, { languages: ["python"], chunkTypes: ["definitions"] }];

  test("the same rows, scores and order as ranking every matching chunk, filters applied", () => {
    const plans = new Set<string>();
    const groups = new Set<string>();
    for (const filters of filterSets) {
      for (const terms of questions) {
        for (const limit of [1, 3, 10, 40]) {
          const all = keywordTopK(store, terms, WEIGHTS, filters, limit, Number.POSITIVE_INFINITY);
          const bounded = keywordTopK(store, terms, WEIGHTS, filters, limit, 0);
          expect(all.plan).toBe("all");
          expect(bounded.rows).toEqual(all.rows);
          expect(bounded.rows.length).toBe(Math.min(limit, all.rows.length));
          if (filters.pathPrefixes) for (const r of bounded.rows) expect(r.filePath.startsWith("net/")).toBe(true);
          plans.add(bounded.plan);
          for (const e of bounded.expressions)
            groups.add(e.includes(" AND ") ? (e.includes(" NOT ") ? "later group" : "first group") : e.includes(" NOT ") ? "lone rows" : "all");
        }
      }
    }
    // every way was taken: groups alone, groups then lone rows, every row at once
    expect([...plans].sort()).toEqual(["all", "bounded"]);
    expect([...groups].sort()).toEqual(["all", "first group", "later group", "lone rows"]);
  });

  test("the answer leaves out rows that hold only common words once the rare ones fill it", () => {
    const bounded = keywordTopK(store, ["rare", "page", "cache"], WEIGHTS, {}, 3, 0);
    expect(bounded.plan).toBe("bounded");
    expect(bounded.expressions[0]).toStartWith('"rare" AND');
    expect(bounded.rows).toEqual(keywordTopK(store, ["rare", "page", "cache"], WEIGHTS, {}, 3, Number.POSITIVE_INFINITY).rows);
  });

  test("a question of many words is ranked at once, in its own order", () => {
    const terms = [...WORDS, "absent"].slice(0, BOUNDED_MAX_TERMS + 1);
    const r = keywordTopK(store, terms, WEIGHTS, {}, 10, 0);
    expect(r.plan).toBe("all");
    expect(r.expressions).toEqual([terms.map((t) => `"${t}"`).join(" OR ")]);
  });
});
