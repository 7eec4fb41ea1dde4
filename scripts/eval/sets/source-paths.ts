/**
 * Which files of a repository the generated sets care about: source files (a language cortex parses),
 * apart from tests and vendored code. The same rules pick the evaluation corpus, so a label can never
 * name a file the corpus lacks.
 */
import { languageFor } from "../../../src/lang/registry.ts";

/** Folders holding someone else's code, copied in. */
const VENDORED = /(^|\/)(vendor|vendored|third[_-]party|node_modules|deps|external|extern|bower_components)\//;
/** Folders of tests, fixtures and generated test data. */
const TEST_FOLDER = /(^|\/)(tests?|spec|specs|__tests__|testdata|test_data|testing|fixtures?|benches|benchmarks?|examples?)\//;
/** Test files by name, in each language's convention. */
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test\.[a-z]+|[^/]*_spec\.rb|[^/]*\.(test|spec)\.[jt]sx?|[^/]*Tests?\.(java|kt|cs|php))$/;

export function isVendored(path: string): boolean {
  return VENDORED.test(path);
}

export function isTestLike(path: string): boolean {
  return TEST_FOLDER.test(path) || TEST_FILE.test(path);
}

/** The code language of a path (cortex's own choice), or undefined for text, docs and data. */
export function codeLanguage(path: string): string | undefined {
  return languageFor(path).module?.id;
}

/** A file cortex parses as code that is not vendored: what the evaluation corpus holds. */
export function isCorpusSource(path: string): boolean {
  return codeLanguage(path) !== undefined && !isVendored(path);
}

/** A corpus file that is not a test: what a label may name. */
export function isLabelSource(path: string): boolean {
  return isCorpusSource(path) && !isTestLike(path);
}

/** cortex's language ids that count as a repository's language (a `.h` may parse as C++, `.tsx` is TypeScript). */
const FAMILY: Record<string, string[]> = { c: ["c", "cpp"], cpp: ["cpp", "c"], typescript: ["typescript", "tsx"], javascript: ["javascript", "jsx"] };

/** Whether a path is written in `language` (a repository's language, as scripts/eval/sets/repos.ts names it). */
export function isInLanguage(path: string, language: string): boolean {
  const id = codeLanguage(path);
  return id !== undefined && (FAMILY[language] ?? [language]).includes(id);
}
