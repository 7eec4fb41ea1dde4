import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import type { StyleEngine } from "../../src/engines/style/index.ts";
import { configRules } from "../../src/engines/style/configs.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
let session: Session;
let style: StyleEngine;

beforeAll(async () => {
  p = tmpProject({
    "CONTRIBUTING.md": [
      "# Contributing", //1
      "", //2
      "Thanks for helping.", //3
      "", //4
      "## Code style", //5
      "", //6
      "- Use snake_case for function names.", //7
      "- Errors are returned, never panicked on.", //8
      "- Keep functions short", //9
      "", //10
      "## Commits", //11
      "", //12
      "Commit messages must follow Conventional Commits.", //13
      "```", //14
      "- this is code, never a rule: you must not read it", //15
      "```", //16
    ].join("\n"),
    "docs/adr/0001-sqlite.md": "# 1. Store the index in SQLite\n\n## Decision\n\nWe use SQLite in WAL mode for the index.\n",
    ".editorconfig": "root = true\n\n[*]\nindent_style = space\nindent_size = 2\n\n[*.go]\nindent_style = tab\n",
    ".prettierrc.json": '{\n  "printWidth": 100,\n  "semi": false,\n  "singleQuote": true\n}\n',
    "pyproject.toml": '[tool.ruff]\nline-length = 88\n\n[tool.ruff.lint]\nselect = ["E", "F", "I"]\n\n[tool.black]\nline-length = 88\n',
    ".golangci.yml": "linters:\n  enable:\n    - errcheck\n    - revive\n",
    "tsconfig.json": '{\n  // comment\n  "compilerOptions": {\n    "strict": true,\n    "noUncheckedIndexedAccess": true,\n  }\n}\n',
    ".eslintrc.json": '{ "rules": { "no-console": "error", "max-len": ["warn", { "code": 120 }], "eqeqeq": "off" } }',
    "src/main.go": "package main\n",
  });
  session = new Session(p.root, { autoIndex: true });
  style = await session.style();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

const rulesOf = async (file: string) =>
  (await style.allRules()).filter((r) => r.source.file === file).map((r) => `${r.source.line}: ${r.rule} [${r.category}]`);

describe("get_style_guide", () => {
  test("rules from CONTRIBUTING with their line and section; code blocks are not rules", async () => {
    expect(await rulesOf("CONTRIBUTING.md")).toEqual([
      "7: Use snake_case for function names. [naming]",
      "8: Errors are returned, never panicked on. [errors]",
      "9: Keep functions short [general]",
      "13: Commit messages must follow Conventional Commits. [git]",
    ]);
    expect((await style.allRules()).find((r) => r.source.line === 7)!.source.section).toBe("Contributing > Code style");
  });

  test("the decision of an ADR is a rule", async () => {
    expect(await rulesOf("docs/adr/0001-sqlite.md")).toEqual(["5: We use SQLite in WAL mode for the index. [architecture]"]);
  });

  test("tool configs become readable rules with the line where each is set", async () => {
    expect(await rulesOf(".editorconfig")).toEqual([
      "4: Indent with spaces (files *) [formatting]",
      "5: Indent width 2 (files *) [formatting]",
      "8: Indent with tabs (files *.go) [formatting]",
    ]);
    expect(await rulesOf(".prettierrc.json")).toEqual([
      "2: Lines at most 100 characters (Prettier) [formatting]",
      "3: No semicolons (Prettier) [formatting]",
      "4: Single quotes for strings (Prettier) [formatting]",
    ]);
    expect(await rulesOf("pyproject.toml")).toEqual([
      "2: Lines at most 88 characters (Ruff) [formatting]",
      "5: Ruff rule sets enforced: E, F, I [general]",
      "2: Lines at most 88 characters (Black) [formatting]",
    ]);
    expect(await rulesOf(".golangci.yml")).toEqual(["2: golangci-lint linters enabled: errcheck, revive [general]"]);
    expect(await rulesOf("tsconfig.json")).toEqual(["4: TypeScript strict is on [types]", "5: TypeScript noUncheckedIndexedAccess is on [types]"]);
    expect(await rulesOf(".eslintrc.json")).toEqual(["1: ESLint no-console: error [general]", '1: ESLint max-len: warn [{"code":120}] [formatting]']);
  });

  test("category and query filters", async () => {
    const g = await style.guide({ category: "naming", limit: 10 });
    expect(g.rules.map((r) => r.rule)).toEqual(["Use snake_case for function names."]);
    const q = await style.guide({ query: "line length characters", limit: 2 });
    expect(q.rules.length).toBe(2);
    expect(q.rules.every((r) => r.rule.includes("characters"))).toBe(true);
    expect(q.total).toBe(3);
    // nothing matches: the guide says how many rules the project has, so "none" is not read as "no rules"
    const none = await style.guide({ query: "zzzz", limit: 10 });
    expect([none.rules.length, none.project_rules! > 10]).toEqual([0, true]);
    expect((await style.guide({ limit: 10 })).project_rules).toBeUndefined();
    expect((await style.guide({ limit: 100 })).sources.map((s) => s.file).sort()).toEqual([
      ".editorconfig",
      ".eslintrc.json",
      ".golangci.yml",
      ".prettierrc.json",
      "CONTRIBUTING.md",
      "docs/adr/0001-sqlite.md",
      "pyproject.toml",
      "tsconfig.json",
    ]);
  });
});

test(".editorconfig values are read as EditorConfig defines them: in any case, and unset is no rule", () => {
  const text = [
    "root = true",
    "[*]",
    "indent_style = TAB",
    "indent_size = tab",
    "end_of_line = LF",
    "",
    "[vendor/**]",
    "indent_style = unset",
    "insert_final_newline = unset",
    "trim_trailing_whitespace = maybe",
    "",
  ].join("\n");
  expect(configRules(".editorconfig", text).map((r) => `${r.source.line}: ${r.rule}`)).toEqual([
    "3: Indent with tabs (files *)",
    "4: Indent width: one tab (files *)",
    "5: Line endings LF (files *)",
  ]);
});

test("an ESLint flat config's rules are read from its text, without running it", () => {
  const text = [
    'import js from "@eslint/js";',
    "// rules: { 'commented-out': 'error' }",
    "export default [",
    "  js.configs.recommended,",
    "  {",
    "    files: ['**/*.ts'],",
    "    rules: {",
    '      "no-console": "warn",',
    "      eqeqeq: ['error', 'always', { null: 'ignore' }],",
    "      'no-unused-vars': 'off',",
    "      quotes: [2, 'single'],",
    "      curly: process.env.CI ? 'error' : 'warn',",
    "      '@typescript-eslint/no-explicit-any': 'error', // 'a, b' }",
    "    },",
    "  },",
    "];",
    "",
  ].join("\n");
  expect(configRules("web/eslint.config.mjs", text).map((r) => `${r.source.line}: ${r.rule} [${r.category}]`)).toEqual([
    "8: ESLint no-console: warn [general]",
    "9: ESLint eqeqeq: error 'always', { null: 'ignore' } [general]",
    "11: ESLint quotes: error 'single' [formatting]",
    "13: ESLint @typescript-eslint/no-explicit-any: error [types]",
  ]);
  expect(configRules("eslint.config.js", "export default [{ rules: { semi: ['error', 'never'] ")).toEqual([]);
});
