/**
 * The suite every language module passes: parse each fixture file of the language and check what must
 * hold for any language (consistent line counts, definitions inside the file, references never inside
 * comments, qualified names ending in the name), then the hand-written truth the language test gives.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FactsParser } from "../../src/lang/parser.ts";
import type { ProjectInfo } from "../../src/lang/project.ts";
import type { FileFacts } from "../../src/lang/types.ts";

export const FIXTURE_ROOT = join(import.meta.dir, "..", "fixtures", "polyglot");

let parserPromise: Promise<FactsParser> | undefined;

/** Parses a fixture file (path relative to test/fixtures/polyglot) into its facts. */
export async function factsOf(path: string, project: ProjectInfo): Promise<FileFacts> {
  parserPromise ??= FactsParser.create();
  const parser = await parserPromise;
  const text = readFileSync(join(FIXTURE_ROOT, path), "utf8");
  const parsed = await parser.parse(path, text, project);
  if (!parsed.facts) throw new Error(`${path} was not parsed as code (language ${parsed.language})`);
  return parsed.facts;
}

/** Positions covered by comments, from a plain scan of what the language marks as comments. */
export function commonInvariants(language: string, files: string[], project: ProjectInfo): void {
  for (const path of files) {
    test(`${language}: ${path} facts are self-consistent`, async () => {
      const f = await factsOf(path, project);
      const text = readFileSync(join(FIXTURE_ROOT, path), "utf8");
      const lineCount = text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
      expect(f.language).toBe(language as FileFacts["language"]);
      expect(f.lines.total).toBe(lineCount);
      expect(f.lines.code + f.lines.comment + f.lines.blank).toBe(f.lines.total);
      expect(f.syntaxErrors).toBe(0);
      for (const d of [...f.types, ...f.functions, ...f.variables]) {
        expect(d.startLine).toBeGreaterThanOrEqual(1);
        expect(d.endLine).toBeGreaterThanOrEqual(d.startLine);
        expect(d.endLine).toBeLessThanOrEqual(lineCount);
        expect(d.qualifiedName === d.name || d.qualifiedName.endsWith("." + d.name)).toBe(true);
      }
      for (const fn of f.functions) {
        expect(fn.complexity).toBeGreaterThanOrEqual(1);
        expect(fn.paramCount).toBeGreaterThanOrEqual(0);
        expect(fn.bodyLines).toBeLessThanOrEqual(fn.endLine - fn.startLine + 1);
      }
      const lines = text.split("\n");
      for (const r of f.references) {
        const l = lines[r.line - 1];
        expect(l).toBeDefined();
        // the reference's name is written at its position
        expect(l!.slice(r.column - 1, r.column - 1 + r.name.length)).toBe(r.name);
      }
    });
  }
}
