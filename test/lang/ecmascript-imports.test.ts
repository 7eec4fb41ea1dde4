/**
 * Import classification and resolution of TypeScript / JavaScript specifiers, against the fixture
 * projects' real package.json files (read by the indexer's buildProjectInfo) and file lists.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { FIXTURE_ROOT, factsOf } from "./common.case.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { classifySpecifier, normalizePath, npmWorkspaceOf } from "../../src/lang/ecmascript-imports.ts";
import { emptyProjectInfo, type ProjectInfo } from "../../src/lang/project.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import { typescript } from "../../src/lang/typescript.ts";
import { javascript } from "../../src/lang/javascript.ts";

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"));
}

/** The fixture folder as a project: its files and the ProjectInfo the indexer would build for it. */
function fixtureProject(name: string): { root: string; files: ProjectFiles } {
  const root = join(FIXTURE_ROOT, name);
  const paths = filesUnder(root);
  const project = buildProjectInfo(root, paths);
  const set = new Set(paths);
  return {
    root,
    files: {
      project,
      has: (p) => set.has(p),
      inDir: (d) => paths.filter((p) => p.slice(0, Math.max(0, p.lastIndexOf("/"))) === d),
    },
  };
}

/** Every import of a fixture file with what it resolves to. */
async function resolved(fixture: string, path: string, files: ProjectFiles): Promise<Array<[string, string[]]>> {
  const facts = await factsOf(`${fixture}/${path}`, files.project);
  const m = path.endsWith(".ts") || path.endsWith(".tsx") ? typescript : javascript;
  return facts.imports.map((i) => [i.module, m.resolveImport!(i, path, files)]);
}

const cls = (spec: string, project: ProjectInfo = emptyProjectInfo()) => {
  const c = classifySpecifier(spec, project);
  return c.isRelative ? "relative" : c.isStandardLib ? "std" : c.isExternal ? "external" : "project";
};

describe("classifySpecifier", () => {
  test("Node built-ins with and without node:, their subpaths, and Bun's modules are the standard library", () => {
    for (const s of [
      "fs",
      "node:fs",
      "fs/promises",
      "node:fs/promises",
      "path/posix",
      "stream/web",
      "util/types",
      "node:test",
      "node:sqlite",
      "bun:sqlite",
      "child_process",
    ]) {
      expect(`${s}: ${cls(s)}`).toBe(`${s}: std`);
    }
  });

  test("names that only exist with node: stay packages without it", () => {
    expect(cls("test")).toBe("external");
    expect(cls("sqlite")).toBe("external");
    expect(cls("fsevents")).toBe("external");
    expect(cls("path-browserify")).toBe("external");
  });

  test("relative paths, packages, scoped packages, URLs", () => {
    expect(cls("./a")).toBe("relative");
    expect(cls("../a/b.js")).toBe("relative");
    expect(cls(".")).toBe("relative");
    expect(cls("lodash/fp")).toBe("external");
    expect(cls("@scope/pkg/deep/path")).toBe("external");
    expect(cls("https://deno.land/std/path/mod.ts")).toBe("external");
    expect(cls("npm:left-pad")).toBe("external");
  });

  test("the project's own packages and specifiers no npm package can have are the project's", () => {
    const project = { ...emptyProjectInfo(), npmPackages: ["@shop/core", "shop-legacy"] };
    expect(cls("@shop/core", project)).toBe("project");
    expect(cls("@shop/core/clock", project)).toBe("project");
    expect(cls("shop-legacy/lib/util", project)).toBe("project");
    expect(cls("@shop/other", project)).toBe("external");
    expect(cls("@/components/Button")).toBe("project"); // tsconfig path alias
    expect(cls("~/lib/db")).toBe("project");
    expect(cls("#internal/db")).toBe("project"); // package.json "imports"
    expect(cls("JSONStream")).toBe("external"); // npm allowed upper case before 2017
  });
});

describe("npmWorkspaceOf", () => {
  test("entries come most source-like first; subpath exports are kept", () => {
    const ws = npmWorkspaceOf(
      {
        name: "@a/b",
        main: "./dist/index.cjs",
        module: "./dist/index.mjs",
        types: "./dist/index.d.ts",
        exports: {
          ".": { require: "./dist/index.cjs", import: { types: "./dist/index.d.mts", default: "./dist/index.mjs" } },
          "./utils/*": "./dist/utils/*.js",
          "./package.json": "./package.json",
        },
      },
      "packages/b",
    );
    expect(ws).toEqual({
      name: "@a/b",
      dir: "packages/b",
      entries: ["./dist/index.d.mts", "./dist/index.mjs", "./dist/index.cjs", "./dist/index.d.ts"],
      exports: { "./utils/*": "./dist/utils/*.js", "./package.json": "./package.json" },
    });
  });

  test("a manifest without a name declares no package", () => {
    expect(npmWorkspaceOf({ private: true }, "")).toBeUndefined();
    expect(npmWorkspaceOf(null, "")).toBeUndefined();
    expect(npmWorkspaceOf({ name: "x", exports: { import: "./i.js", require: "./r.cjs" } }, "")?.entries).toEqual(["./i.js", "./r.cjs"]);
  });
});

describe("resolveImport", () => {
  test("buildProjectInfo reads every package.json of the TypeScript fixture", () => {
    const { files } = fixtureProject("ts");
    expect(files.project.npmPackages).toEqual(["@shop/core", "@shop/web"]);
    expect(files.project.npmWorkspaces?.map((w) => [w.name, w.dir])).toEqual([
      ["@shop/core", "packages/core"],
      ["@shop/web", ""],
    ]);
  });

  test("TypeScript: .js written for .ts, extensionless paths, folder packages through exports and dist → src", async () => {
    const { files } = fixtureProject("ts");
    expect(await resolved("ts", "src/services/user-service.ts", files)).toEqual([
      ["node:crypto", []],
      ["events", []],
      ["zod", []],
      ["@shop/core", ["packages/core/src/index.ts"]], // exports "." → ./dist/index.d.ts, built from src/index.ts
      ["../models/user.js", ["src/models/user.ts"]],
    ]);
    expect(await resolved("ts", "src/services/user-service.test.ts", files)).toEqual([
      ["bun:test", []],
      ["@shop/core/clock", ["packages/core/src/clock.ts"]], // exports "./clock" → ./dist/clock.js
      ["./user-service", ["src/services/user-service.ts"]],
      ["../models/user", ["src/models/user.ts"]],
    ]);
    expect(await resolved("ts", "packages/core/src/index.ts", files)).toEqual([
      ["./clock.js", ["packages/core/src/clock.ts"]],
      ["./clock.js", ["packages/core/src/clock.ts"]],
    ]);
    expect(await resolved("ts", "src/components/UserCard.tsx", files)).toEqual([
      ["react", []],
      ["../models/user", ["src/models/user.ts"]],
      ["./ui", []], // no such file: nothing, not a guess
    ]);
  });

  test("JavaScript: folder index files, the package's own name, test folders", async () => {
    const { files } = fixtureProject("js");
    expect(files.project.npmWorkspaces?.map((w) => [w.name, w.dir, w.entries])).toEqual([["shop-legacy", "", ["lib/server.js"]]]);
    expect(await resolved("js", "lib/server.js", files)).toEqual([
      ["http", []],
      ["node:path", []],
      ["express", []],
      ["./routes", ["lib/routes/index.mjs"]],
      ["shop-legacy/lib/util", ["lib/util.js"]],
    ]);
    expect(await resolved("js", "test/server.test.js", files)).toEqual([
      ["node:assert/strict", []],
      ["node:test", []],
      ["../lib/server", ["lib/server.js"]],
    ]);
    expect(await resolved("js", "lib/routes/index.mjs", files)).toEqual([
      ["node:fs/promises", []],
      ["express", []],
      ["../db.js", []],
      ["./extra.mjs", []],
    ]);
  });

  test("a specifier that climbs above the root resolves to nothing", () => {
    const { files } = fixtureProject("js");
    const imp = { module: "../../../outside", isStandardLib: false, isExternal: false, isRelative: true, symbols: [], line: 1, column: 1 };
    expect(javascript.resolveImport!(imp, "lib/server.js", files)).toEqual([]);
    expect(normalizePath("a/../../b")).toBeUndefined();
    expect(normalizePath("a/./b/../c")).toBe("a/c");
  });
});
