import { describe, expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_ROOT, commonInvariants, factsOf } from "./common.case.ts";
import { ruby, classifyRubyRequire } from "../../src/lang/ruby.ts";
import { languageFor } from "../../src/lang/registry.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts, ReferenceFact } from "../../src/lang/types.ts";

// The fixture folder indexed as a project of its own: its paths are relative to ruby/.
const RB_ROOT = join(FIXTURE_ROOT, "ruby");
const RB_FILES = (readdirSync(RB_ROOT, { recursive: true }) as string[]).map(String).filter((p) => statSync(join(RB_ROOT, p)).isFile());
const project = buildProjectInfo(RB_ROOT, RB_FILES);

const FILES = ["lib/shop.rb", "lib/shop/cart.rb", "lib/shop/version.rb", "spec/spec_helper.rb", "spec/cart_spec.rb", "Rakefile", "Gemfile"].map(
  (p) => `ruby/${p}`,
);
commonInvariants("ruby", FILES, project);

const byPosition = (a: ReferenceFact, b: ReferenceFact) => a.line - b.line || a.column - b.column;
const refsOf = (f: FileFacts, ...kinds: string[]) =>
  f.references
    .filter((r) => kinds.includes(r.kind))
    .sort(byPosition)
    .map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);
const importRow = (i: FileFacts["imports"][number]) => [
  i.module,
  i.isStandardLib ? "std" : i.isExternal ? "external" : i.isRelative ? "relative" : "internal",
  i.symbols,
  i.line,
];

describe("ruby facts (hand-counted truth)", () => {
  test("the project's load paths: lib/ and spec/", () => {
    expect(project.rubyLoadPaths).toEqual(["lib", "spec"]);
    expect(project.rubyTopLevel).toEqual(["cart_spec", "shop", "spec_helper"]);
  });

  test("cart.rb: classes, modules, structs, visibility, fields, complexity", async () => {
    const f = await factsOf("ruby/lib/shop/cart.rb", project);
    // =begin/=end is one block comment of four lines; the blank `#` line 12 is a comment line
    expect(f.lines).toEqual({ total: 114, code: 83, comment: 9, blank: 22 });
    expect(
      f.types.map((t) => [
        t.qualifiedName,
        t.kind,
        t.exported,
        t.fieldCount,
        t.methodCount,
        t.startLine,
        t.endLine,
        t.container ?? null,
        t.docStartLine ?? null,
      ]),
    ).toEqual([
      ["Shop", "module", true, 0, 0, 7, 114, null, null],
      ["Shop.CartFull", "class", true, 0, 0, 9, 9, "Shop", 8],
      // attr_reader items, owner + attr_accessor note + @discount, @opened_at assigned in initialize
      ["Shop.Cart", "class", true, 5, 11, 14, 113, "Shop", 11],
      ["Shop.Cart.Item", "struct", true, 2, 1, 19, 21, "Cart", null],
      ["Shop.Cart.Receipt", "record", true, 2, 0, 22, 22, "Cart", null],
    ]);
    expect(
      f.functions.map((fn) => [
        fn.qualifiedName,
        fn.exported,
        fn.isMethod,
        fn.receiverType ?? null,
        fn.paramCount,
        fn.returnCount,
        fn.complexity,
        fn.startLine,
        fn.endLine,
      ]),
    ).toEqual([
      ["Shop.Cart.Item.total", true, true, "Item", 1, 1, 1, 20, 20],
      // initialize is private whatever its section; ||= is a branch; owner, items = [], discount:
      ["Shop.Cart.initialize", false, true, "Cart", 3, 0, 2, 33, 38],
      ["Shop.Cart.for", true, true, "Cart", 1, 1, 1, 40, 40],
      ["Shop.Cart.empty", true, true, "Cart", 0, 1, 1, 43, 45],
      // `private` inside class << self
      ["Shop.Cart.registry", false, true, "Cart", 0, 1, 2, 49, 51],
      // &block is a parameter
      ["Shop.Cart.each", true, true, "Cart", 1, 1, 1, 54, 56],
      // if modifier, if, elsif, &&; `return nil, :rejected` gives two values
      ["Shop.Cart.add", true, true, "Cart", 2, 2, 5, 58, 69],
      // two when arms (else is the default) and the method-level rescue
      ["Shop.Cart.total", true, true, "Cart", 1, 1, 4, 75, 85],
      ["Shop.Cart.price_of", false, true, "Cart", 1, 1, 1, 89, 91],
      // ternary + until
      ["Shop.Cart.convert", false, true, "Cart", 2, 1, 3, 95, 101],
      ["Shop.Cart.summary", false, true, "Cart", 0, 1, 1, 103, 107],
      // written in a public section, made private by `private :to_s`
      ["Shop.Cart.to_s", false, true, "Cart", 0, 1, 1, 111, 111],
    ]);
    expect(f.functions.find((fn) => fn.name === "total" && fn.receiverType === "Cart")!.docStartLine).toBe(71);
    expect(f.functions.find((fn) => fn.name === "initialize")!.signature).toBe("def initialize(owner, items = [], discount: 0)");
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported, v.container ?? null])).toEqual([
      ["Shop.Cart.LIMIT", "constant", true, "Cart"],
      ["Shop.Cart.SECRET_KEY", "constant", false, "Cart"], // private_constant
    ]);
    expect(f.imports.map(importRow)).toEqual([
      ["bigdecimal", "std", [], 3],
      ["money", "external", [], 4],
      ["version", "relative", [], 5],
    ]);
    expect(refsOf(f, "inherit", "implement")).toEqual([
      "StandardError@9<Shop.CartFull",
      "Base.Model@14<Shop.Cart",
      "Enumerable@15<Shop.Cart",
      "Forwardable@16<Shop.Cart",
      "Audited@17<Shop.Cart",
    ]);
    expect(f.references.filter((r) => r.kind === "implement").map((r) => r.name)).toEqual(["Enumerable", "Forwardable", "Audited"]);
    expect(refsOf(f, "call")).toEqual([
      "Struct.new@19<Shop.Cart.Item",
      "Data.define@22<Shop.Cart.Receipt",
      "def_delegators@31<Shop.Cart",
      "Time.now@37<Shop.Cart.initialize",
      "new@40<Shop.Cart.for",
      "new@44<Shop.Cart.empty",
      "items.each@55<Shop.Cart.each",
      "raise@59<Shop.Cart.add",
      "items.size@59<Shop.Cart.add",
      "items.find@60<Shop.Cart.add",
      "i.sku@60<Shop.Cart.add",
      "existing.quantity@62<Shop.Cart.add",
      "quantity.positive?@63<Shop.Cart.add",
      "Item.new@64<Shop.Cart.add",
      "items.sum@76<Shop.Cart.total",
      "BigDecimal@76<Shop.Cart.total",
      "i.total@76<Shop.Cart.total",
      "price_of@76<Shop.Cart.total",
      "i.sku@76<Shop.Cart.total",
      "Money.new@78<Shop.Cart.total",
      "convert@79<Shop.Cart.total",
      "raise@80<Shop.Cart.total",
      "warn@83<Shop.Cart.total",
      "e.message@83<Shop.Cart.total",
      "PRICES.fetch@90<Shop.Cart.price_of",
      "rate.positive?@97<Shop.Cart.convert",
      // interpolations in the heredoc are code; `cart.total("EUR")` around them is text
      "owner.name@105<Shop.Cart.summary",
      "items.size@105<Shop.Cart.summary",
    ]);
    expect(refsOf(f, "type", "read")).toEqual([
      "Struct@19<Shop.Cart.Item",
      "Data@22<Shop.Cart.Receipt",
      "Time@37<Shop.Cart.initialize",
      "CartFull@59<Shop.Cart.add",
      "LIMIT@59<Shop.Cart.add",
      "LIMIT@59<Shop.Cart.add",
      "Item@64<Shop.Cart.add",
      "Money@78<Shop.Cart.total",
      "String@79<Shop.Cart.total",
      "ArgumentError@80<Shop.Cart.total",
      "ZeroDivisionError@82<Shop.Cart.total",
      "PRICES@90<Shop.Cart.price_of",
    ]);
    expect(f.references.filter((r) => r.kind === "read").map((r) => r.name)).toEqual(["LIMIT", "LIMIT", "PRICES"]);
    // nothing in the =begin block comment (lines 71-74) is a reference
    expect(f.references.filter((r) => r.line >= 71 && r.line <= 74)).toEqual([]);
  });

  test("shop.rb: require kinds, autoload, module_function, top-level methods and globals", async () => {
    const f = await factsOf("ruby/lib/shop.rb", project);
    expect(f.lines).toEqual({ total: 23, code: 17, comment: 1, blank: 5 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.methodCount, t.docStartLine ?? null])).toEqual([["Shop", "module", 1, 7]]);
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.paramCount, fn.returnCount, fn.complexity])).toEqual([
      ["Shop.configure", true, true, 1, 1, 3], // unless and if modifiers
      ["shop_version", false, false, 0, 1, 1], // a top-level def is a private method of Object
    ]);
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported])).toEqual([
      ["Shop.DEFAULT_CURRENCY", "constant", true],
      ["$shop_loaded", "variable", true],
    ]);
    expect(f.imports.map(importRow)).toEqual([
      ["json", "std", [], 1],
      ["net/http", "std", [], 2],
      ["shop/cart", "internal", [], 3],
      ["active_support/core_ext/object", "external", [], 4],
      ["shop/checkout", "internal", ["Checkout"], 5],
    ]);
    expect(refsOf(f, "call")).toEqual([
      "JSON.parse@14<Shop.configure",
      "options.to_json@14<Shop.configure",
      "options.empty?@14<Shop.configure",
      "block_given?@15<Shop.configure",
    ]);
    // JSON is a module though it is written in capitals; Shop::VERSION is a value
    expect(refsOf(f, "type")).toEqual(["JSON@14<Shop.configure"]);
    expect(refsOf(f, "read")).toEqual(["Shop.VERSION@22<shop_version"]);
  });

  test("version.rb, spec files, Rakefile and Gemfile", async () => {
    const version = await factsOf("ruby/lib/shop/version.rb", project);
    expect(version.lines).toEqual({ total: 3, code: 3, comment: 0, blank: 0 });
    expect(version.variables.map((v) => v.qualifiedName)).toEqual(["Shop.VERSION"]);

    const helper = await factsOf("ruby/spec/spec_helper.rb", project);
    expect(helper.lines).toEqual({ total: 5, code: 4, comment: 0, blank: 1 });
    expect(helper.imports.map(importRow)).toEqual([["shop", "internal", [], 1]]);

    const spec = await factsOf("ruby/spec/cart_spec.rb", project);
    expect(spec.lines).toEqual({ total: 17, code: 13, comment: 0, blank: 4 });
    expect(spec.functions).toEqual([]);
    // spec/ is on RSpec's load path: spec_helper is the project's own
    expect(spec.imports.map(importRow)).toEqual([["spec_helper", "internal", [], 1]]);
    expect(refsOf(spec, "type")).toEqual(["RSpec@3<", "Shop.Cart@3<", "Shop.CartFull@14<"]);
    expect(refsOf(spec, "call").map((r) => r.split("@")[0])).toEqual([
      "RSpec.describe",
      "subject",
      "described_class.new",
      "it",
      "expect",
      "cart.items",
      "expect(cart.items).to",
      "context",
      "before",
      "20.times",
      "cart.add",
      "it",
      "expect",
      "cart.add",
      'expect { cart.add("one more") }.to',
      "raise_error",
    ]);

    const rake = await factsOf("ruby/Rakefile", project);
    expect(rake.lines).toEqual({ total: 8, code: 6, comment: 0, blank: 2 });
    expect(rake.imports.map(importRow)).toEqual([["rake/testtask", "std", [], 1]]);
    expect(refsOf(rake, "call").map((r) => r.split("@")[0])).toEqual(["desc", "task", "sh", "task"]);

    const gemfile = await factsOf("ruby/Gemfile", project);
    expect(gemfile.lines).toEqual({ total: 4, code: 3, comment: 0, blank: 1 });
    expect(refsOf(gemfile, "call").map((r) => r.split("@")[0])).toEqual(["source", "gem", "gem"]);
  });
});

describe("ruby rules", () => {
  test("Ruby files by extension and by name", () => {
    for (const p of ["a.rb", "tasks/db.rake", "shop.gemspec", "Gemfile", "sub/Rakefile"]) expect(languageFor(p).language).toBe("ruby");
    expect(languageFor("Gemfile.lock").language).toBe("lockfile");
  });

  test("test files: *_spec.rb, *_test.rb, test_*.rb, spec/ and test/ folders", () => {
    for (const p of ["spec/cart_spec.rb", "cart_test.rb", "test_cart.rb", "spec/support/helpers.rb", "test/fixtures.rb", "gems/x/spec/y.rb"])
      expect(ruby.isTestFile(p)).toBe(true);
    for (const p of ["lib/shop/cart.rb", "lib/specifics.rb", "lib/testing/tools.rb", "Rakefile"]) expect(ruby.isTestFile(p)).toBe(false);
  });

  test("require classification: relative paths, load paths, the standard library, gems", () => {
    const p = { ...emptyProjectInfo(), rubyTopLevel: ["shop"] };
    expect(classifyRubyRequire("./local", p)).toEqual({ isStandardLib: false, isExternal: false, isRelative: true });
    expect(classifyRubyRequire("shop/cart", p)).toEqual({ isStandardLib: false, isExternal: false, isRelative: false });
    for (const std of ["set", "io/console", "net/http", "minitest/autorun", "test/unit", "English", "openssl"])
      expect(classifyRubyRequire(std, p).isStandardLib).toBe(true);
    for (const gem of ["rails", "active_record", "nokogiri", "rspec"]) expect(classifyRubyRequire(gem, p).isExternal).toBe(true);
  });

  test("visibility forms, class A::B names, requires written with File.expand_path", async () => {
    const { FactsParser } = await import("../../src/lang/parser.ts");
    const parser = await FactsParser.create();
    const source = [
      'require File.expand_path("../config/boot", __dir__)', // 1
      'require "vendor/#{name}"', // 2: computed, not an import
      "class Shop::Admin::Panel", // 3
      "  def self.build; end", // 4
      "  def self.secret; end", // 5
      "  private_class_method :secret", // 6
      "  private def hidden; end", // 7
      "  def open; end", // 8
      "  protected", // 9
      "  def guarded; end", // 10
      "  def self.still_public; end", // 11: `protected` does not reach singleton methods
      "end", // 12
      "",
    ].join("\n");
    const f = (await parser.parse("app/panel.rb", source, emptyProjectInfo())).facts!;
    expect(f.imports.map(importRow)).toEqual([["../config/boot", "relative", [], 1]]);
    expect(f.types.map((t) => [t.qualifiedName, t.name])).toEqual([["Shop.Admin.Panel", "Panel"]]);
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.exported])).toEqual([
      ["Shop.Admin.Panel.build", true],
      ["Shop.Admin.Panel.secret", false],
      ["Shop.Admin.Panel.hidden", false],
      ["Shop.Admin.Panel.open", true],
      ["Shop.Admin.Panel.guarded", false],
      ["Shop.Admin.Panel.still_public", true],
    ]);
  });

  test("requires resolve to files: require_relative from the file, require through the load paths", async () => {
    const files: ProjectFiles = { project, has: (p) => RB_FILES.includes(p), inDir: () => [] };
    const cart = await factsOf("ruby/lib/shop/cart.rb", project);
    expect(cart.imports.map((i) => ruby.resolveImport!(i, "lib/shop/cart.rb", files))).toEqual([[], [], ["lib/shop/version.rb"]]);
    const shop = await factsOf("ruby/lib/shop.rb", project);
    expect(shop.imports.map((i) => ruby.resolveImport!(i, "lib/shop.rb", files))).toEqual([[], [], ["lib/shop/cart.rb"], [], []]);
    const spec = await factsOf("ruby/spec/cart_spec.rb", project);
    expect(ruby.resolveImport!(spec.imports[0]!, "spec/cart_spec.rb", files)).toEqual(["spec/spec_helper.rb"]);
    const escaping = { module: "../../../etc/passwd", isStandardLib: false, isExternal: false, isRelative: true, symbols: [], line: 1, column: 1 };
    expect(ruby.resolveImport!(escaping, "lib/shop.rb", files)).toEqual([]);
  });
});
