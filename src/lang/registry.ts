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

export const LANGUAGE_MODULES: LanguageModule[] = [go, python, ruby, php, typescript, tsx, javascript, jsx, java, kotlin, csharp, c, cpp, rust];

const byExtension = new Map<string, LanguageModule>();
for (const m of LANGUAGE_MODULES) for (const e of m.extensions) byExtension.set(e, m);
const byFilename = new Map<string, LanguageModule>();
for (const m of LANGUAGE_MODULES) for (const f of m.filenames ?? []) byFilename.set(f, m);

const moduleById = new Map<string, LanguageModule>(LANGUAGE_MODULES.map((m) => [m.id, m]));

/** Text formats by extension (no grammar): indexed with line counts, size and content. */
const TEXT_EXTENSIONS: Record<string, string> = {
  ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".rst": "restructuredtext", ".txt": "text",
  ".adoc": "asciidoc", ".json": "json", ".jsonc": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
  ".xml": "xml", ".html": "html", ".htm": "html", ".css": "css", ".scss": "scss", ".less": "less",
  ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".fish": "shell", ".ps1": "powershell", ".bat": "batch",
  ".sql": "sql", ".proto": "protobuf", ".graphql": "graphql", ".gql": "graphql", ".ini": "ini", ".cfg": "ini",
  ".conf": "config", ".env": "dotenv", ".csv": "csv", ".tsv": "tsv", ".svg": "svg", ".vue": "vue",
  ".svelte": "svelte", ".swift": "swift", ".scala": "scala", ".lua": "lua", ".pl": "perl", ".pm": "perl",
  ".r": "r", ".dart": "dart", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell",
  ".clj": "clojure", ".ml": "ocaml", ".zig": "zig", ".nim": "nim", ".tf": "terraform", ".hcl": "hcl",
  ".cmake": "cmake", ".gradle": "gradle", ".mod": "go-module", ".sum": "go-sum", ".lock": "lockfile",
  ".tex": "latex", ".s": "assembly", ".asm": "assembly", ".m": "objective-c", ".mm": "objective-cpp",
  ".ipynb": "jupyter",
};

const TEXT_FILENAMES: Record<string, string> = {
  makefile: "makefile", gnumakefile: "makefile", dockerfile: "dockerfile", "cmakelists.txt": "cmake",
  license: "text", readme: "text", ".gitignore": "gitignore",
  ".cortexignore": "gitignore", ".editorconfig": "editorconfig", "go.mod": "go-module", "go.sum": "go-sum",
};

/**
 * What makes a `.h` file C++ rather than C: a class, namespace, template or access label starting a
 * line, `using namespace`, `std::`, or an extensionless system include (`<vector>`; every C header
 * has an extension). Words that also occur in C prose (`virtual memory`) are not hints.
 */
const CPP_HEADER_HINTS =
  /^\s*(?:(?:class|namespace)\s+\w|template\s*<|using\s+namespace\b|(?:public|protected|private)\s*:|#\s*include\s*<[\w/]+>)|\bstd::/m;

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

export function moduleFor(language: string): LanguageModule | undefined {
  return moduleById.get(language as CodeLanguage);
}
