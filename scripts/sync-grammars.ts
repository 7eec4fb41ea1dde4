#!/usr/bin/env bun
/**
 * Copies the pinned WASM grammars from node_modules into grammars/ and records, for each, the npm
 * package, its version and the sha256 of the file in grammars/manifest.json. Run after changing a
 * grammar package version in package.json; test/lang/grammars.test.ts checks the record.
 *
 *   bun scripts/sync-grammars.ts
 */
import { copyFileSync, readFileSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../src/core/hash.ts";

/** language id → the npm package and the file inside it. */
export const GRAMMAR_SOURCES: Record<string, { pkg: string; file: string }> = {
  go: { pkg: "tree-sitter-go", file: "tree-sitter-go.wasm" },
  typescript: { pkg: "tree-sitter-typescript", file: "tree-sitter-typescript.wasm" },
  tsx: { pkg: "tree-sitter-typescript", file: "tree-sitter-tsx.wasm" },
  javascript: { pkg: "tree-sitter-javascript", file: "tree-sitter-javascript.wasm" },
  python: { pkg: "tree-sitter-python", file: "tree-sitter-python.wasm" },
  rust: { pkg: "tree-sitter-rust", file: "tree-sitter-rust.wasm" },
  java: { pkg: "tree-sitter-java", file: "tree-sitter-java.wasm" },
  c: { pkg: "tree-sitter-c", file: "tree-sitter-c.wasm" },
  cpp: { pkg: "tree-sitter-cpp", file: "tree-sitter-cpp.wasm" },
  c_sharp: { pkg: "tree-sitter-c-sharp", file: "tree-sitter-c_sharp.wasm" },
  php: { pkg: "tree-sitter-php", file: "tree-sitter-php.wasm" },
  ruby: { pkg: "tree-sitter-ruby", file: "tree-sitter-ruby.wasm" },
  kotlin: { pkg: "@tree-sitter-grammars/tree-sitter-kotlin", file: "tree-sitter-kotlin.wasm" },
  // the tree-sitter runtime itself, loaded by web-tree-sitter before any grammar
  runtime: { pkg: "web-tree-sitter", file: "web-tree-sitter.wasm" },
};

const root = join(import.meta.dir, "..");
const outDir = join(root, "grammars");
mkdirSync(outDir, { recursive: true });
const manifest: Record<string, { package: string; version: string; file: string; sha256: string }> = {};
for (const [lang, { pkg, file }] of Object.entries(GRAMMAR_SOURCES)) {
  const pkgDir = join(root, "node_modules", pkg);
  const src = join(pkgDir, file);
  if (!existsSync(src)) throw new Error(`${pkg} does not ship ${file}; run npm install first`);
  const version = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version as string;
  copyFileSync(src, join(outDir, file));
  manifest[lang] = { package: pkg, version, file, sha256: sha256(readFileSync(src)) };
}
writeFileSync(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`grammars/: ${Object.keys(manifest).length} files recorded in grammars/manifest.json`);
