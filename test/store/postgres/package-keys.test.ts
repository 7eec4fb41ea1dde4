/**
 * Package keys (src/store/postgres/package-keys.ts): what a file provides to importers in other
 * repositories, and what an open import site asks for, per language.
 */
import { expect, test } from "bun:test";
import { ProvidedKeys, requestedKeys } from "../../../src/store/postgres/package-keys.ts";
import { emptyProjectInfo, type ProjectInfo } from "../../../src/lang/project.ts";
import { dirOf } from "../../../src/core/rel-path.ts";

function provider(project: Partial<ProjectInfo>, paths: string[]): ProvidedKeys {
  const info = { ...emptyProjectInfo(), ...project };
  const set = new Set(paths);
  return new ProvidedKeys(info, { project: info, has: (p) => set.has(p), inDir: (d) => paths.filter((p) => dirOf(p) === d) });
}

test("Go: the module path and folder of the innermost module; commands, external tests and vendored code provide nothing", () => {
  const p = provider(
    {
      goModules: [
        { dir: "", module: "example.com/lib" },
        { dir: "tools", module: "example.com/lib/tools" },
        { dir: "", module: "std" },
      ],
    },
    [],
  );
  expect(p.of("strs/strs.go", "go", "strs")).toEqual([{ key: "example.com/lib/strs", binds: "strs" }]);
  expect(p.of("root.go", "go", "lib")).toEqual([{ key: "example.com/lib", binds: "lib" }]);
  expect(p.of("tools/gen/gen.go", "go", "gen")).toEqual([{ key: "example.com/lib/tools/gen", binds: "gen" }]);
  expect(p.of("cmd/app/main.go", "go", "main")).toEqual([]);
  expect(p.of("strs/x_test.go", "go", "strs_test")).toEqual([]);
  expect(p.of("strs/strs_test.go", "go", "strs")).toEqual([]);
  expect(p.of("vendor/github.com/x/y/y.go", "go", "y")).toEqual([]);
  expect(requestedKeys("go", { module: "example.com/lib/strs", symbols: [] })).toEqual(["example.com/lib/strs"]);
});

test("Python: modules of the repository's top-level packages only", () => {
  const p = provider({ pythonTopLevel: ["acme"] }, []);
  expect(p.of("acme/text.py", "python", "acme.text")).toEqual([{ key: "acme.text", binds: "text" }]);
  expect(p.of("setup.py", "python", "setup")).toEqual([]);
  expect(requestedKeys("python", { module: "acme.text", symbols: ["slugify"] })).toEqual(["acme.text.slugify", "acme.text", "acme"]);
  expect(requestedKeys("python", { module: ".sibling", symbols: [] })).toEqual([]);
});

test("TypeScript: a package's entry point by its name, exports subpaths and source files by path", () => {
  const files = ["packages/kit/src/index.ts", "packages/kit/src/util/strings.ts", "packages/kit/src/extra.ts"];
  const p = provider(
    { npmWorkspaces: [{ name: "@acme/kit", dir: "packages/kit", entries: ["dist/index.js"], exports: { "./extra": "./dist/extra.js" } }] },
    files,
  );
  expect(p.of("packages/kit/src/index.ts", "typescript", null).map((k) => k.key)).toEqual([
    "@acme/kit",
    "@acme/kit/src/index",
    "@acme/kit/index",
    "@acme/kit/src",
  ]);
  expect(p.of("packages/kit/src/util/strings.ts", "typescript", null).map((k) => k.key)).toEqual(["@acme/kit/src/util/strings", "@acme/kit/util/strings"]);
  expect(p.of("packages/kit/src/extra.ts", "typescript", null).map((k) => k.key)).toContain("@acme/kit/extra");
  expect(requestedKeys("typescript", { module: "@acme/kit/util/strings", symbols: ["upper"] })).toEqual(["@acme/kit/util/strings"]);
});

test("Java and Kotlin: the package and the type named after the file; an import asks for every prefix", () => {
  const p = provider({ jvmPackages: { "com.acme.util": ["src/main/java/com/acme/util"] } }, []);
  expect(p.of("src/main/java/com/acme/util/Strings.java", "java", "com.acme.util")).toEqual([
    { key: "com.acme.util", binds: null },
    { key: "com.acme.util.Strings", binds: "Strings" },
  ]);
  expect(requestedKeys("java", { module: "com.acme.util.Strings.shout", symbols: [] })).toEqual([
    "com.acme.util.Strings.shout",
    "com.acme.util.Strings",
    "com.acme.util",
    "com.acme",
    "com",
  ]);
  expect(requestedKeys("kotlin", { module: "com.acme.util.*", symbols: [] })[0]).toBe("com.acme.util");
});

test("Rust: a crate's root and modules; a use asks for its path with each symbol", () => {
  const p = provider({ rustCrateDirs: [{ name: "acme_text", dir: "" }] }, []);
  expect(p.of("src/lib.rs", "rust", null)).toEqual([{ key: "acme_text", binds: "acme_text" }]);
  expect(p.of("src/case.rs", "rust", null)).toEqual([{ key: "acme_text::case", binds: "case" }]);
  expect(p.of("src/fmt/mod.rs", "rust", null)).toEqual([{ key: "acme_text::fmt", binds: "fmt" }]);
  expect(requestedKeys("rust", { module: "acme_text::case", symbols: ["shout"] })).toEqual(["acme_text::case::shout", "acme_text::case", "acme_text"]);
});

test("languages without importable packages ask for and provide nothing", () => {
  expect(provider({}, []).of("src/x.c", "c", null)).toEqual([]);
  expect(requestedKeys("c", { module: "util.h", symbols: [] })).toEqual([]);
});
