/**
 * The patterns get_team_patterns measures. Patterns come in groups of alternatives that do one job
 * (which test framework, which HTTP client, how errors are wrapped); a file shows a pattern when its
 * facts do — an import, a call, or (for syntax no fact records, like `await`) a line of its content.
 * The groups cover the 14 languages; a group only counts files of its languages.
 */

export const PATTERN_CATEGORIES = ["di", "state", "testing", "libraries", "errors", "async", "logging"] as const;
export type PatternCategory = (typeof PATTERN_CATEGORIES)[number];

export interface FileFacts {
  path: string;
  language: string;
  isTest: boolean;
  imports: string[];
  /** Calls as `name` and `qualifier.name`. */
  calls: Set<string>;
  text: () => string;
}

export interface PatternDef {
  name: string;
  /** Import modules (exact, or prefix with trailing "*"). */
  imports?: string[];
  /** Call names (`fetch`) or qualified calls (`errors.Wrap`). */
  calls?: string[];
  /** A regular expression over the file's content, for syntax facts do not record. */
  content?: RegExp;
  /** Only in test files (true) or only in non-test files (false). */
  tests?: boolean;
  /**
   * The file must import one of these for the pattern to count: `errors.New` is the standard library's
   * only where "errors" is imported (github.com/pkg/errors has an `errors.New` too).
   */
  with?: string[];
}

export interface PatternGroup {
  id: string;
  category: PatternCategory;
  title: string;
  languages: string[];
  /**
   * Framework groups: only files importing one of these modules count (constructor parameters in any
   * TypeScript class are not "Angular injection" unless the file uses Angular).
   */
  within?: string[];
  patterns: PatternDef[];
}

const JS = ["javascript", "typescript", "tsx", "jsx"];
const JVM = ["java", "kotlin"];
/** Modules whose files' hooks and contexts are React's (or compatible). */
const REACT_LIKE = [
  "react",
  "react/*",
  "react-dom",
  "react-dom/*",
  "preact",
  "preact/*",
  "react-redux",
  "redux",
  "@reduxjs/toolkit",
  "zustand",
  "zustand/*",
  "mobx",
  "mobx-react*",
];

export const PATTERN_GROUPS: PatternGroup[] = [
  // testing
  {
    id: "py-test-framework",
    category: "testing",
    title: "Python test framework",
    languages: ["python"],
    patterns: [
      { name: "pytest", imports: ["pytest"], content: /^def test_\w+\(|@pytest\./m, tests: true },
      { name: "unittest", imports: ["unittest", "unittest.*"], content: /\bunittest\.TestCase\b/, tests: true },
    ],
  },
  {
    id: "js-test-framework",
    category: "testing",
    title: "JavaScript/TypeScript test framework",
    languages: JS,
    patterns: [
      // vi.* is vitest's own, also in test files that use its globals without importing it
      { name: "vitest", imports: ["vitest"], content: /\bvi\.(fn|mock|spyOn|mocked|useFakeTimers)\(/, tests: true },
      { name: "jest", imports: ["@jest/globals"], content: /\bjest\.(fn|mock|spyOn)\(/, tests: true },
      { name: "mocha", imports: ["mocha", "chai"], tests: true },
      { name: "bun:test", imports: ["bun:test"], tests: true },
      { name: "node:test", imports: ["node:test"], tests: true },
    ],
  },
  {
    id: "go-assertions",
    category: "testing",
    title: "Go test assertions",
    languages: ["go"],
    patterns: [
      { name: "testify", imports: ["github.com/stretchr/testify*"], tests: true },
      { name: "standard testing only", content: /\bt\.(Fatal|Fatalf|Error|Errorf)\(/, tests: true },
    ],
  },
  {
    id: "jvm-test-framework",
    category: "testing",
    title: "JVM test framework",
    languages: JVM,
    patterns: [
      { name: "JUnit 5", imports: ["org.junit.jupiter*"], tests: true },
      { name: "JUnit 4", imports: ["org.junit.Test", "org.junit.Assert*", "org.junit.Before", "org.junit.After"], tests: true },
      { name: "Kotest", imports: ["io.kotest*"], tests: true },
    ],
  },
  {
    id: "ruby-test-framework",
    category: "testing",
    title: "Ruby test framework",
    languages: ["ruby"],
    patterns: [
      { name: "RSpec", content: /\b(describe|RSpec\.describe)\b.*\bdo\b/, tests: true },
      { name: "Minitest", imports: ["minitest*"], content: /Minitest::Test/, tests: true },
    ],
  },
  {
    id: "cs-test-framework",
    category: "testing",
    title: ".NET test framework",
    languages: ["c_sharp"],
    patterns: [
      { name: "xUnit", imports: ["Xunit*"], tests: true },
      { name: "NUnit", imports: ["NUnit*"], tests: true },
      { name: "MSTest", imports: ["Microsoft.VisualStudio.TestTools*"], tests: true },
    ],
  },
  {
    id: "mocking",
    category: "testing",
    title: "Test doubles",
    languages: ["python", ...JS, ...JVM, "go"],
    patterns: [
      {
        name: "mocks",
        imports: ["unittest.mock", "pytest_mock", "org.mockito*", "io.mockk*", "github.com/golang/mock*", "go.uber.org/mock*", "sinon"],
        calls: ["jest.mock", "vi.mock", "mock.patch", "patch"],
        tests: true,
      },
      { name: "real implementations / fakes", content: /\b(Fake|InMemory|Stub)[A-Z]\w*\b/, tests: true },
    ],
  },
  // libraries
  {
    id: "py-http-client",
    category: "libraries",
    title: "Python HTTP client",
    languages: ["python"],
    patterns: [
      { name: "requests", imports: ["requests", "requests.*"] },
      { name: "httpx", imports: ["httpx"] },
      { name: "aiohttp", imports: ["aiohttp", "aiohttp.*"] },
      { name: "urllib", imports: ["urllib.request", "urllib3"] },
    ],
  },
  {
    id: "js-http-client",
    category: "libraries",
    title: "JavaScript HTTP client",
    languages: JS,
    patterns: [
      { name: "fetch", calls: ["fetch"] },
      { name: "axios", imports: ["axios"] },
      { name: "node-fetch / got / ky", imports: ["node-fetch", "got", "ky"] },
    ],
  },
  {
    id: "go-http-router",
    category: "libraries",
    title: "Go HTTP routing",
    languages: ["go"],
    patterns: [
      { name: "net/http", imports: ["net/http"], calls: ["http.HandleFunc", "http.NewServeMux"] },
      { name: "gin", imports: ["github.com/gin-gonic/gin"] },
      { name: "chi", imports: ["github.com/go-chi/chi*"] },
      { name: "echo", imports: ["github.com/labstack/echo*"] },
    ],
  },
  {
    id: "js-date",
    category: "libraries",
    title: "Date handling",
    languages: JS,
    patterns: [
      { name: "date-fns", imports: ["date-fns", "date-fns/*"] },
      { name: "dayjs", imports: ["dayjs"] },
      { name: "moment", imports: ["moment"] },
      { name: "luxon", imports: ["luxon"] },
    ],
  },
  {
    id: "rust-errors-lib",
    category: "libraries",
    title: "Rust error crates",
    languages: ["rust"],
    patterns: [
      { name: "anyhow", imports: ["anyhow*"] },
      { name: "thiserror", imports: ["thiserror*"] },
    ],
  },
  // di
  {
    id: "java-injection",
    category: "di",
    title: "Spring injection style",
    languages: JVM,
    within: ["org.springframework*", "lombok*", "jakarta.inject*", "javax.inject*"],
    patterns: [
      { name: "field injection (@Autowired fields)", content: /@Autowired\s+(private|protected|public)?\s*\w/ },
      { name: "constructor injection", content: /@RequiredArgsConstructor|@Autowired\s+(public\s+)?\w+\s*\(/ },
    ],
  },
  {
    id: "angular-injection",
    category: "di",
    title: "Angular injection style",
    languages: ["typescript"],
    within: ["@angular/*"],
    patterns: [
      { name: "inject()", calls: ["inject"] },
      { name: "constructor injection", content: /constructor\(\s*((private|public|protected|readonly)\s+)+\w+\s*:/ },
    ],
  },
  {
    id: "nest-di",
    category: "di",
    title: "NestJS providers",
    languages: ["typescript"],
    within: ["@nestjs/*"],
    patterns: [
      { name: "@Injectable providers", content: /@Injectable\(/ },
      { name: "manual construction", content: /new \w+Service\(/ },
    ],
  },
  {
    id: "go-di",
    category: "di",
    title: "Go dependency wiring",
    languages: ["go"],
    patterns: [
      { name: "constructor functions (NewX)", content: /^func New[A-Z]\w*\(/m },
      { name: "global singletons", content: /^var (default|global)[A-Z]\w* = /m },
      { name: "fx / wire", imports: ["go.uber.org/fx", "github.com/google/wire"] },
    ],
  },
  // state
  {
    id: "react-state",
    category: "state",
    title: "React state management",
    languages: JS,
    patterns: [
      { name: "Redux", imports: ["redux", "@reduxjs/toolkit", "react-redux"] },
      { name: "Zustand", imports: ["zustand", "zustand/*"] },
      { name: "MobX", imports: ["mobx", "mobx-react*"] },
      { name: "React context", calls: ["createContext", "useContext", "React.createContext"] },
    ],
    // a createContext or useState of the project's own (hono's JSX) is not React's
    within: REACT_LIKE,
  },
  {
    id: "react-local-state",
    category: "state",
    title: "React local state",
    languages: ["tsx", "jsx", "javascript", "typescript"],
    patterns: [
      { name: "useState", calls: ["useState", "React.useState"] },
      { name: "useReducer", calls: ["useReducer", "React.useReducer"] },
      { name: "signals", imports: ["@preact/signals*", "@angular/core"], calls: ["signal", "computed"] },
    ],
    within: [...REACT_LIKE, "@preact/signals*", "@angular/core"],
  },
  // errors
  {
    id: "go-error-wrapping",
    category: "errors",
    title: "Go error wrapping",
    languages: ["go"],
    patterns: [
      { name: "fmt.Errorf with %w", content: /fmt\.Errorf\([^)]*%w/ },
      { name: "pkg/errors", imports: ["github.com/pkg/errors"] },
      { name: "bare errors.New", calls: ["errors.New"], with: ["errors"] },
    ],
  },
  {
    id: "py-exceptions",
    category: "errors",
    title: "Python exception handling",
    languages: ["python"],
    patterns: [
      { name: "specific except clauses", content: /^\s*except\s+[A-Z]\w*(\s+as\s+\w+)?\s*:/m },
      { name: "bare / broad except", content: /^\s*except\s*(Exception)?\s*:/m },
      { name: "custom exception classes", content: /^class \w+\((\w*Error|\w*Exception)\)\s*:/m },
    ],
  },
  {
    id: "js-errors",
    category: "errors",
    title: "JavaScript error handling",
    languages: JS,
    patterns: [
      { name: "try/catch", content: /\btry\s*\{/ },
      { name: "promise .catch()", calls: ["catch"] },
      { name: "custom Error classes", content: /class \w+ extends Error\b/ },
    ],
  },
  {
    id: "rust-errors",
    category: "errors",
    title: "Rust error propagation",
    languages: ["rust"],
    patterns: [
      { name: "? operator", content: /\)\?[;.)]/ },
      { name: "unwrap / expect", calls: ["unwrap", "expect"] },
    ],
  },
  // async
  {
    id: "js-async",
    category: "async",
    title: "JavaScript async style",
    languages: JS,
    patterns: [
      { name: "async/await", content: /\bawait\s/ },
      { name: "promise chains (.then)", calls: ["then"] },
      { name: "callbacks", content: /function\s*\(\s*err\s*,/ },
    ],
  },
  {
    id: "py-async",
    category: "async",
    title: "Python concurrency",
    languages: ["python"],
    patterns: [
      { name: "asyncio", imports: ["asyncio"], content: /^\s*async def /m },
      { name: "threads", imports: ["threading", "concurrent.futures"] },
      { name: "multiprocessing", imports: ["multiprocessing"] },
    ],
  },
  {
    id: "go-concurrency",
    category: "async",
    title: "Go concurrency",
    languages: ["go"],
    patterns: [
      { name: "errgroup", imports: ["golang.org/x/sync/errgroup"] },
      { name: "sync.WaitGroup", content: /sync\.WaitGroup/ },
      { name: "channels", content: /\bmake\(chan\b|<-\s*\w/ },
    ],
  },
  {
    id: "jvm-async",
    category: "async",
    title: "JVM concurrency",
    languages: JVM,
    patterns: [
      { name: "coroutines", imports: ["kotlinx.coroutines*"] },
      { name: "CompletableFuture", imports: ["java.util.concurrent.CompletableFuture"] },
      { name: "executors", imports: ["java.util.concurrent.Executor*"] },
    ],
  },
  // logging
  {
    id: "py-logging",
    category: "logging",
    title: "Python logging",
    languages: ["python"],
    patterns: [
      { name: "logging module", imports: ["logging"], tests: false },
      { name: "print", calls: ["print"], tests: false },
      { name: "structlog / loguru", imports: ["structlog", "loguru"], tests: false },
    ],
  },
  {
    id: "js-logging",
    category: "logging",
    title: "JavaScript logging",
    languages: JS,
    patterns: [
      { name: "console", calls: ["console.log", "console.error", "console.warn", "console.info"], tests: false },
      { name: "pino / winston", imports: ["pino", "winston"], tests: false },
    ],
  },
  {
    id: "go-logging",
    category: "logging",
    title: "Go logging",
    languages: ["go"],
    patterns: [
      { name: "log/slog", imports: ["log/slog"], tests: false },
      { name: "log", imports: ["log"], tests: false },
      { name: "zap / logrus / zerolog", imports: ["go.uber.org/zap", "github.com/sirupsen/logrus", "github.com/rs/zerolog*"], tests: false },
    ],
  },
  {
    id: "jvm-logging",
    category: "logging",
    title: "JVM logging",
    languages: JVM,
    patterns: [
      { name: "SLF4J", imports: ["org.slf4j*"], tests: false },
      { name: "System.out", content: /System\.(out|err)\.print/, tests: false },
      { name: "java.util.logging / log4j", imports: ["java.util.logging*", "org.apache.logging.log4j*", "org.apache.log4j*"], tests: false },
    ],
  },
  {
    id: "rust-logging",
    category: "logging",
    title: "Rust logging",
    languages: ["rust"],
    patterns: [
      { name: "tracing", imports: ["tracing*"], tests: false },
      { name: "log", imports: ["log", "log::*"], tests: false },
      { name: "println!", content: /\b(e?println)!\(/, tests: false },
    ],
  },
];

export function importMatches(pattern: string, module: string): boolean {
  if (!pattern.endsWith("*")) return pattern === module;
  const stem = pattern.slice(0, -1);
  return module.startsWith(stem) || module === stem.replace(/[./:]+$/, "");
}

/** Whether a file shows a pattern. */
export function shows(p: PatternDef, f: FileFacts): boolean {
  if (p.tests !== undefined && p.tests !== f.isTest) return false;
  if (p.with && !p.with.some((w) => f.imports.some((m) => importMatches(w, m)))) return false;
  if (p.imports?.some((i) => f.imports.some((m) => importMatches(i, m)))) return true;
  if (p.calls?.some((c) => f.calls.has(c))) return true;
  if (p.content?.test(f.text())) return true;
  return false;
}
