/**
 * Overloads share a qualified name: a reference made inside one of them belongs to that one (its lines
 * hold the reference), not to the first of the name.
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

test("Java: each overload encloses the references in its own lines", async () => {
  p = tmpProject({
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
  session = new Session(p.root);
  await session.index();
  const g = new GraphStore(await session.requireStore());
  const byId = new Map(g.allSymbols().map((s) => [s.id, s]));
  const from: string[] = [];
  g.forEachRef((r) => {
    if (r.kind === "call")
      from.push(`${r.name}@${r.line} in ${r.enclosingId === null ? "-" : `${byId.get(r.enclosingId)?.qname}:${byId.get(r.enclosingId)?.line}`}`);
  });
  expect(from.sort()).toEqual(["bark@5 in p.Dog.fetch:4", "fetch@3 in p.Dog.fetch:3"]);
}, 60_000);
