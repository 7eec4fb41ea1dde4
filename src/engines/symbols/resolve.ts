/**
 * Reference resolution: which definition each stored reference names, and how we know. A reference is
 * tried, in order, against
 *   1. its qualifier: `this` / `self` / a receiver of known type → a member of that class ('exact');
 *      an import's local name → a definition in the imported files ('import'); a type name → its member;
 *   2. an unqualified name: a member of the enclosing class where the language has an implicit `this`,
 *      a definition of the same file, a name the file imports, the same package ('exact' / 'import'),
 *      the files a file includes wholesale (C headers, Ruby requires, star imports);
 *   3. the one definition of that name in the language (family) with a fitting kind ('name-only'), except
 *      for unqualified names in languages whose modules require an import (ResolutionRules.strictModules).
 * A reference whose qualifier is an import of something outside the project stays unresolved rather
 * than landing on a project definition of the same name.
 *
 * Language-free: what each language means (families, type positions, packages, includes) is read from
 * its rules (src/lang/resolution.ts). The parts: scope.ts (what a file sees), symbol-index.ts (definitions
 * by name, loaded in batches), declared-types.ts (types read from text), this file (the look-up order).
 */
import type { GraphStore, RefRow, RefToResolve, SymbolRow } from "../../store/graph-store.ts";
import { dirOf } from "../../core/rel-path.ts";
import { TYPE_KINDS, kindFits } from "./kinds.ts";
import { SELF_QUALIFIERS, SUPER_QUALIFIERS, familyOf, isCoreMember, rulesOf } from "../../lang/registry.ts";
import { isOutsideBinding, lastSegment, samePackage, type Binding, type FileInfo, type FileScope } from "./scope.ts";
import type { SymbolIndex } from "./symbol-index.ts";
import { fieldTypeIn, isVariableName, localDeclarationAbove, parameterTypeIn, returnTypeOf } from "./declared-types.ts";

export type { FileInfo, FileScope } from "./scope.ts";
export { buildScope, fileInfo } from "./scope.ts";
export { SymbolIndex, namesNeeded } from "./symbol-index.ts";

export type Resolution = "exact" | "import" | "name-only";

export interface Target {
  id: number;
  how: Resolution;
}

const NO_POSITIONS: readonly number[] = [];

/**
 * What other files' imports bind (FileScope.names), for following re-exports: a C file's every
 * `#include` asks whether the included header binds the same path, and loading each header's whole
 * scope (its definitions first) for that was a fifth of the kernel's look-ups.
 */
export interface FileBindings {
  /** Loads the bindings of several files at once, before `of` asks for them one by one. */
  prepare(paths: string[]): void;
  of(path: string): Map<string, Binding> | undefined;
}

/** Path heads that name the project itself or the current type (Rust's `crate::`, `self::`, `super::`, `Self::`). */
const PROJECT_HEADS = new Set(["crate", "self", "super", "Self"]);

/** At most this many file sets are kept (Resolver.fileSets). */
const MAX_FILE_SETS = 10_000;

/** At most this many memo answers are kept (Resolver.memos): about 100 bytes each, with the name they keep. */
const MAX_MEMO_ANSWERS = 200_000;

/** At most this many owner kinds are kept (Resolver.ownerKinds). */
const MAX_OWNER_KINDS = 100_000;

/** At most this many re-export answers are kept (Resolver.reexports). */
const MAX_REEXPORT_ANSWERS = 50_000;

export class Resolver {
  private readonly index: SymbolIndex;
  private readonly files: Map<string, FileInfo>;
  private readonly store: GraphStore;
  /** Scope of a file other than the one being resolved (for a base class declared elsewhere). */
  private readonly scopeOf: (path: string) => FileScope | undefined;
  private readonly basesMemo = new Map<number, SymbolRow[]>();
  /** The inherit / implement references of each file's types, by file (bases). */
  private readonly basesByFile = new Map<string, Map<number, RefRow[]>>();

  /** The names other files' imports bind (for re-exports), read without the rest of their scopes. */
  private readonly bindings: FileBindings;

  constructor(
    store: GraphStore,
    index: SymbolIndex,
    files: Map<string, FileInfo>,
    scopeOf: (path: string) => FileScope | undefined,
    bindings: FileBindings = { prepare: () => {}, of: (path) => scopeOf(path)?.names },
  ) {
    this.store = store;
    this.index = index;
    this.files = files;
    this.scopeOf = scopeOf;
    this.bindings = bindings;
  }

  resolve(ref: RefToResolve, scope: FileScope): Target | undefined {
    if (ref.kind === "import") return this.throughBinding(ref.name, ref.kind, scope, true);
    const q = ref.qualifier?.trim();
    if (q) return this.qualified(ref, q, scope);
    return this.unqualified(ref.name, ref.kind, scope, ref.enclosingId);
  }

  private fits(s: SymbolRow, kind: string, fam: string): boolean {
    return kindFits(kind, s.kind) && familyOf(s.language) === fam;
  }

  /**
   * inFiles' sets of its file lists (a binding's targets, a scope's wholesale files), dropped with the
   * other derived answers (forgetDerived) or past a bound. Kept in a WeakMap, they lived as long as their
   * lists, and a full run's binding targets live until its writes: on the kernel 250,000 sets piled up
   * in the heap every full collection marks.
   */
  private readonly fileSets = new Map<string[], Set<string>>();

  /** Top-level definitions (or, failing that, any) named `name` in these files. */
  private inFiles(name: string, kind: string, files: string[], fam: string): SymbolRow | undefined {
    let set = this.fileSets.get(files);
    if (!set) {
      if (this.fileSets.size >= MAX_FILE_SETS) this.fileSets.clear();
      this.fileSets.set(files, (set = new Set(files)));
    }
    if (set.size === 0) return undefined;
    const all = this.index.named(name);
    if (set.size * 4 < all.length) {
      // few files, many definitions of the name elsewhere (a C++ file's includes against boost's
      // thousands of `type` and `value`): only these files' definitions, the first in named() order
      // winning as below
      let top = Number.POSITIVE_INFINITY;
      let first = Number.POSITIVE_INFINITY;
      for (const f of set) {
        for (const k of this.index.positionsInFile(name, f)) {
          if (k >= top) break;
          const s = all[k]!;
          if (!this.fits(s, kind, fam)) continue;
          if (s.container === null) top = k;
          else if (k < first) first = k;
        }
      }
      return all[top] ?? all[first];
    }
    let any: SymbolRow | undefined;
    for (const s of this.index.named(name)) {
      if (!set.has(s.file) || !this.fits(s, kind, fam)) continue;
      if (s.container === null) return s;
      any ??= s;
    }
    return any;
  }

  private throughBinding(name: string, kind: string, scope: FileScope, definitionOnly = false): Target | undefined {
    const b = scope.names.get(name);
    if (!b) return undefined;
    // a whole module imported under its name (`mod x;`, `import x`) is no definition of the module, but
    // a class file imported by its class's name (`import a.b.C`) is
    const asKind = definitionOnly ? (b.whole ? "type" : "import") : kind;
    const s =
      this.inFiles(b.name, asKind, b.files, scope.info.family) ??
      this.byImportedName(b, asKind, scope.info.family) ??
      this.reexported(b.name, asKind, b.files, scope.info.family, 0);
    return s ? { id: s.id, how: "import" } : undefined;
  }

  /**
   * A name a file imports from files that do not define it but import it themselves: a re-export
   * (`export { X } from "./x"` in an index file, `pub use x::X;`, `from .x import X` in __init__.py),
   * followed up to three files deep.
   */
  private reexported(name: string, kind: string, files: string[], fam: string, depth: number): SymbolRow | undefined {
    if (depth >= 3 || files.length === 0) return undefined;
    // The answer depends on the definitions and the imported files only, and every importer of a
    // module asks the same: computed once (it loads the scope of every file of the module; on go-src
    // each import of a package loaded all the package's scopes again, 3.2 of 20 s of resolution).
    if (depth > 0) return this.reexportedThrough(name, kind, files, fam, depth);
    const key = `${name}\u0000${kind}\u0000${fam}\u0000${this.listId(files)}`;
    if (this.reexports.has(key)) return this.reexports.get(key);
    const found = this.reexportedThrough(name, kind, files, fam, 0);
    if (this.reexports.size >= MAX_REEXPORT_ANSWERS) {
      this.reexports.clear();
      this.listIds.clear();
      this.listIdOf.clear();
    }
    this.reexports.set(key, found);
    return found;
  }

  /**
   * A number for a list of files, the same for equal lists, each list joined once (listIdOf, by the
   * list itself): the answers' keys joined a Go package's files for every look-up (0.17 s of go-src's).
   */
  private listId(files: string[]): number {
    let id = this.listIdOf.get(files);
    if (id !== undefined) return id;
    const joined = files.join("\u0000");
    id = this.listIds.get(joined);
    if (id === undefined) this.listIds.set(joined, (id = this.listIds.size));
    if (this.listIdOf.size >= MAX_FILE_SETS) this.listIdOf.clear();
    this.listIdOf.set(files, id);
    return id;
  }

  /** listId's numbers by joined list, kept as long as the answers whose keys hold them. */
  private readonly listIds = new Map<string, number>();
  /** listId's numbers by list, bounded like fileSets. */
  private readonly listIdOf = new Map<string[], number>();

  /**
   * reexported's answers, kept when the loaded definitions are dropped (forgetDerived): on go-src that
   * happens every few batches, and each time every package's scopes were loaded again. Mostly
   * `undefined` (a module that re-exports nothing), so a bound on their number bounds their memory.
   */
  private readonly reexports = new Map<string, SymbolRow | undefined>();

  private reexportedThrough(name: string, kind: string, files: string[], fam: string, depth: number): SymbolRow | undefined {
    if (files.length > 1) this.bindings.prepare(files);
    for (const f of files) {
      const b = this.bindings.of(f)?.get(name);
      if (!b || isOutsideBinding(b)) continue;
      const s = this.inFiles(b.name, kind, b.files, fam) ?? this.reexported(b.name, kind, b.files, fam, depth + 1);
      if (s) return s;
    }
    return undefined;
  }

  /**
   * A project definition an import names by its full name when the import resolved to no file (a PHP
   * function or a class outside the autoload layout, a Java class in an unexpected folder).
   */
  private byImportedName(b: Binding, kind: string, fam: string): SymbolRow | undefined {
    if (b.files.length > 0 || b.outside || !b.qname) return undefined;
    const qname = b.qname;
    for (const s of this.index.named(b.name)) if (this.fits(s, kind, fam) && (s.qname === qname || qname.endsWith("." + s.qname))) return s;
    return undefined;
  }

  private qualified(ref: RefToResolve, q: string, scope: FileScope): Target | undefined {
    const fam = scope.info.family;
    // a module named by its path from here (`super::helper()`, `crate::consts::LIMIT`): its item of that name
    const module = scope.info.rules.modulePath?.(q, scope.info.path);
    if (module) {
      const qname = module.prefix === "" ? ref.name : `${module.prefix}.${ref.name}`;
      for (const s of this.index.named(ref.name))
        if (s.qname === qname && this.fits(s, ref.kind, fam) && module.holds(s.file)) return { id: s.id, how: "exact" };
    }
    // the current object, or a receiver whose type the syntax shows
    if (ref.qualifierType || SELF_QUALIFIERS.has(q)) {
      const cls = ref.qualifierType ? this.typeNamed(ref.qualifierType, scope)?.sym : this.enclosingClass(ref.enclosingId, scope);
      if (cls) {
        const m = this.member(cls, ref.name, ref.kind, 0);
        // a known class without that member: it comes from a base outside the project, or at run time
        return m ? { id: m.id, how: "exact" } : undefined;
      }
      if (ref.qualifierType && this.isOutside(ref.qualifierType, scope)) return undefined;
      // a type the project does not define (`String s; s.length()`): a library's, whose members are not ours;
      // Go's interfaces are met by method sets, so a call through `error` may well run a project method
      if (ref.qualifierType && !scope.info.rules.implicitInterfaces && !this.defines(lastSegment(ref.qualifierType), fam)) return undefined;
      return this.uniqueMember(ref.name, ref.kind, fam);
    }
    if (SUPER_QUALIFIERS.has(q)) {
      const cls = this.enclosingClass(ref.enclosingId, scope);
      if (cls) {
        for (const base of this.bases(cls)) {
          const m = this.member(base, ref.name, ref.kind, 1);
          if (m) return { id: m.id, how: "exact" };
        }
      }
      return this.uniqueMember(ref.name, ref.kind, fam);
    }
    // a parameter whose declared type the signature shows: `def f(stock: Stock)`, `void f(Stock stock)`
    const declared = this.parameterType(q, ref.enclosingId, scope);
    if (declared) {
      const t = this.typeNamed(declared, scope);
      if (t) {
        const m = this.member(t.sym, ref.name, ref.kind, 0);
        if (m) return { id: m.id, how: "exact" };
      }
      if (this.isOutside(declared, scope)) return undefined;
    }
    // a local variable whose declaration shows its type: `const o = new Order()`, `o = self.find(…)`
    const local = this.localType(q, ref, scope);
    if (local) {
      const t = this.typeNamed(local, scope);
      if (t) {
        const m = this.member(t.sym, ref.name, ref.kind, 0);
        if (m) return { id: m.id, how: "exact" };
      }
    }
    // a field of the enclosing class whose declaration shows its type: `this.store`, `store` in Java
    const field = this.fieldType(q, ref, scope);
    if (field) {
      const t = this.typeNamed(field, scope);
      if (t) {
        const m = this.member(t.sym, ref.name, ref.kind, 0);
        if (m) return { id: m.id, how: "exact" };
      }
    }
    // an imported module or name: `store.New`, `models.User`, `C.staticMethod`
    const binding = scope.modules.get(q) ?? scope.names.get(q);
    if (binding) {
      if (isOutsideBinding(binding)) return undefined; // something outside the project
      const named = this.byImportedName(binding, "type", fam);
      if (named) {
        const m = this.member(named, this.ctorName(ref, named), ref.kind, 0);
        if (m) return { id: m.id, how: "import" };
      }
      const direct = this.inFiles(ref.name, ref.kind, binding.files, fam);
      if (direct && (direct.container === null || scope.modules.has(q))) return { id: direct.id, how: "import" };
      const type = this.inFiles(binding.name, "type", binding.files, fam);
      if (type) {
        const m = this.member(type, this.ctorName(ref, type), ref.kind, 0) ?? (ref.name === "new" ? type : undefined);
        if (m) return { id: m.id, how: "import" };
      }
      if (direct) return { id: direct.id, how: "import" };
      // a name the imported module imports itself and so offers (`from .termui import echo_via_pager` in
      // click/__init__.py, `export { x } from "./x"` in an index): `click.echo_via_pager(…)`
      if (scope.modules.has(q)) {
        const offered = this.reexported(ref.name, ref.kind, binding.files, fam, 0);
        if (offered) return { id: offered.id, how: "import" };
      }
      const through = this.reexported(binding.name, "type", binding.files, fam, 0);
      if (through) {
        const m = this.member(through, this.ctorName(ref, through), ref.kind, 0) ?? (ref.name === "new" ? through : undefined);
        if (m) return { id: m.id, how: "import" };
      }
      return undefined;
    }
    // the first part of a dotted qualifier imported from outside (`os.path.join`): not ours
    const head = q.split(/::|[.\\]|->/)[0]!;
    const headBinding = head !== q ? (scope.modules.get(head) ?? scope.names.get(head)) : undefined;
    if (headBinding && isOutsideBinding(headBinding)) return undefined;
    // a type: `Config.load()`, `A::B.create`, `Foo::BAR`
    const typeName = lastSegment(q);
    if (/^[A-Z]/.test(typeName) || q.includes("::")) {
      const t = this.typeNamed(q, scope);
      if (t) {
        const m = this.member(t.sym, this.ctorName(ref, t.sym), ref.kind, 0) ?? (ref.name === "new" ? t.sym : undefined);
        if (m) return { id: m.id, how: t.how };
      }
    }
    // a class or namespace the project does not define, imported from nowhere (`Math.max`, `JSON.stringify`,
    // `Regexp.escape`, `std::max`): the language's or a library's, whose members are not ours
    if (this.namesUndefinedType(q, scope)) return undefined;
    const guess = this.uniqueMember(ref.name, ref.kind, fam);
    // a value from outside the project at the qualifier's root (`r.URL.Query().Get` with `r *http.Request`,
    // `resp.Body.Close` with `resp, err := http.Get(u)`): its members are not ours, whatever their names
    return guess && !this.rootIsOutside(q, ref, scope) ? guess : undefined;
  }

  /**
   * Whether the variable a qualifier starts with holds a value from outside the project: a parameter or
   * local declared with a type an outside import names, or a local set from an outside import's call or
   * construction. Read from the text (the signature, the declaration above the use), once per function
   * and name.
   */
  private rootIsOutside(q: string, ref: RefToResolve, scope: FileScope): boolean {
    const root = /^\$?[A-Za-z_]\w*/.exec(q)?.[0];
    if (!root || !isVariableName(root) || ref.enclosingId === null) return false;
    const info = scope.info;
    const positions = info.rules.types ?? info.rules.roots;
    const fn = scope.byId.get(ref.enclosingId);
    if (!positions || !fn || (fn.kind !== "function" && fn.kind !== "method")) return false;
    const key = `${fn.id}\u0000${root}`;
    const known = scope.outsideRoots.get(key);
    if (known !== undefined) return known;
    let outside = false;
    const open = fn.signature?.indexOf("(") ?? -1;
    const parameter = open >= 0 ? positions.parameter?.(fn.signature!.slice(open + 1), root.replace(/[$]/g, "\\$")) : undefined;
    if (parameter) outside = this.typeIsOutside(parameter, scope, fn);
    else if (ref.line - fn.line <= 400) {
      scope.lines ??= (this.store.content(info.path) ?? "").split("\n");
      const found = localDeclarationAbove(scope.lines, root, ref.line - 1, fn.line, info.language, positions);
      if (found && "type" in found) outside = this.typeIsOutside(found.type, scope, fn);
      else if (found) {
        // `http.Get(u)`, `&http.Client{…}`, `await requests.get(u)`, `new Client()` with Client imported from outside
        const head = /^(?:await\s+|new\s+|&)?(\$?[A-Za-z_]\w*)\s*(?:\.|::|->|\(|\{)/.exec(found.init.trim())?.[1];
        const b = head ? (scope.modules.get(head) ?? scope.names.get(head)) : undefined;
        outside = b !== undefined && isOutsideBinding(b);
      }
    }
    // (a value found but settled differently at another use keeps its first answer: a function rarely rebinds a name to another origin)
    scope.outsideRoots.set(key, outside);
    return outside;
  }

  /** Whether the project defines anything of that name in the language family. */
  private defines(name: string, fam: string): boolean {
    return this.index.named(name).some((s) => familyOf(s.language) === fam);
  }

  /**
   * Whether a qualifier starts with a type or namespace name (capitalised, or a path: `Math`, `std::cmp`,
   * `\Foo\Bar`) that no import binds and the project defines nowhere.
   */
  private namesUndefinedType(q: string, scope: FileScope): boolean {
    const head = /^[A-Za-z_]\w*/.exec(q)?.[0];
    if (!head || PROJECT_HEADS.has(head) || SELF_QUALIFIERS.has(head) || SUPER_QUALIFIERS.has(head)) return false;
    if (!/^[A-Z]/.test(head) && !q.includes("::")) return false;
    if (scope.modules.has(head) || scope.names.has(head)) return false;
    return !this.defines(head, scope.info.family);
  }

  /**
   * Whether a declared type is no project type: an outside import names it (`*http.Request`,
   * `HttpRequest`), or nothing binds it and the project defines nothing of its name (`String`, `int`).
   * Not the latter in Go, where a project type may implement a built-in interface (`err error`), nor for
   * a type parameter of the function or its class (`f: F` with `F: Float`), which may be a project type.
   */
  private typeIsOutside(declared: string, scope: FileScope, fn: SymbolRow): boolean {
    const name = declared.replace(/^[*&\s[\]]+/, "");
    if (this.typeNamed(name, scope)) return false;
    const head = name.split(/::|[.\\]/)[0]!;
    const b = scope.modules.get(head) ?? scope.names.get(head);
    if (b) return isOutsideBinding(b);
    if (scope.info.rules.implicitInterfaces || this.defines(lastSegment(name), scope.info.family)) return false;
    return !this.isTypeParameter(name, fn, scope);
  }

  /** Whether a type name is a type parameter: declared between `<` and `(` in the function's signature or its class's, or one capital and a digit at most (`T`, `V`, `K2`). */
  private isTypeParameter(name: string, fn: SymbolRow, scope: FileScope): boolean {
    if (/^[A-Z][A-Z0-9]?$/.test(name)) return true;
    const declares = (signature: string | null | undefined) => {
      const head = signature?.split("(")[0] ?? "";
      const open = head.indexOf("<");
      return open >= 0 && new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(head.slice(open));
    };
    return declares(fn.signature) || declares(this.enclosingClass(fn.id, scope)?.signature);
  }

  /**
   * The type a parameter of the enclosing function is declared with, read from the stored signature by
   * the language's rule: `name: Type` (Python, TypeScript, Kotlin, Rust), `Type name` (Java, C#, C++),
   * `Type $name` (PHP). None where the module gives these as qualifierType (Go).
   */
  private parameterType(q: string, enclosingId: number | null, scope: FileScope): string | undefined {
    if (!scope.info.rules.types?.parameter || enclosingId === null || !isVariableName(q)) return undefined;
    const fn = scope.byId.get(enclosingId);
    const sig = fn?.signature;
    if (!sig || (fn.kind !== "function" && fn.kind !== "method")) return undefined;
    return parameterTypeIn(sig, q, scope.info.rules);
  }

  /**
   * The type of a local variable of the enclosing function, where its nearest declaration above the use
   * shows it: a declared type (`const o: Order =`, `o: Order =`, `Order o =`, `val o: Order =`), a
   * construction (`new Order(…)`, `Order(…)`, `Order.new`), or a call of a function or of a method of
   * the same class whose signature declares a named return type (`this.find(id)` with `find(): Order`).
   */
  private localType(q: string, ref: RefToResolve, scope: FileScope): string | undefined {
    const info = scope.info;
    if (!info.rules.types || ref.enclosingId === null || !isVariableName(q)) return undefined;
    const fn = scope.byId.get(ref.enclosingId);
    if (!fn || (fn.kind !== "function" && fn.kind !== "method") || ref.line - fn.line > 400) return undefined;
    scope.lines ??= (this.store.content(info.path) ?? "").split("\n");
    const found = localDeclarationAbove(scope.lines, q, ref.line - 1, fn.line, info.language, info.rules.types);
    if (!found) return undefined;
    return "type" in found ? found.type : this.initializerType(found.init, fn, scope);
  }

  /**
   * The declared type of a field of the enclosing class (`this.store`, `self.store`, `$this->store`, or
   * a bare `store` where members are in scope), read from the class body: `private final Store store;`,
   * `store: Store`, `private Store $store`, constructor-promoted parameters, `self.store = Store(…)`.
   */
  private fieldType(q: string, ref: RefToResolve, scope: FileScope): string | undefined {
    const info = scope.info;
    if (!info.rules.types) return undefined;
    const m = /^(?:this\.|self\.|\$this->|@)?([A-Za-z_]\w*)$/.exec(q);
    if (!m || SELF_QUALIFIERS.has(q)) return undefined;
    const bare = m[1]! === q;
    if (bare && !info.rules.implicitThis) return undefined;
    const cls = this.enclosingClass(ref.enclosingId, scope);
    if (!cls || cls.file !== info.path || cls.endLine - cls.line > 3000) return undefined;
    // the same for every use of the field in the class: a class body is read once per field, not per use
    const key = `${cls.id}\u0000${m[1]!}`;
    if (scope.fieldTypes.has(key)) return scope.fieldTypes.get(key);
    scope.lines ??= (this.store.content(info.path) ?? "").split("\n");
    const found = fieldTypeIn(scope.lines, m[1]!, cls.line, cls.endLine, info.language, info.rules);
    scope.fieldTypes.set(key, found);
    return found;
  }

  /** The type an initializer expression evidently has (see localType). */
  private initializerType(init: string, fn: SymbolRow, scope: FileScope): string | undefined {
    const created = /^new\s+([A-Za-z_][\w.\\]*)/.exec(init) ?? /^([A-Z][\w:]*)\.new\b/.exec(init) ?? /^([A-Z][\w.]*)\s*[({]/.exec(init);
    if (created) return created[1];
    // an associated function: `Store::new(…)`, `Store::default()` (a constructor by convention)
    const assoc = /^([A-Z]\w*)::(\w+)\s*\(/.exec(init);
    if (assoc) {
      const t = this.typeNamed(assoc[1]!, scope);
      if (!t) return undefined;
      const m = this.member(t.sym, assoc[2]!, "call", 0);
      const returned = m?.signature ? returnTypeOf(m.signature, m.name, m.language) : undefined;
      if (returned === "Self" || returned === assoc[1]) return assoc[1];
      if (returned) return returned;
      return !m && (assoc[2] === "new" || assoc[2] === "default") ? assoc[1] : undefined;
    }
    const self = /^(?:this|self|\$this)(?:\.|->)(\w+)\s*\(/.exec(init);
    const call = self ?? /^(\w+)\s*\(/.exec(init);
    if (!call) return undefined;
    let callee: SymbolRow | undefined;
    const cls = self ? this.enclosingClass(fn.id, scope) : undefined;
    if (self) {
      if (cls) callee = this.member(cls, call[1]!, "call", 0);
    } else {
      const t = this.unqualified(call[1]!, "call", scope, fn.id);
      callee = t ? this.symbol(t.id, call[1]!, scope) : undefined;
    }
    const returned = callee?.signature ? returnTypeOf(callee.signature, callee.name, callee.language) : undefined;
    return returned === "Self" || returned === "self" || returned === "static" ? cls?.name : returned;
  }

  /** Whether a qualified type name (`testing.T`) comes through an import of something outside the project. */
  private isOutside(typeName: string, scope: FileScope): boolean {
    const head = typeName.replace(/^[*&\s]+/, "").split(/::|[.\\]/)[0]!;
    if (head === typeName) return false;
    const b = scope.modules.get(head) ?? scope.names.get(head);
    return b !== undefined && isOutsideBinding(b);
  }

  /** A constructor call under another name: Ruby's `Foo.new` runs `initialize` (ResolutionRules.constructorCall). */
  private ctorName(ref: RefToResolve, type: SymbolRow): string {
    const ctor = rulesOf(type.language).constructorCall;
    return ctor && ref.name === ctor.name ? ctor.member : ref.name;
  }

  /** The one member (a definition inside a type) of that name in the family: a guess by name alone. */
  private uniqueMember(name: string, kind: string, fam: string): Target | undefined {
    if (isCoreMember(fam, name)) return undefined;
    return this.memos.get(this.uniqueMembers, fam, kind, name, () => this.computeUniqueMember(name, kind, fam));
  }

  private computeUniqueMember(name: string, kind: string, fam: string): Target | undefined {
    const candidates = this.index.named(name).filter((s) => s.container !== null && this.fits(s, kind, fam));
    if (candidates.length === 1) return { id: candidates[0]!.id, how: "name-only" };
    if (candidates.length < 2) return undefined;
    // Several, but one implementation and the rest declarations in interfaces (Class
    // Hierarchy Analysis): a call through any of those types can only run that one. Asked in
    // candidates' order and given up at the second implementation (boost's `type` and `value` have
    // thousands, mostly implementations); the owners loaded 32 names to a query, not one each.
    let concrete: SymbolRow | undefined;
    for (let i = 0; i < candidates.length; i++) {
      if (i % 32 === 0) {
        const owners: string[] = [];
        for (const c of candidates.slice(i, i + 32)) if (!this.ownerKinds.has(`${c.file}\u0000${c.container}`)) owners.push(lastSegment(c.container!));
        this.index.ensure(owners);
      }
      const s = candidates[i]!;
      if (this.isAbstractOwner(s)) continue;
      if (concrete) return undefined;
      concrete = s;
    }
    return concrete ? { id: concrete.id, how: "name-only" } : undefined;
  }

  private readonly ownerKinds = new Map<string, string | undefined>();

  /** Whether a member is declared by an interface (a signature, not an implementation). */
  private isAbstractOwner(s: SymbolRow): boolean {
    const key = `${s.file}\u0000${s.container}`;
    if (!this.ownerKinds.has(key)) {
      const owner = this.index
        .named(lastSegment(s.container!))
        .find((t) => t.qname === s.container && TYPE_KINDS.has(t.kind) && dirOf(t.file) === dirOf(s.file));
      this.ownerKinds.set(key, owner?.kind);
    }
    return this.ownerKinds.get(key) === "interface";
  }

  private unqualified(name: string, kind: string, scope: FileScope, enclosingId: number | null): Target | undefined {
    const info = scope.info;
    // `new self()`, `new static()`, `Self { … }`: the class being defined
    if (SELF_QUALIFIERS.has(name) && (kind === "call" || kind === "type")) {
      const cls = this.enclosingClass(enclosingId, scope);
      return cls ? { id: cls.id, how: "exact" } : undefined;
    }
    // an implicit `this`: a member of the enclosing class or of its bases
    const implicitThis = info.rules.implicitThis;
    if (implicitThis || kind === "type") {
      const cls = this.enclosingClass(enclosingId, scope);
      if (cls) {
        const m = this.member(cls, name, kind, implicitThis ? 0 : 3);
        if (m && (implicitThis || TYPE_KINDS.has(m.kind))) return { id: m.id, how: "exact" };
      }
    }
    return this.inScope(name, kind, scope);
  }

  /**
   * An unqualified name as the whole file sees it (what follows the enclosing class in `unqualified`):
   * the same for every use of the name in the file, so answered once per file, name and kind (a file
   * calls the same functions many times: the kernel's 9 million references name far fewer).
   */
  private inScope(name: string, kind: string, scope: FileScope): Target | undefined {
    let byName = scope.answers.get(kind);
    if (!byName) scope.answers.set(kind, (byName = new Map()));
    const known = byName.get(name);
    if (known !== undefined || byName.has(name)) return known;
    const found = this.computeInScope(name, kind, scope);
    byName.set(name, found);
    return found;
  }

  private computeInScope(name: string, kind: string, scope: FileScope): Target | undefined {
    const info = scope.info;
    const fam = info.family;
    // the same file
    let local: SymbolRow | undefined;
    for (const s of scope.byName.get(name) ?? []) {
      if (!this.fits(s, kind, fam)) continue;
      // a method of an object literal nothing names (`make({ foo: () => … })`) is no name in the file's scope
      if (s.container === null && s.kind === "method") continue;
      if (s.container === null) {
        local = s;
        break;
      }
      if (kind !== "call" || TYPE_KINDS.has(s.kind)) local ??= s;
    }
    if (local && (local.container === null || TYPE_KINDS.has(local.kind) || !info.rules.strictModules)) return { id: local.id, how: "exact" };
    // an imported name
    const imported = this.throughBinding(name, kind, scope);
    if (imported) return imported;
    if (scope.names.has(name) && isOutsideBinding(scope.names.get(name)!)) return undefined; // imported from outside
    // the same package
    const pkg = this.samePackage(name, kind, scope);
    if (pkg) return pkg;
    // files included wholesale
    if (scope.wholesale.length > 0) {
      const s = this.inFiles(name, kind, scope.wholesale, fam);
      if (s) return { id: s.id, how: "import" };
    }
    if (info.rules.strictModules) return undefined;
    // the one definition of that name
    return this.memos.get(this.uniqueNames, fam, kind, name, () => {
      let found: SymbolRow | undefined;
      for (const s of this.index.named(name)) {
        if (!this.fits(s, kind, fam)) continue;
        if (s.container !== null && !rulesOf(s.language).implicitThis && !TYPE_KINDS.has(s.kind)) continue;
        if (found) return undefined;
        found = s;
      }
      return found ? { id: found.id, how: "name-only" } : undefined;
    });
  }

  /**
   * Results that depend only on the definitions (not on the reference): the same for every reference
   * of a run, so computed once. Common names (String, New, get) have thousands of candidates.
   */
  private readonly memos = new Memos();
  /** uniqueMember's answers by family, kind and name. */
  private readonly uniqueMembers = this.memos.table<Target | undefined>();
  /** unqualified's one definition of a name, by family, kind and name. */
  private readonly uniqueNames = this.memos.table<Target | undefined>();
  /** samePackage's answers by the file's package key (FileInfo.packageKey), kind and name. */
  private readonly packageNames = this.memos.table<Target | undefined>();

  /**
   * Drops what was derived from loaded definitions and holds them (file sets, bases), when those are
   * dropped. The memos and owner kinds hold ids and kinds only, and stay: cleared with the definitions,
   * each batch of the kernel computed its unique members again (loading their owners' definitions).
   */
  forgetDerived(): void {
    this.fileSets.clear();
    this.listIdOf.clear();
    this.basesMemo.clear();
    this.basesByFile.clear();
    if (this.ownerKinds.size > MAX_OWNER_KINDS) this.ownerKinds.clear();
  }

  private samePackage(name: string, kind: string, scope: FileScope): Target | undefined {
    const info = scope.info;
    // a definition in the same file was found before this is asked, so the file itself does not matter
    return this.memos.get(this.packageNames, info.packageKey, kind, name, () => {
      let found: SymbolRow | undefined;
      for (const s of this.index.named(name)) {
        if (!this.fits(s, kind, info.family)) continue;
        if (s.container !== null && !TYPE_KINDS.has(s.kind)) continue;
        const other = this.files.get(s.file);
        if (!other || !samePackage(info, other)) continue;
        if (s.container === null) return { id: s.id, how: "exact" };
        found ??= s;
      }
      return found ? { id: found.id, how: "exact" } : undefined;
    });
  }

  /**
   * A type by name as seen from a file: through imports, the same file or package, or by name alone.
   * The same for every use of the written name in the file (no enclosing definition is asked), so
   * answered once per file and name: a file declares a few types many times over.
   */
  private typeNamed(written: string, scope: FileScope): { sym: SymbolRow; how: Resolution } | undefined {
    scope.typeAnswers ??= new Map();
    const known = scope.typeAnswers.get(written);
    if (known !== undefined || scope.typeAnswers.has(written)) return known;
    const found = this.computeTypeNamed(written, scope);
    scope.typeAnswers.set(written, found);
    return found;
  }

  private computeTypeNamed(written: string, scope: FileScope): { sym: SymbolRow; how: Resolution } | undefined {
    const q = written.replace(/^[*&\s]+/, "");
    const name = lastSegment(q);
    const head = q.includes(".") || q.includes("::") || q.includes("\\") ? q.slice(0, q.length - name.length).replace(/(::|[.\\])$/, "") : "";
    const fam = scope.info.family;
    if (head) {
      const b = scope.modules.get(head) ?? scope.names.get(head);
      if (b) {
        if (isOutsideBinding(b)) return undefined;
        const s = this.inFiles(name, "type", b.files, fam) ?? this.byImportedName({ ...b, name, qname: `${b.qname ?? head}.${name}` }, "type", fam);
        return s ? { sym: s, how: "import" } : undefined;
      }
    }
    const t = this.unqualified(name, "type", scope, null);
    if (!t) return undefined;
    const sym = this.symbol(t.id, name, scope);
    return sym && TYPE_KINDS.has(sym.kind) ? { sym, how: t.how } : undefined;
  }

  /**
   * The definition `id`, found by the name it was looked up by: the file's own, or among the loaded
   * definitions of that name (where a look-up by name found it). A query by id per call was half of
   * jdk17's look-ups (6.4 of 13.4 s: every use of a declared type asked again).
   */
  private symbol(id: number, name: string, scope: FileScope): SymbolRow | undefined {
    const own = scope.byId.get(id);
    if (own) return own;
    for (const s of this.index.named(name)) if (s.id === id) return s;
    return this.store.symbolsById([id])[0];
  }

  /** The class (or other type) a reference sits in: its enclosing definition or the nearest type around it. */
  private enclosingClass(enclosingId: number | null, scope: FileScope): SymbolRow | undefined {
    if (enclosingId === null) return undefined;
    if (scope.classOf.has(enclosingId)) return scope.classOf.get(enclosingId);
    const cls = this.findEnclosingClass(enclosingId, scope);
    scope.classOf.set(enclosingId, cls);
    return cls;
  }

  private findEnclosingClass(enclosingId: number, scope: FileScope): SymbolRow | undefined {
    const e = scope.byId.get(enclosingId);
    if (!e) return undefined;
    if (TYPE_KINDS.has(e.kind) && e.kind !== "namespace") return e;
    // the innermost type around it in this file (a namespace holds no members to call implicitly)
    let best: SymbolRow | undefined;
    // the file's types, listed once per scope: asked per enclosing definition, a walk of all its
    // definitions made a large file's cost grow with the square of its size
    scope.types ??= scope.symbols.filter((s) => TYPE_KINDS.has(s.kind) && s.kind !== "namespace");
    for (const s of scope.types) {
      if (!e.qname.startsWith(s.qname + ".")) continue;
      if (!best || s.qname.length > best.qname.length) best = s;
    }
    if (best && (e.kind !== "method" || !e.container || best.qname === e.container)) return best;
    // a method defined outside its type's file: a Go method in another file of the package, a C++
    // out-of-line definition (`void Account::deposit() {}` in account.cpp, the class in account.hpp)
    if (e.kind === "method" && e.container) {
      let elsewhere: SymbolRow | undefined;
      for (const s of this.index.named(lastSegment(e.container))) {
        if (s.qname !== e.container || !TYPE_KINDS.has(s.kind) || familyOf(s.language) !== scope.info.family) continue;
        if (dirOf(s.file) === scope.info.dir) return s;
        if (!scope.info.rules.membersInTypeFolder) elsewhere ??= s;
      }
      return elsewhere;
    }
    return undefined;
  }

  /** A member of a type by name, looking into its bases up to a few levels. */
  private member(type: SymbolRow, name: string, kind: string, depth: number): SymbolRow | undefined {
    let fallback: SymbolRow | undefined;
    // only the definitions inside this type (by either name), in the order named() gives them
    const all = this.index.named(name);
    const inQname = this.index.positionsIn(name, type.qname);
    const inName = type.name === type.qname ? NO_POSITIONS : this.index.positionsIn(name, type.name);
    for (let i = 0, j = 0; i < inQname.length || j < inName.length; ) {
      const s = all[j >= inName.length || (i < inQname.length && inQname[i]! < inName[j]!) ? inQname[i++]! : inName[j++]!]!;
      // methods carry their owner's qualified name; fields and enum members its short name
      const owned = s.container === type.qname || (s.container === type.name && s.file === type.file && s.qname === `${type.qname}.${s.name}`);
      if (!owned || !kindFits(kind, s.kind) || familyOf(s.language) !== familyOf(type.language)) continue;
      if (s.file === type.file) return s;
      // members in other files: partial classes, Go methods in another file of the package
      if (dirOf(s.file) === dirOf(type.file)) fallback ??= s;
      else if (!rulesOf(type.language).membersInTypeFolder) fallback ??= s;
    }
    if (fallback) return fallback;
    if (depth >= 3) return undefined;
    for (const base of this.bases(type)) {
      const m = this.member(base, name, kind, depth + 1);
      if (m) return m;
    }
    return undefined;
  }

  /** The resolved base types of a type (its inherit / implement references). */
  private bases(type: SymbolRow): SymbolRow[] {
    const memo = this.basesMemo.get(type.id);
    if (memo) return memo;
    this.basesMemo.set(type.id, []);
    const scope = this.scopeOf(type.file);
    const out: SymbolRow[] = [];
    if (scope) {
      // a file's types are asked for together (a class and its bases, a header's many classes): one
      // query per file, not one scan of the file's references per type (12 of boost's 96 s)
      let inFile = this.basesByFile.get(type.file);
      if (!inFile) this.basesByFile.set(type.file, (inFile = this.store.basesInFileOf(type.id)));
      for (const r of inFile.get(type.id) ?? []) {
        const t = r.qualifier ? this.typeNamed(`${r.qualifier}.${r.name}`, scope) : this.typeNamed(r.name, scope);
        if (t && t.sym.id !== type.id) out.push(t.sym);
      }
    }
    this.basesMemo.set(type.id, out);
    return out;
  }
}

/** A memo table: answers by a context (a family, a package key), a reference kind and a name. */
type MemoTable<T> = Map<string, Map<string, Map<string, T>>>;

/**
 * Resolver's memos (answers that depend on the definitions only, as ids), keyed by strings the caller already holds (a name, a kind, a family or a file's
 * package key) through nested maps: a key built per reference (`p\0<name>\0<kind>\0<language>\0<dir>…`)
 * was a new string to copy and hash for each of the kernel's 9 million references.
 */
class Memos {
  private readonly tables: Array<MemoTable<unknown>> = [];

  table<T>(): MemoTable<T> {
    const t: MemoTable<T> = new Map();
    this.tables.push(t as MemoTable<unknown>);
    return t;
  }

  /** Answers held in every table. */
  private size = 0;

  get<T>(table: MemoTable<T>, context: string, kind: string, name: string, compute: () => T): T {
    let byKind = table.get(context);
    if (!byKind) table.set(context, (byKind = new Map()));
    let byName = byKind.get(kind);
    if (!byName) byKind.set(kind, (byName = new Map()));
    const known = byName.get(name);
    if (known !== undefined || byName.has(name)) return known as T;
    const v = compute();
    if (this.size >= MAX_MEMO_ANSWERS) {
      this.clear();
      return v;
    }
    byName.set(name, v);
    this.size++;
    return v;
  }

  clear(): void {
    for (const t of this.tables) t.clear();
    this.size = 0;
  }
}
