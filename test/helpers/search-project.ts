/**
 * The search tests' common set-up: a throwaway project indexed once before a test file's tests and
 * removed after them, ranking knobs changed for one call and put back, and unrelated packages that make a
 * question's words as rare in the project as they are in a real one.
 */
import { afterAll, beforeAll } from "bun:test";
import type { SearchEngine } from "../../src/engines/search/index.ts";
import { Session } from "../../src/tools/session.ts";
import { tmpProject, type TmpProject } from "./tmp-project.ts";

/**
 * `files` indexed in a new project before the file's (or describe block's) tests, in a beforeAll, after
 * `prepare` (a git history, say) when given; closed and removed after them.
 */
export function indexedForSearch(
  files: Record<string, string>,
  prepare?: (p: TmpProject) => void,
): { readonly engine: SearchEngine; readonly session: Session; readonly project: TmpProject } {
  let p: TmpProject | undefined;
  let session: Session | undefined;
  let engine: SearchEngine | undefined;
  beforeAll(async () => {
    p = tmpProject(files);
    prepare?.(p);
    session = new Session(p.root);
    await session.index();
    engine = await session.search();
  });
  afterAll(() => {
    session?.close();
    p?.cleanup();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the project is indexed before the tests (beforeAll), not when the file loads");
    return value;
  };
  return {
    get engine() {
      return ready(engine);
    },
    get session() {
      return ready(session);
    },
    get project() {
      return ready(p);
    },
  };
}

/**
 * Runs `run` with `knobs` set in `table` (FILE_RANKING, RANKING …) and puts the table back after it, when
 * the promise it returns settles if it returns one.
 */
export function withKnobs<T extends object, R>(table: T, knobs: Partial<T>, run: () => R): R {
  const saved = { ...table };
  const restore = () => Object.assign(table, saved);
  Object.assign(table, knobs);
  let result: R;
  try {
    result = run();
  } catch (e) {
    restore();
    throw e;
  }
  if (result instanceof Promise) return result.finally(restore) as R;
  restore();
  return result;
}

/** `count` small Go packages unrelated to any test's question, added to `files`. */
export function withUnrelatedPackages(files: Record<string, string>, count = 12): Record<string, string> {
  for (let i = 0; i < count; i++) files[`tools/tool${i}.go`] = `package tools\n\n// Run${i} prints line ${i}.\nfunc Run${i}() { println(${i}) }\n`;
  return files;
}
