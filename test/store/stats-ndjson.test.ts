import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/tools/session.ts";
import { exportStats, MemoryStats, parseStats } from "../../src/store/stats-ndjson.ts";
import { FilesEngine } from "../../src/engines/files/index.ts";
import { filesTool } from "../../src/tools/cortex-files.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
let session: Session;

beforeAll(async () => {
  p = copyFixture("polyglot/go");
  session = new Session(p.root, { autoIndex: true });
  await session.requireStore();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

describe("statistics as NDJSON", () => {
  test("export writes one object per file with its types, functions and imports", async () => {
    const out = join(p.root, ".cortex", "stats.ndjson");
    const n = exportStats(await session.requireStore(), out);
    expect(n).toBe(4);
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const store = lines.find((l) => l.file_path === "store/store.go");
    expect(store).toMatchObject({ language: "go", is_test: false, module_path: "store", lines_total: 30, type_count: 1, function_count: 1, import_count: 2 });
    expect(store.types).toEqual([{ name: "DB", kind: "struct", start_line: 16, end_line: 19, is_exported: true, field_count: 2, method_count: 1 }]);
    expect(store.functions[0]).toMatchObject({ name: "Get", is_method: true, receiver_type: "*DB", param_count: 1, return_count: 2, complexity: 3 });
    expect(store.imports.map((i: { imported_module: string }) => i.imported_module)).toEqual(["errors", "sync"]);
  });

  test("an import answers the same queries as the live index", async () => {
    const out = join(p.root, ".cortex", "stats.ndjson");
    exportStats(await session.requireStore(), out);
    const mem = MemoryStats.fromFile(out);
    try {
      const q = { from: "modules", orderBy: [{ field: "module_path", direction: "ASC" as const }] };
      const live = await (await session.files()).query(q);
      const imported = await new FilesEngine(mem).query(q);
      expect(imported.rows).toEqual(live.rows);
      const join2 = {
        fields: ["files.file_path", "functions.name"],
        from: "files",
        joins: [{ table: "functions", type: "INNER" as const, on: { field: "files.file_path", operator: "=" as const, value: "functions.file_path" } }],
        orderBy: [{ field: "functions.name", direction: "ASC" as const }],
      };
      expect((await new FilesEngine(mem).query(join2)).rows).toEqual((await (await session.files()).query(join2)).rows);
    } finally {
      mem.close();
    }
  });

  test("cortex_files queries an export through stats_file, refusing paths outside the root", async () => {
    exportStats(await session.requireStore(), join(p.root, "snap.ndjson"));
    const ctx = { session, signal: new AbortController().signal, deadline: Date.now() + 10_000 };
    const r = await filesTool.handler(
      filesTool.input.parse({
        stats_file: "snap.ndjson",
        query: { from: "files", fields: ["file_path"], where: { field: "is_test", operator: "=", value: true } },
      }),
      ctx,
    );
    expect(r.rows).toEqual([["auth/handler_test.go"]]);
    await expect(
      Promise.resolve().then(() => filesTool.handler(filesTool.input.parse({ stats_file: "../elsewhere.ndjson", query: { from: "files" } }), ctx)),
    ).rejects.toThrow("outside the project root");
  });

  test("a malformed line is refused with its line number and field", () => {
    const good = JSON.stringify({
      file_path: "a.go",
      language: "go",
      is_test: false,
      module_path: ".",
      lines_total: 1,
      lines_code: 1,
      lines_comment: 0,
      lines_blank: 0,
      size_bytes: 3,
      last_modified: "2026-01-01T00:00:00Z",
      type_count: 0,
      function_count: 0,
      import_count: 0,
      types: [],
      functions: [],
      imports: [],
    });
    expect(parseStats(good + "\n", "s.ndjson")).toHaveLength(1);
    expect(() => parseStats(good + "\n{oops\n", "s.ndjson")).toThrow("s.ndjson:2: not valid JSON");
    const bad = JSON.parse(good);
    bad.lines_total = "many";
    expect(() => parseStats(good + "\n\n" + JSON.stringify(bad), "s.ndjson")).toThrow("s.ndjson:3: lines_total: expected number, got string");
    writeFileSync(join(p.root, "bad.ndjson"), "{}\n");
    expect(() => MemoryStats.fromFile(join(p.root, "bad.ndjson"), "bad.ndjson")).toThrow("bad.ndjson:1: file_path: is required");
  });
});
