/**
 * What a bare name in a file's scope is: a method of an object literal nothing names is not one of them,
 * so `foo(1)` reaches the imported `foo`, not `make({ foo: … })`'s member.
 */
import { afterEach, expect, test } from "bun:test";
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

test("TypeScript: an imported function called by its bare name, beside an anonymous object's member of that name", async () => {
  p = tmpProject({
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
  session = new Session(p.root);
  await session.index();
  const g = new GraphStore(await session.requireStore());
  const byId = new Map(g.allSymbols().map((s) => [s.id, s]));
  const calls: string[] = [];
  g.forEachRef((r) => {
    if (r.line === 8 && r.kind === "call")
      calls.push(`${r.name} ${r.resolution ?? "-"} ${r.targetId === null ? "-" : `${byId.get(r.targetId)?.file}:${byId.get(r.targetId)?.line}`}`);
  });
  // the bare call reaches the import; no call lands on the literal's member by its bare name
  expect(calls.filter((c) => c.startsWith("foo ")).sort()).toEqual(["foo - -", "foo import lib.ts:1"]);
}, 60_000);

test("get_symbol_references of Owner.member counts the same-named calls it could not tie to a definition, and is not complete", async () => {
  p = tmpProject({
    "a.ts": "export class A { json(): string { return 'a'; } }\nexport class B { json(): string { return 'b'; } }\n",
    "use.ts": "import { A } from './a'\nexport function f(c: any, a: A): string {\n  return c.json() + a.json()\n}\n",
  });
  session = new Session(p.root);
  await session.index();
  const { invokeTool } = await import("../../../src/tools/invoke.ts");
  const { findTool } = await import("../../../src/tools/index.ts");
  const r = (await invokeTool(
    findTool("get_symbol_references")!,
    { symbol: "A.json" },
    { session, signal: new AbortController().signal, deadline: Date.now() + 20_000 },
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
