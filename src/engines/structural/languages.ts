/**
 * The languages the pinned ast-grep has built in, their accepted names, and which files each one
 * searches. cortex hands ast-grep an explicit file list (so cortex's ignore rules apply), and ast-grep
 * parses an explicitly named file whatever its extension, so this table must pick exactly the files
 * ast-grep's own walk would pick for `--lang <name>`. test/engines/structural-languages.test.ts checks it
 * against the real binary: extension match is case-sensitive, and HTML files count for css, javascript,
 * typescript and tsx because ast-grep searches the code embedded in them.
 */
import { extensionOf } from "../../core/rel-path.ts";

export interface PatternLanguage {
  /** The name ast-grep takes in --lang and in rule files. */
  id: string;
  /** Other accepted names (ast-grep's aliases and cortex's own ids). */
  aliases: string[];
  /** File extensions without the dot. */
  extensions: string[];
}

const HTML_HOSTS = ["html", "htm", "xhtml"];

const lang = (id: string, extensions: string[], aliases: string[] = []): PatternLanguage => ({ id, aliases, extensions });

export const PATTERN_LANGUAGES: readonly PatternLanguage[] = [
  lang("go", ["go"], ["golang"]),
  lang("typescript", ["ts", "cts", "mts", ...HTML_HOSTS], ["ts"]),
  lang("tsx", ["tsx", ...HTML_HOSTS]),
  lang("javascript", ["js", "cjs", "mjs", "jsx", ...HTML_HOSTS], ["js", "jsx"]),
  lang("python", ["py", "py3", "pyi", "bzl", "bazel"], ["py"]),
  lang("rust", ["rs"], ["rs"]),
  lang("c", ["c", "h"]),
  lang("cpp", ["cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino"], ["cc", "c++", "cxx"]),
  lang("java", ["java"]),
  lang("php", ["php"]),
  lang("ruby", ["rb", "rbw", "gemspec"], ["rb"]),
  lang("csharp", ["cs"], ["cs", "c_sharp"]),
  lang("kotlin", ["kt", "ktm", "kts"], ["kt"]),
  lang("swift", ["swift"]),
  lang("scala", ["scala", "sc", "sbt"]),
  lang("dart", ["dart"]),
  lang("lua", ["lua"]),
  lang("elixir", ["ex", "exs"], ["ex"]),
  lang("haskell", ["hs"], ["hs"]),
  lang("bash", ["bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh"]),
  lang("css", ["css", "scss", ...HTML_HOSTS]),
  lang("html", HTML_HOSTS),
  lang("json", ["json"]),
  lang("yaml", ["yaml", "yml"], ["yml"]),
  lang("hcl", ["hcl", "nomad", "tf", "tfvars", "workflow"]),
  lang("nix", ["nix"]),
  lang("solidity", ["sol"], ["sol"]),
  lang("markdown", ["markdown", "md"], ["md"]),
  lang("zig", ["zig"]),
];

const byName = new Map<string, PatternLanguage>();
for (const l of PATTERN_LANGUAGES) for (const n of [l.id, ...l.aliases]) byName.set(n, l);

/** Every accepted language name, canonical names first (the input schema's enum). */
export const LANGUAGE_NAMES: readonly [string, ...string[]] = [
  ...PATTERN_LANGUAGES.map((l) => l.id),
  ...PATTERN_LANGUAGES.flatMap((l) => l.aliases).filter((a, i, all) => !PATTERN_LANGUAGES.some((l) => l.id === a) && all.indexOf(a) === i),
] as [string, ...string[]];

/** The language for a name or alias (case-insensitive), or undefined. */
export function patternLanguage(name: string): PatternLanguage | undefined {
  return byName.get(name.toLowerCase());
}

/** ast-grep picks a file's language by its extension as Rust's Path::extension sees it. */
export { extensionOf };

/** A predicate choosing the files of a language by name. */
export function fileFilter(language: PatternLanguage): (path: string) => boolean {
  const exts = new Set(language.extensions);
  return (path) => {
    const ext = extensionOf(path);
    return ext !== undefined && exts.has(ext);
  };
}
