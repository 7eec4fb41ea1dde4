/**
 * ast-grep argument vectors, built as arrays and run without a shell. Every value travels as one
 * `--flag=value` argument and files follow `--`, so no input can become a flag; the rewriting and
 * interactive flags (--rewrite, --update-all, --interactive) are never produced: a proposed rewrite
 * travels as the `fix` of an inline rule, which `scan` reports as JSON and never applies without -U.
 * Every run names an empty ast-grep config of cortex's own, so a project's sgconfig.yml (its rule
 * folders, custom languages, or a broken file) can neither change nor break a search.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { homePaths } from "../../core/paths.ts";
import { writeFileAtomic } from "../../core/fs-atomic.ts";
import type { Rule, Strictness } from "./rule.ts";

export type Matcher = { kind: "pattern"; pattern: string; strictness: Strictness } | { kind: "rule"; rule: Rule; fix?: string };

const CONFIG_TEXT = "# cortex runs ast-grep with this config so a project's sgconfig.yml cannot change its searches.\nruleDirs: []\n";

/** Path of cortex's empty ast-grep config, written on first use. */
export function isolatedConfig(): string {
  const path = join(homePaths.lib(), "ast-grep", "sgconfig.yml");
  if (!existsSync(path) || readFileSync(path, "utf8") !== CONFIG_TEXT) writeFileAtomic(path, CONFIG_TEXT);
  return path;
}

/** The inline rule document `scan` receives (JSON is YAML). */
export function ruleDocument(language: string, rule: Rule, fix?: string): string {
  const doc: Record<string, unknown> = { id: "cortex-pattern", language, rule };
  if (fix !== undefined) doc.fix = fix;
  return JSON.stringify(doc);
}

function common(config: string): string[] {
  return [`--config=${config}`, "--color=never"];
}

/** Arguments of one search over the given root-relative files (JSON stream output). */
export function searchArgs(m: Matcher, language: string, config: string, files: readonly string[]): string[] {
  return [...matcherArgs(m, language, config), "--json=stream", "--", ...files];
}

/** The same search reading empty standard input: checks a matcher when there is no file to search. */
export function validateArgs(m: Matcher, language: string, config: string): string[] {
  return [...matcherArgs(m, language, config), "--json=stream", "--stdin"];
}

function matcherArgs(m: Matcher, language: string, config: string): string[] {
  if (m.kind === "pattern") return ["run", ...common(config), `--lang=${language}`, `--pattern=${m.pattern}`, `--strictness=${m.strictness}`];
  return ["scan", ...common(config), `--inline-rules=${ruleDocument(language, m.rule, m.fix)}`];
}

/** Prints how ast-grep parsed a pattern (on stderr) without searching anything. */
export function debugPatternArgs(pattern: string, strictness: Strictness, language: string, config: string): string[] {
  return ["run", ...common(config), `--lang=${language}`, `--pattern=${pattern}`, `--strictness=${strictness}`, "--debug-query=pattern", "--stdin"];
}

/** Flags that could change files or wait for a person; a test checks no argument vector carries one. */
export const FORBIDDEN_FLAGS = ["-r", "--rewrite", "-U", "--update-all", "-i", "--interactive"];
