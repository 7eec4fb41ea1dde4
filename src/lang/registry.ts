/**
 * Which language a file is: the code languages with grammars (one module each) and the text formats
 * indexed for content and line counts only.
 */
import type { LanguageModule } from "./module.ts";
import type { CodeLanguage } from "./types.ts";
import { go } from "./go.ts";
import { python } from "./python.ts";
import { ruby } from "./ruby.ts";
import { php } from "./php.ts";
import { typescript, tsx } from "./typescript.ts";
import { javascript, jsx } from "./javascript.ts";
import { java } from "./java.ts";
import { kotlin } from "./kotlin.ts";
import { csharp } from "./csharp.ts";
import { c } from "./c.ts";
import { cpp } from "./cpp.ts";
import { rust } from "./rust.ts";
import { extensionOf } from "../core/rel-path.ts";
import { BASE_RULES, type ResolutionRules } from "./resolution.ts";

export const LANGUAGE_MODULES: LanguageModule[] = [go, python, ruby, php, typescript, tsx, javascript, jsx, java, kotlin, csharp, c, cpp, rust];

const byExtension = new Map<string, LanguageModule>();
for (const m of LANGUAGE_MODULES) for (const e of m.extensions) byExtension.set(e, m);
const byFilename = new Map<string, LanguageModule>();
for (const m of LANGUAGE_MODULES) for (const f of m.filenames ?? []) byFilename.set(f, m);

const moduleById = new Map<string, LanguageModule>(LANGUAGE_MODULES.map((m) => [m.id, m]));

/** Text formats by extension (no grammar): indexed with line counts, size and content. */
const TEXT_EXTENSIONS: Record<string, string> = {
  ".md": "markdown",
  ".markdown": "markdown",
  ".mdx": "markdown",
  ".rst": "restructuredtext",
  ".txt": "text",
  ".adoc": "asciidoc",
  ".json": "json",
  ".jsonc": "json",
  ".yaml": "yaml",
  ".yml": "yaml",
  ".toml": "toml",
  ".xml": "xml",
  ".html": "html",
  ".htm": "html",
  ".css": "css",
  ".scss": "scss",
  ".less": "less",
  ".sh": "shell",
  ".bash": "shell",
  ".zsh": "shell",
  ".fish": "shell",
  ".ps1": "powershell",
  ".bat": "batch",
  ".sql": "sql",
  ".proto": "protobuf",
  ".graphql": "graphql",
  ".gql": "graphql",
  ".ini": "ini",
  ".cfg": "ini",
  ".conf": "config",
  ".env": "dotenv",
  ".csv": "csv",
  ".tsv": "tsv",
  ".svg": "svg",
  ".vue": "vue",
  ".svelte": "svelte",
  ".swift": "swift",
  ".scala": "scala",
  ".lua": "lua",
  ".pl": "perl",
  ".pm": "perl",
  ".r": "r",
  ".dart": "dart",
  ".ex": "elixir",
  ".exs": "elixir",
  ".erl": "erlang",
  ".hs": "haskell",
  ".clj": "clojure",
  ".ml": "ocaml",
  ".zig": "zig",
  ".nim": "nim",
  ".tf": "terraform",
  ".hcl": "hcl",
  ".cmake": "cmake",
  ".gradle": "gradle",
  ".mod": "go-module",
  ".sum": "go-sum",
  ".lock": "lockfile",
  ".tex": "latex",
  ".s": "assembly",
  ".asm": "assembly",
  ".m": "objective-c",
  ".mm": "objective-cpp",
  ".ipynb": "jupyter",
};

const TEXT_FILENAMES: Record<string, string> = {
  makefile: "makefile",
  gnumakefile: "makefile",
  dockerfile: "dockerfile",
  "cmakelists.txt": "cmake",
  license: "text",
  readme: "text",
  ".gitignore": "gitignore",
  ".cortexignore": "gitignore",
  ".editorconfig": "editorconfig",
  "go.mod": "go-module",
  "go.sum": "go-sum",
  // lockfiles whose extension says JSON or YAML (yarn.lock, Cargo.lock, bun.lock are `.lock`)
  "package-lock.json": "lockfile",
  "npm-shrinkwrap.json": "lockfile",
  "pnpm-lock.yaml": "lockfile",
  "deno.lock": "lockfile",
};

/**
 * What makes a `.h` file C++ rather than C: a class, namespace, template or access label starting a
 * line, `using namespace`, `std::`, or an extensionless system include (`<vector>`; every C header
 * has an extension). Words that also occur in C prose (`virtual memory`) are not hints.
 */
const CPP_HEADER_HINTS = /^\s*(?:(?:class|namespace)\s+\w|template\s*<|using\s+namespace\b|(?:public|protected|private)\s*:|#\s*include\s*<[\w/]+>)|\bstd::/m;

export interface LanguageChoice {
  language: string;
  module?: LanguageModule;
}

/** Picks the language of a file from its name, looking at the content only where the name is ambiguous. */
export function languageFor(path: string, content?: string): LanguageChoice {
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const namedModule = byFilename.get(base);
  if (namedModule) return { language: namedModule.id, module: namedModule };
  const named = TEXT_FILENAMES[base];
  if (named) return { language: named };
  const written = extensionOf(path);
  const ext = written === undefined ? "" : "." + written.toLowerCase();
  if (ext === ".h" && content !== undefined) {
    const cpp = moduleById.get("cpp");
    if (cpp && CPP_HEADER_HINTS.test(content)) return { language: "cpp", module: cpp };
  }
  const m = byExtension.get(ext);
  if (m) return { language: m.id, module: m };
  return { language: TEXT_EXTENSIONS[ext] ?? "text" };
}

/** Text formats whose comments are not `//` (a note in a snippet of them must not read as content). */
const TEXT_COMMENTS: Record<string, (text: string) => string> = {
  shell: (t) => `# ${t}`,
  yaml: (t) => `# ${t}`,
  toml: (t) => `# ${t}`,
  markdown: (t) => `<!-- ${t} -->`,
};

/** A one-line comment in a language (code or text format) saying `text`. */
export function commentLine(language: string, text: string): string {
  const format = TEXT_COMMENTS[language];
  if (format) return format(text);
  return `${moduleFor(language)?.lineComment ?? "//"} ${text}`;
}

export function moduleFor(language: string): LanguageModule | undefined {
  return moduleById.get(language as CodeLanguage);
}

const rulesById = new Map<string, ResolutionRules>(LANGUAGE_MODULES.map((m) => [m.id, m.resolution]));

/** A language's resolution rules; a language without a module (a text format) shares by declared package and reads no types. */
export function rulesOf(language: string): ResolutionRules {
  let r = rulesById.get(language);
  if (!r) rulesById.set(language, (r = { ...BASE_RULES, family: language }));
  return r;
}

/** Languages whose names can refer to each other's definitions share a family (ResolutionRules.family). */
export function familyOf(language: string): string {
  return rulesOf(language).family;
}

const union = (pick: (r: ResolutionRules) => string[]): ReadonlySet<string> => new Set(LANGUAGE_MODULES.flatMap((m) => pick(m.resolution)));

/**
 * Qualifiers that name the current object or class, and the base class: every language's words, in
 * every language (a `self` in C++ code is a receiver named self far less often than Python's self is).
 */
export const SELF_QUALIFIERS = union((r) => r.selfQualifiers);
export const SUPER_QUALIFIERS = union((r) => r.superQualifiers);
/** Members a constructor call runs under another name (`initialize`), looked up with every batch. */
export const CONSTRUCTOR_MEMBERS: readonly string[] = [...union((r) => (r.constructorCall ? [r.constructorCall.member] : []))];

const coreMembersByFamily = new Map<string, Set<string>>();
for (const m of LANGUAGE_MODULES) {
  const set = coreMembersByFamily.get(m.resolution.family) ?? new Set<string>();
  for (const name of m.resolution.coreMembers) set.add(name);
  coreMembersByFamily.set(m.resolution.family, set);
}

/** Whether a member name belongs to the core library types of a family's languages (ResolutionRules.coreMembers). */
export function isCoreMember(family: string, name: string): boolean {
  return coreMembersByFamily.get(family)?.has(name) ?? false;
}

/**
 * The languages a user's language name selects: the language (by id or alias: `c#`, `c++`), its
 * dialects (`typescript` also selects tsx) and, for a family's name, the family (`js`, `jvm`).
 */
export function languageSelector(name: string): (language: string) => boolean {
  const asked = name.toLowerCase();
  const l = LANGUAGE_MODULES.find((m) => m.resolution.aliases?.includes(asked))?.id ?? asked;
  return (language) => {
    if (language === l) return true;
    const r = rulesOf(language);
    return r.dialectOf === l || r.family === l;
  };
}

/**
 * The name of what a test file tests, by its language's naming conventions (ResolutionRules.testNames),
 * lower case without `-` and `_`; undefined for a test whose name carries no test affix (a fixture, a
 * helper in a test folder) and for a file of no code language.
 */
export function testSubject(testPath: string): string | undefined {
  const module = languageFor(testPath).module;
  if (!module) return undefined;
  const base = testPath.slice(testPath.lastIndexOf("/") + 1);
  const name = base.replace(/\.[^.]+$/, "");
  for (const re of module.resolution.testNames) {
    const key = re.exec(name)?.[1]?.toLowerCase().replace(/[-_]/g, "");
    if (key !== undefined) return key.length > 0 ? key : undefined;
  }
  return undefined;
}
