import { describe, expect, test } from "bun:test";
import { buildChunks, documentTags } from "../../src/indexer/chunker.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import { chunkTexts } from "../../src/store/chunk-text.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";

const parser = await FactsParser.create();
/** The file's chunks, each with its text as the store reads it back (prefix and spans over the content). */
async function chunksOf(path: string, text: string, isTest = false) {
  const r = await parser.parse(path, text, emptyProjectInfo());
  const chunks = buildChunks({ path, language: r.language, text, isTest, ...(r.facts ? { facts: r.facts } : {}) });
  const texts = chunkTexts(
    chunks.map((c) => ({ ...c, filePath: path })),
    () => text,
  );
  return chunks.map((c, i) => ({ ...c, text: [...texts.values()][i]! }));
}

describe("documentation chunks", () => {
  const md = [
    "---",
    "title: Guide",
    "tags: [Architecture, design]",
    "---",
    "Intro text before any heading. #auth",
    "",
    "# Install",
    "Run it.",
    "## Linux",
    "apt-get install x",
    "```sh",
    "# not a heading #nottag",
    "```",
    "## macOS",
    "brew install x",
    "Setext Title",
    "============",
    "body of setext",
  ].join("\n");

  test("split by headings at every level, titled by their heading path", async () => {
    const chunks = await chunksOf("docs/guide.md", md);
    expect(chunks.map((c) => [c.title, c.startLine, c.endLine])).toEqual([
      ["guide.md", 5, 6],
      ["guide.md > Install", 7, 8],
      ["guide.md > Install > Linux", 9, 13],
      ["guide.md > Install > macOS", 14, 15],
      ["guide.md > Setext Title", 16, 18],
    ]);
    expect(chunks.every((c) => c.chunkType === "documentation")).toBe(true);
  });

  test("front matter tags and inline hashtags become tags; code blocks are not scanned", async () => {
    expect(documentTags(md).tags.sort()).toEqual(["architecture", "auth", "design"]);
    const [first] = await chunksOf("docs/guide.md", md);
    expect(first!.tags).toEqual(["markdown", "documentation", "docs", "architecture", "design", "auth"]);
  });

  test("a long section is split with overlap, each part bounded", async () => {
    const long = ["# Big", ...Array.from({ length: 200 }, (_, i) => `line ${i}`)].join("\n");
    const chunks = await chunksOf("big.md", long);
    expect(chunks.length).toBe(3);
    expect(chunks[0]!.endLine - chunks[0]!.startLine + 1).toBe(80);
    expect(chunks[1]!.startLine).toBe(chunks[0]!.endLine - 9);
    expect(chunks.map((c) => c.id)).toEqual(["documentation:big.md#Big@1", "documentation:big.md#Big@2", "documentation:big.md#Big@3"]);
  });

  test("repeated headings get distinct ids, even beside a heading that looks like a numbered repeat", async () => {
    // the store inserts ids plainly: a duplicate would fail the whole batch of files
    const doc = ["# Notes", "a", "# Notes~2", "b", "# Notes", "c", "# Notes", "d"].join("\n");
    const ids = (await chunksOf("n.md", doc)).map((c) => c.id);
    expect(ids).toEqual(["documentation:n.md#Notes", "documentation:n.md#Notes~2", "documentation:n.md#Notes~3", "documentation:n.md#Notes~4"]);
  });
});

describe("code chunks", () => {
  const go = `package shop

// Cart holds items.
type Cart struct {
\titems []string
}

// Add puts an item in the cart.
func (c *Cart) Add(item string) {
\tc.items = append(c.items, item)
}

const (
\tMaxItems = 10
\tcurrency = "EUR"
)
`;

  test("a file overview, one definition per function and type, and a data chunk for constants", async () => {
    const chunks = await chunksOf("shop/cart.go", go);
    expect(chunks.map((c) => c.id)).toEqual([
      "symbols:shop/cart.go#file",
      "definitions:shop/cart.go#Cart.Add",
      "definitions:shop/cart.go#Cart",
      "data:shop/cart.go#values@1",
    ]);
    const add = chunks[1]!;
    expect([add.startLine, add.endLine, add.symbolPath]).toEqual([8, 11, "Cart.Add"]);
    expect(add.text).toContain("// Add puts an item in the cart.");
    expect(add.text).toContain("c.items = append(c.items, item)");
    expect(chunks[3]!.text).toContain("MaxItems = 10");
    expect(chunks[0]!.text).toContain("Cart (struct) (lines 4-6)");
    expect(add.tags).toEqual(["go", "code", "shop", "definitions"]);
  });

  test("ids stay the same when code elsewhere in the file changes", async () => {
    const before = await chunksOf("shop/cart.go", go);
    const after = await chunksOf("shop/cart.go", "// a new header comment\n\n" + go.replace("package shop\n", "package shop\n\nvar debug = false\n"));
    const ids = (cs: typeof before) => cs.filter((c) => c.chunkType === "definitions").map((c) => c.id);
    expect(ids(after)).toEqual(ids(before));
    const add = (cs: typeof before) => cs.find((c) => c.id.endsWith("#Cart.Add"))!;
    expect(add(after).textHash).not.toBe(add(before).textHash); // its header names the new lines
  });

  test("keyword words split identifiers and keep them whole", async () => {
    const chunks = await chunksOf("shop/cart.go", go);
    expect(chunks[1]!.words!.symbols).toBe("cart add");
    expect(chunks[1]!.words!.body.split(" ")).toContain("items");
    expect(chunks[3]!.words!.body.split(" ")).toEqual(expect.arrayContaining(["maxitems", "max", "items"]));
  });

  test("configuration files are data; lockfiles are not chunked; test files are tagged", async () => {
    expect((await chunksOf("config/app.yaml", "db:\n  host: localhost\n")).map((c) => c.chunkType)).toEqual(["data"]);
    expect(await chunksOf("package-lock.lock", "{}\n")).toEqual([]);
    const t = await chunksOf("shop/cart_test.go", "package shop\n\nfunc TestAdd() {}\n", true);
    expect(t.every((c) => c.tags.includes("test"))).toBe(true);
  });
});

describe("minified code", () => {
  test("a definition on an over-long line carries its own part of the line, bounded, not the whole line", async () => {
    // one line of 400 functions, as a bundler writes them: about 17 KB
    const line = Array.from({ length: 400 }, (_, i) => `function fn${i}(a){return a+${i}}`).join("");
    const chunks = await chunksOf("dist/app.min.js", line + "\n");
    const defs = chunks.filter((c) => c.chunkType === "definitions");
    expect(defs.length).toBe(400);
    for (const c of defs) expect(c.text.length).toBeLessThan(2100);
    const fn250 = defs.find((c) => c.title.startsWith("fn250 "))!;
    // the chunk's code starts at its function, not at the line's start
    expect(fn250.text.split("\n")[1]!.startsWith("function fn250(a){return a+250}")).toBe(true);
  });
});
