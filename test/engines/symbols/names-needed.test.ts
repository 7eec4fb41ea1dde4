import { describe, expect, test } from "bun:test";
import { buildScope, fileInfo, namesNeeded } from "../../../src/engines/symbols/resolve.ts";
import type { RefToResolve, SymbolRow } from "../../../src/store/graph-store.ts";

function symbol(file: string, language: string, name: string, container: string | null = null): SymbolRow {
  return {
    id: 1,
    file,
    name,
    qname: container ? `${container}.${name}` : name,
    kind: container ? "method" : "function",
    container,
    language,
    line: 1,
    column: 0,
    endLine: 2,
    exported: 1,
    signature: null,
  };
}

function ref(file: string, name: string, extra: Partial<RefToResolve> = {}): RefToResolve {
  return {
    id: 1,
    file,
    name,
    qualifier: null,
    qualifierType: null,
    kind: "call",
    line: 5,
    column: 0,
    enclosingId: null,
    targetId: null,
    resolution: null,
    ...extra,
  };
}

describe("namesNeeded", () => {
  test("leaves out what a file's own top-level definitions answer, where members are not in scope unqualified", () => {
    const c = fileInfo({ path: "a.c", language: "c", packageName: null });
    const scope = buildScope(c, [symbol("a.c", "c", "own")], [], new Map([["a.c", c]]));
    const names = namesNeeded(
      [ref("a.c", "own"), ref("a.c", "other"), ref("a.c", "viaField", { qualifier: "p" }), ref("a.c", "own", { kind: "type" })],
      [scope],
    );
    expect(names.has("other")).toBe(true);
    expect(names.has("viaField")).toBe(true);
    expect(names.has("p")).toBe(true);
    // a type reference is asked through the enclosing type first: its name stays
    expect(names.has("own")).toBe(true);
    expect(namesNeeded([ref("a.c", "own")], [scope]).has("own")).toBe(false);
  });

  test("keeps them where an implicit `this` asks the enclosing class first (Java)", () => {
    const j = fileInfo({ path: "A.java", language: "java", packageName: "p" });
    const scope = buildScope(j, [symbol("A.java", "java", "run")], [], new Map([["A.java", j]]));
    expect(namesNeeded([ref("A.java", "run")], [scope]).has("run")).toBe(true);
  });
});
