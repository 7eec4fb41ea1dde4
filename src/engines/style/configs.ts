/**
 * Style rules configured in tool files: .editorconfig, Prettier, ESLint (eslintrc and flat config), Biome, tsconfig strictness,
 * Ruff, Black, isort, flake8, mypy, golangci-lint, rustfmt, clippy, clang-format, Checkstyle, RuboCop and
 * PHP_CodeSniffer. Each setting becomes one readable rule with the file and line where it is set.
 */
import { parse as parseYaml } from "yaml";
import type { StyleRule } from "./documents.ts";
import type { StyleCategory } from "./categories.ts";

const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);

function lineOf(text: string, needle: string | RegExp, from = 0): number {
  const lines = text.split("\n");
  for (let i = from; i < lines.length; i++) {
    if (typeof needle === "string" ? lines[i]!.includes(needle) : needle.test(lines[i]!)) return i + 1;
  }
  return 1;
}

class Rules {
  readonly out: StyleRule[] = [];
  constructor(
    private readonly file: string,
    private readonly text: string,
  ) {}
  add(rule: string, category: StyleCategory, key: string | RegExp, section?: string): void {
    this.out.push({ rule, category, source: { file: this.file, line: lineOf(this.text, key), ...(section ? { section } : {}) }, kind: "config" });
  }
}

function editorconfig(file: string, text: string): StyleRule[] {
  const r = new Rules(file, text);
  let section = "*";
  text.split("\n").forEach((raw, i) => {
    const l = raw.trim();
    const s = /^\[(.+)\]$/.exec(l);
    if (s) return void (section = s[1]!);
    const kv = /^([a-z_]+)\s*=\s*(.+)$/i.exec(l);
    if (!kv) return;
    // EditorConfig's values are case-insensitive, and `unset` removes a property's effect: no rule, not
    // its opposite ("indent_style = TAB" read as spaces, "insert_final_newline = unset" as no newline)
    const [k, v] = [kv[1]!.toLowerCase(), kv[2]!.trim().toLowerCase()];
    const flag = (yes: string, no: string) => (v === "true" ? yes : v === "false" ? no : undefined);
    const text2 =
      v === "unset"
        ? undefined
        : k === "indent_style"
          ? v === "tab"
            ? "Indent with tabs"
            : v === "space"
              ? "Indent with spaces"
              : undefined
          : k === "indent_size" && v === "tab"
            ? "Indent width: one tab"
            : (k === "indent_size" || k === "tab_width") && /^\d+$/.test(v)
              ? `Indent width ${v}`
              : k === "max_line_length" && /^\d+$/.test(v)
                ? `Lines at most ${v} characters`
                : k === "end_of_line" && /^(lf|cr|crlf)$/.test(v)
                  ? `Line endings ${v.toUpperCase()}`
                  : k === "charset"
                    ? `Encoding ${v}`
                    : k === "trim_trailing_whitespace"
                      ? flag("Trim trailing whitespace", "Keep trailing whitespace")
                      : k === "insert_final_newline"
                        ? flag("End files with a newline", "No final newline")
                        : undefined;
    if (text2)
      r.out.push({ rule: `${text2} (files ${section})`, category: "formatting", source: { file, line: i + 1, section: `[${section}]` }, kind: "config" });
  });
  return r.out;
}

const PRETTIER: Record<string, (v: unknown) => string> = {
  printWidth: (v) => `Lines at most ${v} characters`,
  tabWidth: (v) => `Indent width ${v}`,
  useTabs: (v) => (v ? "Indent with tabs" : "Indent with spaces"),
  semi: (v) => (v ? "End statements with semicolons" : "No semicolons"),
  singleQuote: (v) => (v ? "Single quotes for strings" : "Double quotes for strings"),
  trailingComma: (v) => `Trailing commas: ${v}`,
  bracketSpacing: (v) => (v ? "Spaces inside object braces" : "No spaces inside object braces"),
  arrowParens: (v) => `Arrow function parentheses: ${v}`,
  endOfLine: (v) => `Line endings ${String(v).toUpperCase()}`,
  quoteProps: (v) => `Quote object keys: ${v}`,
};

function prettier(file: string, text: string, obj: Record<string, unknown>): StyleRule[] {
  const r = new Rules(file, text);
  for (const [k, v] of Object.entries(obj)) if (PRETTIER[k]) r.add(`${PRETTIER[k]!(v)} (Prettier)`, "formatting", k);
  return r.out;
}

function eslintCategory(name: string): StyleCategory {
  return /import/.test(name)
    ? "imports"
    : /naming|camel/.test(name)
      ? "naming"
      : /test|jest/.test(name)
        ? "testing"
        : /type|any|ts-/.test(name)
          ? "types"
          : /indent|quote|semi|comma|space|max-len|brace/.test(name)
            ? "formatting"
            : "general";
}

/** One ESLint rule as a style rule; `options` as written (JSON, or the source text of a flat config). */
function addEslintRule(r: Rules, name: string, level: unknown, options: string): void {
  if (level === "off" || level === 0) return;
  r.add(`ESLint ${name}: ${level === 2 ? "error" : level === 1 ? "warn" : level}${options ? ` ${options}` : ""}`, eslintCategory(name), name);
}

function eslintRules(file: string, text: string, rules: Record<string, unknown>): StyleRule[] {
  const r = new Rules(file, text);
  for (const [name, setting] of Object.entries(rules)) {
    const level = Array.isArray(setting) ? setting[0] : setting;
    addEslintRule(r, name, level, Array.isArray(setting) && setting.length > 1 ? JSON.stringify(setting.slice(1)) : "");
  }
  return r.out;
}

/**
 * The rules of an ESLint flat config (eslint.config.js and its .mjs/.cjs/.ts forms). The file is a
 * program, and running a project's code to read its style is not ours to do: the `rules: { … }` object
 * literals are read from the text, each entry whose level is written as a literal ('error', "warn", 2,
 * or an array starting with one); entries computed at run time are left out.
 */
function flatEslintRules(file: string, text: string): StyleRule[] {
  const r = new Rules(file, text);
  const code = blankJsCommentsAndStrings(text);
  for (const m of code.matchAll(/\brules\s*:\s*\{/g)) {
    const open = m.index + m[0].length - 1;
    const close = matchingBrace(code, open);
    if (close < 0) continue;
    for (const entry of topLevelEntries(code, open + 1, close)) {
      const colon = code.indexOf(":", entry.start);
      if (colon < 0 || colon >= entry.end) continue;
      const name = text
        .slice(entry.start, colon)
        .trim()
        .replace(/^(['"])(.*)\1$/, "$2");
      const value = text.slice(colon + 1, entry.end).trim();
      const setting = /^\[\s*(['"](?:off|warn|error)['"]|[012])\s*(?:,([\s\S]*))?\]$/.exec(value) ?? /^(['"](?:off|warn|error)['"]|[012])$/.exec(value);
      if (!name || !/^[@\w/.-]+$/.test(name) || !setting) continue;
      const level = /^\d$/.test(setting[1]!) ? Number(setting[1]) : setting[1]!.slice(1, -1);
      const options = (setting[2] ?? "").replace(/\s+/g, " ").replace(/,\s*$/, "").trim();
      addEslintRule(r, name, level, options.length > 120 ? `${options.slice(0, 117)}...` : options);
    }
  }
  return r.out;
}

/** The text with comments and string contents replaced by spaces (same offsets), so braces and commas in them do not count. */
function blankJsCommentsAndStrings(text: string): string {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, (s) =>
    s.startsWith("/") ? s.replace(/[^\n]/g, " ") : s[0] + s.slice(1, -1).replace(/[^\n]/g, " ") + s[s.length - 1],
  );
}

function matchingBrace(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") if (--depth === 0) return i;
  }
  return -1;
}

/** The [start, end) spans of the comma-separated entries between `from` and `to` at the outer depth. */
function topLevelEntries(code: string, from: number, to: number): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    const c = code[i];
    if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
    else if (c === "," && depth === 0) {
      out.push({ start, end: i });
      start = i + 1;
    }
  }
  if (code.slice(start, to).trim()) out.push({ start, end: to });
  return out;
}

function parseLoose(file: string, text: string): Record<string, unknown> | undefined {
  try {
    if (/\.ya?ml$/.test(file) || !/^\s*[{[]/.test(text)) return parseYaml(text) as Record<string, unknown>;
    return JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function tsconfig(file: string, text: string): StyleRule[] {
  const j = parseLoose(file, text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/,(\s*[}\]])/g, "$1"));
  const o = (j?.compilerOptions ?? {}) as Record<string, unknown>;
  const r = new Rules(file, text);
  const flags = [
    "strict",
    "noImplicitAny",
    "strictNullChecks",
    "noUncheckedIndexedAccess",
    "exactOptionalPropertyTypes",
    "noImplicitReturns",
    "noUnusedLocals",
    "noUnusedParameters",
    "noFallthroughCasesInSwitch",
    "verbatimModuleSyntax",
  ];
  for (const f of flags) if (o[f] === true) r.add(`TypeScript ${f} is on`, "types", `"${f}"`);
  return r.out;
}

function pyprojectTools(file: string, text: string): StyleRule[] {
  let t: Record<string, any>;
  try {
    t = Bun.TOML.parse(text) as Record<string, any>;
  } catch {
    return [];
  }
  const r = new Rules(file, text);
  const tool = (t.tool ?? {}) as Record<string, any>;
  const ruff = (base(file) === "ruff.toml" || base(file) === ".ruff.toml" ? t : tool.ruff) as Record<string, any> | undefined;
  if (ruff) {
    if (ruff["line-length"]) r.add(`Lines at most ${ruff["line-length"]} characters (Ruff)`, "formatting", "line-length");
    const lint = (ruff.lint ?? ruff) as Record<string, any>;
    if (Array.isArray(lint.select)) r.add(`Ruff rule sets enforced: ${lint.select.join(", ")}`, "general", "select");
    if (Array.isArray(lint.ignore) && lint.ignore.length) r.add(`Ruff rules ignored: ${lint.ignore.join(", ")}`, "general", "ignore");
    if (ruff["target-version"]) r.add(`Python target ${ruff["target-version"]} (Ruff)`, "general", "target-version");
    if (ruff.format?.["quote-style"]) r.add(`Quote style ${ruff.format["quote-style"]} (Ruff)`, "formatting", "quote-style");
  }
  if (tool.black) {
    if (tool.black["line-length"]) r.add(`Lines at most ${tool.black["line-length"]} characters (Black)`, "formatting", /line[-_]length/);
    if (tool.black["target-version"]) r.add(`Black targets ${[].concat(tool.black["target-version"]).join(", ")}`, "formatting", "target-version");
  }
  if (tool.isort) r.add(`Imports sorted by isort${tool.isort.profile ? ` (profile ${tool.isort.profile})` : ""}`, "imports", "[tool.isort]");
  if (tool.mypy) r.add(`Type-checked by mypy${tool.mypy.strict ? " in strict mode" : ""}`, "types", "[tool.mypy]");
  if (tool.pytest)
    r.add(
      "Tests run with pytest" + (tool.pytest.ini_options?.testpaths ? ` (in ${[].concat(tool.pytest.ini_options.testpaths).join(", ")})` : ""),
      "testing",
      "[tool.pytest",
    );
  return r.out;
}

function iniSection(file: string, text: string, section: string, map: Record<string, (v: string) => [string, StyleCategory]>): StyleRule[] {
  const out: StyleRule[] = [];
  let inside = false;
  text.split("\n").forEach((raw, i) => {
    const s = /^\s*\[(.+)\]\s*$/.exec(raw);
    if (s) return void (inside = s[1]!.trim() === section);
    const kv = /^\s*([\w-]+)\s*[=:]\s*(.+)$/.exec(raw);
    if (inside && kv && map[kv[1]!]) {
      const [rule, category] = map[kv[1]!]!(kv[2]!.trim());
      out.push({ rule, category, source: { file, line: i + 1, section: `[${section}]` }, kind: "config" });
    }
  });
  return out;
}

function golangci(file: string, text: string): StyleRule[] {
  const y = parseLoose(file, text) as Record<string, any> | undefined;
  const r = new Rules(file, text);
  const enable = y?.linters?.enable as string[] | undefined;
  if (enable?.length) r.add(`golangci-lint linters enabled: ${enable.join(", ")}`, "general", "enable");
  const disable = y?.linters?.disable as string[] | undefined;
  if (disable?.length) r.add(`golangci-lint linters disabled: ${disable.join(", ")}`, "general", "disable");
  const lll = y?.["linters-settings"]?.lll?.["line-length"];
  if (lll) r.add(`Lines at most ${lll} characters (lll)`, "formatting", "line-length");
  return r.out;
}

function tomlRules(file: string, text: string, label: string, known: Record<string, (v: unknown) => [string, StyleCategory]>): StyleRule[] {
  let t: Record<string, unknown>;
  try {
    t = Bun.TOML.parse(text) as Record<string, unknown>;
  } catch {
    return [];
  }
  const r = new Rules(file, text);
  for (const [k, v] of Object.entries(t)) {
    const f = known[k];
    if (f) {
      const [rule, cat] = f(v);
      r.add(`${rule} (${label})`, cat, k);
    } else if (typeof v !== "object") r.add(`${label} ${k} = ${JSON.stringify(v)}`, "formatting", k);
  }
  return r.out;
}

function clangFormat(file: string, text: string): StyleRule[] {
  const y = parseLoose(file, text) as Record<string, unknown> | undefined;
  const r = new Rules(file, text);
  if (!y) return [];
  if (y.BasedOnStyle) r.add(`clang-format based on ${y.BasedOnStyle} style`, "formatting", "BasedOnStyle");
  if (y.IndentWidth) r.add(`Indent width ${y.IndentWidth} (clang-format)`, "formatting", "IndentWidth");
  if (y.ColumnLimit !== undefined) r.add(`Lines at most ${y.ColumnLimit} characters (clang-format)`, "formatting", "ColumnLimit");
  if (y.UseTab) r.add(`Tabs: ${y.UseTab} (clang-format)`, "formatting", "UseTab");
  if (y.BreakBeforeBraces) r.add(`Brace style ${y.BreakBeforeBraces} (clang-format)`, "formatting", "BreakBeforeBraces");
  return r.out;
}

function xmlModules(file: string, text: string, label: string, pattern: RegExp): StyleRule[] {
  const out: StyleRule[] = [];
  text.split("\n").forEach((l, i) => {
    for (const m of l.matchAll(pattern))
      out.push({
        rule: `${label}: ${m[1]}`,
        category: /Naming|Name/.test(m[1]!) ? "naming" : /Import/.test(m[1]!) ? "imports" : /Javadoc|Comment|Doc/.test(m[1]!) ? "documentation" : "formatting",
        source: { file, line: i + 1 },
        kind: "config",
      });
  });
  return out;
}

function rubocop(file: string, text: string): StyleRule[] {
  const y = parseLoose(file, text) as Record<string, any> | undefined;
  if (!y) return [];
  const r = new Rules(file, text);
  for (const [cop, cfg] of Object.entries(y)) {
    if (!cop.includes("/") || typeof cfg !== "object" || cfg === null) continue;
    const c = cfg as Record<string, unknown>;
    if (c.Enabled === false) r.add(`RuboCop ${cop} disabled`, "general", cop);
    else if (c.Max !== undefined) r.add(`RuboCop ${cop}: at most ${c.Max}`, cop.startsWith("Layout") ? "formatting" : "general", cop);
    else if (c.EnforcedStyle !== undefined) r.add(`RuboCop ${cop}: ${c.EnforcedStyle}`, cop.startsWith("Naming") ? "naming" : "formatting", cop);
  }
  return r.out;
}

/** True for files whose settings are style rules. */
export function isStyleConfig(path: string): boolean {
  const b = base(path);
  return (
    b === ".editorconfig" ||
    /^\.prettierrc(\.(json|ya?ml|json5))?$/.test(b) ||
    /^\.eslintrc(\.(json|ya?ml))?$/.test(b) ||
    /^eslint\.config\.(js|mjs|cjs|ts|mts|cts)$/.test(b) ||
    b === "biome.json" ||
    b === "biome.jsonc" ||
    /^tsconfig(\.[\w-]+)?\.json$/.test(b) ||
    b === "pyproject.toml" ||
    b === "ruff.toml" ||
    b === ".ruff.toml" ||
    b === "setup.cfg" ||
    b === ".flake8" ||
    b === "tox.ini" ||
    /^\.golangci\.ya?ml$/.test(b) ||
    b === "rustfmt.toml" ||
    b === ".rustfmt.toml" ||
    b === "clippy.toml" ||
    b === ".clang-format" ||
    /checkstyle.*\.xml$/.test(b) ||
    b === ".rubocop.yml" ||
    /^phpcs\.xml(\.dist)?$/.test(b) ||
    b === "package.json"
  );
}

export function configRules(path: string, text: string): StyleRule[] {
  const b = base(path);
  try {
    if (b === ".editorconfig") return editorconfig(path, text);
    if (b.startsWith(".prettierrc")) return prettier(path, text, parseLoose(path, text) ?? {});
    if (b.startsWith("eslint.config.")) return flatEslintRules(path, text);
    if (b.startsWith(".eslintrc")) return eslintRules(path, text, (parseLoose(path, text)?.rules ?? {}) as Record<string, unknown>);
    if (b === "package.json") {
      const j = JSON.parse(text) as Record<string, any>;
      return [
        ...(j.prettier && typeof j.prettier === "object" ? prettier(path, text, j.prettier) : []),
        ...(j.eslintConfig?.rules ? eslintRules(path, text, j.eslintConfig.rules) : []),
      ];
    }
    if (b.startsWith("biome.json")) {
      const j = parseLoose(path, text) as Record<string, any> | undefined;
      const r = new Rules(path, text);
      const fmt = j?.formatter ?? {};
      if (fmt.indentStyle) r.add(`Indent with ${fmt.indentStyle === "tab" ? "tabs" : "spaces"} (Biome)`, "formatting", "indentStyle");
      if (fmt.indentWidth) r.add(`Indent width ${fmt.indentWidth} (Biome)`, "formatting", "indentWidth");
      if (fmt.lineWidth) r.add(`Lines at most ${fmt.lineWidth} characters (Biome)`, "formatting", "lineWidth");
      for (const [group, rules] of Object.entries((j?.linter?.rules ?? {}) as Record<string, unknown>)) {
        if (rules && typeof rules === "object")
          for (const [name, lvl] of Object.entries(rules))
            r.add(`Biome ${group}/${name}: ${typeof lvl === "string" ? lvl : JSON.stringify(lvl)}`, "general", name);
      }
      return r.out;
    }
    if (b.startsWith("tsconfig")) return tsconfig(path, text);
    if (b === "pyproject.toml" || b === "ruff.toml" || b === ".ruff.toml") return pyprojectTools(path, text);
    if (b === "setup.cfg" || b === ".flake8" || b === "tox.ini") {
      return iniSection(path, text, "flake8", {
        "max-line-length": (v) => [`Lines at most ${v} characters (flake8)`, "formatting"],
        "max-complexity": (v) => [`Cyclomatic complexity at most ${v} (flake8)`, "general"],
        ignore: (v) => [`flake8 ignores ${v}`, "general"],
        "extend-ignore": (v) => [`flake8 ignores ${v}`, "general"],
      });
    }
    if (b.startsWith(".golangci")) return golangci(path, text);
    if (b === "rustfmt.toml" || b === ".rustfmt.toml") {
      return tomlRules(path, text, "rustfmt", {
        max_width: (v) => [`Lines at most ${v} characters`, "formatting"],
        tab_spaces: (v) => [`Indent width ${v}`, "formatting"],
        hard_tabs: (v) => [v ? "Indent with tabs" : "Indent with spaces", "formatting"],
        edition: (v) => [`Rust edition ${v}`, "general"],
        imports_granularity: (v) => [`Import granularity ${v}`, "imports"],
        group_imports: (v) => [`Import grouping ${v}`, "imports"],
      });
    }
    if (b === "clippy.toml") return tomlRules(path, text, "clippy", {});
    if (b === ".clang-format") return clangFormat(path, text);
    if (/checkstyle.*\.xml$/.test(b))
      return xmlModules(path, text, "Checkstyle", /<module\s+name="([\w.]+)"/g).filter((x) => !/^(Checker|TreeWalker)$/.test(x.rule.split(": ")[1]!));
    if (b === ".rubocop.yml") return rubocop(path, text);
    if (b.startsWith("phpcs.xml")) return xmlModules(path, text, "PHP_CodeSniffer", /<rule\s+ref="([^"]+)"/g);
  } catch {
    return [];
  }
  return [];
}
