/**
 * The graph facts search_codebase attaches to a result: who imports a file, who calls what it defines,
 * which tests cover it. Read straight from the resolved references and import edges (reference
 * resolution, src/engines/symbols/), a few small questions per result, so enrichment costs milliseconds.
 * Which files are tests is read once per search (load).
 */
import type { FileReader, GraphFactsReader } from "../../store/contract.ts";
import { testSubject } from "../../lang/registry.ts";

export interface Counted {
  file: string;
  /** Import statements or references from that file. */
  count: number;
}

/** The definitions of one file a chunk covers (its lines), by name; all of the file's when name is absent. */
export interface DefinitionTarget {
  file: string;
  name?: string;
  startLine?: number;
  endLine?: number;
}

export class Evidence {
  private testNames: Map<string, string[]> | undefined;

  private constructor(
    private readonly facts: GraphFactsReader,
    /** Every test file's path. */
    private readonly testFiles: Set<string>,
  ) {}

  /** Evidence over a reader, with the project's test files read once. */
  static async load(facts: GraphFactsReader & FileReader): Promise<Evidence> {
    return new Evidence(facts, new Set((await facts.allFiles()).filter((f) => f.isTest).map((f) => f.path)));
  }

  /** Files importing `file` (other than itself), most import statements first. */
  importers(file: string): Promise<Counted[]> {
    return this.facts.importers(file);
  }

  /** The symbol ids a target names: the definition named within the chunk's lines, or every definition of the file. */
  symbolIds(t: DefinitionTarget): Promise<number[]> {
    return t.name !== undefined && t.startLine !== undefined && t.endLine !== undefined
      ? this.facts.symbolIdsNamedWithin(t.file, t.name, t.startLine, t.endLine)
      : this.facts.symbolIdsOf(t.file);
  }

  /** Files whose code uses (calls, types, inherits from, reads) the given definitions, outside `except`. */
  users(ids: number[], except: string): Promise<Counted[]> {
    return this.facts.users(ids, except);
  }

  /** Files calling a name that resolution could not bind to any definition (dynamic dispatch, missing types). */
  unresolvedCallers(name: string, except: string): Promise<string[]> {
    return this.facts.unresolvedCallers(name, except);
  }

  isTest(file: string): boolean {
    return this.testFiles.has(file);
  }

  /**
   * Test files for `file`: tests that import it or use its definitions, and tests named after it
   * (user.go → user_test.go, service.py → test_service.py, Cart.java → CartTest.java, a.ts → a.test.ts).
   */
  tests(file: string, importers: Counted[], users: Counted[]): Counted[] {
    const out = new Map<string, number>();
    for (const c of [...importers, ...users]) if (this.isTest(c.file)) out.set(c.file, (out.get(c.file) ?? 0) + c.count);
    for (const t of this.testsNamedAfter(file)) if (!out.has(t) && t !== file) out.set(t, 1);
    out.delete(file);
    return [...out.entries()].map(([f, count]) => ({ file: f, count })).sort((a, b) => b.count - a.count || a.file.localeCompare(b.file));
  }

  /**
   * Whether `test` is a test of `file` by name: it tests the file's name, in the same folder, or anywhere
   * when the name says more than a folder's entry point does (index, main, mod, init, lib).
   */
  isOwnTest(test: string, file: string): boolean {
    if (!this.isTest(test) || test === file) return false;
    const subject = testSubject(test);
    const name = stem(file);
    if (!subject || subject !== name) return false;
    return dirOf(test) === dirOf(file) || !/^(index|main|mod|init|lib|__init__)$/.test(name);
  }

  private testsNamedAfter(file: string): string[] {
    if (!this.testNames) {
      this.testNames = new Map();
      for (const p of this.testFiles) {
        const key = testSubject(p);
        if (!key) continue;
        const list = this.testNames.get(key) ?? [];
        list.push(p);
        this.testNames.set(key, list);
      }
    }
    return this.testNames.get(stem(file)) ?? [];
  }
}

function dirOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf("/")));
}

function stem(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".");
  return (dot > 0 ? base.slice(0, dot) : base).toLowerCase().replace(/[-_]/g, "");
}

/** The name of what a test file tests, by its language's naming conventions (src/lang: ResolutionRules.testNames). */
export { testSubject };
