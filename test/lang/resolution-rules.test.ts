/**
 * Every language module's resolution rules (src/lang/resolution.ts) hold together: what a family shares
 * agrees across its languages, names a user may type select one language, the text patterns compile
 * with the groups the engines read, test-name patterns capture a subject. A new language module is
 * checked here without a line of this file changing.
 */
import { describe, expect, test } from "bun:test";
import { LANGUAGE_MODULES, familyOf, languageSelector, moduleFor, rulesOf, testSubject } from "../../src/lang/registry.ts";

const byFamily = new Map<string, string[]>();
for (const m of LANGUAGE_MODULES) byFamily.set(m.resolution.family, [...(byFamily.get(m.resolution.family) ?? []), m.id]);

describe("resolution rules of every language module", () => {
  test("languages of one family agree on how their modules share names", () => {
    expect(byFamily.size).toBeGreaterThan(1);
    for (const [family, ids] of byFamily) {
      const rules = ids.map((id) => rulesOf(id));
      for (const r of rules) {
        expect({ family, strictModules: r.strictModules }).toEqual({ family, strictModules: rules[0]!.strictModules });
        expect({ family, packageScope: r.packageScope }).toEqual({ family, packageScope: rules[0]!.packageScope });
      }
    }
  });

  test("a dialect belongs to a registered language of its own family, and every name a user may type selects one language", () => {
    const names = new Map<string, string>();
    for (const m of LANGUAGE_MODULES) {
      const r = m.resolution;
      if (r.dialectOf !== undefined) {
        expect(moduleFor(r.dialectOf)?.id as string | undefined).toBe(r.dialectOf);
        expect(familyOf(r.dialectOf)).toBe(r.family);
        expect(languageSelector(r.dialectOf)(m.id)).toBe(true);
      }
      for (const name of [m.id, ...(r.aliases ?? [])]) {
        expect({ name, taken: names.get(name) }).toEqual({ name, taken: undefined });
        names.set(name, m.id);
        expect(languageSelector(name)(m.id)).toBe(true);
      }
      expect(languageSelector(r.family)(m.id)).toBe(true);
    }
    expect(
      LANGUAGE_MODULES.filter((m) => m.resolution.dialectOf !== undefined)
        .map((m) => m.id)
        .sort(),
    ).toEqual(["jsx", "tsx"]);
    expect(languageSelector("C#")("c_sharp")).toBe(true);
    expect(languageSelector("typescript")("javascript")).toBe(false);
  });

  test("type positions compile into the groups resolution reads", () => {
    let typed = 0;
    for (const m of LANGUAGE_MODULES) {
      const t = m.resolution.types;
      if (!t) continue;
      typed++;
      const local = new RegExp(t.local("order"));
      expect({ id: m.id, init: local.source.includes("(?<init>") }).toEqual({ id: m.id, init: true });
      const field = new RegExp(t.field("store"));
      expect({ id: m.id, groups: /\(\?<(type|init)>/.test(field.source) }).toEqual({ id: m.id, groups: true });
    }
    expect(typed).toBeGreaterThan(10);
  });

  test("where a language reads types from text, a parameter and a return type are found in its own syntax", () => {
    const examples: Record<string, { params: string; signature: string; name: string }> = {
      typescript: { params: "order: Order, n: number)", signature: "function find(id: string): Order {", name: "find" },
      python: { params: "self, order: Order)", signature: "def find(self, id) -> Order:", name: "find" },
      kotlin: { params: "order: Order)", signature: "fun find(id: String): Order", name: "find" },
      rust: { params: "order: &mut Order)", signature: "fn find(id: u32) -> Order", name: "find" },
      java: { params: "Order order)", signature: "public Order find(String id)", name: "find" },
      c_sharp: { params: "Order order)", signature: "public Order find(string id)", name: "find" },
      cpp: { params: "Order *order)", signature: "Order *find(int id)", name: "find" },
      php: { params: "Order $order)", signature: "public function find($id): Order", name: "find" },
    };
    for (const [id, e] of Object.entries(examples)) {
      const t = rulesOf(id).types!;
      const param = id === "php" ? "\\$order" : "order";
      expect({ id, parameter: t.parameter?.(e.params, param) }).toEqual({ id, parameter: "Order" });
      expect({ id, returned: t.returnType?.(e.signature, e.name) }).toEqual({ id, returned: "Order" });
    }
  });

  test("test-name patterns capture what the test tests, and include rules come with import resolution", () => {
    for (const m of LANGUAGE_MODULES) {
      const r = m.resolution;
      expect({ id: m.id, testNames: r.testNames.length > 0 }).toEqual({ id: m.id, testNames: true });
      for (const re of r.testNames)
        expect({ id: m.id, re: String(re), group: new RegExp(`${re.source}|`).exec("")!.length > 1 }).toEqual({ id: m.id, re: String(re), group: true });
      if (r.includes !== "none") expect({ id: m.id, resolves: typeof m.resolveImport }).toEqual({ id: m.id, resolves: "function" });
    }
    expect(
      ["a/user_test.go", "x/a.test.ts", "tests/test_service.py", "CartTest.java", "spec/invoice_spec.rb", "TransfersTests.cs", "cart_test.cc", "README.md"].map(
        testSubject,
      ),
    ).toEqual(["user", "a", "service", "cart", "invoice", "transfers", "cart", undefined]);
    // a Go test is named after its file, never with a test_ prefix
    expect(testSubject("pkg/tests_test.go")).toBe("tests");
  });

  test("implementations by method set are declared for Go, whose types implement interfaces without saying so", () => {
    expect(LANGUAGE_MODULES.filter((m) => m.resolution.implicitInterfaces).map((m) => m.id)).toEqual(["go"]);
  });
});
