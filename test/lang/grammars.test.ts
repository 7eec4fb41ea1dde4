import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../src/core/hash.ts";
import { grammarFiles } from "../../src/lang/grammars.ts";
import { LANGUAGE_MODULES } from "../../src/lang/registry.ts";

const dir = join(import.meta.dir, "../../grammars");
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Record<
  string,
  { package: string; version: string; file: string; sha256: string }
>;

describe("grammars/", () => {
  test("every grammar file matches the package version and sha256 recorded by scripts/sync-grammars.ts", () => {
    for (const [lang, entry] of Object.entries(manifest)) {
      const bytes = readFileSync(join(dir, entry.file));
      expect(`${lang}: ${sha256(bytes)}`).toBe(`${lang}: ${entry.sha256}`);
      expect(entry.version).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  test("the recorded versions are the ones package.json pins", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dir, "../../package.json"), "utf8"));
    const deps = { ...pkg.dependencies, ...pkg.devDependencies };
    for (const entry of Object.values(manifest)) expect(`${entry.package}@${deps[entry.package]}`).toBe(`${entry.package}@${entry.version}`);
  });

  test("every language module's grammar is embedded", () => {
    for (const m of LANGUAGE_MODULES) expect(grammarFiles[m.grammar]).toBeDefined();
  });
});
