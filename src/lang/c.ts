/**
 * C: functions defined in the file, structs, unions, enums (enumerators as enum members), typedefs,
 * file-scope variables and `#define` constants, `#include`s classified against the standard headers,
 * and references (calls, type uses, reads of file-scope values). The rules live in c-family.ts, which
 * C++ shares; `.h` files go to C++ instead when their content says so (src/lang/registry.ts).
 */
import type { LanguageModule } from "./module.ts";
import { BASE_RULES, TEST_PREFIX, TEST_SUFFIX, typeBeforeParameter, typeBeforeReturn, typedField, typedLocal, type ResolutionRules } from "./resolution.ts";
import { cFamilyTestFile, extractCFamily, resolveInclude } from "./c-family.ts";
import { C_STANDARD_HEADERS } from "./c-std-headers.ts";

const QUERY = `
(comment) @comment
[(if_statement) (for_statement) (while_statement) (do_statement) (conditional_expression)] @decision
(case_statement value: (_)) @decision
["&&" "||"] @logic
(call_expression function: (_) @call.fn)
[(struct_specifier name: (type_identifier) @type.def body: (_))
 (union_specifier name: (type_identifier) @type.def body: (_))
 (enum_specifier name: (type_identifier) @type.def body: (_))
 (type_definition declarator: (type_identifier) @type.def)]
(type_identifier) @type
`;

const DIALECT = { cpp: false, stdHeaders: C_STANDARD_HEADERS };

/** C: `#include` loads a file and binds nothing; files of one folder share names; types precede names. */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "c",
  includes: "all",
  packageScope: "declared-or-folder",
  types: { parameter: typeBeforeParameter, local: typedLocal, field: typedField, returnType: typeBeforeReturn },
  testNames: [TEST_PREFIX, TEST_SUFFIX],
};

export const c: LanguageModule = {
  id: "c",
  extensions: [".c", ".h"],
  grammar: "tree-sitter-c.wasm",
  resolution: RULES,
  query: QUERY,
  // test_*.c, *_test.c, and anything under a test/ or tests/ directory
  isTestFile: (path) => cFamilyTestFile(path, ["_test"]),
  extract: (tree, ctx, matches) => extractCFamily(tree, ctx, matches, DIALECT),
  resolveImport: resolveInclude,
};
