import { describe, expect, test } from "bun:test";
import { commonInvariants, factsOf } from "./common.case.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import { cpp } from "../../src/lang/cpp.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts } from "../../src/lang/types.ts";

const project = emptyProjectInfo();
const FILES = ["cpp/include/shapes/shape.hpp", "cpp/include/legacy.h", "cpp/src/circle.cpp", "cpp/test/circle_test.cc"];

/** One parser for the inline sources of this file (loading a grammar is the slow part). */
const inlineParser = FactsParser.create();

commonInvariants("cpp", FILES, project);

const calls = (f: FileFacts) =>
  f.references.filter((r) => r.kind === "call").map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);
const fns = (f: FileFacts) =>
  f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.receiverType, fn.paramCount, fn.returnCount, fn.complexity]);

describe("cpp facts (hand-counted truth)", () => {
  test("shape.hpp: namespace, classes, pure interface, template, nested types, enum class, aliases", async () => {
    const f = await factsOf("cpp/include/shapes/shape.hpp", project);
    expect(f.lines).toEqual({ total: 58, code: 42, comment: 3, blank: 13 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine, t.container])).toEqual([
      ["geo", "namespace", true, 0, 0, 8, 58, undefined],
      ["geo.Shape", "class", true, 0, 3, 11, 16, undefined],
      ["geo.Point", "struct", true, 2, 0, 18, 20, undefined],
      ["geo.Color", "enum", true, 3, 0, 22, 22, undefined],
      ["geo.Square", "class", true, 1, 3, 25, 33, undefined],
      // the template header is part of the definition
      ["geo.Registry", "class", true, 2, 3, 35, 54, undefined],
      ["geo.Registry.Items", "type_alias", true, 0, 0, 38, 38, "Registry"],
      // private
      ["geo.Registry.Stats", "struct", false, 1, 0, 51, 53, "Registry"],
      ["geo.ShapePtr", "type_alias", true, 0, 0, 56, 56, undefined],
    ]);
    expect(f.types.map((t) => t.docStartLine)).toEqual([undefined, 10, undefined, undefined, 24, undefined, undefined, undefined, undefined]);
    expect(fns(f)).toEqual([
      ["geo.Shape.~Shape", true, true, "Shape", 0, 0, 1],
      ["geo.Shape.area", true, true, "Shape", 0, 1, 1],
      ["geo.Shape.name", true, true, "Shape", 0, 1, 1],
      ["geo.Square.Square", true, true, "Square", 1, 0, 1],
      ["geo.Square.area", true, true, "Square", 0, 1, 1],
      ["geo.Square.name", true, true, "Square", 0, 1, 1],
      // if, &&
      ["geo.Registry.add", true, true, "Registry", 1, 0, 3],
      ["geo.Registry.size", true, true, "Registry", 0, 1, 1],
    ]);
    // `= default` and `= 0` have no body
    expect(f.functions.map((fn) => fn.bodyLines)).toEqual([0, 0, 0, 1, 1, 1, 5, 1]);
    expect(f.functions[1]!.signature).toBe("virtual double area() const");
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported, v.container])).toEqual([
      ["geo.Color.Red", "enum_member", true, "Color"],
      ["geo.Color.Green", "enum_member", true, "Color"],
      ["geo.Color.Blue", "enum_member", true, "Color"],
    ]);
    expect(f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal, i.isRelative])).toEqual([
      ["memory", true, false, false],
      ["string", true, false, false],
      ["vector", true, false, false],
    ]);
    // Shape has only pure virtual methods (its destructor aside) and no data: Square implements it
    expect(f.references.filter((r) => r.kind === "inherit" || r.kind === "implement").map((r) => `${r.kind} ${r.name}@${r.line}<${r.enclosing}`)).toEqual([
      "implement Shape@25<geo.Square",
    ]);
    expect(calls(f)).toEqual([
      "contains@41<geo.Registry.add",
      "item.get@41<geo.Registry.add",
      "items_.push_back@42<geo.Registry.add",
      "std.move@42<geo.Registry.add",
      "items_.size@47<geo.Registry.size",
    ]);
    // template parameters are not type references; std types are, with their namespace
    expect(f.references.some((r) => r.kind === "type" && r.name === "T")).toBe(false);
    expect(f.references.find((r) => r.kind === "type" && r.name === "unique_ptr")?.qualifier).toBe("std");
  });

  test("legacy.h is sniffed as C++ and read as such", async () => {
    const f = await factsOf("cpp/include/legacy.h", project);
    expect(f.language).toBe("cpp");
    expect(f.lines).toEqual({ total: 19, code: 12, comment: 1, blank: 6 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount])).toEqual([
      ["legacy", "namespace", true, 0],
      ["legacy.rect_t", "struct", true, 2],
    ]);
    expect(fns(f)).toEqual([["legacy.rect_perimeter", true, false, undefined, 1, 1, 1]]);
    expect(f.variables).toEqual([]);
    expect(f.imports).toEqual([]);
  });

  test("circle.cpp: out-of-line methods, anonymous namespace, static, lambdas, try/catch, switch", async () => {
    const f = await factsOf("cpp/src/circle.cpp", project);
    expect(f.lines).toEqual({ total: 76, code: 59, comment: 5, blank: 12 });
    // a class defined in a source file is visible nowhere else
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine])).toEqual([
      ["geo", "namespace", true, 0, 0, 7, 34],
      ["geo.Circle", "class", false, 1, 4, 9, 18],
    ]);
    expect(fns(f)).toEqual([
      ["geo.Circle.name", false, true, "Circle", 0, 1, 1],
      // anonymous namespace: internal linkage
      ["geo.is_valid", false, false, undefined, 1, 1, 2],
      ["geo.Circle.Circle", false, true, "Circle", 1, 0, 2],
      ["geo.Circle.area", false, true, "Circle", 0, 1, 1],
      ["geo.Circle.scale", false, true, "geo::Circle", 1, 0, 2],
      // static; range-for, ternary
      ["count_large", false, false, undefined, 2, 1, 3],
      // lambda's if and ||, range-for, catch, two cases (not default)
      ["describe", true, false, undefined, 1, 1, 7],
      ["make_circle", true, false, undefined, 1, 1, 1],
    ]);
    expect(f.functions.map((fn) => [fn.startLine, fn.endLine, fn.docStartLine])).toEqual([
      [13, 13, undefined],
      [23, 23, undefined],
      [26, 30, undefined],
      [32, 32, undefined],
      [37, 39, 36],
      [41, 47, undefined],
      [53, 74, 49],
      [76, 76, undefined],
    ]);
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported])).toEqual([["geo.kTau", "constant", false]]);
    expect(f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal, i.isRelative])).toEqual([
      ["shapes/shape.hpp", false, false, true],
      ["legacy.h", false, false, true],
      ["cmath", true, false, false],
      ["stdexcept", true, false, false],
      ["fmt/format.h", false, true, false],
    ]);
    // Shape is defined in another file: plain inheritance
    expect(f.references.filter((r) => r.kind === "inherit" || r.kind === "implement").map((r) => `${r.kind} ${r.name}@${r.line}<${r.enclosing}`)).toEqual([
      "inherit Shape@9<geo.Circle",
    ]);
    expect(calls(f)).toEqual([
      "std.isfinite@23<geo.is_valid",
      "is_valid@27<geo.Circle.Circle",
      "std.invalid_argument@28<geo.Circle.Circle",
      "s.area@44<count_large",
      "out.empty@56<describe",
      "part.empty@56<describe",
      "append@61<describe",
      "fmt.format@61<describe",
      "s.name@61<describe",
      "s.area@61<describe",
      "count_large@66<describe",
      "geo.Circle@76<make_circle",
    ]);
    expect(f.references.filter((r) => r.kind === "read").map((r) => `${r.name}@${r.line}<${r.enclosing}`)).toEqual(["kTau@32<geo.Circle.area"]);
    // `Circle(1.0)` in the string on line 28 and `describe("x")` in the comment on line 51
    expect(f.references.filter((r) => (r.line === 28 && r.name === "Circle") || r.line === 51)).toEqual([]);
  });

  test("circle_test.cc: a test file", async () => {
    const f = await factsOf("cpp/test/circle_test.cc", project);
    expect(f.lines).toEqual({ total: 16, code: 12, comment: 0, blank: 4 });
    expect(fns(f)).toEqual([
      ["test_square_area", false, false, undefined, 0, 0, 1],
      ["main", true, false, undefined, 0, 1, 1],
    ]);
    expect(f.imports.map((i) => [i.module, i.isStandardLib, i.isRelative])).toEqual([
      ["cassert", true, false],
      ["../include/shapes/shape.hpp", false, true],
    ]);
    expect(calls(f)).toEqual(["assert@8<test_square_area", "sq.area@8<test_square_area", "test_square_area@14<main"]);
    expect(f.references.find((r) => r.kind === "type" && r.name === "Square")?.qualifier).toBe("geo");
  });

  test("test files: *_test.cc, *_unittest.cc, test/ folders", () => {
    expect(cpp.isTestFile("cpp/test/circle_test.cc")).toBe(true);
    expect(cpp.isTestFile("net/socket_unittest.cc")).toBe(true);
    expect(cpp.isTestFile("lib/parser_test.cpp")).toBe(true);
    expect(cpp.isTestFile("cpp/src/circle.cpp")).toBe(false);
    expect(cpp.isTestFile("src/latest.cc")).toBe(false);
  });

  test("C++ file extensions, template implementation files included", async () => {
    const { languageFor } = await import("../../src/lang/registry.ts");
    for (const ext of [".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"])
      expect(languageFor("x/y" + ext).language).toBe("cpp");
  });

  test("includes resolve through the include/ root", () => {
    const files = new Set(FILES);
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
    expect(cpp.resolveImport!(imp("shapes/shape.hpp", false, false, true), "cpp/src/circle.cpp", pf)).toEqual(["cpp/include/shapes/shape.hpp"]);
    expect(cpp.resolveImport!(imp("legacy.h", false, false, true), "cpp/src/circle.cpp", pf)).toEqual(["cpp/include/legacy.h"]);
    expect(cpp.resolveImport!(imp("../include/shapes/shape.hpp", false, false, true), "cpp/test/circle_test.cc", pf)).toEqual(["cpp/include/shapes/shape.hpp"]);
    expect(cpp.resolveImport!(imp("fmt/format.h", false, true, false), "cpp/src/circle.cpp", pf)).toEqual([]);
  });

  test("`&&` counts as a decision only as an operator, not as an rvalue reference or in a declarator", async () => {
    const parser = await inlineParser;
    const src = [
      "template <typename T>",
      "void forward_all(T&& first, T&& second) {",
      "  auto&& alias = first;",
      "  if (first and second || alias) { consume(static_cast<T&&>(first)); }",
      "}",
      "struct Flag { bool operator&&(const Flag& o) const && { return v && o.v; } bool v; };",
      "",
    ].join("\n");
    const r = await parser.parse("fwd.cpp", src, project);
    const f = r.facts!;
    expect(f.syntaxErrors).toBe(0);
    // if, and, ||
    expect(f.functions.find((fn) => fn.name === "forward_all")?.complexity).toBe(4);
    // one operator `&&` in the body; the ref-qualifier and operator name are not decisions
    expect(f.functions.find((fn) => fn.name === "operator&&")?.complexity).toBe(2);
  }, 60_000);
});
