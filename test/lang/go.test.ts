import { describe, expect, test } from "bun:test";
import { commonInvariants, factsOf } from "./common.case.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import { readFileSync } from "node:fs";
import { Language, Parser, Query } from "web-tree-sitter";
import { FactsParser, queryMatches } from "../../src/lang/parser.ts";
import { grammarFiles } from "../../src/lang/grammars.ts";
import type { CollectedMatches } from "../../src/lang/module.ts";
import { elementIdentifiers, go } from "../../src/lang/go.ts";

const project = { ...emptyProjectInfo(), goModules: [{ dir: "go", module: "example.com/shop" }] };

commonInvariants("go", ["go/store/store.go", "go/auth/handler.go", "go/auth/handler_test.go"], project);

describe("go facts (hand-counted truth)", () => {
  test("store.go: lines, types, functions, variables, imports", async () => {
    const f = await factsOf("go/store/store.go", project);
    expect(f.packageName).toBe("store");
    expect(f.lines).toEqual({ total: 30, code: 20, comment: 5, blank: 5 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine])).toEqual([
      ["store.DB", "struct", true, 2, 1, 16, 19],
    ]);
    expect(f.types[0]!.docStartLine).toBe(14);
    const get = f.functions[0]!;
    expect([get.qualifiedName, get.isMethod, get.receiverType, get.paramCount, get.returnCount, get.bodyLines, get.complexity, get.exported]).toEqual([
      "store.DB.Get",
      true,
      "*DB",
      1,
      2,
      9,
      3,
      true,
    ]);
    expect(get.signature).toBe("func (d *DB) Get(name string) (string, error)");
    expect(f.variables.map((v) => [v.name, v.kind, v.exported])).toEqual([
      ["ErrNotFound", "variable", true],
      ["maxUsers", "constant", false],
    ]);
    expect(f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal, i.isRelative])).toEqual([
      ["errors", true, false, false],
      ["sync", true, false, false],
    ]);
  });

  test("handler.go: methods, complexity, import classes, references", async () => {
    const f = await factsOf("go/auth/handler.go", project);
    expect(f.lines).toEqual({ total: 46, code: 35, comment: 4, blank: 7 });
    expect(f.types.map((t) => [t.name, t.kind, t.fieldCount, t.methodCount])).toEqual([
      ["Authenticator", "interface", 0, 1],
      ["Handler", "struct", 3, 2],
    ]);
    // the interface's method is a method without a body (line 13), as abstract methods are elsewhere
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.paramCount, fn.returnCount, fn.complexity])).toEqual([
      ["auth.Authenticator.Check", true, true, 2, 1, 1],
      ["auth.Handler.ServeHTTP", true, true, 2, 0, 6],
      ["auth.Handler.greet", false, true, 1, 1, 1],
      ["auth.Login", true, false, 2, 1, 1],
    ]);
    expect(f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal])).toEqual([
      ["fmt", true, false],
      ["net/http", true, false],
      ["example.com/shop/store", false, false],
      ["github.com/google/uuid", false, true],
    ]);
    const calls = f.references.filter((r) => r.kind === "call").map((r) => `${r.qualifier ?? ""}.${r.name}@${r.line}<${r.enclosing}`);
    expect(calls).toContain(".Login@29<auth.Handler.ServeHTTP");
    expect(calls).toContain("h.Get@44<auth.Login");
    // receivers and parameters declared with a named type give the qualifier's type
    expect(f.references.find((r) => r.name === "greet")?.qualifierType).toBe("Handler");
    expect(f.references.find((r) => r.name === "Get")?.qualifierType).toBe("Handler");
    expect(f.references.find((r) => r.name === "FormValue")?.qualifierType).toBe("http.Request");
    expect(calls).toContain("uuid.NewString@39<auth.Handler.greet");
    // "Login()" inside the comment on line 26 is not a reference
    expect(f.references.filter((r) => r.line === 26 && r.name === "Login")).toEqual([]);
    const inherit = f.references.filter((r) => r.kind === "inherit").map((r) => `${r.qualifier}.${r.name}`);
    expect(inherit).toEqual(["store.DB"]);
    expect(f.references.find((r) => r.kind === "read" && r.name === "StatusMethodNotAllowed")?.qualifier).toBe("http");
  });

  test("test files are classified by the _test.go suffix", async () => {
    const { go } = await import("../../src/lang/go.ts");
    expect(go.isTestFile("auth/handler_test.go")).toBe(true);
    expect(go.isTestFile("auth/handler.go")).toBe(false);
    const f = await factsOf("go/auth/handler_test.go", project);
    expect(f.lines).toEqual({ total: 9, code: 7, comment: 0, blank: 2 });
    expect(f.functions[0]!.complexity).toBe(2);
  });
});

describe("go matches without the query", () => {
  test("collect gives the query's matches: the same nodes by capture name, in the query's order", async () => {
    await FactsParser.create();
    const language = await Language.load(grammarFiles["tree-sitter-go.wasm"]!);
    const tsParser = new Parser();
    tsParser.setLanguage(language);
    const query = new Query(language, go.query);
    const show = (node: { id: number; type: string; startIndex: number; endIndex: number }) => `${node.id}:${node.type}@${node.startIndex}-${node.endIndex}`;
    const byCapture = (m: CollectedMatches) => {
      const out: Record<string, string[]> = { comments: m.comments.map(([a, b]) => `${a}-${b}`) };
      for (const match of m.matches) {
        // collect hands over a literal element where the query captures its identifier children (`value`)
        const identifiers = match.element ? elementIdentifiers(match.element) : match.value ? [match.value] : [];
        for (const [name, node] of Object.entries(match)) if (name !== "element" && name !== "value") (out[name] ??= []).push(show(node!));
        for (const node of identifiers) (out.value ??= []).push(show(node));
        // extraction reads expression lists and literal elements' identifiers as one list, in match order
        if (match.values) (out["values+value"] ??= []).push(show(match.values));
        for (const node of identifiers) (out["values+value"] ??= []).push(show(node));
      }
      return out;
    };
    const sources = [
      ...["go/store/store.go", "go/auth/handler.go", "go/auth/handler_test.go"].map((f) => readFileSync(`test/fixtures/polyglot/${f}`, "utf8")),
      // every pattern: decisions of each kind (&& and || too), calls through selectors and calls, qualified
      // and bare types, composite literals whose elements are identifiers (keyed, nested, in a list of
      // values), short and long variable declarations, const blocks, and stretches the grammar cannot parse
      `package p

// Doc says what T is.
type T struct{ a, b int; c pkg.Type }

const (
	A = iota
	B
)

var x, y = f(A), T{a, B}

func (t *T) M(ch chan int, v interface{}) (n int, err error) {
	if t.a > 0 && (t.b < 0 || ok) {
		for i := range ch { n += i }
	}
	switch w := v.(type) {
	case int:
		n = w
	}
	select {
	case z := <-ch:
		n = z
	default:
	}
	m := map[string]T{"k": {a: A, b: B}}
	s := []int{A, B, n}
	g()(h.i.j(k), [2]T{x, y})
	return len(m) + len(s), nil
}

func broken( { x := [T{y}; if a {
`,
    ];
    for (const src of sources) {
      const tree = tsParser.parse(src)!;
      try {
        const expected = byCapture(queryMatches(query, tree.rootNode));
        expect(byCapture(go.collect!(tree.rootNode, src))).toEqual(expected);
        // every capture name of the query occurs in the inline source
        if (src.includes("broken"))
          expect(Object.keys(expected).sort()).toEqual([
            "call",
            "comments",
            "const",
            "decision",
            "local",
            "local.var",
            "qualified",
            "selector",
            "type.bare",
            "value",
            "values",
            "values+value",
          ]);
      } finally {
        tree.delete();
      }
    }
  }, 60_000);
});

describe("go value reads", () => {
  // package-level values read in expression lists, call arguments and literal elements, beside their
  // names in strings, a comment leading an element, a number, a field, a non-ASCII name, and (second
  // source) a stretch with syntax errors, where the text checks leave every read to the tree. The
  // expected lists are what extraction gave when it asked the tree for every list's items (641e916).
  const source = `package p

var Limit = 10
var names = []string{"Limit", Other, 0x1F}

const Other = 2

func use() {
	a, b := Limit, 3
	f(Limit, "Limit", 0x1F, 1e5, Other.x)
	g(h(Other))
	m := map[string]int{"k": Limit, "Other": 1}
	s := []int{Other, 1, -Limit}
	_ = []int{ /* c */ Limit}
	é := Limit
	x := T{Limit: 1, Other}
}
`;
  const reads = async (text: string) => {
    const parser = await FactsParser.create();
    const parsed = await parser.parse("p.go", text, emptyProjectInfo());
    return parsed.facts!.references.filter((r) => r.kind === "read").map((r) => `${r.name}@${r.line}:${r.column}`);
  };
  const clean = [
    "Limit@10:4",
    "Other@11:6",
    "Other@4:31",
    "Limit@9:10",
    "Limit@12:27",
    "Other@13:13",
    "Limit@14:21",
    "Limit@15:7",
    "Limit@16:9",
    "Other@16:19",
  ];

  test("in a tree without errors, the text's checks give the tree's reads", async () => {
    expect(await reads(source)).toEqual(clean);
  });

  test("with syntax errors, the reads come from the tree", async () => {
    const broken = `${source}func broken( { y := [T{Limit}; f(Other 1abc, Limit)\n`;
    const expected = [...clean.slice(0, 2), "Other@18:34", "Limit@18:46", ...clean.slice(2), "Limit@18:24"];
    expect(await reads(broken)).toEqual(expected);
    // a name run into a number: the tree finds the identifier inside the run, the text would not
    expect(await reads("package p\n\nvar Limit = 1\n\nfunc u() {\n\tf(1Limit)\n\t_ = []int{1Limit}\n\ta, b := 2, 1Limit\n}\n")).toEqual([
      "Limit@6:5",
      "Limit@7:13",
      "Limit@8:14",
    ]);
  });
});
