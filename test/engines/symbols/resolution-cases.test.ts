/**
 * Cases of reference resolution, each on a project written here and indexed for real:
 * - a member called on a value from outside the project is not the project's member of that name, however
 *   unique the name: `r.URL.Query().Get("q")` with `r *http.Request` is not `store.Store.Get`; nor is one
 *   on a type nothing imports and the project does not define (`Math.max`, `String.valueOf`);
 * - a method of an object literal nothing names is no bare name in its file's scope;
 * - overloads share a qualified name: a reference made inside one belongs to that one;
 * - get_symbol_references counts the same-named references it could not tie to a definition.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { tmpProject, type TmpProject } from "../../helpers/tmp-project.ts";
import { Session } from "../../../src/tools/session.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";

let p: TmpProject | undefined;
let session: Session | undefined;
afterEach(() => {
  session?.close();
  p?.cleanup();
  session = p = undefined;
});

/** The project indexed: its references and definitions by id. */
async function indexed(files: Record<string, string>) {
  p = tmpProject(files);
  session = new Session(p.root);
  await session.index();
  const g = new GraphStore(await session.requireStore());
  return { g, byId: new Map(g.allSymbols().map((s) => [s.id, s])) };
}

/** Each reference of `name` as `line how target`, target and how empty when unresolved. */
async function refsOf(files: Record<string, string>, name: string): Promise<string[]> {
  const { g, byId } = await indexed(files);
  const out: string[] = [];
  g.forEachRef((r) => {
    if (r.name !== name) return;
    out.push(`${r.file}:${r.line} ${r.resolution ?? "-"} ${r.targetId === null ? "-" : byId.get(r.targetId)?.qname}`);
  });
  return out.sort();
}

describe("a qualifier's root from outside the project", () => {
  test("Go: a parameter of an outside type, a local set from an outside call; the project's own values still guess", async () => {
    const refs = await refsOf(
      {
        "go.mod": "module example.com/chain\n\ngo 1.21\n",
        "store/store.go": "package store\n\ntype Store struct{ m map[string]string }\n\nfunc (s *Store) Get(k string) string { return s.m[k] }\n",
        "web/web.go": [
          "package web",
          "",
          'import (\n\t"net/http"\n\n\t"example.com/chain/store"\n)',
          "",
          "func Handle(w http.ResponseWriter, r *http.Request, st *store.Store) string {",
          '\tq := r.URL.Query().Get("q")', // 10: r is *http.Request
          "\treturn st.Get(q)", // 11: typed by the module: exact
          "}",
          "",
          "func Fetch(u string, all []*http.Request) string {",
          "\tresp, err := http.Get(u)", // 15: the package's function, outside
          "\tif err != nil {",
          '\t\treturn all[0].Header.Get("A")', // 17: all is []*http.Request
          "\t}",
          '\treturn resp.Header.Get("Y")', // 19: resp comes from http.Get
          "}",
          "",
          "func Local(st *store.Store, h holder) string {",
          "\ts2 := st",
          '\tv := s2.Get("z")', // 24: s2 is the project's store: the guess stays
          '\treturn v + h.inner.Get("w")', // 25: a chain rooted in the package's own type: the guess stays
          "}",
          "",
          "type holder struct{ inner *store.Store }",
          "",
        ].join("\n"),
      },
      "Get",
    );
    expect(refs).toEqual([
      "web/web.go:10 - -",
      "web/web.go:11 exact store.Store.Get",
      "web/web.go:15 - -",
      "web/web.go:17 - -",
      "web/web.go:19 - -",
      "web/web.go:24 name-only store.Store.Get",
      "web/web.go:25 name-only store.Store.Get",
    ]);
  }, 60_000);

  test("Python: a parameter annotated with an outside class, a local from an outside call", async () => {
    const refs = await refsOf(
      {
        "shop/__init__.py": "",
        "shop/cache.py": "class Cache:\n    def fetch_json(self):\n        return {}\n",
        "shop/views.py": [
          "import requests",
          "from django.http import HttpRequest",
          "",
          "from shop.cache import Cache",
          "",
          "",
          "def view(request: HttpRequest, cache: Cache):",
          "    a = request.session.fetch_json()", // 8: request is django's
          "    resp = requests.get('http://x')",
          "    b = resp.fetch_json()", // 10: resp comes from requests
          "    c2 = make()",
          "    return c2.fetch_json(), cache.fetch_json(), a, b", // 12: make() is ours: the guess stays; cache is typed
          "",
          "",
          "def make():",
          "    return Cache()",
          "",
        ].join("\n"),
      },
      "fetch_json",
    );
    expect(refs).toEqual([
      "shop/views.py:10 - -",
      "shop/views.py:12 exact shop.cache.Cache.fetch_json",
      "shop/views.py:12 name-only shop.cache.Cache.fetch_json",
      "shop/views.py:8 - -",
    ]);
  }, 60_000);

  test("a class or namespace the project does not define: the language's (Math, JSON, String, Regexp) or a library's (std::)", async () => {
    const ts = await refsOf(
      {
        "codec.ts": [
          "export class Codec {",
          "  static stringify(x: unknown): string { return String(x); }",
          "  max(a: number, b: number): number { return a > b ? a : b; }",
          "}",
          "export function use(o: unknown, c: Codec): string {",
          "  return JSON.stringify(o) + Codec.stringify(o) + Math.max(1, 2) + c.max(3, 4);", // 6
          "}",
          "",
        ].join("\n"),
      },
      "stringify",
    );
    expect(ts).toEqual(["codec.ts:6 - -", "codec.ts:6 exact Codec.stringify"]);
    session!.close();
    p!.cleanup();
    const java = await refsOf(
      {
        "src/p/Util.java": 'package p;\npublic class Util { public static String valueOf(Object o) { return "" + o; } }\n',
        "src/p/Use.java": "package p;\npublic class Use {\n  String f(Object o, String s) { return String.valueOf(o) + Util.valueOf(o) + s.valueOf(1); }\n}\n",
      },
      "valueOf",
    );
    expect(java).toEqual(["src/p/Use.java:3 - -", "src/p/Use.java:3 - -", "src/p/Use.java:3 exact p.Util.valueOf"]);
    session!.close();
    p!.cleanup();
    const ruby = await refsOf(
      {
        "lib/shop/utils.rb": "module Shop\n  module Utils\n    def self.escape(s)\n      s\n    end\n  end\nend\n",
        "lib/shop/view.rb": "module Shop\n  class View\n    def show(s)\n      Regexp.escape(s) + Utils.escape(s)\n    end\n  end\nend\n",
      },
      "escape",
    );
    expect(ruby.filter((r) => r.includes("view.rb"))[0]).toBe("lib/shop/view.rb:4 - -");
  }, 60_000);
});

test("TypeScript: an imported function called by its bare name, beside an anonymous object's member of that name", async () => {
  const { g, byId } = await indexed({
    "lib.ts": "export function foo(x: number): number { return x; }\n",
    "main.ts": [
      "import { foo } from './lib'",
      "function make(o: { foo: (x: number) => number }) { return o }",
      "const made = make({",
      "  foo: (x: number) => x * 2,",
      "})",
      "const api = { bar: (x: number) => x }",
      "export function baz(): number {",
      "  return foo(1) + made.foo(2) + api.bar(3)", // 8
      "}",
      "",
    ].join("\n"),
  });
  const calls: string[] = [];
  g.forEachRef((r) => {
    if (r.line === 8 && r.kind === "call")
      calls.push(`${r.name} ${r.resolution ?? "-"} ${r.targetId === null ? "-" : `${byId.get(r.targetId)?.file}:${byId.get(r.targetId)?.line}`}`);
  });
  // the bare call reaches the import; no call lands on the literal's member by its bare name
  expect(calls.filter((c) => c.startsWith("foo ")).sort()).toEqual(["foo - -", "foo import lib.ts:1"]);
}, 60_000);

test("get_symbol_references of Owner.member counts the same-named calls it could not tie to a definition, and is not complete", async () => {
  await indexed({
    "a.ts": "export class A { json(): string { return 'a'; } }\nexport class B { json(): string { return 'b'; } }\n",
    "use.ts": "import { A } from './a'\nexport function f(c: any, a: A): string {\n  return c.json() + a.json()\n}\n",
  });
  const { invokeTool } = await import("../../../src/tools/invoke.ts");
  const { findTool } = await import("../../../src/tools/index.ts");
  const r = (await invokeTool(
    findTool("get_symbol_references")!,
    { symbol: "A.json" },
    { session: session!, signal: new AbortController().signal, deadline: Date.now() + 20_000 },
  )) as {
    usageCount: number;
    isComplete: boolean;
    unattributed?: number;
    message?: string;
  };
  expect([r.usageCount, r.isComplete, r.unattributed]).toEqual([1, false, 1]);
  expect(r.message).toBe(
    '1 more reference named json could not be tied to a definition (a receiver of unknown type) and may be usages too: find_symbol_occurrences {"symbol_name":"json"} lists them',
  );
}, 60_000);

test("Java: each overload encloses the references in its own lines", async () => {
  const { g, byId } = await indexed({
    "src/p/Dog.java": [
      "package p;",
      "public class Dog {",
      '  public void fetch(int n) { fetch(n, "ball"); }',
      "  public void fetch(int n, String what) {",
      "    bark(what);", // 5
      "  }",
      "  void bark(String s) {}",
      "}",
      "",
    ].join("\n"),
  });
  const from: string[] = [];
  g.forEachRef((r) => {
    if (r.kind === "call")
      from.push(`${r.name}@${r.line} in ${r.enclosingId === null ? "-" : `${byId.get(r.enclosingId)?.qname}:${byId.get(r.enclosingId)?.line}`}`);
  });
  expect(from.sort()).toEqual(["bark@5 in p.Dog.fetch:4", "fetch@3 in p.Dog.fetch:3"]);
}, 60_000);

test("Rust: items named by a module path (self::, super::, crate::) and enum variants read as values", async () => {
  const files = {
    "Cargo.toml": '[package]\nname = "shapes"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod geo;\npub mod consts;\n",
    "src/consts.rs": "pub const LIMIT: u32 = 3;\nfn helper() -> u32 { 1 }\npub fn total() -> u32 { self::helper() + self::LIMIT + crate::consts::LIMIT }\n",
    "src/geo.rs": "pub mod inner;\npub enum Color { Red, Green }\npub fn origin() -> u32 { 0 }\n",
    "src/geo/inner.rs": [
      "use super::Color;",
      "pub fn pick(c: Color) -> u32 {",
      "    match c {",
      "        Color::Red => super::origin() + super::super::consts::LIMIT,",
      "        super::Color::Green => crate::geo::origin(),",
      "    }",
      "}",
      "",
    ].join("\n"),
  };
  const { g, byId } = await indexed(files);
  const out: string[] = [];
  g.forEachRef((r) => {
    if (!["helper", "LIMIT", "origin", "Red", "Green"].includes(r.name)) return;
    out.push(`${r.file}:${r.line} ${r.kind} ${r.name} ${r.resolution ?? "-"} ${r.targetId === null ? "-" : byId.get(r.targetId)?.qname}`);
  });
  expect(out.sort()).toEqual([
    "src/consts.rs:3 call helper exact consts.helper",
    "src/consts.rs:3 read LIMIT exact consts.LIMIT",
    "src/consts.rs:3 read LIMIT exact consts.LIMIT",
    "src/geo/inner.rs:4 call origin exact geo.origin",
    "src/geo/inner.rs:4 read LIMIT exact consts.LIMIT",
    "src/geo/inner.rs:4 read Red import geo.Color.Red",
    "src/geo/inner.rs:5 call origin exact geo.origin",
    "src/geo/inner.rs:5 read Green import geo.Color.Green",
  ]);
});

describe("a name a module offers by importing it", () => {
  test("Python: `click.echo_via_pager(…)` reaches the function its package's __init__.py imports from .termui; TypeScript: a namespace import of an index that re-exports", async () => {
    const py = await refsOf(
      {
        "src/click/__init__.py": "from .termui import echo_via_pager as echo_via_pager\nfrom .core import Command\n",
        "src/click/termui.py": "def echo_via_pager(text):\n    return text\n",
        "src/click/core.py": "class Command:\n    pass\n",
        "tests/test_termui.py": "import click\n\n\ndef test_pager():\n    click.echo_via_pager('x')\n    click.not_there('y')\n",
      },
      "echo_via_pager",
    );
    expect(py).toContain("tests/test_termui.py:5 import click.termui.echo_via_pager");
    const ts = await refsOf(
      {
        "src/util/index.ts": 'export { slugify } from "./slug";\n',
        "src/util/slug.ts": "export function slugify(s: string): string {\n  return s;\n}\n",
        "src/app.ts": 'import * as util from "./util/index";\n\nexport const page = util.slugify("A B");\n',
      },
      "slugify",
    );
    expect(ts).toContain("src/app.ts:3 import slugify");
  }, 60_000);
});
