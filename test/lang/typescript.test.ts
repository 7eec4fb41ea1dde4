/**
 * TypeScript and TSX facts over test/fixtures/polyglot/ts, against counts made by hand from the fixture
 * sources (line numbers in the comments refer to those files).
 */
import { describe, expect, test } from "bun:test";
import { commonInvariants, factsOf } from "./common.case.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import type { FileFacts } from "../../src/lang/types.ts";
import { typescript, tsx } from "../../src/lang/typescript.ts";
import { languageFor } from "../../src/lang/registry.ts";
import { FactsParser } from "../../src/lang/parser.ts";

const project = { ...emptyProjectInfo(), npmPackages: ["@shop/core", "@shop/web", "shop-legacy"] };

commonInvariants(
  "typescript",
  [
    "ts/src/models/user.ts",
    "ts/src/services/user-service.ts",
    "ts/src/services/user-service.test.ts",
    "ts/src/types/globals.d.ts",
    "ts/packages/core/src/index.ts",
    "ts/packages/core/src/clock.ts",
  ],
  project,
);
commonInvariants("tsx", ["ts/src/components/UserCard.tsx"], project);

/** [qualifiedName, kind, exported, fieldCount, methodCount] */
const typeRows = (f: FileFacts) => f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount]);
/** [qualifiedName, exported, isMethod, paramCount, returnCount, complexity] */
const functionRows = (f: FileFacts) => f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.paramCount, fn.returnCount, fn.complexity]);
/** [module, std, external, relative, symbols, alias] */
const importRows = (f: FileFacts) => f.imports.map((i) => [i.module, i.isStandardLib, i.isExternal, i.isRelative, i.symbols, i.alias]);
/** `qualifier.name@line<enclosing` for references of the given kinds */
const refs = (f: FileFacts, ...kinds: string[]) =>
  f.references.filter((r) => kinds.includes(r.kind)).map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);

let parser: Promise<FactsParser> | undefined;
async function factsOfSource(path: string, lines: string[]): Promise<FileFacts> {
  parser ??= FactsParser.create();
  const parsed = await (await parser).parse(path, lines.join("\n") + "\n", project);
  expect(parsed.facts!.syntaxErrors).toBe(0);
  return parsed.facts!;
}

describe("typescript facts (hand-counted truth)", () => {
  test("user.ts: enum, type alias, interfaces, abstract class, namespace", async () => {
    const f = await factsOf("ts/src/models/user.ts", project);
    // blank 6 13 15 24 29 33 35 40 45 49 54 57 61 66; comments 1-4, 7, 16, 30
    expect(f.lines).toEqual({ total: 68, code: 47, comment: 7, blank: 14 });
    expect(typeRows(f)).toEqual([
      ["Role", "enum", true, 3, 0],
      ["UserId", "type_alias", true, 0, 0],
      ["User", "interface", true, 4, 1],
      ["Repository", "interface", true, 0, 2],
      ["Entity", "class", true, 2, 2], // parameter properties id, createdAt; describe, age
      ["Admin", "class", true, 3, 2], // name, role, #secret; greet, describe
      ["Roles", "namespace", true, 0, 0],
      ["Roles.Cache", "class", false, 1, 0],
    ]);
    expect(f.types.map((t) => [t.name, t.startLine, t.endLine, t.docStartLine, t.container])).toEqual([
      ["Role", 8, 12, 7, undefined],
      ["UserId", 14, 14, undefined, undefined],
      ["User", 17, 23, 16, undefined],
      ["Repository", 25, 28, undefined, undefined],
      ["Entity", 31, 39, 30, undefined],
      ["Admin", 41, 53, undefined, undefined],
      ["Roles", 55, 65, undefined, undefined],
      ["Cache", 62, 64, undefined, "Roles"],
    ]);
    expect(functionRows(f)).toEqual([
      ["User.greet", true, true, 1, 1, 1], // an interface's method signatures are its methods
      ["Repository.find", true, true, 1, 1, 1],
      ["Repository.save", true, true, 1, 0, 1], // Promise<void>
      ["Entity.constructor", true, true, 2, 0, 1],
      ["Entity.describe", true, true, 0, 1, 1],
      ["Entity.age", true, true, 1, 1, 1],
      ["Admin.greet", true, true, 1, 1, 2], // ?:
      ["Admin.describe", true, true, 0, 1, 1],
      ["Roles.canEdit", true, false, 1, 1, 2], // ||
    ]);
    const fn = (qn: string) => f.functions.find((x) => x.qualifiedName === qn)!;
    const describeAbstract = fn("Entity.describe");
    expect([describeAbstract.bodyLines, describeAbstract.receiverType, describeAbstract.signature]).toEqual([0, "Entity", "abstract describe(): string"]);
    expect(fn("Entity.age").bodyLines).toBe(3);
    const find = fn("Repository.find");
    expect([find.startLine, find.endLine, find.bodyLines, find.receiverType, find.signature]).toEqual([
      26,
      26,
      0,
      "Repository",
      "find(id: UserId): Promise<T | undefined>",
    ]);
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported, v.startLine, v.container])).toEqual([
      ["Role.Admin", "enum_member", true, 9, "Role"],
      ["Role.Editor", "enum_member", true, 10, "Role"],
      ["Role.Viewer", "enum_member", true, 11, "Role"],
      ["Roles.all", "constant", true, 56, "Roles"],
      ["DEFAULT_ROLE", "constant", true, 67, undefined], // exported by `export { DEFAULT_ROLE as defaultRole }`
    ]);
    expect(importRows(f)).toEqual([["@shop/core", false, false, false, ["Clock"], undefined]]);
    expect(refs(f, "call")).toEqual(["clock.now@37<Entity.age", "Map@63<Roles.Cache"]);
    expect(refs(f, "inherit", "implement")).toEqual(["Iterable@25<Repository", "Entity@41<Admin", "User@41<Admin"]);
    expect(f.references.filter((r) => r.kind === "implement").map((r) => r.name)).toEqual(["User"]);
    expect(refs(f, "type")).toEqual([
      "UserId@18<User",
      "Role@21<User",
      "UserId@26<Repository.find", // T (a type parameter) and Promise (a lib type) are not references
      "UserId@32<Entity.constructor",
      "Clock@36<Entity.age",
      "Role@56<Roles.all",
      "Role@58<Roles.canEdit",
      "Role@63<Roles.Cache",
    ]);
    // `repo.save(user)` in the comment on line 3 and "save(user)" in the string on line 44 are not calls
    expect(f.references.filter((r) => r.line === 3 || r.line === 44)).toEqual([]);
  });

  test("user-service.ts: class members, decorators, overloads, complexity, import classes", async () => {
    const f = await factsOf("ts/src/services/user-service.ts", project);
    // blank 9 11 18 22 27 32 41 48 52 58 75 77 87; comments 1-3, 12, 59
    expect(f.lines).toEqual({ total: 88, code: 70, comment: 5, blank: 13 });
    expect(typeRows(f)).toEqual([["UserService", "class", true, 3, 6]]); // users, instances, clock; find…countBy
    expect(functionRows(f)).toEqual([
      ["logged", false, false, 1, 1, 1],
      ["UserService.constructor", true, true, 1, 0, 1],
      ["UserService.find", true, true, 1, 1, 1],
      ["UserService.save", true, true, 1, 0, 4], // if, else if, &&
      ["UserService.create", true, true, 1, 1, 2], // ??
      ["UserService.size", true, true, 0, 1, 1],
      ["UserService.[Symbol.iterator]", true, true, 0, 1, 2], // for-of
      ["UserService.countBy", true, true, 1, 1, 6], // for-of, 2 cases, 2 ?:
      ["formatUser", true, false, 2, 1, 2],
      ["parseRole", true, false, 2, 1, 3], // the implementation, not the overloads on 78-79; catch, ||
    ]);
    const byName = new Map(f.functions.map((fn) => [fn.qualifiedName, fn]));
    expect(byName.get("logged")!.docStartLine).toBe(12);
    expect(byName.get("UserService.find")!.startLine).toBe(29); // the decorator on 28 is not the method's start
    expect(byName.get("UserService.find")!.signature).toBe("async find(id: string): Promise<User | undefined>");
    expect(byName.get("UserService.countBy")!.docStartLine).toBe(59);
    expect(byName.get("UserService.save")!.receiverType).toBe("UserService");
    expect(byName.get("parseRole")!.startLine).toBe(80);
    expect(byName.get("formatUser")!.signature).toBe("const formatUser = (u: User, verbose = false): string =>");
    expect(f.variables.map((v) => [v.name, v.kind, v.exported])).toEqual([["UserInput", "constant", false]]);
    expect(importRows(f)).toEqual([
      ["node:crypto", true, false, false, ["randomUUID"], undefined],
      ["events", true, false, false, ["EventEmitter"], undefined],
      ["zod", false, true, false, ["z"], undefined],
      ["@shop/core", false, false, false, [], "core"],
      ["../models/user.js", false, false, true, ["Admin", "Role", "Repository", "User"], undefined],
    ]);
    expect(refs(f, "import")).toEqual(["randomUUID@4<", "EventEmitter@5<", "z@6<", "core@7<", "Admin@8<", "Role@8<", "Repository@8<", "User@8<"]);
    expect(refs(f, "call")).toEqual([
      "z.object@10<UserInput",
      "z.string@10<UserInput",
      "z.nativeEnum@10<UserInput",
      "console.log@15<logged",
      "Map@20<UserService",
      "logged@28<UserService.find", // the decorator belongs to the method it decorates
      "this.users.get@30<UserService.find",
      "Error@35<UserService.save",
      "this.users.has@36<UserService.save",
      "this.emit@37<UserService.save",
      "this.users.set@39<UserService.save",
      "UserInput.parse@43<UserService.create",
      "Admin@44<UserService.create",
      "randomUUID@44<UserService.create",
      "this.clock.now@44<UserService.create",
      "this.users.values@54<UserService.[Symbol.iterator]",
      "core.enumValue@82<parseRole",
    ]);
    expect(refs(f, "inherit", "implement")).toEqual(["EventEmitter@19<UserService", "Repository@19<UserService"]);
    expect(f.references.find((r) => r.name === "Repository" && r.line === 19)!.kind).toBe("implement");
    expect(refs(f, "type").filter((r) => r.startsWith("core."))).toEqual(["core.Clock@23<UserService.constructor"]);
    // `export default UserService` reads the class: a rename must change it too
    // members of imported and module-level names: an enum's (Role.Admin), a class's static (instances)
    expect(refs(f, "read")).toEqual([
      "Role@10<UserInput",
      "UserService.instances@25<UserService.constructor",
      "Role.Admin@36<UserService.save",
      "Role.Admin@64<UserService.countBy",
      "Role.Editor@65<UserService.countBy",
      "Role.Viewer@69<UserService.countBy",
      "Role@82<parseRole",
      "Role.Viewer@84<parseRole",
      "UserService@88<",
    ]);
  });

  test("user-service.test.ts: a test file with only anonymous callbacks", async () => {
    expect(typescript.isTestFile("src/services/user-service.test.ts")).toBe(true);
    const f = await factsOf("ts/src/services/user-service.test.ts", project);
    expect(f.lines).toEqual({ total: 18, code: 16, comment: 0, blank: 2 }); // blank 5, 14
    expect([f.types, f.functions, f.variables]).toEqual([[], [], []]);
    expect(importRows(f)).toEqual([
      ["bun:test", true, false, false, ["describe", "expect", "it"], undefined],
      ["@shop/core/clock", false, false, false, ["systemClock"], undefined],
      ["./user-service", false, false, true, ["default", "parseRole"], undefined],
      ["../models/user", false, false, true, ["Role"], undefined],
    ]);
    expect(refs(f, "call").map((r) => r.split("<")[0])).toEqual([
      "describe@6",
      "it@7",
      "UserService@8",
      "service.create@9",
      "expect@10",
      "expect(user.id.length).toBeGreaterThan@10",
      "service.save@11",
      "expect@12",
      "expect(service.size).toBe@12",
      "it@15",
      "expect@16",
      "parseRole@16",
      'expect(parseRole("nope")).toBe@16',
    ]);
    expect(refs(f, "read")).toEqual(["systemClock@8<", "Role.Editor@9<", "Role.Viewer@16<"]);
  });

  test("UserCard.tsx: components are calls, nested arrow functions are named", async () => {
    const f = await factsOf("ts/src/components/UserCard.tsx", project);
    // blank 4 9 25 27; comments 10-12 (line 18 holds a JSX comment inside braces: code)
    expect(f.lines).toEqual({ total: 28, code: 21, comment: 3, blank: 4 });
    expect(typeRows(f)).toEqual([["UserCardProps", "interface", true, 2, 0]]);
    expect(functionRows(f)).toEqual([
      ["UserCard", true, false, 1, 1, 3], // &&, ?:
      ["UserCard.toggle", false, false, 0, 1, 1],
      ["Avatar", false, false, 1, 1, 1],
    ]);
    expect(f.functions[0]!.docStartLine).toBe(10);
    expect(importRows(f)).toEqual([
      ["react", false, true, false, ["default", "useState"], undefined],
      ["../models/user", false, false, true, ["User"], undefined],
      ["./ui", false, false, true, [], "ui"],
    ]);
    expect(refs(f, "call")).toEqual([
      "useState@14<UserCard",
      "setOpen@15<UserCard.toggle",
      "ui.Panel@17<UserCard", // <ui.Panel>; the closing tag is not another use
      "Avatar@19<UserCard", // <a>, <span>, <button>, <img> are elements, not components
      "onSelect@21<UserCard",
      "React.memo@28<",
    ]);
    expect(refs(f, "type")).toEqual(["User@6<UserCardProps", "UserCardProps@13<UserCard", "User@26<Avatar"]);
    expect(refs(f, "read")).toEqual(["UserCard@28<"]);
    // "<Avatar />" inside the doc comment on line 11 is not a component use
    expect(f.references.filter((r) => r.line === 11)).toEqual([]);
  });

  test("globals.d.ts: a global declaration script exports everything it declares", async () => {
    const f = await factsOf("ts/src/types/globals.d.ts", project);
    expect(f.lines).toEqual({ total: 20, code: 14, comment: 1, blank: 5 }); // blank 2 4 6 10 15
    expect(typeRows(f)).toEqual([
      ["Window", "interface", true, 1, 0],
      ["Legacy", "namespace", true, 0, 0],
      ["legacy-widgets", "module", true, 0, 0],
      ["legacy-widgets.Widget", "class", true, 0, 1],
    ]);
    expect(f.types[3]!.container).toBe("legacy-widgets");
    expect(functionRows(f)).toEqual([
      ["track", true, false, 2, 0, 1],
      ["Legacy.boot", true, false, 1, 0, 1], // Promise<void>
      ["legacy-widgets.Widget.mount", true, true, 1, 0, 1],
    ]);
    expect(f.functions.map((fn) => fn.bodyLines)).toEqual([0, 0, 0]);
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported])).toEqual([
      ["BUILD_ID", "constant", true],
      ["Legacy.version", "constant", true],
    ]);
    expect(refs(f, "type")).toEqual(["HTMLElement@12<Legacy.boot", "HTMLElement@18<legacy-widgets.Widget.mount"]);
  });

  test("a workspace package: re-exports are imports, type parameters are not references", async () => {
    const index = await factsOf("ts/packages/core/src/index.ts", project);
    expect(index.lines).toEqual({ total: 9, code: 7, comment: 1, blank: 1 });
    expect(importRows(index)).toEqual([
      ["./clock.js", false, false, true, [], undefined],
      ["./clock.js", false, false, true, ["Clock"], undefined],
    ]);
    expect(functionRows(index)).toEqual([["enumValue", true, false, 2, 1, 2]]);
    expect(refs(index, "call")).toEqual(["Object.values@6<enumValue", "Object.values(e).find@6<enumValue", "RangeError@7<enumValue"]);
    expect(refs(index, "type")).toEqual([]); // E is a type parameter, Record a lib type
    const clock = await factsOf("ts/packages/core/src/clock.ts", project);
    expect(clock.lines).toEqual({ total: 6, code: 4, comment: 1, blank: 1 });
    expect(typeRows(clock)).toEqual([["Clock", "interface", true, 0, 1]]);
    expect(functionRows(clock)).toEqual([
      ["Clock.now", true, true, 0, 1, 1],
      ["systemClock.now", true, true, 0, 1, 1],
    ]);
    expect(clock.functions.map((fn) => fn.receiverType)).toEqual(["Clock", "systemClock"]);
    expect(clock.variables.map((v) => [v.name, v.kind, v.exported])).toEqual([["systemClock", "constant", true]]);
    expect(refs(clock, "call", "type")).toEqual(["Clock@6<systemClock", "Date.now@6<systemClock.now"]);
  });
});

describe("typescript edge cases", () => {
  test("decorated exported class, method overloads, namespace members with and without export", async () => {
    const f = await factsOfSource("svc.ts", [
      "@Injectable({ providedIn: 'root' })", //         1
      "export class Api {", //                          2
      "  get(id: string): string;", //                  3 overload
      "  get(id: number): string;", //                  4 overload
      "  get(id: any): string { return String(id); }", // 5
      "  protected log(): void {}", //                  6
      "}", //                                           7
      "export namespace Util {", //                     8
      "  export const A = 1;", //                       9
      "  const B = 2;", //                              10
      "  export namespace Inner { export function f(): void {} }", // 11
      "}", //                                           12
    ]);
    expect(typeRows(f)).toEqual([
      ["Api", "class", true, 0, 2],
      ["Util", "namespace", true, 0, 0],
      ["Util.Inner", "namespace", true, 0, 0],
    ]);
    expect(f.types[0]!.startLine).toBe(2); // the class keyword, not its decorator
    expect(functionRows(f)).toEqual([
      ["Api.get", true, true, 1, 1, 1], // one function: the implementation on line 5
      ["Api.log", false, true, 0, 0, 1], // protected
      ["Util.Inner.f", true, false, 0, 0, 1],
    ]);
    expect(f.functions[0]!.startLine).toBe(5);
    expect(f.variables.map((v) => [v.qualifiedName, v.exported, v.container])).toEqual([
      ["Util.A", true, "Util"],
      ["Util.B", false, "Util"],
    ]);
    expect(refs(f, "call")).toEqual(["Injectable@1<Api", "String@5<Api.get"]);
  });

  test("import = require, export * as, namespace reads, generic heritage through a namespace", async () => {
    const f = await factsOfSource("mod.ts", [
      'import fs = require("fs");', //                            1
      'import * as cfg from "./config";', //                      2
      'export * as models from "./models";', //                   3
      'export { default as Button, type Props } from "./button";', // 4
      "export class Store extends cfg.Base<number> implements cfg.Named<string>, Disposable {", // 5
      "  port = cfg.PORT;", //                                    6
      "  read(): Buffer { return fs.readFileSync(cfg.path); }", // 7
      "}", //                                                     8
    ]);
    expect(importRows(f)).toEqual([
      ["fs", true, false, false, [], "fs"],
      ["./config", false, false, true, [], "cfg"],
      ["./models", false, false, true, [], "models"],
      ["./button", false, false, true, ["default", "Props"], undefined],
    ]);
    expect(refs(f, "import")).toEqual(["fs@1<", "cfg@2<"]);
    expect(refs(f, "inherit", "implement")).toEqual(["cfg.Base@5<Store", "cfg.Named@5<Store", "Disposable@5<Store"]);
    expect(f.references.filter((r) => r.line === 5).map((r) => r.kind)).toEqual(["inherit", "implement", "implement"]);
    expect(refs(f, "read")).toEqual(["cfg.PORT@6<Store", "cfg.path@7<Store.read"]);
    expect(refs(f, "call")).toEqual(["fs.readFileSync@7<Store.read"]);
    expect(refs(f, "type")).toEqual(["Buffer@7<Store.read"]);
  });

  test("declare global, export declare, module files are not global scripts", async () => {
    const f = await factsOfSource("env.d.ts", [
      "export {};", //                                   1: a module: top-level declarations are not global
      "declare global {", //                             2
      "  const VERSION: string;", //                     3
      "  interface Window { app: App }", //             4
      "}", //                                            5
      "declare function local(): void;", //              6
      "export declare function shared(x: number): x is 1;", // 7
      "interface App { start(): Promise<void> }", //    8
    ]);
    expect(typeRows(f)).toEqual([
      ["Window", "interface", true, 1, 0],
      ["App", "interface", false, 0, 1],
    ]);
    expect(functionRows(f)).toEqual([
      ["local", false, false, 0, 0, 1],
      ["shared", true, false, 1, 1, 1], // a type predicate returns a boolean
      ["App.start", false, true, 0, 0, 1], // Promise<void>
    ]);
    expect(f.variables.map((v) => [v.name, v.exported])).toEqual([["VERSION", true]]);
  });

  test("objects qualify their members; satisfies and as const keep the binding", async () => {
    const f = await factsOfSource("routes.ts", [
      "export const api = {", //                         1
      "  users: {", //                                   2
      "    list() { return []; },", //                   3
      "    get: async (id: string) => id,", //           4
      "  },", //                                         5
      "} as const;", //                                  6
      "const handlers = { ping: () => 'pong' } satisfies Record<string, () => string>;", // 7
      "register({ onEvent(e: Event) { if (e) {} } });", // 8
      "export default { name: 'x', setup() { return {}; } };", // 9
    ]);
    expect(functionRows(f)).toEqual([
      ["api.users.list", true, true, 0, 1, 1],
      ["api.users.get", true, true, 1, 1, 1],
      ["handlers.ping", false, true, 0, 1, 1],
      ["onEvent", false, true, 1, 0, 2], // an object passed as an argument has no name to qualify with
      ["default.setup", true, true, 0, 1, 1],
    ]);
    expect(f.functions.map((fn) => fn.receiverType)).toEqual(["api.users", "api.users", "handlers", undefined, "default"]);
    expect(f.variables.map((v) => [v.name, v.exported])).toEqual([
      ["api", true],
      ["handlers", false],
    ]);
  });
});

describe("typescript module", () => {
  test("extensions map to typescript and tsx", () => {
    for (const p of ["a.ts", "a.mts", "a.cts", "types/a.d.ts", "lib.d.mts"]) expect(languageFor(p).language).toBe("typescript");
    expect(languageFor("App.tsx").language).toBe("tsx");
    expect(tsx.grammar).toBe("tree-sitter-tsx.wasm");
  });

  test("test files by suffix and by folder", () => {
    for (const p of ["a.test.ts", "src/a.spec.tsx", "src/__tests__/a.ts", "test/a.ts", "pkg/tests/helpers/a.ts", "e2e/login.spec.mts"]) {
      expect(typescript.isTestFile(p)).toBe(true);
    }
    for (const p of ["src/test-utils.ts", "src/testing.ts", "src/contest/a.ts", "latest.ts", "src/a.tests.ts"]) {
      expect(typescript.isTestFile(p)).toBe(false);
    }
  });
});
