import { describe, expect, test } from "bun:test";
import { buildChunks, documentTags } from "../../src/indexer/chunker.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import { chunkTexts } from "../../src/store/chunk-text.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import { textKey } from "../../src/core/hash.ts";
import { keywordText } from "../../src/store/keyword-words.ts";

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
    // the title's words leave out the symbol path, which the symbols column holds (search weighs it for both)
    expect(chunks[1]!.title).toBe("Cart.Add (method)");
    expect(chunks[1]!.words!.title).toBe("method");
    expect(chunks[0]!.words!.title).toBe("shop cart go symbols");
    expect(chunks[1]!.words!.body.split(" ")).toContain("items");
    expect(chunks[3]!.words!.body.split(" ")).toEqual(expect.arrayContaining(["maxitems", "max", "items"]));
    // a definition's body words leave out its header (kind, symbol path, file path: the other columns hold
    // them); an overview's body is its whole text
    expect(chunks[1]!.text.startsWith("method Cart.Add (shop/cart.go:")).toBe(true);
    expect(chunks[1]!.words!.body.split(" ")).not.toContain("shop");
    expect(chunks[1]!.words!.body.split(" ")).not.toContain("method");
    expect(chunks[1]!.words!.path).toBe("shop cart go");
    expect(chunks[0]!.words!.body.split(" ")).toContain("shop");
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

  test("a definition's text ends where the next definition on its line starts, so the line is not indexed once per definition", async () => {
    const line = Array.from({ length: 400 }, (_, i) => `function fn${i}(a){return a+${i}}`).join("");
    const defs = (await chunksOf("dist/app.min.js", line + "\n")).filter((c) => c.chunkType === "definitions");
    expect(defs.find((c) => c.title.startsWith("fn250 "))!.text.split("\n")[1]).toBe("function fn250(a){return a+250}");
    // the line's last definition runs to the line's end
    expect(defs.find((c) => c.title.startsWith("fn399 "))!.text.split("\n")[1]).toBe("function fn399(a){return a+399}");
    // generated C++: members of a one-line struct stay in its text; the next struct on the line does not
    const cpp = ["namespace gen {", "  struct v0 { typedef int item0; typedef long item1; }; struct v1 { typedef char item0; };", "}", ""].join("\n");
    const chunks = await chunksOf("gen/vector.hpp", cpp);
    const code = (title: string) =>
      chunks
        .find((c) => c.title === title)!
        .text.split("\n")
        .slice(1)
        .join("\n");
    expect(code("gen.v0 (struct)")).toBe("struct v0 { typedef int item0; typedef long item1; }; ");
    expect(code("gen.v0.item0 (type_alias)")).toBe("typedef int item0; ");
    expect(code("gen.v0.item1 (type_alias)")).toBe("typedef long item1; }; ");
    expect(code("gen.v1 (struct)")).toBe("struct v1 { typedef char item0; };");
  });
});

describe("containers", () => {
  test("a namespace's or class's chunk shows its nested types' first lines; their bodies are in their own chunks", async () => {
    const cpp = [
      "namespace outer {",
      "struct Inner {",
      "  int unique_inner_field;",
      "  int size() const { return unique_inner_field; }",
      "};",
      "int free_function(int a) {",
      "  return a + 1;",
      "}",
      "}",
      "",
    ].join("\n");
    const chunks = await chunksOf("src/outer.hpp", cpp);
    const text = (title: string) => chunks.find((c) => c.title === title)!.text;
    expect(text("outer (namespace)")).toBe(
      ["namespace outer (src/outer.hpp:1-9)", "namespace outer {", "struct Inner {", "    …", "int free_function(int a) {", "    …", "}"].join("\n"),
    );
    expect(text("outer.Inner (struct)")).toContain("int unique_inner_field;");
    expect(chunks.filter((c) => c.text.includes("unique_inner_field;\n")).map((c) => c.title)).toEqual(["outer.Inner (struct)"]);
    // a member's doc comment is in the member's chunk, not repeated in its class's
    const java = [
      "package p;",
      "/** A queue. */",
      "public class Queue {",
      "  private int size;",
      "  /**",
      "   * Adds a distinctive_word element.",
      "   */",
      "  public void add(int x) {",
      "    size++;",
      "  }",
      "}",
      "",
    ].join("\n");
    const javaChunks = await chunksOf("src/p/Queue.java", java);
    const queue = javaChunks.find((c) => c.title === "Queue (class)")!.text;
    expect(queue).toContain("/** A queue. */");
    expect(queue).toContain("private int size;");
    expect(queue).toContain("public void add(int x) {");
    expect(queue).not.toContain("distinctive_word");
    expect(javaChunks.find((c) => c.title === "Queue.add (method)")!.text).toContain("distinctive_word");
    // a long container is windowed over the lines it shows: one chunk, not one per 80 lines of members
    const many = ["namespace big {", ...Array.from({ length: 60 }, (_, i) => `struct S${i} {\n  int a;\n  int b;\n};`), "}", ""].join("\n");
    const big = (await chunksOf("src/big.hpp", many)).filter((c) => c.title === "big (namespace)");
    expect(big.length).toBe(1);
    expect(big[0]!.startLine).toBe(1);
    expect(big[0]!.endLine).toBe(242);
  });
});

describe("texts hashed and words taken as the chunk is rendered", () => {
  // each chunk's text key and body words are those of its text as the store reads it back, for texts the
  // chunker takes its short cuts on: runs of whole lines, lines cut at a column, clipped over-long lines
  // (one cut inside a surrogate pair), elisions, non-ASCII, a file without a final newline, a text file
  test("every chunk's text key and body words are its text's", async () => {
    const long = `int table[] = { ${Array.from({ length: 300 }, (_, i) => `${i}, /* 😀 */`).join(" ")} };`;
    const files: Array<[string, string]> = [
      [
        "drivers/x/a.c",
        [
          "/* Überblick: the driver */",
          "struct dev { int id; char name[8]; };",
          "static int probe(struct dev *d) { return d->id; } static int remove_dev(struct dev *d) { return 0; }",
          long,
          "enum mode { MODE_A, MODE_B };",
          "#define MAX_DEVS 16",
          "int count_devs(void)",
          "{",
          ...Array.from({ length: 100 }, (_, i) => `\tcount += dev_${i}.id; // 日本 ${i}`),
          "\treturn count;",
          "}",
        ].join("\n"),
      ],
      [
        "src/p/Queue.java",
        "package p;\n/** A queue. */\npublic class Queue {\n  private int size;\n  /** Adds. */\n  public void add(int x) {\n    size++;\n  }\n}\n",
      ],
      ["notes/readme.md", "# Title\n\nSome text é.\n\n## Part\n\n    code\n"],
      ["notes/plain.txt", `${"word ".repeat(50)}\n`.repeat(200)],
    ];
    for (const [path, text] of files) {
      const chunks = await chunksOf(path, text);
      expect(chunks.length).toBeGreaterThan(0);
      for (const c of chunks) {
        expect(c.textHash).toBe(textKey(c.text));
        expect(c.words!.body).toBe(keywordText(c.chunkType === "symbols" ? c.text : c.text.slice(c.prefix.indexOf("\n") + 1)));
      }
    }
  }, 30_000); // loads three grammars
});
