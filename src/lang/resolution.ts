/**
 * What a language means to reference resolution, the symbol and graph queries and the test look-ups:
 * which files see each other's names, where the syntax shows a type, which words name the current
 * object, how its tests are named. Each language module carries one `ResolutionRules`; the engines read
 * them (src/lang/registry.ts: `rulesOf`) and compare no language names themselves.
 *
 * The syntax shapes several languages share are written here once (`name: Type` parameters, `Type name`
 * fields, `-> Type` returns…) and each module picks its own.
 */

/** How the files of a language share unqualified names. */
export type PackageScope =
  /** Go: the files of one folder that declare the same package clause. */
  | "folder-and-clause"
  /** Python, JavaScript: a module is a file; nothing is shared without an import. */
  | "file"
  /** Java, Kotlin, C#, PHP, Ruby: files declaring the same package or namespace. */
  | "declared"
  /** C, C++, Rust: the same declared namespace or module, or both none in one folder. */
  | "declared-or-folder";

/** Where a language's syntax shows the type of a name, read from stored signatures and lines. */
export interface TypePositions {
  /** The type a parameter named `name` (regex-escaped) is declared with, in the text after the signature's `(`. */
  parameter?(params: string, name: string): string | undefined;
  /** A regular expression's source for a local's declaration or assignment, with `type` and `init` groups. */
  local(name: string): string;
  /** A regular expression's source for a field's declaration, with `type` (or `type2`) or `init` groups. */
  field(name: string): string;
  /** The named return type a function's signature declares. */
  returnType?(signature: string, name: string): string | undefined;
}

export interface ResolutionRules {
  /**
   * Languages whose names can refer to each other's definitions share a family (TypeScript, JavaScript
   * and their JSX dialects are "js"; C and C++ "c"; Java and Kotlin "jvm"); otherwise the language's id.
   */
  family: string;
  /** The language a dialect belongs to when a user names languages (tsx → typescript). */
  dialectOf?: string;
  /** Other names a user may give the language (`c#`, `c++`), lower case. */
  aliases?: string[];
  /**
   * The module system makes every outside name come through an import or a qualifier: an unqualified
   * name is never resolved to some other file's definition by name alone. Alike within a family.
   */
  strictModules: boolean;
  /** An unqualified name inside a class body or method may be a member (an implicit `this`). */
  implicitThis: boolean;
  /** Qualifiers that name the current object or class (`this`, `self`, `$this`). */
  selfQualifiers: string[];
  /** Qualifiers that name the base class (`super`, `parent`, `base`). */
  superQualifiers: string[];
  /**
   * Methods of the language's core collection, string and object types: a call like `x.get()` on a
   * receiver of unknown type names one of these far more often than a project method of the same name,
   * so such a call is never resolved by name alone. Shared by the family.
   */
  coreMembers: string[];
  /**
   * Which import sites load a file and bind no name (C's `#include`, Ruby's `require`, PHP's `include`
   * of a relative path): the file's top-level names become visible unqualified.
   */
  includes: "all" | "relative" | "none";
  /** An import binds the name the imported package declares (Go's package clause), not its path's last segment. */
  importBindsDeclaredPackage: boolean;
  /**
   * The files an import really reaches among those its path resolved to, given each file's declared
   * package (Go: one package of the folder, its `package main` generators left out).
   */
  importTargets?(targets: string[], packageOf: (file: string) => string | null): string[];
  /**
   * An import site (given its source line) that declares structure rather than a dependency: Rust's
   * `mod x;` names a child module its parent owns, and counting it would close a cycle with every child
   * that uses an item of its parent.
   */
  structuralImport?(line: string): boolean;
  packageScope: PackageScope;
  /** A type's methods declared in other files are only those of its own folder (Go's methods live in the type's package). */
  membersInTypeFolder: boolean;
  /** Type positions read from text; absent where the module gives the types itself (Go's `qualifierType`). */
  types?: TypePositions;
  /**
   * Where the module gives the types itself: how a parameter and a local are declared, read only to tell
   * whether the value at a qualifier's root comes from outside the project (`r` of `r.URL.Query().Get`).
   */
  roots?: Pick<TypePositions, "parameter" | "local">;
  /**
   * A qualifier that names a module by its path from the referring file (Rust's `self::`, `super::`,
   * `crate::a::b`): the qualified-name prefix of that module's items, and which files hold items of the
   * same crate; undefined for any other qualifier.
   */
  modulePath?(qualifier: string, file: string): { prefix: string; holds(file: string): boolean } | undefined;
  /** A call that runs a differently named member: Ruby's `Foo.new` runs `initialize`. */
  constructorCall?: { name: string; member: string };
  /** Types implement interfaces by their method sets, declared nowhere (Go): implementations come from the methods. */
  implicitInterfaces: boolean;
  /** Test file names of the language: patterns whose first group is the name of what the test tests. */
  testNames: RegExp[];
}

/** The defaults a module overrides: a language that shares names by declared package and reads no types. */
export const BASE_RULES: Omit<ResolutionRules, "family"> = {
  strictModules: false,
  implicitThis: false,
  selfQualifiers: [],
  superQualifiers: [],
  coreMembers: [],
  includes: "none",
  importBindsDeclaredPackage: false,
  packageScope: "declared",
  membersInTypeFolder: false,
  implicitInterfaces: false,
  testNames: [],
};

/** Test file names: `test_cart`, `tests-cart` (Python, Ruby, C, Rust, JavaScript). */
export const TEST_PREFIX = /^tests?[_-](.+)$/i;
/** `cart_test`, `cart.spec`, `cart-tests` (Go, Python, Ruby, JavaScript, C, Rust). */
export const TEST_SUFFIX = /^(.+?)[._-](?:test|spec)s?$/i;
/** `CartTest`, `CartTests`, `CartSpec`, `CartIT` (Java, Kotlin, C#, PHP). */
export const TEST_CLASS = /^(.+?)(?:Tests?|Spec|IT)$/;

/** A declared type name, qualified or not: `Order`, `shop.Order`, `Shop\Order`, `std::string`. */
const TYPE_NAME = "[A-Za-z_][\\w.:\\\\]*";

/** `stock: Stock`, `stock?: Stock`, `stock: &mut Stock` in a parameter list (Python, TypeScript, Kotlin, Rust). */
export function colonParameter(params: string, name: string): string | undefined {
  return parameterPattern(COLON_PARAMETERS, name, (n) => `(?:^|[(,\\s])${n}\\??\\s*:\\s*(?:&\\s*(?:mut\\s+)?)?(${TYPE_NAME})`).exec(params)?.[1];
}

/** `Stock stock`, `Stock<T> stock`, `Stock *stock`, `Stock $stock` in a parameter list (Java, C#, C, C++, PHP). */
export function typeBeforeParameter(params: string, name: string): string | undefined {
  return parameterPattern(TYPED_PARAMETERS, name, (n) => `(${TYPE_NAME})(?:<[^()]*?>)?[\\s*&]+${n}\\s*[,)=]`).exec(params)?.[1];
}

/** `r *http.Request`, `a, b []*Order`, `opts ...Option` in a parameter list, the receiver's included (Go). */
export function spacedParameter(params: string, name: string): string | undefined {
  return parameterPattern(SPACED_PARAMETERS, name, (n) => `(?:^|[(,]\\s*)${n}(?:\\s*,\\s*[A-Za-z_]\\w*)*\\s+(?:\\.\\.\\.)?[*\\[\\]]*(${TYPE_NAME})`).exec(
    params,
  )?.[1];
}

/** `x := http.Get(u)`, `x, err := f()`, `x = f()`, `var x = f()`, `var x *pkg.T` (Go). */
export function spacedLocal(n: string): string {
  return `(?:^|[\\s;(])(?:var\\s+)?(?:[A-Za-z_]\\w*\\s*,\\s*)*${n}(?:\\s*,\\s*[A-Za-z_]\\w*)*\\s*(?::=|=(?!=))\\s*(?<init>.+)|\\bvar\\s+${n}\\s+[*\\[\\]]*(?<type>[A-Za-z_][\\w.]*)`;
}

/** Compiled parameter patterns by name (resolution asks one per qualified reference, of few names), at most PARAMETER_PATTERNS each. */
const COLON_PARAMETERS = new Map<string, RegExp>();
const TYPED_PARAMETERS = new Map<string, RegExp>();
const SPACED_PARAMETERS = new Map<string, RegExp>();
const PARAMETER_PATTERNS = 10_000;

function parameterPattern(cache: Map<string, RegExp>, name: string, source: (name: string) => string): RegExp {
  let re = cache.get(name);
  if (!re) {
    if (cache.size >= PARAMETER_PATTERNS) cache.clear();
    cache.set(name, (re = new RegExp(source(name))));
  }
  return re;
}

/** A name of a local's declared type or of a constructed class: `Order`, `shop.Order`, `$x`. */
const LOCAL_TYPE = "[A-Za-z_$][\\w.$\\\\]*";

/** `const o: Order = …`, `let o = …` (JavaScript, TypeScript). */
export const ecmaLocal = (name: string): string => `\\b(?:const|let|var)\\s+${name}\\s*(?::\\s*(?<type>${LOCAL_TYPE}))?\\s*=(?!=)\\s*(?<init>.*)`;
/** `o: Order = …`, `o = …` at the start of a line (Python, Ruby). */
export const assignedLocal = (name: string): string => `^\\s*${name}\\s*(?::\\s*(?<type>${LOCAL_TYPE}))?\\s*=(?!=)\\s*(?<init>.*)`;
/** `$o = …` anywhere (PHP). */
export const plainAssignedLocal = (name: string): string => `${name}\\s*=(?!=)\\s*(?<init>.*)`;
/** `val o: Order = …`, `let mut o = …` (Kotlin, Rust). */
export const bindingLocal = (name: string): string => `\\b(?:val|var|let(?:\\s+mut)?)\\s+${name}\\s*(?::\\s*(?<type>${LOCAL_TYPE}))?\\s*=(?!=)\\s*(?<init>.*)`;
/** `Order o = …`, `List<Order> o = …`, `Order *o = …` (Java, C#, C, C++). */
export const typedLocal = (name: string): string => `(?:^|[\\s(])(?<type>${LOCAL_TYPE})(?:<[^=]*>)?[\\s*&]+${name}\\s*=(?!=)\\s*(?<init>.*)`;

/** A field's declared type. */
const FIELD_TYPE = "[A-Za-z_][\\w.\\\\]*";

/** `store: Store`, `store?: Store`, `store!: Store` (TypeScript, Kotlin, Rust). */
export const colonField = (name: string): string => `\\b${name}\\s*[?!]?\\s*:\\s*(?<type>${FIELD_TYPE})`;
/** `self.store: Store = …`, `self.store = Store(…)`, or a class-level `store: Store` (Python). */
export const pythonField = (name: string): string =>
  `self\\.${name}\\s*(?::\\s*(?<type>${FIELD_TYPE}))?\\s*=(?!=)\\s*(?<init>.*)|^\\s*${name}\\s*:\\s*(?<type2>${FIELD_TYPE})`;
/** `private Store $store` (PHP, constructor-promoted parameters included). */
export const phpField = (name: string): string => `(?<type>${FIELD_TYPE})\\s+\\$${name}\\b`;
/** `@store = Store.new` (Ruby). */
export const rubyField = (name: string): string => `@${name}\\s*=(?!=)\\s*(?<init>.*)`;
/** `private final Store store;`, `Store<T> store =`, `Store *store;` (Java, C#, C, C++). */
export const typedField = (name: string): string => `(?<type>${FIELD_TYPE})(?:<[^;=()]*>)?[\\s*&]+${name}\\s*[;=,)]`;

/** `): Order {`, `) -> Order`, `): ?Order` (TypeScript, Python, Kotlin, Rust, PHP). */
export function arrowReturn(signature: string): string | undefined {
  return /\)\s*(?::|->)\s*\??([A-Za-z_][\w.\\]*)\s*(?:\{|:|$|where\b)/.exec(signature)?.[1];
}

const NOT_A_TYPE = ["void", "public", "private", "protected", "static"];

/** `Order find(`, `List<Order> find(`, `Order *find(` (Java, Kotlin's Java-style signatures, C#, C, C++). */
export function typeBeforeReturn(signature: string, name: string): string | undefined {
  const before = new RegExp(`([A-Za-z_][\\w.]*)(?:<[^()]*>)?[\\s*&]+${name}\\s*\\(`).exec(signature);
  return before && !NOT_A_TYPE.includes(before[1]!) ? before[1] : undefined;
}
