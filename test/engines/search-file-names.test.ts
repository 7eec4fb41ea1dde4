/**
 * File ranking for a short question weighs the file's own name: "cache eviction policy" asks for
 * cache/eviction.go although a neighbour's comments repeat the words more. A pasted issue's many words
 * cover many files' names by chance, so the name counts for less as the question grows.
 */
import { expect, test } from "bun:test";
import { FILE_RANKING, fileName } from "../../src/engines/search/index.ts";
import { indexedForSearch, withKnobs, withUnrelatedPackages } from "../helpers/search-project.ts";

const files: Record<string, string> = {
  "cache/eviction.go": `package cache

func (c *Cache) trim() {
	for len(c.items) > c.max {
		c.removeOldest()
	}
}
`,
  "cache/store.go": `package cache

// Cache holds values; its eviction policy decides what goes when it is full.
type Cache struct {
	items map[string]int
	max   int
}

// Put stores a value; an eviction may follow.
func (c *Cache) Put(k string, v int) { c.items[k] = v; c.trim() }
`,
  "cache/lru.go": `package cache

func (c *Cache) removeOldest() {}
`,
};

withUnrelatedPackages(files);

const project = indexedForSearch(files);

const ranked = (query: string, nameShare: number): Promise<Array<{ filePath: string; score: number }>> =>
  withKnobs(FILE_RANKING, { nameShare }, () => project.engine.searchFiles(query, 3, { mode: "keyword" }));

const topFile = async (query: string, nameShare: number) => (await ranked(query, nameShare))[0]!.filePath;
const scoreOf = async (query: string, file: string, nameShare: number) => (await ranked(query, nameShare)).find((f) => f.filePath === file)!.score;

test("a short question's words naming a file lift that file above one that only repeats them", async () => {
  expect(await topFile("cache eviction policy", 0)).toBe("cache/store.go");
  expect(await topFile("cache eviction policy", FILE_RANKING.nameShare)).toBe("cache/eviction.go");
});

test("the name adds its share of the question's words, and in a long question little", async () => {
  // eviction.go's one name word is the question's: the whole share, added to the lists' sum
  const gain = async (query: string) => (await scoreOf(query, "cache/eviction.go", FILE_RANKING.nameShare)) - (await scoreOf(query, "cache/eviction.go", 0));
  expect(await gain("cache eviction policy")).toBeCloseTo(FILE_RANKING.nameShare, 5);
  const filler = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(" ");
  const long = await gain(`cache eviction policy ${filler}`);
  expect(long).toBeGreaterThan(0);
  expect(long).toBeLessThan(0.05 * FILE_RANKING.nameShare);
});

test("a file's name: its stem, or its folder's for a folder's entry point", () => {
  expect(fileName("completions/bash_completions.go")).toBe("bash_completions");
  expect(fileName("src/helper/route/index.ts")).toBe("route");
  expect(fileName("src/parser/mod.rs")).toBe("parser");
  expect(fileName("pkg/__init__.py")).toBe("pkg");
  expect(fileName("Makefile")).toBe("Makefile");
  expect(fileName("a/b.test.ts")).toBe("b");
});
