/**
 * The one tree-sitter query of the ECMAScript dialects. Besides the nodes themselves it captures the
 * context the extractor would otherwise climb to (what binds a function, which statement exports or
 * declares it, what role a type name plays): `Node.parent` and sibling look-ups walk down from the root
 * in tree-sitter, so climbing costs O(depth) per call and turns deeply nested code quadratic.
 *
 * Patterns keep to the PREAMBLE rule: a pattern never waits for a child that comes after a recursive
 * child, so no query state stays alive across a deep subtree. Captures whose name starts with `def.`
 * name their node's kind, so the extractor never asks a node its type.
 */

export interface QueryDialect {
  /** TypeScript node types (interfaces, enums, type identifiers, namespaces, signatures). */
  typed: boolean;
  /** JSX node types. */
  jsx: boolean;
}

/** The node types that can be bound to a name: functions, classes and object literals (scopes of their members). */
const BINDABLE = ["(arrow_function)", "(function_expression)", "(generator_function)", "(class)", "(object)"];

/**
 * A bindable value, directly or through `( … )`, and where `typeCast` through `… as T` / `… satisfies T`
 * (`const routes = {…} as const`; rare elsewhere, and each branch costs query compile time). The
 * alternation is kept flat: one whose first branch is itself an alternation matches only one branch.
 */
function bindable(d: QueryDialect, capture: string, typeCast: boolean): string {
  const any = `[${BINDABLE.join(" ")}] @${capture}`;
  const branches = [...BINDABLE.map((b) => `${b} @${capture}`), `(parenthesized_expression ${any})`];
  if (d.typed && typeCast) {
    for (const w of ["as_expression", "satisfies_expression"]) branches.push(`(${w} ${any})`, `(${w} (parenthesized_expression ${any}))`);
  }
  return `[${branches.join(" ")}]`;
}

const DECLARATIONS = "[(lexical_declaration) (variable_declaration)]";

/**
 * A module-level `const` / `let` / `var` statement, also behind `declare` in TypeScript. (Declarations in
 * namespaces are read from the namespace body: they are rare, and a pattern per wrapper costs every file.)
 */
function topDeclaration(d: QueryDialect): string {
  const plain = "(lexical_declaration) @variables.top (variable_declaration) @variables.top";
  return d.typed ? `[${plain} (ambient_declaration ${DECLARATIONS} @variables.top)]` : `[${plain}]`;
}

export function ecmaQuery(d: QueryDialect): string {
  const value = bindable(d, "bind.value", true);
  const plainValue = bindable(d, "bind.value", false);
  const parts = [
    "(comment) @comment",
    "(html_comment) @comment",
    // the same comments again for doc comments: the parser keeps `@comment` matches for line counts
    "(comment) @doc",
    "[(if_statement) (for_statement) (for_in_statement) (while_statement) (do_statement) (switch_case) (catch_clause) (ternary_expression)] @decision",
    '["&&" "||" "??" "&&=" "||=" "??="] @decision',

    // definitions, by kind
    "(function_declaration) @def.function",
    "(generator_function_declaration) @def.generator",
    "[(function_expression) (arrow_function)] @def.expression",
    "(generator_function) @def.generator_expression",
    "(method_definition) @def.method",
    '(method_definition "*") @method.generator',
    '(method_definition "set") @method.setter',
    "(class_declaration) @def.class",
    "(class) @def.class_expression",
    "(object) @def.object",

    // what binds a function, class or object to a name
    `(lexical_declaration (variable_declarator name: (identifier) @bind.variable value: ${value})) @bind.statement`,
    `(variable_declaration (variable_declarator name: (identifier) @bind.variable value: ${value})) @bind.statement`,
    `(pair key: (_) @bind.key value: ${value})`,
    `(assignment_expression left: (_) @bind.left right: ${plainValue})`,
    `(export_statement value: ${value}) @bind.default`,
    d.typed
      ? `(public_field_definition name: (_) @bind.field value: ${plainValue}) @bind.member`
      : `(field_definition property: (_) @bind.field value: ${plainValue}) @bind.member`,

    // where declarations sit
    "(export_statement declaration: (_) @export.declaration) @export.statement",
    "(program [(import_statement) (export_statement)] @module_syntax)",
    "(program (expression_statement (assignment_expression) @cjs))",
    `(program ${topDeclaration(d)})`,
    `(program (export_statement declaration: ${topDeclaration(d)}))`,

    "(return_statement . (_)) @return",
    "(call_expression) @call",
    "(new_expression) @new",
    "(decorator) @decorator",
    "(class_heritage) @heritage",
    "(import_statement) @import",
    "(export_statement) @export",

    // reads of module-level names (arguments are read from the calls: `(arguments (identifier))` nests)
    "(pair key: (_) value: (identifier) @read)",
    "(shorthand_property_identifier) @read",
    "(variable_declarator value: (identifier) @read)",
    "(return_statement . (identifier) @read .)",
    "(member_expression object: (identifier) @member.object property: (property_identifier) @member.property) @member",
  ];
  if (d.typed) {
    parts.push(
      "(function_signature) @def.signature",
      "(class_body (decorator) @member.decorator)",
      "(abstract_method_signature) @def.abstract_method",
      "(class_body (method_signature) @def.method_signature)",
      "(interface_body (method_signature) @def.method_signature)",
      "(abstract_class_declaration) @def.class",
      "(interface_declaration) @def.interface",
      "(enum_declaration) @def.enum",
      "(type_alias_declaration) @def.type_alias",
      "(internal_module) @def.namespace",
      "(module) @def.module",
      "(ambient_declaration (statement_block) @def.global)",
      "(ambient_declaration (_) @ambient.declaration) @ambient.statement",
      "(export_statement declaration: (ambient_declaration (_) @export.declaration)) @export.statement",
      "(type_identifier) @type",
      "(type_parameter name: (type_identifier) @type.parameter)",
      ...["class_declaration", "abstract_class_declaration", "class", "interface_declaration", "type_alias_declaration"].map(
        (t) => `(${t} name: (type_identifier) @type.declared)`,
      ),
      "(nested_type_identifier module: (_) @type.module name: (type_identifier) @type.nested)",
      "(extends_type_clause) @heritage",
    );
  }
  if (d.jsx) {
    parts.push(
      "(jsx_opening_element) @jsx",
      "(jsx_self_closing_element) @jsx",
      "(jsx_closing_element name: (member_expression) @jsx.closing)",
      "(jsx_expression . (identifier) @read .)",
    );
  }
  return parts.join("\n");
}
