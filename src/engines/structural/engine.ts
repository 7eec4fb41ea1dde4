/**
 * The structural search behind cortex_pattern. One search: resolve ast-grep (downloading it on first
 * use), list the project's files of the language with cortex's own ignore rules (the walk the indexer
 * uses, so node_modules, ignored and oversized files stay out), keep the files that contain the words
 * every match must contain (see literals.ts), run ast-grep over them in argument-sized batches, and keep
 * the first `limit` matches in file order while counting all of them. The files are read as they are on
 * disk now; the index is not consulted (measured: see docs/benchmarks.md, "pattern").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CortexError } from "../../core/errors.ts";
import { walkProject, looksBinary } from "../../indexer/walk.ts";
import { resolveAstGrep, type AstGrepBinary } from "./install.ts";
import { patternLanguage, fileFilter, LANGUAGE_NAMES, type PatternLanguage } from "./languages.ts";
import { checkNamedPathsExist, compileScope, type PathScope } from "./scope.ts";
import { debugPatternArgs, isolatedConfig, searchArgs, validateArgs, type Matcher } from "./command.ts";
import { astGrepError, astGrepWarnings, isQueryError, runAstGrep, type RunLimits } from "./runner.ts";
import { TopMatches } from "./collect.ts";
import { LiteralFilter, NO_REQUIREMENT, parseDebugPattern, ruleRequirement, type LiteralRequirement } from "./literals.ts";
import { buildMatches, type PatternMatch } from "./results.ts";
import { withStrictness, type Rule, type Strictness } from "./rule.ts";

export interface PatternSearch {
  /** A code pattern with $VAR / $$$VARS metavariables. Exactly one of pattern and rule. */
  pattern?: string;
  /** An ast-grep rule object. */
  rule?: Rule;
  language: string;
  filePaths?: string[];
  contextLines?: number;
  /** Default "smart"; with a rule it applies to every pattern that sets none. */
  strictness?: Strictness;
  limit?: number;
  /** A replacement template; each match then carries its proposed replacement and diff. */
  rewrite?: string;
}

export interface SearchControl {
  /** Epoch ms by which the search returns what it has (default: 30 s after ast-grep is ready). */
  deadline?: number;
  /** How long the search may run once ast-grep is ready (default 30 s); the earlier of the two wins. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Skip files that lack the pattern's required literals (default true). */
  narrow?: boolean;
  /** Candidate files (root-relative) instead of walking the project: for benchmarks. */
  files?: string[];
  /** Bytes of file names per ast-grep run (the command line limit; default per platform). */
  batchBytes?: number;
}

export interface PatternResult {
  matches: PatternMatch[];
  /** Every match found (all of them unless partial), of which `matches` are the first `limit` in file order. */
  total: number;
  truncated: boolean;
  /** True when the deadline or a cancellation stopped the search: `total` then counts what was found so far. */
  partial: boolean;
  warnings: string[];
  metadata: {
    took_ms: number;
    pattern?: string;
    rule?: Rule;
    rewrite?: string;
    /** The ast-grep language searched. */
    language: string;
    strictness: Strictness;
    files: {
      /** Files of the language inside file_paths that the ignore rules keep. */
      in_scope: number;
      /** Files handed to ast-grep. */
      searched: number;
      /** Files skipped because they lack a required literal (or are binary). */
      skipped_by_literals: number;
      /** Files of the language over index.max_file_size, not searched. */
      too_large: number;
    };
    literals: LiteralRequirement;
    ast_grep: { version: string; source: AstGrepBinary["source"] };
  };
}

export interface EngineSettings {
  maxFileSize: number;
  excludes: string[];
}

export const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_BATCH_BYTES = process.platform === "win32" ? 24_000 : 200_000;
const READ_CHUNK = 256;

const analysisCache = new Map<string, Promise<LiteralRequirement>>();
/**
 * What ast-grep warned of a pattern while parsing it (an ERROR node), by the analysis cache's key: the
 * search's runs repeat it only when some file survives the literal filter, so `foo(` was warned of or not
 * by what the project's files hold.
 */
const analysisWarnings = new Map<string, string[]>();
const ANALYSIS_CACHE_SIZE = 256;

export class PatternEngine {
  constructor(
    readonly root: string,
    private readonly settings: EngineSettings,
    private readonly binary: () => Promise<AstGrepBinary> = () => resolveAstGrep(),
  ) {}

  async search(q: PatternSearch, control: SearchControl = {}): Promise<PatternResult> {
    const started = performance.now();
    const language = patternLanguage(q.language);
    if (!language) throw new CortexError("INVALID_INPUT", `language: unsupported '${q.language}'; supported: ${LANGUAGE_NAMES.join(", ")}`);
    const matcher = matcherOf(q);
    const scope = compileScope(this.root, q.filePaths ?? []);
    checkNamedPathsExist(this.root, q.filePaths ?? []);
    const contextLines = q.contextLines ?? 3;
    const limit = q.limit ?? 50;

    const binary = await waitForBinary(this.binary(), control.signal);
    const deadline = Math.min(control.deadline ?? Infinity, Date.now() + (control.timeoutMs ?? DEFAULT_TIMEOUT_MS));
    const limits: RunLimits = control.signal ? { deadline, signal: control.signal } : { deadline };
    const config = isolatedConfig();

    // The pattern analysis spawns ast-grep before the walk blocks this thread, so the two overlap.
    const analysis = requirementOf(q, matcher, language, binary, config, this.root, limits);
    analysis.catch(() => {});
    const listing = control.files ? { files: control.files, tooLarge: 0, notes: [] } : this.listFiles(language, scope);
    const requirement = await analysis;
    const filter = new LiteralFilter(control.narrow === false ? NO_REQUIREMENT : requirement);

    let partial = false;
    let candidates = listing.files;
    let rejected = 0;
    if (filter.active) {
      const kept = await this.prefilter(listing.files, filter, limits);
      candidates = kept.files;
      rejected = kept.rejected;
      partial = kept.stopped;
    }

    const collector = new TopMatches(limit);
    const warnings = new Set<string>(listing.notes);
    if (matcher.kind === "pattern")
      for (const w of analysisWarnings.get(analysisKey(binary, language.id, matcher.strictness, matcher.pattern)) ?? []) warnings.add(w);
    if (candidates.length === 0 && !partial) {
      await checkMatcher(binary, matcher, language, config, this.root, limits, q);
    }
    let searched = 0;
    for (const batch of partial ? [] : batches(candidates, control.batchBytes ?? DEFAULT_BATCH_BYTES)) {
      const outcome = await runAstGrep(binary.path, searchArgs(matcher, language.id, config, batch), this.root, limits, (line) => collector.add(line));
      for (const w of astGrepWarnings(outcome.stderr)) warnings.add(w);
      if (outcome.stoppedBy) {
        // a batch stopped part-way is not searched: "searched 5555 of 5555" beside "out of time" said otherwise
        partial = true;
        break;
      }
      searched += batch.length;
      if (outcome.code !== 0 && outcome.code !== 1) throw failure(outcome.stderr, outcome.code, matcher, q);
    }

    const built = buildMatches(collector.result(), { root: this.root, contextLines, rewrite: q.rewrite !== undefined });
    for (const w of built.warnings) warnings.add(w);
    const metadata: PatternResult["metadata"] = {
      took_ms: Math.round(performance.now() - started),
      language: language.id,
      strictness: q.strictness ?? "smart",
      files: {
        in_scope: listing.files.length,
        searched,
        skipped_by_literals: rejected,
        too_large: listing.tooLarge,
      },
      literals: filter.requirement,
      ast_grep: { version: binary.version, source: binary.source },
    };
    if (q.pattern !== undefined) metadata.pattern = q.pattern;
    if (q.rule !== undefined) metadata.rule = q.rule;
    if (q.rewrite !== undefined) metadata.rewrite = q.rewrite;
    return {
      matches: built.matches,
      total: collector.total,
      truncated: collector.total > built.matches.length,
      partial,
      warnings: [...warnings].slice(0, 20),
      metadata,
    };
  }

  /**
   * The project's files of the language inside the scope, by cortex's ignore rules and size limit, and
   * what the search leaves out that a user would look for: files over the size limit, and files the
   * scope names that are ignored or of another language (a search of them gave "0 of 0" and nothing else).
   */
  listFiles(language: PatternLanguage, scope: PathScope): { files: string[]; tooLarge: number; notes: string[] } {
    const walked = walkProject(this.root, { maxFileSize: this.settings.maxFileSize, extraExcludes: this.settings.excludes });
    const isLanguage = fileFilter(language);
    const files = walked.files.filter((f) => isLanguage(f.path) && scope.includes(f.path)).map((f) => f.path);
    const large = walked.excluded.filter((e) => e.reason === "too-large" && isLanguage(e.path) && scope.includes(e.path)).map((e) => e.path);
    const notes: string[] = [];
    if (large.length > 0)
      notes.push(
        `${large.length} ${language.id} file${large.length === 1 ? "" : "s"} over the size limit (${this.settings.maxFileSize} bytes) not searched: ${large.slice(0, 3).join(", ")}${large.length > 3 ? ", …" : ""}; raise index.max_file_size in .cortex/config.yml to search them`,
      );
    const listed = new Set(walked.files.map((f) => f.path));
    for (const path of scope.named) {
      if (listed.has(path)) {
        if (!isLanguage(path)) notes.push(`${path} is not a ${language.id} file: not searched (give the language it is written in)`);
        continue;
      }
      const why = walked.excluded.find((e) => e.path === path || path.startsWith(`${e.path}/`));
      if (why?.reason === "ignored") notes.push(`${path} is ignored (${why.detail}): not searched`);
      else if (why && why.reason !== "too-large") notes.push(`${path} is not searched (${why.reason}${why.detail ? `: ${why.detail}` : ""})`);
    }
    return { files, tooLarge: large.length, notes };
  }

  /** Keeps the files holding every required literal, yielding between chunks so a deadline can stop it. */
  private async prefilter(files: string[], filter: LiteralFilter, limits: RunLimits): Promise<{ files: string[]; rejected: number; stopped: boolean }> {
    const kept: string[] = [];
    let rejected = 0;
    for (let i = 0; i < files.length; i += READ_CHUNK) {
      if (i > 0) await new Promise((r) => setImmediate(r));
      if (Date.now() >= limits.deadline || limits.signal?.aborted) return { files: kept, rejected, stopped: true };
      for (const path of files.slice(i, i + READ_CHUNK)) {
        let bytes: Buffer;
        try {
          bytes = readFileSync(join(this.root, path));
        } catch {
          continue; // gone since the walk: nothing to search
        }
        if (!looksBinary(bytes) && filter.accepts(bytes)) kept.push(path);
        else rejected++;
      }
    }
    return { files: kept, rejected, stopped: false };
  }
}

function matcherOf(q: PatternSearch): Matcher {
  if (q.pattern !== undefined && q.rule !== undefined) throw new CortexError("INVALID_INPUT", "pattern: give either pattern or rule, not both");
  const strictness = q.strictness ?? "smart";
  if (q.rule !== undefined) {
    const rule = q.strictness ? withStrictness(q.rule, q.strictness) : q.rule;
    return q.rewrite !== undefined ? { kind: "rule", rule, fix: q.rewrite } : { kind: "rule", rule };
  }
  if (q.pattern === undefined || q.pattern.trim() === "") {
    throw new CortexError("INVALID_INPUT", q.pattern === undefined ? "pattern: required (or give a rule)" : "pattern: must not be empty");
  }
  if (q.rewrite !== undefined) return { kind: "rule", rule: { pattern: { context: q.pattern, strictness } }, fix: q.rewrite };
  return { kind: "pattern", pattern: q.pattern, strictness };
}

async function waitForBinary(p: Promise<AstGrepBinary>, signal: AbortSignal | undefined): Promise<AstGrepBinary> {
  if (!signal) return p;
  if (signal.aborted) throw new CortexError("DEADLINE", "the call was cancelled before ast-grep was ready");
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CortexError("DEADLINE", "ast-grep is still being installed (first use); try again in a moment"));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([p, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}

/** What the matcher requires of a file; running ast-grep's pattern parser also validates every pattern. */
function requirementOf(
  q: PatternSearch,
  matcher: Matcher,
  language: PatternLanguage,
  binary: AstGrepBinary,
  config: string,
  cwd: string,
  limits: RunLimits,
): Promise<LiteralRequirement> {
  const analyze = (pattern: string, strictness: Strictness, field: string) =>
    analyzePattern(binary, pattern, strictness, language.id, config, cwd, limits, field);
  if (matcher.kind === "pattern") return analyze(matcher.pattern, matcher.strictness, "pattern");
  if (q.rule === undefined) return analyze(q.pattern!, q.strictness ?? "smart", "pattern");
  return ruleRequirement(matcher.rule, "rule", analyze);
}

function analyzePattern(
  binary: AstGrepBinary,
  pattern: string,
  strictness: Strictness,
  language: string,
  config: string,
  cwd: string,
  limits: RunLimits,
  field: string,
): Promise<LiteralRequirement> {
  const key = analysisKey(binary, language, strictness, pattern);
  const cached = analysisCache.get(key);
  if (cached) {
    // keep recently used entries at the end of the insertion order
    analysisCache.delete(key);
    analysisCache.set(key, cached);
    return cached.catch((e) => {
      throw relabel(e, field);
    });
  }
  const run = runAstGrep(binary.path, debugPatternArgs(pattern, strictness, language, config), cwd, {
    ...limits,
    deadline: Math.max(limits.deadline, Date.now() + 10_000),
  });
  const p: Promise<LiteralRequirement> = run.then((outcome) => {
    if (outcome.stoppedBy) {
      // cancelled, not analysed: search without narrowing this time and ask again next time
      if (analysisCache.get(key) === p) analysisCache.delete(key);
      return NO_REQUIREMENT;
    }
    if (outcome.code !== 0 && outcome.code !== 1) {
      throw new CortexError("INVALID_INPUT", `${field}: ast-grep rejected it: ${astGrepError(outcome.stderr, pattern)}`, {
        data: { field, astGrep: outcome.stderr.slice(0, 2000) },
      });
    }
    const warned = astGrepWarnings(outcome.stderr);
    if (warned.length > 0) analysisWarnings.set(key, warned);
    return parseDebugPattern(outcome.stderr, pattern, strictness);
  });
  analysisCache.set(key, p);
  p.catch(() => {});
  while (analysisCache.size > ANALYSIS_CACHE_SIZE) {
    const oldest = analysisCache.keys().next().value!;
    analysisCache.delete(oldest);
    analysisWarnings.delete(oldest);
  }
  return p;
}

function analysisKey(binary: AstGrepBinary, language: string, strictness: Strictness, pattern: string): string {
  return [binary.path, binary.version, language, strictness, pattern].join("\0");
}

/** A cached analysis failure names the field of the call that asked, not of the first caller. */
function relabel(e: unknown, field: string): unknown {
  if (e instanceof CortexError && e.code === "INVALID_INPUT" && typeof e.data?.field === "string" && e.data.field !== field) {
    return new CortexError("INVALID_INPUT", field + e.message.slice((e.data.field as string).length), { data: { ...e.data, field } });
  }
  return e;
}

/** Runs the matcher over empty input: with no file to search, a bad rule must still be reported. */
async function checkMatcher(
  binary: AstGrepBinary,
  matcher: Matcher,
  language: PatternLanguage,
  config: string,
  cwd: string,
  limits: RunLimits,
  q: PatternSearch,
): Promise<void> {
  if (matcher.kind === "pattern") return; // the pattern analysis has parsed it already
  const outcome = await runAstGrep(binary.path, validateArgs(matcher, language.id, config), cwd, limits);
  if (!outcome.stoppedBy && outcome.code !== 0 && outcome.code !== 1) throw failure(outcome.stderr, outcome.code, matcher, q);
}

function failure(stderr: string, code: number | null, matcher: Matcher, q: PatternSearch): CortexError {
  const userText = matcher.kind === "pattern" ? matcher.pattern : JSON.stringify(matcher.rule) + (matcher.fix ?? "");
  const message = astGrepError(stderr, userText);
  if (isQueryError(stderr)) {
    const aboutFix = q.rewrite !== undefined && /\b(fix|rewrite|transform)/i.test(message);
    const field = aboutFix ? "rewrite" : q.rule !== undefined ? "rule" : "pattern";
    return new CortexError("INVALID_INPUT", `${field}: ast-grep rejected it: ${message}`, { data: { field, astGrep: stderr.slice(0, 2000) } });
  }
  return new CortexError("IO", `ast-grep failed (exit ${code}): ${message}`, { data: { astGrep: stderr.slice(0, 2000) } });
}

/** Splits file names into runs whose command line stays under the platform's limit. */
export function batches(files: readonly string[], maxBytes: number): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const f of files) {
    const n = Buffer.byteLength(f) + 3;
    if (current.length > 0 && size + n > maxBytes) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(f);
    size += n;
  }
  if (current.length > 0) out.push(current);
  return out;
}
