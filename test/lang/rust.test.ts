import { describe, expect, test } from "bun:test";
import { commonInvariants, factsOf, FIXTURE_ROOT } from "./common.case.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import { rust } from "../../src/lang/rust.ts";
import { modulePrefix } from "../../src/lang/rust-paths.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts, ImportFact } from "../../src/lang/types.ts";

const project = { ...emptyProjectInfo(), rustCrates: ["stock_ledger"], rustCrateDirs: [{ name: "stock_ledger", dir: "rust" }] };
const FILES = ["rust/src/lib.rs", "rust/src/model.rs", "rust/src/storage.rs", "rust/tests/ledger_flow.rs"];

/** One parser for the inline sources of this file (loading a grammar is the slow part). */
const inlineParser = FactsParser.create();

commonInvariants("rust", FILES, project);

/** Calls in source order (line, then column), as `qualifier.name@line<enclosing`. */
const calls = (f: FileFacts) =>
  f.references
    .filter((r) => r.kind === "call")
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);
const fns = (f: FileFacts) =>
  f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.receiverType, fn.paramCount, fn.returnCount, fn.complexity]);
const imports = (f: FileFacts) =>
  f.imports.map((i) => [i.module, i.isStandardLib ? "std" : i.isExternal ? "external" : i.isRelative ? "relative" : "internal", i.symbols, i.line]);

describe("rust facts (hand-counted truth)", () => {
  test("lib.rs: trait, struct and impls, trait impls, macro, consts, use trees, mod declarations", async () => {
    const f = await factsOf("rust/src/lib.rs", project);
    expect(f.lines).toEqual({ total: 93, code: 71, comment: 7, blank: 15 });
    // lib.rs is the crate root: no module prefix
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine, t.docStartLine])).toEqual([
      ["Lookup", "trait", true, 0, 2, 18, 25, 17],
      // the #[derive] line sits between the blank line and the struct: no doc comment
      ["Ledger", "struct", true, 2, 5, 28, 31, undefined],
      ["tests", "module", false, 0, 0, 83, 93, undefined],
    ]);
    expect(fns(f)).toEqual([
      ["Lookup.get", true, true, "Lookup", 1, 1, 1],
      ["Lookup.contains", true, true, "Lookup", 1, 1, 1],
      ["Ledger.new", true, true, "Ledger", 1, 1, 1],
      // if, ||; a tuple return counts its elements
      ["Ledger.add", true, true, "Ledger", 2, 2, 3],
      // pub(crate) is not exported
      ["Ledger.by_category", false, true, "Ledger", 1, 1, 1],
      // trait impl methods follow the visibility of their (pub) type
      ["Ledger.get", true, true, "Ledger", 1, 1, 1],
      ["Ledger.fmt", true, true, "Ledger", 1, 1, 1],
      // #[macro_export]; two rules
      ["ledger", true, false, undefined, 0, 0, 3],
      ["tests.add_rejects_zero", false, false, undefined, 0, 0, 1],
    ]);
    expect(f.functions.map((fn) => [fn.bodyLines, fn.docStartLine])).toEqual([
      [0, 19],
      [3, undefined],
      [3, undefined],
      [12, 38],
      [3, undefined],
      [3, undefined],
      [3, undefined],
      [10, 69],
      [6, undefined],
    ]);
    expect(f.functions[3]!.signature).toBe("pub fn add(&mut self, item: Item, quantity: u32) -> (u32, bool)");
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported])).toEqual([
      ["MAX_QUANTITY", "constant", true],
      ["OPERATIONS", "variable", false],
    ]);
    expect(imports(f)).toEqual([
      ["model", "internal", [], 4],
      ["storage", "internal", [], 5],
      ["std::collections", "std", ["HashMap"], 7],
      ["std::fmt", "std", ["Display"], 8],
      // `model` is a module this file declares
      ["model", "internal", ["Category", "Item"], 10],
      ["serde", "external", ["Serialize"], 11],
      ["super", "internal", ["*"], 84],
    ]);
    expect(f.references.filter((r) => r.kind === "import").map((r) => `${r.name}@${r.line}:${r.column}`)).toEqual([
      "model@4:9",
      "storage@5:5",
      "HashMap@7:23",
      "fmt@8:10",
      "Display@8:22",
      "Category@10:17",
      "Item@10:27",
      "Serialize@11:12",
    ]);
    expect(f.references.filter((r) => r.kind === "inherit" || r.kind === "implement").map((r) => `${r.kind} ${r.name}@${r.line}<${r.enclosing}`)).toEqual([
      "inherit Display@18<Lookup",
      "implement Lookup@57<Ledger",
      "implement Display@63<Ledger",
    ]);
    expect(calls(f)).toEqual([
      "self.get@23<Lookup.contains",
      "self.get(id).is_some@23<Lookup.contains",
      "HashMap.new@35<Ledger.new",
      "owner.to_string@35<Ledger.new",
      "self.items.contains_key@40<Ledger.add",
      "self.items.entry@41<Ledger.add",
      "self.items.entry(item.id).or_insert@41<Ledger.add",
      "entry.quantity.saturating_add@45<Ledger.add",
      "entry.quantity.saturating_add(quantity).min@45<Ledger.add",
      "self.items.values@53<Ledger.by_category",
      "self.items.values().filter@53<Ledger.by_category",
      "self.items.values().filter(|i| &i.category == category).collect@53<Ledger.by_category",
      "self.items.get@59<Ledger.get",
      "write@65<Ledger.fmt",
      "Ledger.new@88<tests.add_rejects_zero",
      "l.add@89<tests.add_rejects_zero",
      "Item.new@89<tests.add_rejects_zero",
      "assert_eq@90<tests.add_rejects_zero",
      "assert@91<tests.add_rejects_zero",
    ]);
    expect(f.references.filter((r) => r.kind === "read").map((r) => `${r.name}@${r.line}<${r.enclosing}`)).toEqual([
      "MAX_QUANTITY@42<Ledger.add",
      "MAX_QUANTITY@45<Ledger.add",
      "OPERATIONS@47<Ledger.add",
    ]);
    // nothing from the `//!` comments, the macro's comment or its token trees
    expect(f.references.filter((r) => r.line <= 2 || r.line === 69 || (r.line >= 72 && r.line <= 79))).toEqual([]);
  });

  test("model.rs: enum variants, match arms and guards, union, type alias, qualified trait impl", async () => {
    const f = await factsOf("rust/src/model.rs", project);
    expect(f.lines).toEqual({ total: 47, code: 38, comment: 2, blank: 7 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine, t.docStartLine])).toEqual([
      ["model.Category", "enum", true, 3, 0, 5, 9, 3],
      ["model.Item", "struct", true, 4, 3, 12, 17, undefined],
      ["model.ItemId", "type_alias", true, 0, 0, 19, 19, undefined],
      ["model.IdBytes", "union", true, 2, 0, 44, 47, 42],
    ]);
    expect(fns(f)).toEqual([
      ["model.Item.new", true, true, "Item", 3, 1, 1],
      // arms Tool, Part{code} + its guard, Part{..}; the `_` arm is the default
      ["model.Item.label", true, true, "Item", 0, 1, 5],
      ["model.Item.fmt", true, true, "Item", 1, 1, 1],
    ]);
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported, v.container])).toEqual([
      ["model.Category.Tool", "enum_member", true, "Category"],
      ["model.Category.Part", "enum_member", true, "Category"],
      ["model.Category.Other", "enum_member", true, "Category"],
    ]);
    expect(imports(f)).toEqual([["std", "std", ["fmt"], 1]]);
    expect(f.references.filter((r) => r.kind === "implement").map((r) => `${r.qualifier}.${r.name}@${r.line}<${r.enclosing}`)).toEqual([
      "fmt.Display@36<model.Item",
    ]);
    // macro arguments are token trees: `self.label()` inside write! is not read as a call
    expect(calls(f)).toEqual([
      "name.into@23<model.Item.new",
      "format@28<model.Item.label",
      "format@29<model.Item.label",
      "self.name.clone@30<model.Item.label",
      "String.from@31<model.Item.label",
      "write@38<model.Item.fmt",
    ]);
    // a path as a value, here a variant in a match arm, is a read of it (`Category::Part { .. }` is a type)
    expect(f.references.filter((r) => r.kind === "read").map((r) => `${r.qualifier}.${r.name}@${r.line}<${r.enclosing}`)).toEqual([
      "Category.Tool@28<model.Item.label",
    ]);
    expect(f.references.filter((r) => r.line === 42)).toEqual([]);
  });

  test("paths as values: variants, consts and functions named by a path are reads; calls, macros, use trees and attributes are not", async () => {
    const parser = await inlineParser;
    const source = [
      "use crate::geo::{Color, Point};", //                    1
      "#[derive(Debug)]", //                                   2
      "pub(in crate::geo) struct S;", //                       3
      "pub fn paint(c: Color) -> u32 {", //                    4
      "    let p = Point::new(1);", //                         5
      "    let f = Point::new;", //                            6
      "    let v = Vec::<u8>::new();", //                      7
      "    let m = u32::MAX;", //                              8
      '    println!("{}", Color::Red as u8);', //              9
      "    match c {", //                                      10
      "        Color::Red => crate::geo::LIMIT,", //           11
      "        _ => std::u32::MAX,", //                        12
      "    }", //                                              13
      "}", //                                                  14
    ];
    const f = (await parser.parse("src/paths.rs", source.join("\n") + "\n", project)).facts!;
    expect(f.references.filter((r) => r.kind === "read").map((r) => `${r.qualifier}.${r.name}@${r.line}`)).toEqual([
      "Point.new@6",
      "u32.MAX@8",
      "Color.Red@11",
      "crate::geo.LIMIT@11",
      "std::u32.MAX@12",
    ]);
    expect(f.references.filter((r) => r.kind === "call").map((r) => `${r.qualifier ?? ""}.${r.name}@${r.line}`)).toEqual([
      "Point.new@5",
      "Vec::<u8>.new@7",
      ".println@9",
    ]);
  });

  test("storage.rs: generic impl, `self` in a use list, crate:: and super:: imports", async () => {
    const f = await factsOf("rust/src/storage.rs", project);
    expect(f.lines).toEqual({ total: 31, code: 26, comment: 1, blank: 4 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount])).toEqual([["storage.Snapshot", "struct", true, 2, 2]]);
    expect(fns(f)).toEqual([
      // for, if, &&
      ["storage.Snapshot.capture", true, true, "Snapshot<'a>", 2, 1, 4],
      // `self` is the receiver, not a parameter
      ["storage.Snapshot.write_to", true, true, "Snapshot<'a>", 1, 1, 2],
    ]);
    expect(imports(f)).toEqual([
      ["std::io", "std", ["Write"], 2],
      ["crate::model", "internal", ["Item"], 4],
      ["super", "internal", ["Ledger"], 5],
    ]);
    // `self` names the module where the prefix ends
    expect(f.references.filter((r) => r.kind === "import").map((r) => `${r.name}@${r.line}:${r.column}`)).toEqual([
      "io@2:10",
      "Write@2:21",
      "Item@4:19",
      "Ledger@5:12",
    ]);
    // Ok(..) builds a value, it calls nothing
    expect(calls(f)).toEqual([
      "Vec.with_capacity@14<storage.Snapshot.capture",
      "items.len@14<storage.Snapshot.capture",
      "item.name.is_empty@16<storage.Snapshot.capture",
      "lines.push@17<storage.Snapshot.capture",
      "item.to_string@17<storage.Snapshot.capture",
      "writeln@26<storage.Snapshot.write_to",
    ]);
  });

  test("tests/ledger_flow.rs: an integration test crate importing the project's own crate", async () => {
    const f = await factsOf("rust/tests/ledger_flow.rs", project);
    expect(f.lines).toEqual({ total: 12, code: 11, comment: 0, blank: 1 });
    expect(fns(f)).toEqual([["adds_and_finds_items", false, false, undefined, 0, 0, 2]]);
    expect(imports(f)).toEqual([
      ["stock_ledger::model", "internal", ["Category", "Item"], 1],
      ["stock_ledger", "internal", ["Ledger", "Lookup"], 2],
    ]);
    expect(calls(f)).toEqual([
      "Ledger.new@6<adds_and_finds_items",
      "ledger.add@8<adds_and_finds_items",
      "Item.new@8<adds_and_finds_items",
      "assert@10<adds_and_finds_items",
      "assert@11<adds_and_finds_items",
    ]);
    // without the project's crates in ProjectInfo the same crate is an external dependency
    const alone = await factsOf("rust/tests/ledger_flow.rs", emptyProjectInfo());
    expect(alone.imports.map((i) => i.isExternal)).toEqual([true, true]);
  });

  test("test files: tests/, benches/, *_test.rs and tests.rs", () => {
    expect(rust.isTestFile("rust/tests/ledger_flow.rs")).toBe(true);
    expect(rust.isTestFile("benches/throughput.rs")).toBe(true);
    expect(rust.isTestFile("src/parser_test.rs")).toBe(true);
    expect(rust.isTestFile("src/ledger/tests.rs")).toBe(true);
    // a file with a #[cfg(test)] module is still source
    expect(rust.isTestFile("rust/src/lib.rs")).toBe(false);
    expect(rust.isTestFile("src/testing.rs")).toBe(false);
  });

  test("module paths: src/a/b.rs is a.b; lib.rs, main.rs, bin and test crates are roots", () => {
    expect(modulePrefix("src/a/b.rs")).toEqual(["a", "b"]);
    expect(modulePrefix("src/a/mod.rs")).toEqual(["a"]);
    expect(modulePrefix("src/lib.rs")).toEqual([]);
    expect(modulePrefix("crates/core/src/main.rs")).toEqual([]);
    expect(modulePrefix("crates/core/src/parse/token.rs")).toEqual(["parse", "token"]);
    expect(modulePrefix("src/bin/tool.rs")).toEqual([]);
    expect(modulePrefix("src/bin/tool/main.rs")).toEqual([]);
    expect(modulePrefix("src/bin/tool/args.rs")).toEqual(["args"]);
    expect(modulePrefix("tests/flow.rs")).toEqual([]);
    expect(modulePrefix("tests/common/mod.rs")).toEqual(["common"]);
    expect(modulePrefix("src/tests/fixtures.rs")).toEqual(["tests", "fixtures"]);
    expect(modulePrefix("build.rs")).toEqual([]);
  });

  test("imports resolve: mod x; to x.rs or x/mod.rs, crate::, self::, super::, the project's crates", () => {
    const files = new Set([...FILES, "rust/src/net/mod.rs", "rust/src/net/http.rs"]);
    const pf: ProjectFiles = { project, has: (p) => files.has(p), inDir: () => [] };
    const imp = (module: string, symbols: string[], cls: "std" | "external" | "internal" = "internal"): ImportFact => ({
      module,
      symbols,
      isStandardLib: cls === "std",
      isExternal: cls === "external",
      isRelative: false,
      line: 1,
      column: 1,
    });
    const resolve = (i: ImportFact, from: string) => rust.resolveImport!(i, from, pf);
    expect(resolve(imp("model", []), "rust/src/lib.rs")).toEqual(["rust/src/model.rs"]);
    expect(resolve(imp("net", []), "rust/src/lib.rs")).toEqual(["rust/src/net/mod.rs"]);
    expect(resolve(imp("http", []), "rust/src/net/mod.rs")).toEqual(["rust/src/net/http.rs"]);
    expect(resolve(imp("model", ["Category", "Item"]), "rust/src/lib.rs")).toEqual(["rust/src/model.rs"]);
    expect(resolve(imp("crate::model", ["Item"]), "rust/src/storage.rs")).toEqual(["rust/src/model.rs"]);
    expect(resolve(imp("crate::net::http", ["get"]), "rust/src/storage.rs")).toEqual(["rust/src/net/http.rs"]);
    expect(resolve(imp("super", ["Ledger"]), "rust/src/storage.rs")).toEqual(["rust/src/lib.rs"]);
    expect(resolve(imp("super", ["Client"]), "rust/src/net/http.rs")).toEqual(["rust/src/net/mod.rs"]);
    expect(resolve(imp("self::http", ["get"]), "rust/src/net/mod.rs")).toEqual(["rust/src/net/http.rs"]);
    // one import can reach several files: each symbol resolves to its longest module prefix
    expect(resolve(imp("crate", ["model::Item", "storage::Snapshot"]), "rust/src/net/http.rs")).toEqual(["rust/src/model.rs", "rust/src/storage.rs"]);
    expect(resolve(imp("stock_ledger::model", ["Category", "Item"]), "rust/tests/ledger_flow.rs")).toEqual(["rust/src/model.rs"]);
    expect(resolve(imp("stock_ledger", ["Ledger", "Lookup"]), "rust/tests/ledger_flow.rs")).toEqual(["rust/src/lib.rs"]);
    expect(resolve(imp("std::fmt", ["Display"], "std"), "rust/src/lib.rs")).toEqual([]);
    expect(resolve(imp("serde", ["Serialize"], "external"), "rust/src/lib.rs")).toEqual([]);
  });

  test("Cargo.toml gives the crate's name as code writes it and its folder", () => {
    const info = buildProjectInfo(FIXTURE_ROOT, ["rust/Cargo.toml", "rust/src/lib.rs"]);
    expect(info.rustCrates).toEqual(["stock_ledger"]);
    expect(info.rustCrateDirs).toEqual([{ name: "stock_ledger", dir: "rust" }]);
  });

  test("use forms: alias, nested lists, globs, a root list, extern crate, leading ::", async () => {
    const parser = await inlineParser;
    const src = [
      "use regex::{bytes::{Regex, RegexSet as Set}, escape, Captures as Caps, self as re, internal::*};",
      "use {alpha, beta::gamma};",
      "use ::std::fmt;",
      "use crate::ledger as l;",
      "extern crate serde as sd;",
      "",
    ].join("\n");
    const f = (await parser.parse("src/forms.rs", src, project)).facts!;
    expect(f.imports.map((i) => [i.module, i.symbols, i.alias, i.isStandardLib ? "std" : i.isExternal ? "external" : "internal"])).toEqual([
      ["regex", ["bytes::Regex", "bytes::RegexSet", "escape", "Captures", "internal::*"], undefined, "external"],
      ["alpha", [], undefined, "external"],
      ["beta", ["gamma"], undefined, "external"],
      ["std", ["fmt"], undefined, "std"],
      ["crate", ["ledger"], "l", "internal"],
      ["serde", [], "sd", "external"],
    ]);
    // the local names, where they are written
    const sites = f.references.filter((r) => r.kind === "import").sort((a, b) => a.line - b.line || a.column - b.column);
    expect(sites.map((r) => `${r.name}@${r.line}:${r.column}`)).toEqual([
      "Regex@1:21",
      "Set@1:40",
      "escape@1:46",
      "Caps@1:66",
      "re@1:80",
      "alpha@2:6",
      "gamma@2:19",
      "fmt@3:12",
      "l@4:22",
      "sd@5:23",
    ]);
  }, 60_000);

  test("a typed receiver (`self: Pin<&mut Self>`) is not a parameter; a pattern parameter is one", async () => {
    const parser = await inlineParser;
    const src =
      "impl Fut {\n    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> { Poll::Pending }\n    fn pair(&self, (a, b): (u8, u8)) -> ! { loop {} }\n}\n";
    const f = (await parser.parse("src/fut.rs", src, project)).facts!;
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.paramCount, fn.returnCount])).toEqual([
      ["fut.Fut.poll", 1, 1],
      ["fut.Fut.pair", 1, 0],
    ]);
  }, 60_000);

  test("deep nesting stays correct: 3,000 && / || operators and 2,000 nested calls", async () => {
    const parser = await inlineParser;
    const src =
      "fn deep(a: bool, b: bool) -> bool {\n    a" +
      " && a || b".repeat(1500) +
      "\n}\nfn nest() {\n    " +
      "g(".repeat(2000) +
      "1" +
      ")".repeat(2000) +
      ";\n}\n";
    const f = (await parser.parse("src/deep.rs", src, project)).facts!;
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.complexity])).toEqual([
      ["deep.deep", 3001],
      ["deep.nest", 1],
    ]);
    expect(f.references.filter((r) => r.kind === "call").length).toBe(2000);
  }, 60_000);
});
