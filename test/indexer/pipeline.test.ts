import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { sqliteOf } from "../../src/store/sqlite-access.ts";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { INDEX_HOOKS } from "../../src/tools/index-hooks.ts";
import { runIndex } from "../../src/indexer/pipeline.ts";
import { Session } from "../../src/tools/session.ts";
import { indexLocation } from "../../src/store/location.ts";
import { canonicalRoot } from "../../src/core/paths.ts";
import { copyFixture, tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { findTool } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import { CortexError } from "../../src/core/errors.ts";

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

describe("full builds", () => {
  test("full-text words staged during the build all reach the FTS indexes, and the staging file goes", async () => {
    p = copyFixture("polyglot/go");
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    const s = new Session(p.root);
    try {
      const db = sqliteOf(await s.requireStore());
      const count = (sql: string) => (db.query(sql).get() as { n: number }).n;
      // the words were staged in a side file next to the index, removed once loaded
      expect(readdirSync(dirname(db.filename)).filter((f) => f.endsWith("-stage"))).toEqual([]);
      const chunks = count("SELECT COUNT(*) AS n FROM chunks");
      expect(chunks).toBeGreaterThan(0);
      // a contentless FTS5 table counts its rows through its docsize shadow table
      expect(count("SELECT COUNT(*) AS n FROM chunks_fts_docsize")).toBe(chunks);
      expect(count("SELECT COUNT(*) AS n FROM files_fts_docsize")).toBe(count("SELECT COUNT(*) AS n FROM file_state"));
      // automatic merging is off after the bulk load (crisis merges bound the segments): incremental
      // writes do not pay for the merges the load put off
      for (const t of ["chunks_fts", "files_fts"]) expect(count(`SELECT v AS n FROM ${t}_config WHERE k = 'automerge'`)).toBe(0);
      expect(db.query("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'auth'").all().length).toBeGreaterThan(0);
    } finally {
      s.close();
    }
  });
});

describe("a large full build", () => {
  test("loads its keyword index on another thread while references resolve, and ends whole", async () => {
    // 520 files: above the size from which the keyword index loads beside the other steps
    const files: Record<string, string> = { "go.mod": "module example.com/big\n\ngo 1.21\n" };
    for (let i = 0; i < 520; i++) {
      files[`pkg${i % 10}/f${i}.go`] =
        `package pkg${i % 10}\n\n// Compute${i} adds ${i}.\nfunc Compute${i}(x int) int {\n\treturn Helper${i % 10}(x) + ${i}\n}\n`;
    }
    for (let k = 0; k < 10; k++) files[`pkg${k}/helper.go`] = `package pkg${k}\n\nfunc Helper${k}(x int) int {\n\treturn x\n}\n`;
    p = tmpProject(files);
    const report = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(report.mode).toBe("full");
    expect(report.parsed).toBe(531);
    expect(report.errors).toEqual([]);
    const s = new Session(p.root);
    try {
      const db = sqliteOf(await s.requireStore());
      const count = (sql: string) => (db.query(sql).get() as { n: number }).n;
      expect(readdirSync(dirname(db.filename)).filter((f) => f.endsWith("-stage"))).toEqual([]);
      expect(count("SELECT COUNT(*) AS n FROM chunks_fts_docsize")).toBe(count("SELECT COUNT(*) AS n FROM chunks"));
      expect(count("SELECT COUNT(*) AS n FROM files_fts_docsize")).toBe(count("SELECT COUNT(*) AS n FROM file_state"));
      expect(db.query("SELECT rowid FROM files_fts WHERE files_fts MATCH 'compute517'").all().length).toBe(1);
      // the text tier built the trigram index: every file covered, in the rebuild's segment
      expect(count("SELECT COUNT(*) AS n FROM trigram_coverage WHERE segment = 0")).toBe(count("SELECT COUNT(*) AS n FROM file_state"));
      expect(count("SELECT COUNT(*) AS n FROM trigram_postings")).toBeGreaterThan(0);
      // the resolution computed before the load finished and wrote after: every call reached its helper
      const calls = db
        .query(
          "SELECT r.resolution AS how, s.file_path AS target FROM refs r LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id WHERE r.name LIKE 'Helper%' AND r.kind = 'call'",
        )
        .all() as Array<{ how: string | null; target: string | null }>;
      expect(calls.length).toBe(520);
      expect(calls.every((c) => c.how === "exact" && c.target?.endsWith("/helper.go"))).toBe(true);
      expect((db.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
      // the index on references' targets, never built before resolution's writes, was built by them at their end
      expect(db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'idx_refs_target'").all()).toHaveLength(1);
    } finally {
      s.close();
    }
    // and an incremental run on top writes as before
    p.write("pkg3/f3.go", "package pkg3\n\nfunc Compute3(x int) int {\n\treturn x\n}\n");
    const again = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(again.mode).toBe("incremental");
    expect(again.parsed).toBe(1);
  });

  test("writes handed to the keyword load's thread that fail there fail the run with their error; the next run parses everything again", async () => {
    const files: Record<string, string> = { "go.mod": "module example.com/big\n\ngo 1.21\n" };
    for (let i = 0; i < 520; i++)
      files[`pkg${i % 10}/f${i}.go`] = `package pkg${i % 10}\n\n// Needle${i} is found by grep.\nfunc Needle${i}() int { return ${i} }\n`;
    p = tmpProject(files);
    let handed = false;
    // before resolution: an import edge whose target path is missing breaks import_targets' NOT NULL on
    // the load's thread, in the transaction resolution's own writes then join
    const breaksTheWrites = {
      name: "breaks-the-writes",
      run(store: Parameters<(typeof INDEX_HOOKS)[number]["run"]>[0]) {
        const aside = store.resolutionWritesAside();
        if (!aside) return;
        aside({ kind: "edges", sites: Int32Array.from([1]), targets: Int32Array.from([0]), paths: [] });
        handed = true;
      },
    };
    await expect(runIndex({ hooks: [breaksTheWrites, ...INDEX_HOOKS], root: p.root })).rejects.toThrow(/loading the keyword index failed: .*NOT NULL/);
    expect(handed).toBe(true);
    const s = new Session(p.root);
    try {
      // the text tier was published and answers; the parse tier is reported unfinished, not silently whole
      const state = (await s.parseTierState())!;
      expect(state).toBeDefined();
      expect(state.total).toBe(521);
      const ctx = { session: s, signal: new AbortController().signal, deadline: Date.now() + 20_000 };
      const grep = (await invokeTool(findTool("search_text_pattern")!, { query: "needle517", context_lines: 0 }, ctx)) as { match_count: number };
      // its comment and its declaration
      expect(grep.match_count).toBe(2);
      const db = sqliteOf(await s.requireStore());
      expect(readdirSync(dirname(db.filename)).filter((f) => f.endsWith("-stage"))).toEqual([]);
      // the failed writes rolled back; the index they would have built at their end was built all the same
      expect(db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'idx_refs_target'").all()).toHaveLength(1);
    } finally {
      s.close();
    }
    const again = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(again.mode).toBe("incremental");
    expect(again.parsed).toBe(521);
    expect(again.errors).toEqual([]);
    const s2 = new Session(p.root);
    try {
      expect(await s2.parseTierState()).toBeUndefined();
      const db = sqliteOf(await s2.requireStore());
      expect(db.query("SELECT rowid FROM files_fts WHERE files_fts MATCH 'needle517'").all()).toHaveLength(1);
      expect((db.query("SELECT COUNT(*) AS n FROM chunks_fts_docsize").get() as { n: number }).n).toBe(
        (db.query("SELECT COUNT(*) AS n FROM chunks").get() as { n: number }).n,
      );
      expect(await query(p.root, { from: "functions", aggregations: [{ function: "COUNT", alias: "n" }] })).toEqual([[520]]);
    } finally {
      s2.close();
    }
  });
});

describe("an index of another cortex version", () => {
  test("is rebuilt, never read: its schema fingerprint (a hash of the DDL) differs", async () => {
    p = copyFixture("polyglot/go");
    const first = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    // an index whose keyword tables had another shape (chunks_fts with a path column, say) records another fingerprint
    const old = new Database(first.database);
    try {
      old.query("UPDATE meta SET value = 'fingerprint of an older schema' WHERE key = 'schema_fingerprint'").run();
    } finally {
      old.close();
    }
    const again = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(again.mode).toBe("full");
    expect(again.parsed).toBe(first.files);
    const after = new Session(p.root);
    try {
      const db = sqliteOf(await after.requireStore());
      expect((db.query("SELECT value FROM meta WHERE key = 'schema_fingerprint'").get() as { value: string }).value).not.toBe("fingerprint of an older schema");
      expect((db.query("SELECT COUNT(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'auth'").get() as { n: number }).n).toBeGreaterThan(0);
    } finally {
      after.close();
    }
  });
});

describe("tiers", () => {
  const project = () => {
    const files: Record<string, string> = { "go.mod": "module example.com/tiers\n\ngo 1.21\n" };
    for (let i = 0; i < 300; i++)
      files[`pkg${i % 6}/f${i}.go`] = `package pkg${i % 6}\n\n// Needle${i} is found by grep.\nfunc Needle${i}() int {\n\treturn Helper()\n}\n`;
    for (let k = 0; k < 6; k++) files[`pkg${k}/helper.go`] = `package pkg${k}\n\nfunc Helper() int { return 1 }\n`;
    return files;
  };

  test("a first build is searchable once its text tier is written; parse-tier tools say how far they are until it is done", async () => {
    p = tmpProject(project());
    let during: { grep: number; files: Record<string, unknown>; exact: Record<string, unknown>; exactGoHits: number; notFound: string } | undefined;
    let probing: Promise<void> | undefined;
    const report = await runIndex({
      hooks: INDEX_HOOKS,
      root: p.root,
      workers: 1,
      onProgress: (pr) => {
        if (pr.phase !== "parse" || probing) return;
        probing = (async () => {
          const s = new Session(p.root);
          try {
            const ctx = { session: s, signal: new AbortController().signal, deadline: Date.now() + 20_000 };
            const grep = (await invokeTool(findTool("search_text_pattern")!, { query: "needle25", context_lines: 0 }, ctx)) as { match_count: number };
            const files = (await invokeTool(
              findTool("cortex_files")!,
              { query: { from: "files", aggregations: [{ function: "COUNT", alias: "n" }] } },
              ctx,
            )) as Record<string, unknown>;
            const exact = (await invokeTool(findTool("cortex_exact")!, { query: "Needle42" }, ctx)) as Record<string, unknown>;
            const exactGo = (await invokeTool(findTool("cortex_exact")!, { query: "Needle42", language: ["go"] }, ctx)) as { results: unknown[] };
            const refs = (await invokeTool(findTool("get_symbol_references")!, { symbol: "Helper" }, ctx)) as { isComplete: boolean };
            // usages found so far cannot be all of them
            if (refs.isComplete !== false) throw new Error("get_symbol_references said complete during the parse tier");
            // a name whose file is not parsed yet: the error says the index is incomplete, not only "no definition"
            const notFound = await invokeTool(findTool("cortex_graph")!, { operation: "callers", target: "NoSuchNeedle" }, ctx).then(
              () => "",
              (e: Error) => e.message,
            );
            during = { grep: grep.match_count, files, exact, exactGoHits: exactGo.results.length, notFound };
          } finally {
            s.close();
          }
        })();
      },
    });
    await probing;
    expect(report.tiers.searchableAfterMs).toBeLessThan(report.tookMs);
    // grep saw every file already (Needle25, Needle250…Needle259: their comments and declarations)
    expect(during!.grep).toBe(2 * 11);
    expect(during!.exact.index_incomplete).toBeUndefined();
    // a language filter reads the text tier's language too: Needle42's comment and declaration
    expect(during!.exactGoHits).toBe(2);
    const note = during!.files.index_incomplete as { parsed_files: number; total_files: number; message: string };
    expect(note.total_files).toBe(307);
    expect(note.parsed_files).toBeLessThan(307);
    expect(note.message).toContain("parse tier is being built");
    // a first build loads the keyword index after its last file: the note does not promise search results meanwhile
    expect(note.message).toContain("search ranks nothing until the keyword index is loaded after the last file");
    expect(during!.notFound).toMatch(
      /^target: no definition named 'NoSuchNeedle'.* \(the index is incomplete: \d+ of 307 files are parsed so far; it may be in a file not parsed yet\)$/,
    );
    // once the run is done, nothing is incomplete
    const s = new Session(p.root);
    try {
      expect(await s.parseTierState()).toBeUndefined();
      const ctx = { session: s, signal: new AbortController().signal, deadline: Date.now() + 20_000 };
      const files = (await invokeTool(
        findTool("cortex_files")!,
        { query: { from: "files", aggregations: [{ function: "COUNT", alias: "n" }] } },
        ctx,
      )) as Record<string, unknown>;
      expect(files.index_incomplete).toBeUndefined();
      expect(files.rows).toEqual([[307]]);
    } finally {
      s.close();
    }
  });

  test("a first build stopped in its parse tier keeps its text tier, and the next run parses everything again", async () => {
    p = tmpProject(project());
    let stopped = 0;
    await expect(
      runIndex({
        hooks: INDEX_HOOKS,
        root: p.root,
        workers: 1,
        onProgress: (pr) => {
          if (pr.phase === "parse" && pr.done >= 128) {
            stopped = pr.done;
            throw new Error("stopped here");
          }
        },
      }),
    ).rejects.toThrow("stopped here");
    expect(stopped).toBeGreaterThan(0);
    const s = new Session(p.root);
    try {
      // published after its text tier: the parse tier is reported unfinished
      const state = (await s.parseTierState())!;
      expect(state.total).toBe(307);
      expect(state.parsed).toBeLessThan(307);
    } finally {
      s.close();
    }
    const again = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(again.mode).toBe("incremental");
    expect(again.parsed).toBe(307);
    expect(await query(p.root, { from: "functions", aggregations: [{ function: "COUNT", alias: "n" }] })).toEqual([[306]]);
    const s2 = new Session(p.root);
    try {
      expect(await s2.parseTierState()).toBeUndefined();
      const db = sqliteOf(await s2.requireStore());
      // resolved as a first build resolves: every call reached its package's helper
      const calls = db.query("SELECT r.resolution AS how FROM refs r WHERE r.name = 'Helper' AND r.kind = 'call'").all() as Array<{ how: string | null }>;
      expect(calls.length).toBe(300);
      expect(calls.every((c) => c.how === "exact")).toBe(true);
      expect(db.query("SELECT rowid FROM files_fts WHERE files_fts MATCH 'needle299'").all().length).toBe(1);
    } finally {
      s2.close();
    }
  });
});

describe("incremental indexing", () => {
  test("a file touched with its content unchanged: the statistics' last_modified follows its mtime, as a first build's", async () => {
    p = tmpProject({ "a.py": "x = 1\n" });
    utimesSync(join(p.root, "a.py"), new Date("2020-01-01T00:00:00Z"), new Date("2020-01-01T00:00:00Z"));
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    utimesSync(join(p.root, "a.py"), new Date("2024-06-01T00:00:00Z"), new Date("2024-06-01T00:00:00Z"));
    const again = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(again.parsed).toBe(0);
    expect(await query(p.root, { from: "files", fields: ["file_path", "last_modified"] })).toEqual([["a.py", "2024-06-01T00:00:00.000Z"]]);
  });

  test("a package that appears after its importers (Python) or a go.mod written later: their imports resolve as a first build's", async () => {
    p = tmpProject({
      "app.py": "from mypkg.mod import helper\n\n\ndef main():\n    return helper()\n",
      "cmd/main.go": 'package main\n\nimport "example.com/app/lib"\n\nfunc main() { lib.Hello() }\n',
      "lib/lib.go": "package lib\n\nfunc Hello() int { return 1 }\n",
    });
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    p.write("mypkg/__init__.py", "");
    p.write("mypkg/mod.py", "def helper():\n    return 1\n");
    p.write("go.mod", "module example.com/app\n");
    const report = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    // the two importers were read again although unchanged, with the three new files
    expect(report.parsed).toBe(5);
    const s = new Session(p.root);
    try {
      const ctx = { session: s, signal: new AbortController().signal, deadline: Date.now() + 20_000 };
      const graph = async (args: object) =>
        ((await invokeTool(findTool("cortex_graph")!, args, ctx)) as { edges: Array<{ from: { name: string }; to: { name: string } }> }).edges.map(
          (e) => `${e.from.name} -> ${e.to.name}`,
        );
      expect(await graph({ operation: "dependencies", target: "app.py" })).toEqual(["app.py -> mypkg/mod.py"]);
      expect(await graph({ operation: "callers", target: "helper" })).toEqual(["app.main -> mypkg.mod.helper"]);
      expect(await graph({ operation: "callers", target: "lib.Hello" })).toEqual(["main.main -> lib.Hello"]);
    } finally {
      s.close();
    }
    // nothing changed since: nothing is read again
    expect((await runIndex({ hooks: INDEX_HOOKS, root: p.root })).parsed).toBe(0);
  });

  test("a second run on an unchanged tree parses nothing", async () => {
    p = copyFixture("polyglot/go");
    const first = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(first.mode).toBe("full");
    expect(first.parsed).toBe(first.files);
    const second = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(second.mode).toBe("incremental");
    expect(second.parsed).toBe(0);
    expect(second.unchanged).toBe(first.files);
    expect(second.database).toBe(first.database);
  });

  test("a touched file with the same content is not re-parsed", async () => {
    p = copyFixture("polyglot/go");
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(p.root, "store/store.go"), future, future);
    const r = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(r.parsed).toBe(0);
    expect(await runIndex({ hooks: INDEX_HOOKS, root: p.root }).then((x) => x.parsed)).toBe(0);
  });

  test("a changed file is re-parsed and its module re-aggregated", async () => {
    p = copyFixture("polyglot/go");
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    p.write("store/extra.go", "package store\n\n// Count counts.\nfunc Count() int { return 1 }\n\nfunc helper(a, b int) {}\n");
    p.write("store/store.go", "package store\n\ntype DB struct{}\n");
    const r = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(r.parsed).toBe(2);
    const mod = await query(p.root, {
      from: "modules",
      fields: ["file_count", "function_count", "exported_function_count", "type_count", "total_lines"],
      where: { field: "module_path", operator: "=", value: "store" },
    });
    expect(mod).toEqual([[2, 2, 1, 1, 3 + 6]]);
    const fns = await query(p.root, {
      from: "functions",
      fields: ["name", "param_count"],
      where: { field: "module_path", operator: "=", value: "store" },
      orderBy: [{ field: "name", direction: "ASC" }],
    });
    expect(fns).toEqual([
      ["Count", 0],
      ["helper", 2],
    ]);
  });

  test("a deleted file disappears with all its rows, and an emptied module with it", async () => {
    p = copyFixture("polyglot/go");
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    p.remove("store");
    const r = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(r.deleted).toBe(1);
    for (const table of ["files", "types", "functions", "imports"]) {
      expect(await query(p.root, { from: table, where: { field: "file_path", operator: "LIKE", value: "store/%" } })).toEqual([]);
    }
    expect(await query(p.root, { from: "modules", where: { field: "module_path", operator: "=", value: "store" } })).toEqual([]);
  });

  test("many changed files in one run: the keyword indexes end as a fresh build's", async () => {
    // one write batch deletes every replaced file's rows before inserting any (FTS5 cost a segment per
    // file the other way round); the words must come out the same either way
    const files: Record<string, string> = { "go.mod": "module example.com/many\n\ngo 1.21\n" };
    for (let i = 0; i < 90; i++) files[`p${i % 6}/f${i}.go`] = `package p${i % 6}\n\n// Alpha${i} is old.\nfunc Alpha${i}() int {\n\treturn ${i}\n}\n`;
    p = tmpProject(files);
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    for (let i = 0; i < 85; i++) p.write(`p${i % 6}/f${i}.go`, `package p${i % 6}\n\n// Beta${i} is new.\nfunc Beta${i}() int {\n\treturn ${i}\n}\n`);
    for (let i = 85; i < 90; i++) p.remove(`p${i % 6}/f${i}.go`);
    for (let i = 90; i < 95; i++) p.write(`p${i % 6}/f${i}.go`, `package p${i % 6}\n\nfunc Gamma${i}() {}\n`);
    const r = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect([r.mode, r.parsed, r.deleted]).toEqual(["incremental", 90, 5]);
    const vocabulary = async () => {
      const s = new Session(p.root);
      try {
        const db = sqliteOf(await s.requireStore());
        const count = (sql: string) => (db.query(sql).get() as { n: number }).n;
        expect(count("SELECT COUNT(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'alpha3'")).toBe(0);
        expect(count("SELECT COUNT(*) AS n FROM files_fts WHERE files_fts MATCH 'beta3'")).toBe(1);
        expect(count("SELECT COUNT(*) AS n FROM chunks_fts_docsize")).toBe(count("SELECT COUNT(*) AS n FROM chunks"));
        expect(count("SELECT COUNT(*) AS n FROM files_fts_docsize")).toBe(count("SELECT COUNT(*) AS n FROM file_state"));
        // every term with its document and occurrence counts, whatever the row ids
        const rows: string[] = [];
        for (const t of ["chunks_fts", "files_fts"]) {
          db.exec(`CREATE VIRTUAL TABLE temp.v_${t} USING fts5vocab(main, ${t}, 'row')`);
          for (const v of db.query(`SELECT term, doc, cnt FROM temp.v_${t} ORDER BY term`).all() as Array<{ term: string; doc: number; cnt: number }>) {
            rows.push(`${t} ${v.term} ${v.doc} ${v.cnt}`);
          }
        }
        return rows;
      } finally {
        s.close();
      }
    };
    const incremental = await vocabulary();
    expect(incremental.some((row) => row.startsWith("chunks_fts gamma92 "))).toBe(true);
    await runIndex({ hooks: INDEX_HOOKS, root: p.root, full: true });
    expect(await vocabulary()).toEqual(incremental);
  });

  test("a file that turns binary leaves the index", async () => {
    p = tmpProject({ "a.go": "package a\n", "b.txt": "hello\n" });
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    p.write("b.txt", new Uint8Array([1, 0, 2]));
    const r = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(r.skipped.binary).toBe(1);
    expect(await query(p.root, { from: "files", fields: ["file_path"] })).toEqual([["a.go"]]);
  });

  test("a binary file is read once: later runs count it unread while its mtime and size stay, and read it again once they change", async () => {
    const binary = new Uint8Array(20_000).fill(7);
    binary[100] = 0;
    const text = "x".repeat(9_000) + "\n" + "é".repeat(3_000) + "\n"; // larger than the 8 KB read first
    p = tmpProject({ "a.go": "package a\n", "img.bin": binary, "big.txt": text });
    const rows = async () => {
      const s = new Session(p.root);
      try {
        return sqliteOf(await s.requireStore())
          .query("SELECT file_path, size_bytes FROM binary_files ORDER BY file_path")
          .values();
      } finally {
        s.close();
      }
    };
    const first = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(first.skipped.binary).toBe(1);
    expect(await rows()).toEqual([["img.bin", 20_000]]);
    const s = new Session(p.root);
    try {
      expect((await s.requireStore()).contentOf("big.txt")).toBe(text);
    } finally {
      s.close();
    }
    // the same size and mtime with other bytes: not read, so still counted binary and not indexed
    const { mtime } = statSync(join(p.root, "img.bin"));
    p.write("img.bin", "t".repeat(19_999) + "\n");
    utimesSync(join(p.root, "img.bin"), mtime, mtime);
    const second = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect([second.skipped.binary, second.parsed, second.unchanged]).toEqual([1, 0, 2]);
    expect(await query(p.root, { from: "files", fields: ["file_path"], orderBy: [{ field: "file_path", direction: "ASC" }] })).toEqual([["a.go"], ["big.txt"]]);
    // a new mtime: read, now text, indexed, and no longer remembered
    utimesSync(join(p.root, "img.bin"), new Date(mtime.getTime() + 5000), new Date(mtime.getTime() + 5000));
    const third = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect([third.skipped.binary, third.parsed]).toEqual([0, 1]);
    expect(await rows()).toEqual([]);
    // binary again, then gone from the walk (ignored): remembered, then forgotten
    p.write("img.bin", binary);
    expect((await runIndex({ hooks: INDEX_HOOKS, root: p.root })).skipped.binary).toBe(1);
    expect(await rows()).toEqual([["img.bin", 20_000]]);
    p.write(".gitignore", "*.bin\n");
    const fifth = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(fifth.skipped.binary).toBe(0);
    expect(await rows()).toEqual([]);
  });

  test("--full rebuilds into a new database and removes the old one", async () => {
    p = copyFixture("polyglot/go");
    const first = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    const again = await runIndex({ hooks: INDEX_HOOKS, root: p.root, full: true });
    expect(again.mode).toBe("full");
    expect(again.database).not.toBe(first.database);
    expect(existsSync(first.database)).toBe(false);
    expect(existsSync(again.database)).toBe(true);
  });
});

describe("crash safety", () => {
  test("a run stopped after its parse tier and before resolution: the next run resolves what it parsed", async () => {
    p = tmpProject({
      "go.mod": "module example.com/app\n",
      "lib/lib.go": "package lib\n\nfunc Hello() int { return 1 }\n\nfunc Bye() int { return 2 }\n",
      "cmd/main.go": 'package main\n\nimport "example.com/app/lib"\n\nfunc main() { lib.Hello() }\n',
    });
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    p.write("cmd/main.go", 'package main\n\nimport "example.com/app/lib"\n\nfunc main() { lib.Hello(); lib.Bye() }\n');
    // the process dies where the steps would start: the parse tier's writes are committed, nothing resolved
    const dies = {
      name: "dies",
      run() {
        throw new CortexError("IO", "killed");
      },
    };
    await expect(runIndex({ hooks: [dies, ...INDEX_HOOKS], root: p.root })).rejects.toThrow("killed");
    const pending = async () => {
      const s = new Session(p.root);
      try {
        const row = sqliteOf(await s.requireStore())
          .query("SELECT value FROM meta WHERE key = 'index_steps_pending'")
          .get() as { value: string } | null;
        return row?.value ?? "";
      } finally {
        s.close();
      }
    };
    // the index records what the steps still owe: the file the stopped run parsed
    expect(JSON.parse(await pending())).toEqual(["cmd/main.go"]);
    // and says so to whoever reads it meanwhile: the answers miss references
    const meanwhile = new Session(p.root);
    try {
      expect(await meanwhile.parseTierState()).toEqual({ parsed: 3, total: 3, finishing: true });
      const ctx = { session: meanwhile, signal: new AbortController().signal, deadline: Date.now() + 20_000 };
      const early = (await invokeTool(findTool("find_symbol_occurrences")!, { symbol_name: "Bye" }, ctx)) as { index_incomplete?: { message: string } };
      expect(early.index_incomplete?.message).toContain("the keyword index and reference resolution are not built");
    } finally {
      meanwhile.close();
    }
    const again = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(again.parsed).toBe(0);
    const s = new Session(p.root);
    try {
      const ctx = { session: s, signal: new AbortController().signal, deadline: Date.now() + 20_000 };
      const found = (await invokeTool(findTool("find_symbol_occurrences")!, { symbol_name: "Bye" }, ctx)) as {
        occurrences: Array<{ file_path: string; type: string; resolution?: string }>;
      };
      expect(found.occurrences.filter((o) => o.type === "reference").map((o) => `${o.file_path} ${o.resolution}`)).toEqual(["cmd/main.go import"]);
    } finally {
      s.close();
    }
    // and the next run, having resolved it, owes nothing
    expect(await pending()).toBe("");
  });

  test("kill -9 in the middle of a full rebuild leaves the previous index whole and usable", async () => {
    p = tmpProject();
    for (let i = 0; i < 2500; i++)
      p.write(
        `pkg${i % 50}/f${i}.go`,
        `package pkg${i % 50}\n\n// F${i} does things.\nfunc F${i}(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n`,
      );
    const before = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(before.files).toBe(2500);
    for (let i = 0; i < 2500; i += 2) p.write(`pkg${i % 50}/f${i}.go`, `package pkg${i % 50}\n\nfunc G${i}() {}\n`);

    const child = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/cli/main.ts"), "index", p.root, "--full", "--json"], {
      env: { ...process.env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const loc = indexLocation(canonicalRoot(p.root));
    // wait until the rebuild has started writing its new database, then kill it
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && readdirSync(loc.dir).filter((f) => /^index-.*\.db$/.test(f)).length < 2) await Bun.sleep(20);
    await Bun.sleep(150);
    child.kill(9);
    await child.exited;
    expect(child.signalCode).toBe("SIGKILL");

    expect(loc.current()).toBe(before.database);
    const fns = await query(p.root, { from: "functions", aggregations: [{ function: "COUNT", alias: "n" }] });
    expect(fns).toEqual([[2500]]);

    const after = await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    expect(after.parsed).toBe(1250);
    const names = await query(p.root, { from: "functions", fields: ["name"], where: { field: "name", operator: "LIKE", value: "G%" }, limit: 1000 });
    expect(names.length).toBe(1000);
    // the half-written database was collected
    expect(readdirSync(loc.dir).filter((f) => /^index-.*\.db$/.test(f))).toEqual([after.database.slice(after.database.lastIndexOf("/") + 1)]);
  }, 60_000);
});
