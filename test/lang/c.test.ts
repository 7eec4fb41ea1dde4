import { describe, expect, test } from "bun:test";
import { commonInvariants, factsOf } from "./common.case.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import { readFileSync } from "node:fs";
import { Language, Parser, Query } from "web-tree-sitter";
import { FactsParser, queryMatches } from "../../src/lang/parser.ts";
import { grammarFiles } from "../../src/lang/grammars.ts";
import type { CollectedMatches } from "../../src/lang/module.ts";
import type { Node } from "web-tree-sitter";
import { c } from "../../src/lang/c.ts";
import { tokenText, valueNameRuns } from "../../src/lang/c-family.ts";
import { languageFor } from "../../src/lang/registry.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts } from "../../src/lang/types.ts";

const project = emptyProjectInfo();
const FILES = ["c/include/ring.h", "c/src/ring.c", "c/tests/test_ring.c"];

/** One parser for the inline sources of this file (loading a grammar is the slow part). */
const inlineParser = FactsParser.create();

commonInvariants("c", FILES, project);

const calls = (f: FileFacts) =>
  f.references.filter((r) => r.kind === "call").map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);

describe("c facts (hand-counted truth)", () => {
  test("ring.h: typedef'd enum and struct, anonymous struct named by its typedef, constants, static inline", async () => {
    const f = await factsOf("c/include/ring.h", project);
    expect(f.lines).toEqual({ total: 51, code: 34, comment: 7, blank: 10 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine, t.docStartLine])).toEqual([
      ["overflow_policy", "enum", true, 3, 0, 15, 19, 14],
      ["overflow_policy_t", "type_alias", true, 0, 0, 15, 19, 14],
      ["record", "struct", true, 3, 0, 22, 26, 21],
      // items, head, tail, policy and the anonymous union `last`
      ["ring_t", "struct", true, 5, 0, 28, 36, undefined],
      ["ring_visitor", "type_alias", true, 0, 0, 38, 38, undefined],
    ]);
    // the three prototypes are declarations, not definitions: only ring_size is a function here
    expect(
      f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.paramCount, fn.returnCount, fn.complexity, fn.bodyLines, fn.docStartLine]),
    ).toEqual([["ring_size", false, false, 1, 1, 2, 3, 46]]);
    expect(f.functions[0]!.signature).toBe("static inline size_t ring_size(const ring_t *r)");
    // RING_H (no value) is an include guard, `extern int ring_debug` a declaration: neither is recorded
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported, v.container])).toEqual([
      ["RING_CAPACITY", "constant", true, undefined],
      ["RING_VERSION", "constant", true, undefined],
      ["overflow_policy.OVERFLOW_DROP", "enum_member", true, "overflow_policy"],
      ["overflow_policy.OVERFLOW_OVERWRITE", "enum_member", true, "overflow_policy"],
      ["overflow_policy.OVERFLOW_FAIL", "enum_member", true, "overflow_policy"],
    ]);
    expect(f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal, i.isRelative, i.line])).toEqual([
      ["stddef.h", true, false, false, 8],
      ["stdint.h", true, false, false, 9],
    ]);
    expect(calls(f)).toEqual([]);
    expect(f.references.filter((r) => r.kind === "read").map((r) => `${r.name}@${r.line}<${r.enclosing}`)).toEqual([
      "RING_CAPACITY@29<ring_t",
      "RING_CAPACITY@48<ring_size",
    ]);
  });

  test("ring.c: linkage decides exported, complexity counts branches, cases and && ||", async () => {
    const f = await factsOf("c/src/ring.c", project);
    expect(f.lines).toEqual({ total: 62, code: 51, comment: 6, blank: 5 });
    expect(f.types).toEqual([]);
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.paramCount, fn.returnCount, fn.complexity, fn.startLine, fn.endLine])).toEqual([
      ["next_index", false, 1, 1, 1, 13, 15],
      // if
      ["ring_new", true, 1, 1, 2, 17, 24],
      // if, ||, if, two cases (default is not a decision), if
      ["ring_push", true, 2, 1, 7, 30, 51],
      // for, if, &&
      ["ring_visit", true, 3, 1, 4, 53, 62],
    ]);
    expect(f.functions.map((fn) => fn.docStartLine)).toEqual([12, undefined, 26, undefined]);
    expect(f.variables.map((v) => [v.name, v.kind, v.exported])).toEqual([
      ["ring_debug", "variable", true],
      ["TRACE_FORMAT", "constant", false],
      ["pushes", "variable", false],
    ]);
    expect(f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal, i.isRelative])).toEqual([
      ["ring.h", false, false, true],
      ["stdio.h", true, false, false],
      ["stdlib.h", true, false, false],
      ["string.h", true, false, false],
      ["zlib.h", false, true, false],
    ]);
    expect(calls(f)).toEqual([
      "calloc@18<ring_new",
      "next_index@32<ring_push",
      "next_index@38<ring_push",
      "memcpy@44<ring_push",
      "crc32@45<ring_push",
      "fprintf@49<ring_push",
      "next_index@55<ring_visit",
      "fn@56<ring_visit",
    ]);
    // `ring_push()` in the comment on line 28 and `drop();` in the string on line 9 are not references
    expect(f.references.filter((r) => r.line === 28 || r.name === "drop")).toEqual([]);
    expect(f.references.filter((r) => r.kind === "read").map((r) => `${r.name}@${r.line}`)).toEqual([
      "pushes@47",
      "ring_debug@48",
      "TRACE_FORMAT@49",
      "ring_debug@56",
    ]);
    expect(f.references.find((r) => r.kind === "import" && r.name === "zlib.h")).toMatchObject({ line: 6, column: 11 });
  });

  test("test_ring.c: a test file by directory and prefix", async () => {
    const f = await factsOf("c/tests/test_ring.c", project);
    expect(f.lines).toEqual({ total: 21, code: 19, comment: 0, blank: 2 });
    expect(f.functions.map((fn) => [fn.name, fn.exported, fn.paramCount, fn.returnCount, fn.complexity])).toEqual([
      ["count_visits", false, 2, 1, 1],
      ["main", true, 0, 1, 1],
    ]);
    expect(f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal, i.isRelative])).toEqual([
      ["assert.h", true, false, false],
      ["stdlib.h", true, false, false],
      ["../include/ring.h", false, false, true],
    ]);
    expect(calls(f)).toEqual(["ring_new@13<main", "assert@16<main", "ring_push@16<main", "ring_visit@17<main", "assert@18<main", "free@19<main"]);
  });

  test("test files: test_*.c, *_test.c and test/ or tests/ folders", () => {
    expect(c.isTestFile("c/tests/test_ring.c")).toBe(true);
    expect(c.isTestFile("lib/ring_test.c")).toBe(true);
    expect(c.isTestFile("test/helpers.h")).toBe(true);
    expect(c.isTestFile("c/src/ring.c")).toBe(false);
    expect(c.isTestFile("src/contest.c")).toBe(false);
    expect(c.isTestFile("src/testing/util.c")).toBe(false);
  });

  test("includes resolve next to the file, then through include/ and src/ roots up to the root", () => {
    const files = new Set([...FILES, "c/src/util.h", "vendor/include/zlib.h"]);
    const pf: ProjectFiles = { project, has: (p) => files.has(p), inDir: () => [] };
    const imp = (module: string, std: boolean, ext: boolean, rel: boolean) => ({
      module,
      isStandardLib: std,
      isExternal: ext,
      isRelative: rel,
      symbols: [],
      line: 1,
      column: 1,
    });
    expect(c.resolveImport!(imp("ring.h", false, false, true), "c/src/ring.c", pf)).toEqual(["c/include/ring.h"]);
    expect(c.resolveImport!(imp("util.h", false, false, true), "c/src/ring.c", pf)).toEqual(["c/src/util.h"]);
    expect(c.resolveImport!(imp("../include/ring.h", false, false, true), "c/tests/test_ring.c", pf)).toEqual(["c/include/ring.h"]);
    expect(c.resolveImport!(imp("../../../x.h", false, false, true), "c/tests/test_ring.c", pf)).toEqual([]);
    // an angle-bracket include of a header the project carries resolves through the include roots too
    expect(c.resolveImport!(imp("zlib.h", false, true, false), "vendor/src/inflate.c", pf)).toEqual(["vendor/include/zlib.h"]);
    expect(c.resolveImport!(imp("zlib.h", false, true, false), "c/src/ring.c", pf)).toEqual([]);
    expect(c.resolveImport!(imp("stdio.h", true, false, false), "c/src/ring.c", pf)).toEqual([]);
  });

  test(".h files are C unless their content is C++", () => {
    expect(languageFor("a/ring.h", "#include <stdio.h>\nstruct s { int class_id; };\n/* virtual memory */\n").language).toBe("c");
    expect(languageFor("a/legacy.h", "namespace legacy {\n}\n").language).toBe("cpp");
    expect(languageFor("a/t.h", "template<> struct X<int> {};\n").language).toBe("cpp");
    expect(languageFor("a/v.h", "#include <vector>\n").language).toBe("cpp");
    expect(languageFor("a/p.h", "struct S {\n  public:\n  int a;\n};\n").language).toBe("cpp");
    expect(languageFor("a/r.h").language).toBe("c");
  });

  test("a function-like macro is a function: its definition found, its parameters counted, the calls to it resolved", async () => {
    const parser = await inlineParser;
    const src = [
      "#ifndef LIST_H", //                                                          1
      "#define LIST_H", //                                                          2: a guard, not recorded
      "#define MAX_ITEMS 16", //                                                    3: a constant
      "/* The struct holding a member. */", //                                     4
      "#define container_of(ptr, type, member) \\", //                             5
      "  ((type *)((char *)(ptr) - offsetof(type, member)))", //                   6
      "#define pr_fmt(fmt, ...) printk(fmt, __VA_ARGS__)", //                     7
      '#define barrier() __asm__ volatile("" ::: "memory")', //                 8
      "static inline int first(int *p) { return *container_of(p, int, x); }", //   9
      "#endif", //                                                                  10
    ].join("\n");
    const f = (await parser.parse("list.h", `${src}\n`, project)).facts!;
    expect(f.functions.map((fn) => [fn.name, fn.exported, fn.paramCount, fn.returnCount, fn.startLine, fn.endLine, fn.docStartLine, fn.signature])).toEqual([
      ["container_of", true, 3, 0, 5, 6, 4, "#define container_of(ptr, type, member)"],
      ["pr_fmt", true, 2, 0, 7, 7, undefined, "#define pr_fmt(fmt, ...)"],
      ["barrier", true, 0, 0, 8, 8, undefined, "#define barrier()"],
      ["first", false, 1, 1, 9, 9, undefined, "static inline int first(int *p)"], // static: internal linkage
    ]);
    expect(f.variables.map((v) => [v.name, v.kind])).toEqual([["MAX_ITEMS", "constant"]]);
    expect(f.references.filter((r) => r.kind === "call").map((r) => `${r.name}@${r.line}<${r.enclosing}`)).toEqual(["container_of@9<first"]);
    // in a .c file a macro is the file's own: not exported
    const local = (await parser.parse("x.c", "#define twice(x) ((x) * 2)\nint g(int a) { return twice(a); }\n", project)).facts!;
    expect(local.functions.map((fn) => [fn.name, fn.exported])).toEqual([
      ["twice", false],
      ["g", true],
    ]);
  });

  test("definitions after an unparsable stretch are still read (the walk enters ERROR nodes)", async () => {
    const parser = await inlineParser;
    // braces that only balance per preprocessor branch defeat the grammar for the rest of the file
    const src =
      "static void *\nf (int a)\n{\n#if A\n  if (a) {\n#else\n  if (!a) {\n#endif\n    a = 1;\n  }\n  return 0;\n}\nint g(void) { return a ? 1 : 2; }\n";
    const f = (await parser.parse("broken.c", src, project)).facts!;
    expect(f.syntaxErrors).toBeGreaterThan(0);
    expect(f.functions.map((fn) => [fn.name, fn.startLine, fn.complexity])).toEqual([["g", 13, 2]]);
  }, 60_000);

  test("reads of file-scope values with many values: only identifiers, not fields, types, comments, strings or longer names", async () => {
    const parser = await inlineParser;
    // 30 constants: the text is cut into identifier runs (below 24 names, each name is searched for)
    const defines = Array.from({ length: 30 }, (_, i) => `#define K${i} ${i}\n`).join("");
    const src =
      defines +
      "static int count;\n" +
      "struct s { int count; };\n" +
      "/* K1 and count in a comment */\n" +
      "int f(struct s *p) {\n" +
      '  const char *t = "K2 count";\n' +
      "  int K29x = K29 + p->count + count;\n" +
      "  return K3 + K1 * éK4 + K12;\n" +
      "}\n";
    const f = (await parser.parse("many.c", src, project)).facts!;
    expect(f.references.filter((r) => r.kind === "read").map((r) => `${r.name}@${r.line}:${r.column}`)).toEqual([
      "K29@36:14",
      "count@36:31",
      "K3@37:10",
      "K1@37:15",
      "K12@37:26",
    ]);
  }, 60_000);

  test("collect gives the query's matches: the same nodes by capture name, in the query's order", async () => {
    await FactsParser.create();
    const language = await Language.load(grammarFiles["tree-sitter-c.wasm"]!);
    const tsParser = new Parser();
    tsParser.setLanguage(language);
    const query = new Query(language, c.query);
    const collect = c.collect!;
    const byCapture = (m: CollectedMatches) => {
      const out: Record<string, string[]> = { comments: m.comments.map(([a, b]) => `${a}-${b}`) };
      for (const match of m.matches)
        for (const [name, node] of Object.entries(match)) (out[name] ??= []).push(`${node!.id}:${node!.type}@${node!.startIndex}-${node!.endIndex}`);
      // extraction reads the definitions' names as a set (a typedef's names come before its struct's in
      // document order, after it in the query's)
      out["type.def"]?.sort();
      return out;
    };
    const sources = [
      ...FILES.map((f) => readFileSync(`test/fixtures/polyglot/${f}`, "utf8")),
      // definitions the declaration walk never enters (a function body, a cast, sizeof, a parameter), an
      // anonymous struct, a struct in an attribute before a body, typedefs of several names, case and default,
      // calls through fields, pointers and calls, && and || in #if, stretches the grammar cannot parse (one
      // puts a body inside an enum that is not its body)
      `#if A && (B || C)
typedef struct { int a; } anon_t, *anon_p;
typedef int word, *wordp, words[4];
#endif
struct __attribute__((aligned(sizeof(struct inner { int x; })))) outer { struct nested { int y; } n; union { int u; } v; };
enum color { RED, GREEN = RED + 1 };
enum twice { A } { B };
int f(struct param { int z; } *p, int k) {
  struct local { int w; } l = { 0 };
  enum mode { ON } m = (enum mode)sizeof(struct in_sizeof { char c; });
  switch (k) { case 1: if (k && p) g(k); break; case RED: h()(k); default: p->fn(k) || (*fp)(k); }
  for (;;) while (k--) do { k = k ? a(k) : b(k); } while (0);
  return ((struct cast { int q; } *)0)->q;
}
MACRO(struct broken { int r; } x y z;
int after(void) { return after2(); }
`,
    ];
    for (const src of sources) {
      const tree = tsParser.parse(src)!;
      try {
        const expected = byCapture(queryMatches(query, tree.rootNode));
        expect(byCapture(collect(tree.rootNode, src))).toEqual(expected);
        // every capture name of the query occurs in the inline source
        if (src.includes("MACRO")) expect(Object.keys(expected).sort()).toEqual(["call.fn", "comments", "decision", "logic", "type", "type.def"]);
      } finally {
        tree.delete();
      }
    }
  }, 60_000);

  test("names and comment ends read from the text are what the tree gives: syntax errors, macros, non-ASCII, escapes, continuations", async () => {
    const parser = await inlineParser;
    const language = await Language.load(grammarFiles["tree-sitter-c.wasm"]!);
    const tsParser = new Parser();
    tsParser.setLanguage(language);
    const query = new Query(language, c.query);
    const sources = [
      // macros the grammar cannot know (the kernel's DEFINE_* lines give MISSING identifiers), unclosed calls
      "static DEFINE_PER_CPU(long, nr_dentry);\nstatic DEFINE_HASHTABLE(cache, 6); /* 6 bits */\nint x = foo(1 2;\nstruct s y\n",
      "static int q\n = ;\nT v = a b(c);\nvoid f(void) { g(1)(2); int z = h(x y); return q + v; }\n",
      // names beyond ASCII, `$`, universal character names, a backslash-newline inside a name
      "typedef int längd_t;\nstatic längd_t größe = 1;\nint a$b = 2;\nint caf\\u00e9 = 3;\nvoid k(void) { größe++; a$b = caf\\u00e9; fé(größe); s.fé(a$b); lon\\\ng_name(1); }\n",
      // a line comment carried on by a backslash, CRLF lines, a comment ending the file without a newline
      "int one = 1; // carried \\\n on = 2;\r\nint two = one; // crlf\r\n/* block\n */ int three = two; //",
      "#define N 4\n#define M (N + 1) // size\nenum { A = N, B } e = A;\nint arr[M] = { B }; // trailing backslash \\",
      // a block comment the file never closes
      "int u = 1;\nint w = u; /* never closed\n",
    ];
    for (const [i, src] of sources.entries()) {
      const parsed = await parser.parse(`t${i}.c`, src, project);
      const tree = tsParser.parse(src)!;
      try {
        // the tree's own reads: no MISSING starts given, so every name is asked of the tree
        const fromTree = c.extract(tree, { path: `t${i}.c`, source: src, project }, c.collect!(tree.rootNode, src).matches);
        const { syntaxErrors: _e, language: _l, lines: _n, ...facts } = parsed.facts!;
        expect(facts, src).toEqual(fromTree);
        expect(parsed.comments, src).toEqual(queryMatches(query, tree.rootNode).comments);
      } finally {
        tree.delete();
      }
    }
    // a MISSING node (no text) starting where a real name does: its start is known, so the tree is asked
    const src = "foo(bar);";
    const missing = { startIndex: 4, endIndex: 4 } as Node;
    expect(tokenText(src, missing, new Set([4]))).toBe("");
    expect(tokenText(src, missing, undefined)).toBe("");
    expect(tokenText(src, { startIndex: 4, endIndex: 7 } as Node, new Set([0]))).toBe("bar");
  }, 60_000);

  test("the value-name scan finds exactly the runs of /[\\p{XID_Continue}$]+/gu that name a value", () => {
    // generated texts mixing ASCII, letters and marks beyond ASCII, non-identifier symbols and surrogate pairs
    // (an identifier letter 𝑥 and an emoji), against the regular expression the scan replaced
    const alphabet = ["a", "b", "_", "$", "1", "K", " ", "\n", "-", ">", "(", "é", "ü", "\u0301", "·", "€", "𝑥", "😀", "\ud800", "\udc00"];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      let text = "";
      for (let i = 0, n = 20 + next(200); i < n; i++) text += alphabet[next(alphabet.length)];
      const runs = [...text.matchAll(/[\p{XID_Continue}$]+/gu)];
      const names = new Set<string>(runs.filter((_, i) => i % 3 === 0).map((m) => m[0]));
      for (let i = names.size; i < 30; i++) names.add(`absent${i}`);
      const expected = runs.filter((m) => names.has(m[0])).map((m): [number, number] => [m.index, m.index + m[0].length]);
      expect(valueNameRuns(text, names)).toEqual(expected);
    }
  });

  test("reads of file-scope values with few values, one of them used before a non-ASCII letter", async () => {
    const parser = await inlineParser;
    const src = "static int n;\nint f(void) { return n + nn + n_1 + sizeof(n); }\n";
    const f = (await parser.parse("few.c", src, project)).facts!;
    expect(f.references.filter((r) => r.kind === "read").map((r) => `${r.name}@${r.line}:${r.column}`)).toEqual(["n@2:22", "n@2:44"]);
  }, 60_000);

  test("a 3,000-operand && / || chain is read whole (no recursion limit, no parent walks)", async () => {
    const parser = await inlineParser;
    const src = "int f(int a, int b) {\n  return a" + " && a || b".repeat(1500) + ";\n}\n";
    const r = await parser.parse("deep.c", src, project);
    expect(r.facts!.functions[0]!.complexity).toBe(1 + 3000);
  }, 60_000);
});
