/**
 * Cross-repository resolution in the shared store: a library and a service that imports it, in Go,
 * Python and TypeScript, each indexed by the real indexer and published as its own repository. A reader
 * of both sees the service's import reach the library's files and the service's calls reach the
 * library's definitions (import graph, references, callers, callees); republishing the library changes
 * the answer without republishing the service.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { PgClient } from "../../../src/store/postgres/client.ts";
import { publishIndex } from "../../../src/store/postgres/publish.ts";
import { PgIndexReader } from "../../../src/store/postgres/reader.ts";
import { GraphEngine, type GraphRequest } from "../../../src/engines/graph/index.ts";
import { SymbolsEngine } from "../../../src/engines/symbols/index.ts";
import { BACKENDS } from "./backends.ts";
import { indexedProject, type IndexedProject } from "./fixture.ts";

// builds six local indexes and starts a database: seconds each on a busy machine
setDefaultTimeout(120_000);

const REPOS: Record<string, Record<string, string>> = {
  golib: {
    "go.mod": "module example.com/lib\n\ngo 1.21\n",
    "strs/strs.go": `package strs\n\nimport "strings"\n\n// Shout upper-cases a greeting.\nfunc Shout(s string) string {\n\treturn strings.ToUpper(s) + "!"\n}\n`,
  },
  gosvc: {
    "go.mod": "module example.com/svc\n\ngo 1.21\n\nrequire example.com/lib v0.1.0\n",
    "cmd/main.go": `package main\n\nimport (\n\t"fmt"\n\n\t"example.com/lib/strs"\n)\n\nfunc greet(name string) string {\n\treturn strs.Shout("hello " + name)\n}\n\nfunc main() {\n\tfmt.Println(greet("world"))\n}\n`,
  },
  pylib: {
    "pyproject.toml": '[project]\nname = "acme"\n',
    "acme/__init__.py": "",
    "acme/text.py": `def slugify(title):\n    return title.lower().replace(" ", "-")\n\n\nclass Formatter:\n    def render(self, s):\n        return s\n`,
  },
  pysvc: {
    "app/__init__.py": "",
    "app/views.py": `from acme.text import slugify\nimport acme.text\nimport acme.text as t\n\n\ndef page(title):\n    return slugify(title) + acme.text.slugify(title) + t.slugify(title)\n`,
  },
  tslib: {
    "package.json": '{ "name": "@acme/kit", "main": "dist/index.js" }\n',
    "src/index.ts": `export function parseHeader(line: string): string {\n  return line.split(":")[0] ?? "";\n}\n`,
  },
  tssvc: {
    "package.json": '{ "name": "svc-web", "dependencies": { "@acme/kit": "1.0.0" } }\n',
    "src/app.ts": `import { parseHeader } from "@acme/kit";\nimport * as kit from "@acme/kit";\n\nexport function handle(raw: string): string {\n  return parseHeader(raw) + kit.parseHeader(raw);\n}\n`,
  },
  jlib: {
    "src/main/java/com/acme/util/Strings.java": `package com.acme.util;\n\npublic class Strings {\n    public static String shout(String s) {\n        return s.toUpperCase();\n    }\n}\n`,
  },
  jsvc: {
    "src/main/java/com/shop/App.java": `package com.shop;\n\nimport com.acme.util.Strings;\n\npublic class App {\n    public String run(String s) {\n        return Strings.shout(s);\n    }\n}\n`,
  },
  rlib: {
    "Cargo.toml": '[package]\nname = "acme-text"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod case;\n",
    "src/case.rs": "pub fn shout(s: &str) -> String {\n    s.to_uppercase()\n}\n",
  },
  rsvc: {
    "Cargo.toml": '[package]\nname = "svc"\nversion = "0.1.0"\n',
    "src/main.rs": 'use acme_text::case::shout;\nuse acme_text::case;\n\nfn main() {\n    let a = shout("a");\n    let b = case::shout("b");\n}\n',
  },
};

const SCHEMA = "t_cross";

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(backend.name, () => {
    let db: { client: PgClient; stop(): Promise<void> };
    const projects = new Map<string, IndexedProject>();

    async function publish(repo: string): Promise<void> {
      const store = await projects.get(repo)!.index();
      try {
        await publishIndex(db.client, repo, store, { schema: SCHEMA });
      } finally {
        store.close();
      }
    }

    const reader = (scope: string[] | "all") => new PgIndexReader(db.client, scope, SCHEMA);
    const graph = (scope: string[] | "all") => new GraphEngine(reader(scope), "/nonexistent", (p) => p);
    const request = (operation: GraphRequest["operation"], target: string): GraphRequest => ({
      operation,
      target,
      depth: 1,
      maxResults: 100,
      level: "file",
      includeContext: false,
      contextLines: 0,
    });

    beforeAll(async () => {
      db = await backend.start();
      for (const [name, files] of Object.entries(REPOS)) {
        projects.set(name, indexedProject(files));
        await publish(name);
      }
    }, 300_000);

    afterAll(async () => {
      for (const p of projects.values()) p.project.cleanup();
      await db?.stop();
    });

    test("an import of another repository's package is an edge to that repository's files", async () => {
      const both = reader(["golib", "gosvc"]);
      const out = await both.edgesOf(["gosvc/cmd/main.go"]);
      expect(out.map((e) => [e.file, e.target, e.module, e.line])).toEqual([["gosvc/cmd/main.go", "golib/strs/strs.go", "example.com/lib/strs", 6]]);
      expect((await both.edgesInto(["golib/strs/strs.go"])).map((e) => e.file)).toEqual(["gosvc/cmd/main.go"]);
      expect((await both.importers("golib/strs/strs.go")).map((c) => c.file)).toEqual(["gosvc/cmd/main.go"]);
      // the service alone still sees an external import: resolution needs both repositories in scope
      expect(await reader(["gosvc"]).edgesOf(["cmd/main.go"])).toEqual([]);
      const py = (await reader("all").edgesOf(["pysvc/app/views.py"])).map((e) => e.target);
      expect([...new Set(py)]).toEqual(["pylib/acme/text.py"]);
      const ts = (await reader("all").edgesOf(["tssvc/src/app.ts"])).map((e) => e.target);
      expect([...new Set(ts)]).toEqual(["tslib/src/index.ts"]);
      const deps = await graph("all").run(request("dependents", "golib/strs/strs.go"));
      expect(deps.edges.map((e) => [e.from.name, e.to.name])).toEqual([["gosvc/cmd/main.go", "golib/strs/strs.go"]]);
    });

    test("references and callers of a library definition include the other repository's calls", async () => {
      const symbols = new SymbolsEngine(reader("all"), "/nonexistent");
      const shout = await symbols.occurrences({ name: "Shout" }, { definitions: true, references: true, limit: 50 });
      expect(shout.occurrences.map((o) => [o.type, o.file_path, o.line_number, o.resolution ?? ""])).toEqual([
        ["definition", "golib/strs/strs.go", 6, ""],
        ["reference", "gosvc/cmd/main.go", 10, "cross-repo"],
      ]);
      const callers = await graph(["golib", "gosvc"]).run(request("callers", "Shout"));
      expect(callers.edges.map((e) => [e.from.name, e.to.name, e.site?.file_path])).toEqual([["main.greet", "strs.Shout", "gosvc/cmd/main.go"]]);
      // depth 2 goes on inside the service: greet's caller
      const deeper = await graph(["golib", "gosvc"]).run({ ...request("callers", "Shout"), depth: 2 });
      expect(deeper.edges.map((e) => e.from.name)).toEqual(["main.greet", "main.main"]);
      const callees = await graph(["golib", "gosvc"]).run(request("callees", "greet"));
      expect(callees.edges.map((e) => [e.to.kind, e.to.name, e.to.file_path])).toEqual([["symbol", "strs.Shout", "golib/strs/strs.go"]]);

      // Python: a from-import, the module as written and an alias all reach the definition
      const slug = await new SymbolsEngine(reader(["pylib", "pysvc"]), "/x").occurrences(
        { name: "slugify" },
        { definitions: false, references: true, limit: 50 },
      );
      expect(slug.occurrences.map((o) => [o.file_path, o.line_number, o.kind, o.resolution])).toEqual([
        ["pysvc/app/views.py", 1, "import", "cross-repo"],
        ["pysvc/app/views.py", 7, "call", "cross-repo"],
        ["pysvc/app/views.py", 7, "call", "cross-repo"],
        ["pysvc/app/views.py", 7, "call", "cross-repo"],
      ]);
      // TypeScript: a named import and a namespace import
      const header = await graph("all").run(request("callers", "parseHeader"));
      expect(header.edges.map((e) => [e.from.name, e.site?.file_path, e.site?.column])).toEqual([
        ["handle", "tssvc/src/app.ts", 10],
        ["handle", "tssvc/src/app.ts", 33],
      ]);
      // Java: a class imported by name, its static method called through it
      const java = await graph("all").run(request("callers", "Strings.shout"));
      expect(java.edges.map((e) => [e.from.name, e.to.name, e.site?.file_path])).toEqual([
        ["com.shop.App.run", "com.acme.util.Strings.shout", "jsvc/src/main/java/com/shop/App.java"],
      ]);
      expect((await reader("all").edgesOf(["jsvc/src/main/java/com/shop/App.java"])).map((e) => e.target)).toEqual([
        "jlib/src/main/java/com/acme/util/Strings.java",
      ]);
      // Rust: a crate's module, by `use` of the function and of the module
      expect((await reader("all").edgesOf(["rsvc/src/main.rs"])).map((e) => [e.line, e.target])).toEqual([
        [1, "rlib/src/case.rs"],
        [2, "rlib/src/case.rs"],
      ]);
      const rust = await new SymbolsEngine(reader(["rlib", "rsvc"]), "/x").occurrences({ name: "shout" }, { definitions: false, references: true, limit: 50 });
      expect(rust.occurrences.map((o) => [o.file_path, o.line_number, o.kind, o.resolution])).toEqual([
        ["rsvc/src/main.rs", 1, "import", "cross-repo"],
        ["rsvc/src/main.rs", 5, "call", "cross-repo"],
        ["rsvc/src/main.rs", 6, "call", "cross-repo"],
      ]);
      // a reader of the library alone answers as before
      const alone = await new SymbolsEngine(reader(["golib"]), "/x").occurrences({ name: "Shout" }, { definitions: true, references: true, limit: 50 });
      expect(alone.occurrences.map((o) => o.type)).toEqual(["definition"]);
    });

    test("a call resolved across repositories is no longer listed as unresolved", async () => {
      const all = reader("all");
      expect(await all.unresolvedNamed("Shout")).toEqual([]);
      expect((await reader(["gosvc"]).unresolvedNamed("Shout")).map((r) => r.file)).toEqual(["cmd/main.go"]);
      // file impact: the library file's users in the other repository
      const into = await all.refsIntoFiles(["golib/strs/strs.go"]);
      expect(into.map((r) => [r.file, r.name, r.targetFile])).toEqual([["gosvc/cmd/main.go", "Shout", "golib/strs/strs.go"]]);
    });

    test("republishing the library changes the answer without republishing the service", async () => {
      const lib = projects.get("golib")!.project;
      lib.write(
        "strs/strs.go",
        `package strs\n\nimport "strings"\n\n// Yell upper-cases a greeting.\nfunc Yell(s string) string {\n\treturn strings.ToUpper(s) + "!"\n}\n`,
      );
      lib.write("strs/quiet.go", `package strs\n\n// Whisper is new.\nfunc Whisper(s string) string { return s }\n`);
      await publish("golib");
      const symbols = new SymbolsEngine(reader("all"), "/x");
      // the service's call names a function the library no longer has: unresolved again
      const shout = await symbols.occurrences({ name: "Shout" }, { definitions: true, references: true, limit: 50 });
      expect(shout.occurrences.map((o) => [o.type, o.file_path, o.resolution])).toEqual([["reference", "gosvc/cmd/main.go", "unresolved"]]);
      expect((await reader("all").unresolvedNamed("Shout")).length).toBe(1);
      // the import still reaches the package, its new file included
      const edges = await reader("all").edgesOf(["gosvc/cmd/main.go"]);
      expect(edges.map((e) => e.target).sort()).toEqual(["golib/strs/quiet.go", "golib/strs/strs.go"]);
      // the service, republished calling the new name, resolves again
      const svc = projects.get("gosvc")!.project;
      svc.write("cmd/main.go", REPOS.gosvc!["cmd/main.go"]!.replace("strs.Shout", "strs.Yell"));
      await publish("gosvc");
      const callers = await graph("all").run(request("callers", "Yell"));
      expect(callers.edges.map((e) => [e.from.name, e.to.name])).toEqual([["main.greet", "strs.Yell"]]);
      // and a library moved to another module path is no longer what the service imports
      lib.write("go.mod", "module example.com/other\n\ngo 1.21\n");
      await publish("golib");
      expect(await reader("all").edgesOf(["gosvc/cmd/main.go"])).toEqual([]);
      expect((await graph("all").run(request("callers", "Yell"))).edges).toEqual([]);
    });
  });
}
