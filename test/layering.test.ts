/**
 * Dependencies point one way (docs/design.md, "Layers"): every import in src/ — static, dynamic
 * `import()`, `export … from`, type-only, `import("…")` in a type, and the worker entries started with
 * `startWorker("…")` — is parsed with the TypeScript grammar cortex ships, and an edge to a layer the
 * importing layer may not use fails the test, named. Imports of packages and of files outside src/
 * (package.json, grammars/) are not layers; an `import()` of a computed name fails unless the name is a
 * string constant of the file naming a package or a virtual module (`cortex:onnx-files`).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { Language, Parser, Query } from "web-tree-sitter";
import { grammarFiles, runtimeWasm } from "../src/lang/grammars.ts";

/** Which layers each layer may import (its own always). */
const MAY_IMPORT: Record<string, string[]> = {
  cli: ["mcp", "tools", "engines", "indexer", "store", "lang", "embed", "core"],
  mcp: ["tools", "engines", "indexer", "store", "lang", "embed", "core"],
  tools: ["engines", "indexer", "store", "lang", "embed", "core"],
  engines: ["indexer", "store", "lang", "embed", "core"],
  indexer: ["store", "lang", "core"],
  store: ["lang", "core"],
  lang: ["core"],
  embed: ["core"],
  core: [],
};

const SRC = join(import.meta.dir, "..", "src");

const QUERY = `
(import_statement source: (string (string_fragment) @spec))
(export_statement source: (string (string_fragment) @spec))
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @spec)))
(call_expression function: (import) arguments: (arguments . [(identifier) (member_expression) (template_string) (binary_expression)] @computed))
(call_expression function: (identifier) @fn (#eq? @fn "startWorker") arguments: (arguments . (string (string_fragment) @worker)))
`;

type Found = { spec: string; line: number; worker: boolean } | { computed: string; line: number };

let parser: { parse(path: string, text: string): Found[] } | undefined;

async function importsOf(): Promise<NonNullable<typeof parser>> {
  if (parser) return parser;
  await Parser.init({ locateFile: () => runtimeWasm });
  const ts = await Language.load(grammarFiles["tree-sitter-typescript.wasm"]!);
  const p = new Parser();
  p.setLanguage(ts);
  const q = new Query(ts, QUERY);
  parser = {
    parse(path, text) {
      const tree = p.parse(text);
      if (!tree) throw new Error(`cannot parse ${path}`);
      try {
        return q.captures(tree.rootNode).flatMap((c): Found[] => {
          const line = c.node.startPosition.row + 1;
          if (c.name === "spec") return [{ spec: c.node.text, line, worker: false }];
          if (c.name === "worker") return [{ spec: c.node.text, line, worker: true }];
          if (c.name === "computed") return [{ computed: c.node.text, line }];
          return [];
        });
      } finally {
        tree.delete();
      }
    },
  };
  return parser;
}

const layerOf = (srcPath: string): string => srcPath.split("/")[0]!;

/** The forbidden edges among `files` (paths relative to src/ → text), one line each. */
async function violations(files: Map<string, string>): Promise<string[]> {
  const p = await importsOf();
  const out: string[] = [];
  for (const [path, text] of files) {
    const from = layerOf(path);
    if (!path.includes("/")) continue; // src/env.d.ts: ambient declarations, no layer
    const allowed = MAY_IMPORT[from];
    if (!allowed) {
      out.push(`src/${path}: folder '${from}' has no layer; add it to the layers in docs/design.md and this test`);
      continue;
    }
    for (const imp of p.parse(path, text)) {
      if ("computed" in imp) {
        // a name held in a constant of the file (kept out of the bundler's sight) is read from there
        const held = new RegExp(`\\bconst\\s+${imp.computed}\\s*=\\s*"([^"]+)"`).exec(text)?.[1];
        if (held !== undefined && !held.startsWith(".")) continue; // a package or a virtual module
        out.push(`src/${path}:${imp.line}: import(${imp.computed}) names no module this test can check`);
        continue;
      }
      let target: string;
      if (imp.worker) target = imp.spec + ".ts";
      else if (imp.spec.startsWith(".")) target = posix.normalize(posix.join(posix.dirname(path), imp.spec));
      else continue; // a package
      if (target.startsWith("../") || !target.includes("/")) continue; // outside src/ (package.json, grammars/)
      const to = layerOf(target);
      if (to === from || allowed.includes(to)) continue;
      out.push(`src/${path}:${imp.line} (${from}) imports src/${target} (${to})${imp.worker ? " as a worker" : ""}`);
    }
  }
  return out;
}

function sources(dir: string, rel = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of sources(dir, r)) out.set(k, v);
    else if (e.name.endsWith(".ts")) out.set(r, readFileSync(join(dir, r), "utf8"));
  }
  return out;
}

describe("layering", () => {
  test("every import in src/ points down the layers", async () => {
    const files = sources(SRC);
    expect(files.size).toBeGreaterThan(200);
    expect(await violations(files)).toEqual([]);
  });

  test("the check sees every kind of import and names each forbidden edge", async () => {
    const files = new Map([
      ["indexer/a.ts", `import { x } from "../engines/x.ts";\nimport type { T } from "../tools/t.ts";\nexport * from "../mcp/m.ts";`],
      ["store/b.ts", `export type { U } from "../indexer/u.ts";\nconst m = await import("../engines/y.ts");\nlet v: import("../embed/e.ts").V;`],
      [
        "core/c.ts",
        `startWorker("engines/exact/verify-worker");\nimport "../lang/side-effect.ts";\nconst n = await import(name);\nconst pkg = "some-package";\nawait import(pkg);`,
      ],
      [
        "lang/d.ts",
        `import { ok } from "../core/ok.ts";\nimport { Parser } from "web-tree-sitter";\nimport v from "../../package.json";\nimport { own } from "./own.ts";`,
      ],
      ["mcp/e.ts", `import { run } from "../cli/run.ts";`],
      ["extra/f.ts", `export {};`],
    ]);
    expect(await violations(files)).toEqual([
      "src/indexer/a.ts:1 (indexer) imports src/engines/x.ts (engines)",
      "src/indexer/a.ts:2 (indexer) imports src/tools/t.ts (tools)",
      "src/indexer/a.ts:3 (indexer) imports src/mcp/m.ts (mcp)",
      "src/store/b.ts:1 (store) imports src/indexer/u.ts (indexer)",
      "src/store/b.ts:2 (store) imports src/engines/y.ts (engines)",
      "src/store/b.ts:3 (store) imports src/embed/e.ts (embed)",
      "src/core/c.ts:1 (core) imports src/engines/exact/verify-worker.ts (engines) as a worker",
      "src/core/c.ts:2 (core) imports src/lang/side-effect.ts (lang)",
      "src/core/c.ts:3: import(name) names no module this test can check",
      "src/mcp/e.ts:1 (mcp) imports src/cli/run.ts (cli)",
      "src/extra/f.ts: folder 'extra' has no layer; add it to the layers in docs/design.md and this test",
    ]);
  });
});
