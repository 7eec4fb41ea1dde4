/**
 * C: functions defined in the file, structs, unions, enums (enumerators as enum members), typedefs,
 * file-scope variables and `#define` constants, `#include`s classified against the standard headers,
 * and references (calls, type uses, reads of file-scope values). The rules live in c-family.ts, which
 * C++ shares; `.h` files go to C++ instead when their content says so (src/lang/registry.ts).
 */
import type { Node } from "web-tree-sitter";
import type { CollectedMatches, LanguageModule, QueryMatch } from "./module.ts";
import { BASE_RULES, TEST_PREFIX, TEST_SUFFIX, typeBeforeParameter, typeBeforeReturn, typedField, typedLocal, type ResolutionRules } from "./resolution.ts";
import { cFamilyTestFile, extractCFamily, resolveInclude } from "./c-family.ts";
import { C_STANDARD_HEADERS } from "./c-std-headers.ts";
import { typeIdTable } from "./kit.ts";

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

/** What collectC does with each node type it asks tree-sitter for. */
enum Kind {
  Other,
  Comment,
  Decision,
  Case,
  Logic,
  Call,
  Specifier,
  Body,
  Typedef,
  TypeName,
}

const KIND_OF_TYPE: Record<string, Kind> = {
  comment: Kind.Comment,
  if_statement: Kind.Decision,
  for_statement: Kind.Decision,
  while_statement: Kind.Decision,
  do_statement: Kind.Decision,
  conditional_expression: Kind.Decision,
  case_statement: Kind.Case,
  "&&": Kind.Logic,
  "||": Kind.Logic,
  call_expression: Kind.Call,
  struct_specifier: Kind.Specifier,
  union_specifier: Kind.Specifier,
  enum_specifier: Kind.Specifier,
  field_declaration_list: Kind.Body,
  enumerator_list: Kind.Body,
  type_definition: Kind.Typedef,
  type_identifier: Kind.TypeName,
};
const COLLECTED_TYPES = Object.keys(KIND_OF_TYPE);

/** Kind by node type id, per grammar. */
const kindsOf = typeIdTable(KIND_OF_TYPE, Kind.Other);

/**
 * QUERY's matches, gathered from one descendantsOfType walk (module.ts, `collect`): nodes come in
 * document order, as the query's matches do for each capture name. A call's function is its field; a
 * typedef's names are its declarators that are type identifiers. A struct, union or enum body is rare
 * (a struct_specifier is mostly a use, `struct x *p`): the specifier it belongs to is the innermost one
 * around it, kept on a stack of the specifiers met (one that ends before a body cannot hold a later one),
 * and its name counts as a definition only when the body is that specifier's body field.
 */
function collectC(root: Node, source: string): CollectedMatches {
  const kinds = kindsOf(root.tree.language);
  const comments: Array<[number, number]> = [];
  const matches: QueryMatch[] = [];
  const specifiers: Node[] = [];
  for (const n of root.descendantsOfType(COLLECTED_TYPES)) {
    switch (kinds[n.typeId] as Kind) {
      case Kind.Comment: {
        const start = n.startIndex;
        comments.push([start, commentEnd(source, start) ?? n.endIndex]);
        break;
      }
      case Kind.Decision:
        matches.push({ decision: n });
        break;
      case Kind.Case:
        if (n.childForFieldName("value")?.isNamed) matches.push({ decision: n });
        break;
      case Kind.Logic:
        matches.push({ logic: n });
        break;
      case Kind.Call: {
        // `function: (_)` asks for a named node: the grammar's function field is an expression, named in
        // every production (and in recovery: ERROR, a MISSING identifier), so it is not asked again
        const fn = n.childForFieldName("function");
        if (fn) matches.push({ "call.fn": fn });
        break;
      }
      case Kind.Specifier:
        specifiers.push(n);
        break;
      case Kind.Body: {
        const end = n.endIndex;
        while (specifiers.length > 0 && specifiers[specifiers.length - 1]!.endIndex < end) specifiers.pop();
        const owner = specifiers[specifiers.length - 1];
        if (!owner || owner.childForFieldName("body")?.id !== n.id) break;
        const name = owner.childForFieldName("name");
        if (name?.type === "type_identifier") matches.push({ "type.def": name });
        break;
      }
      case Kind.Typedef:
        for (const d of n.childrenForFieldName("declarator")) if (d?.type === "type_identifier") matches.push({ "type.def": d });
        break;
      case Kind.TypeName:
        matches.push({ type: n });
        break;
    }
  }
  return { comments, matches };
}

/**
 * Where the comment starting at `start` ends, read from the text (the end asked of the tree is a call into
 * WASM per comment): tree-sitter-c's comment token is `/* … *\/` up to the first `*\/`, or `//` up to the
 * line's end, where a backslash before the newline carries it on to the next line. Undefined where the text
 * leaves a doubt (a backslash or carriage return before the newline, a backslash at the end of the file,
 * no closing `*\/`), and the tree is asked. A comment is never a MISSING node (the parser invents only
 * tokens the grammar expects, and comments are extras).
 */
export function commentEnd(source: string, start: number): number | undefined {
  if (source.charCodeAt(start) !== 47) return undefined;
  const second = source.charCodeAt(start + 1);
  if (second === 42) {
    const close = source.indexOf("*/", start + 2);
    return close < 0 ? undefined : close + 2;
  }
  if (second !== 47) return undefined;
  const newline = source.indexOf("\n", start + 2);
  const end = newline < 0 ? source.length : newline;
  const last = source.charCodeAt(end - 1);
  return last === 92 || last === 13 ? undefined : end;
}

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
  collect: collectC,
  // test_*.c, *_test.c, and anything under a test/ or tests/ directory
  isTestFile: (path) => cFamilyTestFile(path, ["_test"]),
  extract: (tree, ctx, matches) => extractCFamily(tree, ctx, matches, DIALECT),
  resolveImport: resolveInclude,
};
