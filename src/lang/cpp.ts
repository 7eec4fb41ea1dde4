/**
 * C++: namespaces, classes / structs / unions with their fields and methods (inline and out-of-line
 * `A::m`), templates, enums and enum classes, `using` and typedef aliases, free functions, namespace-
 * scope variables and `#define` constants, `#include`s against the C and C++ standard headers,
 * inheritance (`implement` for pure interfaces), calls (`new T` included), type uses and reads. The
 * rules (what counts as a function, what is exported) are documented in c-family.ts.
 */
import type { LanguageModule } from "./module.ts";
import { BASE_RULES, TEST_PREFIX, TEST_SUFFIX, typeBeforeParameter, typeBeforeReturn, typedField, typedLocal, type ResolutionRules } from "./resolution.ts";
import { cFamilyTestFile, extractCFamily, resolveInclude } from "./c-family.ts";
import { CPP_STANDARD_HEADERS } from "./c-std-headers.ts";

const QUERY = `
(comment) @comment
[(if_statement) (for_statement) (for_range_loop) (while_statement) (do_statement) (conditional_expression) (catch_clause)] @decision
(case_statement value: (_)) @decision
["&&" "||" "and" "or"] @logic
[(reference_declarator "&&" @notlogic) (abstract_reference_declarator "&&" @notlogic) (ref_qualifier "&&" @notlogic)
 (operator_name ["&&" "||" "and" "or"] @notlogic) (constraint_conjunction ["&&" "and"] @notlogic)
 (constraint_disjunction ["||" "or"] @notlogic)]
(call_expression function: (_) @call.fn)
(new_expression type: (_) @new.type)
[(struct_specifier name: (type_identifier) @type.def body: (_))
 (union_specifier name: (type_identifier) @type.def body: (_))
 (enum_specifier name: (type_identifier) @type.def body: (_))
 (class_specifier name: (type_identifier) @type.def body: (_))
 (type_definition declarator: (type_identifier) @type.def)
 (alias_declaration name: (type_identifier) @type.def)]
(qualified_identifier scope: (_) @type.scope
  name: [(type_identifier) @type.qname (template_type name: (type_identifier) @type.qname)])
(qualified_identifier scope: (_) @type.scope
  name: (qualified_identifier name: [(type_identifier) @type.qname (template_type name: (type_identifier) @type.qname)]))
(type_identifier) @type
`;

const DIALECT = { cpp: true, stdHeaders: CPP_STANDARD_HEADERS };

/** C++: C's family and includes, namespaces shared by declaration, members in scope unqualified. */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "c",
  aliases: ["c++"],
  implicitThis: true,
  selfQualifiers: ["this"],
  includes: "all",
  packageScope: "declared-or-folder",
  types: { parameter: typeBeforeParameter, local: typedLocal, field: typedField, returnType: typeBeforeReturn },
  testNames: [TEST_PREFIX, TEST_SUFFIX],
};

export const cpp: LanguageModule = {
  id: "cpp",
  // .ipp / .tpp / .inl: template implementation files included by headers (Boost and others)
  extensions: [".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"],
  grammar: "tree-sitter-cpp.wasm",
  resolution: RULES,
  query: QUERY,
  // foo_test.cc, foo_unittest.cc, foo_tests.cc, test_foo.cc, and anything under a test/ or tests/ directory
  isTestFile: (path) => cFamilyTestFile(path, ["_test", "_unittest", "_tests"]),
  extract: (tree, ctx, matches) => extractCFamily(tree, ctx, matches, DIALECT),
  resolveImport: resolveInclude,
};
