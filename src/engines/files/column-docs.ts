/**
 * What each column of the statistics tables means, for docs/tools.md. Typed by STATS_TABLES so that a
 * column added to a table without saying what it holds fails the type check.
 */
import { STATS_TABLES, type StatsTable } from "../../store/schema.ts";

type ColumnDocs = { [T in StatsTable]: Record<(typeof STATS_TABLES)[T][number], string> };

export const STATS_COLUMN_DOCS: ColumnDocs = {
  files: {
    file_path: "path from the project root, with `/`",
    language:
      "the language it was parsed as, lower case (`go`, `typescript`, …); the file kind for files without a grammar (`markdown`, `json`, `yaml`, `text`, …)",
    is_test: "a test file by its language's conventions (`_test.go`, `test_*.py`, `*.spec.ts`, `src/test/…`)",
    module_path: "the folder the file is in (`.` at the root)",
    lines_total: "every line",
    lines_code: "lines with code on them (a line with code and a comment counts here)",
    lines_comment: "lines holding only comment",
    lines_blank: "empty or whitespace-only lines",
    size_bytes: "size on disk",
    last_modified: "modification time when indexed (ISO 8601, UTC)",
    type_count: "rows of `types` for this file",
    function_count: "rows of `functions` for this file",
    import_count: "distinct modules the file imports (rows of `imports`)",
  },
  types: {
    type_id: "`<file_path>:<start_line>:<name>`",
    name: "the type's name as declared",
    kind: "struct, class, interface, enum, trait, union, type alias, … (as the language calls it)",
    file_path: "the file that declares it",
    module_path: "that file's folder",
    start_line: "first line of the declaration (1-based)",
    end_line: "last line of the declaration",
    is_exported:
      "visible outside its file or package by the language's rule (Go: capitalised; TypeScript and JavaScript: exported; Java and C#: public; Python: no leading underscore; C: not static)",
    field_count: "fields or properties declared in it",
    method_count: "methods declared in it (Go: methods with it as receiver in the same file)",
  },
  functions: {
    function_id: "`<file_path>:<start_line>:<name>`",
    name: "the function's or method's name",
    file_path: "the file that defines it",
    module_path: "that file's folder",
    start_line: "first line of the definition (1-based)",
    end_line: "last line of the definition",
    is_exported: "visible outside its file or package by the language's rule (as for types)",
    is_method: "declared in a type or with a receiver",
    receiver_type: "the owning type as written (Go's receiver `*Handler`, the class elsewhere); null for free functions",
    param_count: "declared parameters (Go's receiver and Python's self/cls not counted)",
    return_count:
      "values returned: Go's result list; elsewhere 0 for void/None, the element count of a tuple type, else 1 (from the annotation, or from the return statements where there is none)",
    lines: "lines of the body block (in brace languages from `{` to `}`, in Python the indented block); 0 without a body (abstract methods, declarations)",
    complexity: "cyclomatic complexity: 1 + branches, loops, cases, catches, `&&`/`||` and ternaries",
  },
  imports: {
    import_id: "`<file_path>:<imported_module>`: one row per module a file imports",
    file_path: "the importing file",
    imported_module: "the module as written in the import (`net/http`, `./util`, `django.db.models`, `<stdio.h>`)",
    is_standard_lib: "the language's standard library",
    is_external: "a third-party dependency (neither the standard library nor this project)",
    is_relative: 'a relative import (`./x`, `from . import y`, `#include "x.h"`)',
    symbol_count: "names imported from it (`import { a, b }` and `from x import a, b`: 2); 0 for a whole-module import (`import os`, Go's imports, `#include`)",
  },
  modules: {
    module_path: "a folder holding indexed files (`.` for the root); its files are the ones directly in it",
    file_count: "indexed files directly in the folder",
    total_lines: "their `lines_total`, summed",
    code_lines: "their `lines_code`, summed",
    test_file_count: "those that are test files",
    type_count: "their types",
    function_count: "their functions",
    exported_type_count: "their exported types",
    exported_function_count: "their exported functions",
    import_count: "distinct modules its files import (a module imported by several files counts once)",
    external_import_count: "of those, the third-party ones",
    depth: "folders below the root (`.` is 0, `src/net` is 2)",
  },
};

/** The columns of each table with their meaning, as markdown tables. */
export function statsColumnsMarkdown(): string {
  const out: string[] = [];
  for (const table of Object.keys(STATS_TABLES) as StatsTable[]) {
    const docs = STATS_COLUMN_DOCS[table] as Record<string, string>;
    out.push(`\`${table}\`:`, "", "| column | meaning |", "|---|---|");
    for (const column of STATS_TABLES[table]) out.push(`| \`${column}\` | ${docs[column]!.replace(/\|/g, "\\|")} |`);
    out.push("");
  }
  return out.join("\n");
}
