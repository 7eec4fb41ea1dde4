import { describe, expect, test } from "bun:test";
import { commonInvariants, factsOf } from "./common.case.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";

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
