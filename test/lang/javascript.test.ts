/**
 * JavaScript and JSX facts over test/fixtures/polyglot/js (CommonJS, ES modules, JSX), against counts made
 * by hand from the fixture sources, plus the edge cases of naming and exporting that CommonJS brings.
 */
import { describe, expect, test } from "bun:test";
import { commonInvariants, factsOf } from "./common.case.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import type { FileFacts } from "../../src/lang/types.ts";
import { javascript, jsx } from "../../src/lang/javascript.ts";
import { languageFor } from "../../src/lang/registry.ts";
import { FactsParser } from "../../src/lang/parser.ts";

const project = { ...emptyProjectInfo(), npmPackages: ["@shop/core", "@shop/web", "shop-legacy"] };

commonInvariants("javascript", ["js/lib/server.js", "js/lib/util.js", "js/lib/routes/index.mjs", "js/test/server.test.js"], project);
commonInvariants("jsx", ["js/src/App.jsx"], project);

/** [qualifiedName, exported, isMethod, paramCount, returnCount, complexity] */
const functionRows = (f: FileFacts) => f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.paramCount, fn.returnCount, fn.complexity]);
/** [module, std, external, relative, symbols, alias] */
const importRows = (f: FileFacts) => f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal, i.isRelative, i.symbols, i.alias]);
const refs = (f: FileFacts, ...kinds: string[]) =>
  f.references.filter((r) => kinds.includes(r.kind)).map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);

let parser: Promise<FactsParser> | undefined;

async function factsOfSource(path: string, source: string): Promise<FileFacts> {
  parser ??= FactsParser.create();
  const parsed = await (await parser).parse(path, source, project);
  return parsed.facts!;
}

describe("javascript facts (hand-counted truth)", () => {
  test("server.js: CommonJS exports, prototype methods, object-literal members", async () => {
    const f = await factsOf("js/lib/server.js", project);
    // blank 11 14 20 24 46 49 54 63 73; comments 3-5, 15; the #! line is code
    expect(f.lines).toEqual({ total: 76, code: 63, comment: 4, blank: 9 });
    expect(f.types.map((t) => [t.name, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine])).toEqual([
      ["HealthCheck", "class", true, 1, 1, 47, 53],
    ]);
    expect(functionRows(f)).toEqual([
      ["Server", true, false, 1, 0, 2], // ||
      ["Server.listen", true, true, 1, 1, 2], // ??
      ["Server.handle", true, true, 2, 0, 6], // if, &&, else if, 2 cases
      ["HealthCheck.ok", true, true, 0, 1, 1],
      ["helpers.stats", true, true, 0, 1, 1],
      ["helpers.reset", true, true, 0, 0, 1],
      ["start", true, false, 1, 1, 2], // catch
    ]);
    expect(f.functions.map((fn) => fn.receiverType)).toEqual([undefined, "Server", "Server", "HealthCheck", "helpers", "helpers", undefined]);
    expect(f.functions[0]!.docStartLine).toBe(15);
    expect(f.functions[1]!.signature).toBe("Server.prototype.listen = function (port)");
    expect(f.variables.map((v) => [v.name, v.kind, v.exported, v.startLine])).toEqual([
      ["PORT", "constant", false, 12],
      ["requests", "variable", false, 13],
      ["helpers", "constant", true, 55], // exports.helpers = helpers
      ["VERSION", "variable", true, 76], // exports.VERSION = "0.3.0"
    ]);
    expect(importRows(f)).toEqual([
      ["http", true, false, false, [], "http"],
      ["node:path", true, false, false, [], "path"],
      ["express", false, true, false, [], "express"],
      ["./routes", false, false, true, ["loadRoutes", "NOT_FOUND"], undefined],
      ["shop-legacy/lib/util", false, false, false, [], "util"], // the project's own package
    ]);
    expect(refs(f, "import")).toEqual(["http@6<", "path@7<", "express@8<", "loadRoutes@9<", "NOT_FOUND@9<", "util@10<"]);
    expect(refs(f, "call", "inherit")).toEqual([
      "express@18<Server",
      "http.createServer@22<Server.listen",
      "http.createServer(this.app).listen@22<Server.listen",
      "path.join@27<Server.handle",
      "file.startsWith@30<Server.handle",
      "path.extname@33<Server.handle",
      "res.setHeader@35<Server.handle",
      "res.setHeader@38<Server.handle",
      "res.end@44<Server.handle",
      "Server@47<HealthCheck",
      "util.uptime@57<helpers.stats",
      "Server@65<start",
      "path.resolve@65<start",
      "loadRoutes@67<start",
      "console.error@69<start",
      "server.listen@71<start",
    ]);
    expect(f.references.find((r) => r.line === 47)!.kind).toBe("inherit");
    // module-level values read as operands (`port ?? PORT`, `requests++`, `requests >= 0`) and exported by assignment
    expect(refs(f, "read")).toEqual([
      "PORT@22<Server.listen",
      "requests@26<Server.handle",
      "requests@51<HealthCheck.ok",
      "requests@57<helpers.stats",
      "Server@74<",
      "HealthCheck@74<",
      "start@74<",
      "helpers@75<",
    ]);
    // "require('./missing')" inside the string on line 69 is neither an import nor a call
    expect(f.imports.some((i) => i.module === "./missing")).toBe(false);
  });

  test("routes/index.mjs: ES module exports, dynamic import, generators", async () => {
    const f = await factsOf("js/lib/routes/index.mjs", project);
    expect(f.lines).toEqual({ total: 38, code: 29, comment: 3, blank: 6 }); // blank 4 6 20 24 29 36; comments 7-9
    expect(functionRows(f)).toEqual([
      ["loadRoutes", true, false, 1, 0, 2], // the ?: sits in an anonymous handler and counts here; its return does not
      ["pages", true, false, 2, 1, 2], // a generator returns an iterator; for
      ["readConfig", true, false, 1, 1, 1], // exported as `config` by the list on line 37
      ["handlers.health", true, true, 0, 1, 1],
    ]);
    expect(f.functions[0]!.docStartLine).toBe(7);
    expect(f.variables.map((v) => [v.name, v.kind, v.exported])).toEqual([
      ["NOT_FOUND", "constant", true],
      ["handlers", "constant", true],
    ]);
    expect(importRows(f)).toEqual([
      ["node:fs/promises", true, false, false, ["default"], undefined],
      ["express", false, true, false, ["Router"], undefined],
      ["../db.js", false, false, true, [], "db"],
      ["./extra.mjs", false, false, true, [], "extra"], // const extra = await import("./extra.mjs")
    ]);
    expect(refs(f, "import")).toEqual(["fs@1<", "Router@2<", "db@3<", "extra@17<loadRoutes"]);
    expect(refs(f, "call")).toEqual([
      "Router@11<loadRoutes",
      "router.get@12<loadRoutes",
      "db.findUser@13<loadRoutes",
      "res.json@14<loadRoutes",
      "res.sendStatus@14<loadRoutes",
      "app.use@16<loadRoutes",
      "extra.register@18<loadRoutes",
      "Math.min@22<pages",
      "fs.readFile@26<readConfig",
      "JSON.parse@27<readConfig",
    ]);
    expect(refs(f, "read")).toEqual(["NOT_FOUND@14<loadRoutes", "readConfig@34<handlers", "loadRoutes@38<"]);
  });

  test("App.jsx: JSX components are calls of the component", async () => {
    const f = await factsOf("js/src/App.jsx", project);
    expect(f.lines).toEqual({ total: 22, code: 18, comment: 1, blank: 3 }); // blank 3 17 19; comment 4
    expect(functionRows(f)).toEqual([
      ["App", true, false, 1, 1, 2], // export default function App; ?:
      ["Empty", true, false, 0, 1, 1],
      ["Row", false, false, 1, 1, 2], // &&
    ]);
    expect(importRows(f)).toEqual([
      ["react", false, true, false, ["useEffect", "useState"], undefined],
      ["./Header.jsx", false, false, true, ["default"], undefined],
    ]);
    expect(refs(f, "call").map((r) => r.replace(/^.*\./, "").split("<")[0] + "<" + r.split("<")[1])).toEqual([
      "useState@6<App",
      "useEffect@7<App",
      "list@8<App",
      "then@8<App",
      "catch@8<App",
      "setItems@8<App",
      "Header@12<App",
      "Empty@13<App",
      "map@13<App",
      "Row@13<App",
    ]);
  });

  test("server.test.js: requires in a test file", async () => {
    expect(javascript.isTestFile("test/server.test.js")).toBe(true);
    const f = await factsOf("js/test/server.test.js", project);
    expect(f.lines).toEqual({ total: 14, code: 12, comment: 0, blank: 2 });
    expect([f.functions, f.variables]).toEqual([[], []]);
    expect(importRows(f)).toEqual([
      ["node:assert/strict", true, false, false, [], "assert"],
      ["node:test", true, false, false, ["test"], undefined],
      ["../lib/server", false, false, true, ["Server", "start"], undefined],
    ]);
    expect(refs(f, "call").map((r) => r.split("<")[0])).toEqual([
      "test@5",
      "Server@6",
      "assert.equal@7",
      "test@10",
      "start@11",
      "t.after@12",
      "server.close@12",
      "assert.ok@13",
    ]);
  });

  test("util.js: an arrow function exported through exports.x", async () => {
    const f = await factsOf("js/lib/util.js", project);
    expect(f.lines).toEqual({ total: 4, code: 2, comment: 1, blank: 1 });
    expect(functionRows(f)).toEqual([["uptime", true, false, 0, 1, 1]]);
    expect(f.variables.map((v) => [v.name, v.exported])).toEqual([["started", false]]);
    expect(refs(f, "call")).toEqual(["Date.now@2<started", "Date.now@4<uptime"]);
  });
});

describe("javascript edge cases", () => {
  test("exported by export lists, export default and module.exports; not by a local name", async () => {
    const f = await factsOfSource(
      "edge.js",
      [
        "function a() {}", //                 1 exported by the list below
        "function b() {}", //                 2 exported by `export default b`
        "function c() {}", //                 3 not exported
        "const d = () => 1, e = function () { return 2; };", // 4: two functions
        "module.exports = function () {};", // 5: the module's default
        "export { a as renamed };",
        "export default b;",
      ].join("\n"),
    );
    expect(functionRows(f)).toEqual([
      ["a", true, false, 0, 0, 1],
      ["b", true, false, 0, 0, 1],
      ["c", false, false, 0, 0, 1],
      ["d", false, false, 0, 1, 1],
      ["e", false, false, 0, 1, 1],
      ["default", true, false, 0, 0, 1],
    ]);
  });

  test("a return inside a callback is the callback's, a decision inside it the enclosing function's", async () => {
    const f = await factsOfSource("cb.js", "function outer(xs) {\n  xs.forEach((x) => { if (x) { return x; } });\n}\n");
    expect(functionRows(f)).toEqual([["outer", false, false, 1, 0, 2]]);
  });

  test("several functions on one line keep their own decisions (minified code)", async () => {
    const f = await factsOfSource("min.js", "function p(a){return a?1:2}function q(b){return b&&b.c||0}var r=function(){for(;;){}};");
    expect(functionRows(f)).toEqual([
      ["p", false, false, 1, 1, 2],
      ["q", false, false, 1, 1, 3],
      ["r", false, false, 0, 0, 2],
    ]);
  });

  test("a deep expression is extracted whole (no recursion limit, every decision counted)", async () => {
    const terms = 5000;
    const source = `function deep(x) {\n  return ${Array.from({ length: terms }, (_, i) => `x[${i}]`).join(" && ")};\n}\n`;
    const f = await factsOfSource("deep.js", source);
    expect(functionRows(f)).toEqual([["deep", false, false, 1, 1, terms]]);
  });

  test("getters and setters, static and private members, class expressions bound to a name", async () => {
    const f = await factsOfSource(
      "cls.mjs",
      [
        "export const Point = class {",
        "  #x = 0;",
        "  static origin = new Point();",
        "  get x() { return this.#x; }",
        "  set x(v) { this.#x = v; }",
        "  #secret() { return 1; }",
        "};",
      ].join("\n"),
    );
    expect(f.types.map((t) => [t.name, t.kind, t.exported, t.fieldCount, t.methodCount])).toEqual([["Point", "class", true, 2, 2]]);
    expect(functionRows(f)).toEqual([
      ["Point.x", true, true, 0, 1, 1],
      ["Point.x", true, true, 1, 0, 1],
      ["Point.#secret", false, true, 0, 1, 1],
    ]);
  });
});

describe("javascript module", () => {
  test("extensions map to javascript and jsx", () => {
    for (const p of ["a.js", "a.mjs", "a.cjs"]) expect(languageFor(p).language).toBe("javascript");
    expect(languageFor("src/App.jsx").language).toBe("jsx");
    expect(jsx.grammar).toBe("tree-sitter-javascript.wasm");
    expect(languageFor("package.json").language).toBe("json");
  });
});
