/**
 * The TypeScript and JavaScript fixtures through the real indexer: languages and test files by path,
 * import classes from the package.json files the pipeline reads, and the statistics tables.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { INDEX_HOOKS } from "../../src/tools/index-hooks.ts";
import { runIndex } from "../../src/indexer/pipeline.ts";
import { Session } from "../../src/tools/session.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
afterEach(() => p?.cleanup());

async function query(root: string, q: object): Promise<unknown[][]> {
  const s = new Session(root);
  try {
    return (await (await s.files()).query(q as never)).rows;
  } finally {
    s.close();
  }
}

describe("indexing TypeScript and JavaScript projects", () => {
  test("the TypeScript workspace: languages, test files, the project's own packages", async () => {
    p = copyFixture("polyglot/ts");
    const report = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(report.errors).toEqual([]);
    const files = await query(p.root, {
      from: "files",
      fields: ["file_path", "language", "is_test"],
      where: { field: "language", operator: "IN", value: ["typescript", "tsx"] },
      orderBy: [{ field: "file_path", direction: "ASC" }],
    });
    expect(files).toEqual([
      ["packages/core/src/clock.ts", "typescript", false],
      ["packages/core/src/index.ts", "typescript", false],
      ["src/components/UserCard.tsx", "tsx", false],
      ["src/models/user.ts", "typescript", false],
      ["src/services/user-service.test.ts", "typescript", true],
      ["src/services/user-service.ts", "typescript", false],
      ["src/types/globals.d.ts", "typescript", false],
    ]);
    const imports = await query(p.root, {
      from: "imports",
      fields: ["imported_module", "is_standard_lib", "is_external", "is_relative"],
      where: { field: "file_path", operator: "=", value: "src/services/user-service.ts" },
      orderBy: [{ field: "imported_module", direction: "ASC" }],
    });
    expect(imports).toEqual([
      ["../models/user.js", false, false, true],
      ["@shop/core", false, false, false], // declared by packages/core/package.json
      ["events", true, false, false],
      ["node:crypto", true, false, false],
      ["zod", false, true, false],
    ]);
    const exportedTypes = await query(p.root, {
      from: "types",
      fields: ["name", "kind"],
      where: { field: "is_exported", operator: "=", value: true },
      orderBy: [{ field: "name", direction: "ASC" }],
    });
    expect(exportedTypes.map((r) => r[0])).toEqual([
      "Admin",
      "Clock",
      "Entity",
      "Legacy",
      "Repository",
      "Role",
      "Roles",
      "User",
      "UserCardProps",
      "UserId",
      "UserService",
      "Widget",
      "Window",
      "legacy-widgets",
    ]);
  });

  test("the JavaScript project: CommonJS and ES module statistics", async () => {
    p = copyFixture("polyglot/js");
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    const fns = await query(p.root, {
      from: "functions",
      fields: ["name", "is_exported", "is_method", "receiver_type", "return_count", "complexity"],
      where: { field: "file_path", operator: "=", value: "lib/server.js" },
      orderBy: [{ field: "start_line", direction: "ASC" }],
    });
    expect(fns).toEqual([
      ["Server", true, false, null, 0, 2],
      ["listen", true, true, "Server", 1, 2],
      ["handle", true, true, "Server", 0, 6],
      ["ok", true, true, "HealthCheck", 1, 1],
      ["stats", true, true, "helpers", 1, 1],
      ["reset", true, true, "helpers", 0, 1],
      ["start", true, false, null, 1, 2],
    ]);
    const files = await query(p.root, {
      from: "files",
      fields: ["file_path", "language", "is_test", "function_count"],
      where: { field: "language", operator: "IN", value: ["javascript", "jsx"] },
      orderBy: [{ field: "file_path", direction: "ASC" }],
    });
    expect(files).toEqual([
      ["lib/routes/index.mjs", "javascript", false, 4],
      ["lib/server.js", "javascript", false, 7],
      ["lib/util.js", "javascript", false, 1],
      ["src/App.jsx", "jsx", false, 3],
      ["test/server.test.js", "javascript", true, 0],
    ]);
  });
});
