/**
 * search_codebase: codebase-context's search, for any language. The search engine ranks whole files (one
 * result per file, shown by its best chunk); each result is then enriched with what an agent would
 * otherwise ask for next — a one-line summary, its role (`componentType:layer`), who imports it, whether
 * tests cover it, the callers / consumers / tests to look at (three of each), the team patterns it follows
 * or breaks — and the list with a judgement of its own quality. For edit, refactor and migrate the
 * preflight card (preflight.ts) says whether the evidence is enough to change the code.
 */
import type { ChunkFilters, IndexReader } from "../../store/contract.ts";
import type { SearchEngine, SearchHit, EmbeddingsState, Intent } from "../search/index.ts";
import type { PatternsEngine, TeamPatterns } from "../team-patterns/index.ts";
import type { MemoryEngine, RecalledMemory } from "../memory/index.ts";
import { CortexError } from "../../core/errors.ts";
import { FRAMEWORKS, matches } from "../metadata/frameworks.ts";
import { classifyFile, typeLabel, LAYERS, type Layer } from "./classify.ts";
import { Evidence } from "./evidence.ts";
import { editSignals, taskIdentifiers } from "./edit-signals.ts";
import { assessQuality, type SearchQuality } from "./quality.ts";
import { CHANGED_TOGETHER, PAST_CHANGES, preflight, type Preflight, type PreflightInput } from "./preflight.ts";
import { analyzeQuery } from "../search/query.ts";
import { inPaths } from "../symbols/index.ts";
import { definesLine, headerComment } from "./summary.ts";
import { commentLine } from "../../lang/registry.ts";

/** The search engine's intents are codebase-context's: explore, edit, refactor, migrate. */
export type CodebaseIntent = Intent;

export interface CodebaseSearchRequest {
  query: string;
  intent: CodebaseIntent;
  limit: number;
  filters: { language?: string; framework?: string; layer?: Layer; paths?: string[] };
  includeSnippets: boolean;
  signal?: AbortSignal;
}

export interface CodebaseResult {
  file: string;
  startLine: number;
  endLine: number;
  /** The best-matching definition (`Class.method`), when the best chunk is one. */
  symbol?: string;
  chunkType: string;
  summary: string;
  score: number;
  /** `componentType:layer`, e.g. `service:application`. */
  type: string;
  language: string;
  /** Only when the file follows a pattern the team is adopting or abandoning. */
  trend?: "Rising" | "Declining";
  patternWarning?: string;
  relationships: { importedByCount: number; usedByCount: number; hasTests: boolean };
  /** At most three of each, most frequent first. */
  hints?: { callers?: string[]; consumers?: string[]; tests?: string[] };
  snippet?: string;
  stale?: true;
}

export interface CodebaseSearchResponse {
  query: string;
  intent: CodebaseIntent;
  results: CodebaseResult[];
  totalResults: number;
  searchQuality: SearchQuality;
  relatedMemories: Array<Pick<RecalledMemory, "id" | "type" | "category" | "memory" | "confidence" | "stale">>;
  preflight?: Preflight;
  embeddings: EmbeddingsState;
  took_ms: number;
}

const HINTS_PER_CATEGORY = 3;
const MEMORIES = 3;
/**
 * The results an edit's preflight reads its ranking signals from (runner-up, near ties, siblings) at
 * least, whatever `limit` shows: the default five, with which its ready rule was chosen (scripts/eval/preflight.ts). A card
 * from one result had no runner-up to compare and said ready where the default said not. The evidence it
 * counts (callers, tests, files at hand) stays the results shown: a smaller limit can only make it less ready.
 */
const PREFLIGHT_RESULTS = 5;
const SNIPPET_LINES = 40;
/** Team-pattern analysis reads every file: reuse it for a while (the index changes slowly by comparison). */
const PATTERNS_TTL_MS = 30_000;

export class CodebaseSearch {
  private patternsCache: { at: number; value: TeamPatterns } | undefined;
  private readonly facts: IndexReader;

  constructor(
    private readonly store: IndexReader,
    private readonly search: SearchEngine,
    private readonly patterns: PatternsEngine,
    private readonly memory: Pick<MemoryEngine, "recall">,
  ) {
    this.facts = store;
  }

  async run(req: CodebaseSearchRequest): Promise<CodebaseSearchResponse> {
    const started = performance.now();
    const filters = await this.filters(req.filters);
    const empty = filters.files !== undefined && filters.files.length === 0;
    const carded = req.intent !== "explore";
    const response = empty
      ? undefined
      : await this.search.search({
          query: req.query,
          limit: carded ? Math.max(req.limit, PREFLIGHT_RESULTS) : req.limit,
          filters,
          onePerFile: true,
          intent: req.intent,
          ...(req.signal ? { signal: req.signal } : {}),
        });
    const found = response?.results ?? [];
    const hits = found.slice(0, req.limit);
    const evidence = await Evidence.load(this.facts);
    const analysis = await this.teamPatterns();
    const byFile = analysis.by_file ?? {};

    const texts = await this.store.contents([...new Set(hits.map((h) => h.chunk.metadata.file_path))]);
    const results = await Promise.all(hits.map((h) => this.enrich(h, evidence, byFile, req.includeSnippets, texts.get(h.chunk.metadata.file_path))));
    let quality = assessQuality(
      req.query,
      hits.map((h) => ({ text: h.chunk.text, file: h.chunk.metadata.file_path })),
    );
    if (empty) quality = { ...quality, hint: `No indexed file matches the filters (${describeFilters(req.filters)}).` };
    else if (hits.length === 0 && describeFilters(req.filters) !== "")
      quality = {
        ...quality,
        hint: `Nothing matched among the files the filters leave (${describeFilters(req.filters)}): ask again without them, or with the code's own words.`,
      };
    const recalled = await this.memory.recall({ query: req.query, limit: MEMORIES });
    const memories = recalled.memories;

    const out: CodebaseSearchResponse = {
      query: req.query,
      intent: req.intent,
      results,
      totalResults: results.length,
      searchQuality: quality,
      relatedMemories: memories.map((m) => ({ id: m.id, type: m.type, category: m.category, memory: m.memory, confidence: m.confidence, stale: m.stale })),
      embeddings: response?.embeddings ?? (await this.search.embeddingsState()),
      took_ms: 0,
    };
    if (carded) out.preflight = await this.preflight(req.query, hits, results, quality, analysis, memories, evidence, found, req.filters, filters);
    out.took_ms = Math.round(performance.now() - started);
    return out;
  }

  /** The filters as chunk filters; framework and layer become the list of files that qualify. */
  private async filters(f: CodebaseSearchRequest["filters"]): Promise<ChunkFilters> {
    const out: ChunkFilters = {};
    if (f.language) out.languages = [f.language.toLowerCase()];
    if (f.paths?.length) out.pathPrefixes = f.paths;
    let files: Set<string> | undefined;
    if (f.framework) files = await this.filesUsingFramework(f.framework);
    if (f.layer) {
      const all = await this.facts.allFiles();
      const inLayer = new Set(all.filter((r) => classifyFile(r.path, r.isTest).layer === f.layer).map((r) => r.path));
      files = files ? new Set([...files].filter((p) => inLayer.has(p))) : inLayer;
    }
    if (files) out.files = [...files];
    return out;
  }

  /** Files importing a framework, named as get_codebase_metadata names it (React, Django…) or by module prefix. */
  private async filesUsingFramework(name: string): Promise<Set<string>> {
    const rows = (await this.facts.importedModules()).map((r) => ({ p: r.file, m: r.module }));
    const rule = FRAMEWORKS.find((r) => r.name.toLowerCase() === name.toLowerCase());
    const patterns = rule ? rule.imports : [name, `${name}/*`, `${name}.*`];
    const hit = (m: string) => patterns.some((p) => matches(p, m) || matches(p.toLowerCase(), m.toLowerCase()));
    const files = new Set(rows.filter((r) => hit(r.m)).map((r) => r.p));
    if (files.size === 0) {
      const used = new Set(rows.map((r) => r.m));
      const known = FRAMEWORKS.filter((r) => r.imports.some((p) => [...used].some((m) => matches(p, m)))).map((r) => r.name);
      throw new CortexError(
        "INVALID_INPUT",
        `filters.framework: no indexed file imports '${name}'${known.length ? ` (frameworks used here: ${known.join(", ")})` : " (no known framework is imported in this project)"}`,
      );
    }
    return files;
  }

  private async teamPatterns(): Promise<TeamPatterns> {
    if (this.patternsCache && performance.now() - this.patternsCache.at < PATTERNS_TTL_MS) return this.patternsCache.value;
    // more golden files than the patterns tool shows: the card's example is the one nearest the file to change
    const value = await this.patterns.analyze({ files: "all", goldenLimit: 200 });
    this.patternsCache = { at: performance.now(), value };
    return value;
  }

  private async enrich(
    h: SearchHit,
    evidence: Evidence,
    byFile: NonNullable<TeamPatterns["by_file"]>,
    snippets: boolean,
    text: string | undefined,
  ): Promise<CodebaseResult> {
    const m = h.chunk.metadata;
    const file = m.file_path;
    const isTest = evidence.isTest(file);
    const cls = classifyFile(file, isTest);
    const [importers, users, summary] = await Promise.all([
      evidence.importers(file),
      evidence.symbolIds({ file }).then((ids) => evidence.users(ids, file)),
      this.summary(file, h, text),
    ]);
    const tests = evidence.tests(file, importers, users);
    const symbol = typeof m.symbol_path === "string" && h.chunk.chunk_type === "definitions" ? m.symbol_path : undefined;
    const r: CodebaseResult = {
      file,
      startLine: m.start_line,
      endLine: m.end_line,
      ...(symbol ? { symbol } : {}),
      chunkType: h.chunk.chunk_type,
      summary,
      score: Math.round(h.combined_score * 10_000) / 10_000,
      type: typeLabel(cls),
      language: m.language,
      relationships: { importedByCount: importers.length, usedByCount: users.length, hasTests: tests.length > 0 },
    };
    const pats = byFile[file] ?? [];
    const declining = pats.filter((p) => p.trend === "declining").sort((a, b) => b.share - a.share)[0];
    const rising = pats.find((p) => p.trend === "rising");
    if (declining) {
      r.trend = "Declining";
      r.patternWarning = `uses ${declining.pattern}, declining in ${declining.group} (${Math.round(declining.share * 100)}% of files)`;
    } else if (rising) r.trend = "Rising";
    const top = (list: Array<{ file: string }>) => list.slice(0, HINTS_PER_CATEGORY).map((c) => c.file);
    const hints: NonNullable<CodebaseResult["hints"]> = {};
    const callers = top(users.filter((u) => !evidence.isTest(u.file)));
    const consumers = top(importers.filter((u) => !evidence.isTest(u.file)));
    if (callers.length) hints.callers = callers;
    if (consumers.length) hints.consumers = consumers;
    if (tests.length) hints.tests = top(tests);
    if (Object.keys(hints).length) r.hints = hints;
    if (snippets) r.snippet = snippet(h);
    if (h.stale) r.stale = true;
    return r;
  }

  private async summary(file: string, h: SearchHit, text: string | undefined): Promise<string> {
    const header = text ? headerComment(text) : undefined;
    if (header) return header;
    const names = await this.facts.topLevelNames(file, 12);
    const defines = definesLine([...new Set(names)]);
    const kind = typeof h.chunk.metadata.kind === "string" ? h.chunk.metadata.kind : h.chunk.chunk_type;
    return defines ?? `${h.chunk.metadata.language} ${kind}: ${h.chunk.title}`;
  }

  /** Non-test files defining each name. */
  private async definitionFiles(names: string[], evidence: Evidence): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (names.length === 0) return out;
    for (const row of await this.store.symbolsNamed(names)) {
      if (evidence.isTest(row.file)) continue;
      const list = out.get(row.name) ?? [];
      if (!list.includes(row.file)) list.push(row.file);
      out.set(row.name, list);
    }
    return out;
  }

  /**
   * The top result's commits and the non-test files changed with it in CHANGED_TOGETHER of them (twice or
   * more), from the index's history; undefined without one (or when the file never changed in it).
   */
  private async history(file: string, evidence: Evidence): Promise<PreflightInput["history"]> {
    if (!this.store.coChanges) return undefined;
    const h = (await this.store.coChanges([file])).get(file);
    if (!h) return undefined;
    const strong = h.partners.filter((p) => p.count >= 2 && p.count >= CHANGED_TOGETHER * h.commits && !evidence.isTest(p.file));
    const indexed = await this.facts.filesInfo(strong.map((p) => p.file));
    return { file, commits: h.commits, partners: strong.filter((p) => indexed.has(p.file)) };
  }

  /**
   * The PAST_CHANGES commits whose subjects best match the task, from the index's history, each with the
   * code files it changed that the index holds now (tests left out: a task's evidence is its code); undefined
   * without a history.
   */
  private async pastChanges(query: string, evidence: Evidence): Promise<PreflightInput["pastChanges"]> {
    if (!this.store.matchingCommits) return undefined;
    const commits = await this.store.matchingCommits(analyzeQuery(query).weights, PAST_CHANGES);
    if (commits.length === 0) return undefined;
    const indexed = await this.facts.filesInfo([...new Set(commits.flatMap((c) => c.files))]);
    return commits.map((c) => ({ subject: c.subject, score: c.score, files: c.files.filter((f) => indexed.has(f) && !evidence.isTest(f)) }));
  }

  private async preflight(
    query: string,
    hits: SearchHit[],
    results: CodebaseResult[],
    quality: SearchQuality,
    analysis: TeamPatterns,
    memories: RecalledMemory[],
    evidence: Evidence,
    ranking: SearchHit[],
    asked: CodebaseSearchRequest["filters"],
    filters: ChunkFilters,
  ): Promise<Preflight> {
    const top = hits[0];
    let target: PreflightInput["target"];
    if (top) {
      const m = top.chunk.metadata;
      const isDefinition = top.chunk.chunk_type === "definitions" && typeof m.name === "string";
      const ids = isDefinition
        ? await evidence.symbolIds({ file: m.file_path, name: m.name as string, startLine: m.start_line, endLine: m.end_line })
        : await evidence.symbolIds({ file: m.file_path });
      const users = (await evidence.users(ids, m.file_path)).map((u) => u.file);
      // a definition is reached through its callers; a whole file (overview, docs) also through its importers
      const importing = isDefinition ? [] : (await evidence.importers(m.file_path)).map((u) => u.file);
      // tests that use the target are shown apart: the code to change is read in code callers
      const callers = users.filter((f) => !evidence.isTest(f));
      const importers = importing.filter((f) => !evidence.isTest(f));
      const testCallers = [...new Set([...users, ...importing].filter((f) => evidence.isTest(f)))];
      // no resolved caller may mean none, or calls resolution could not bind (an interface, a dynamic receiver)
      const unresolved = isDefinition && users.length === 0 ? await evidence.unresolvedCallers(m.name as string, m.file_path) : [];
      // the same name defined in other code files: platform variants or implementations a change must follow
      const twins = isDefinition
        ? ((await this.definitionFiles([m.name as string], evidence)).get(m.name as string) ?? []).filter((f) => f !== m.file_path)
        : [];
      target = {
        label: isDefinition ? String(m.symbol_path ?? m.name) : m.file_path,
        name: isDefinition ? String(m.name) : undefined,
        callers,
        importers,
        testCallers,
        unresolved,
        twins,
      };
    }
    const resultFiles = results.map((r) => r.file);
    const inCycles = await this.facts.inImportCycles(resultFiles);
    // the languages of the golden files, read at once for the preflight's synchronous look-up
    const golden = await this.facts.filesInfo(analysis.golden_files.map((g) => g.file));
    // the definitions of the names the task mentions, read at once for the signals' synchronous look-up
    const defined = await this.definitionFiles(taskIdentifiers(query), evidence);
    const signals = editSignals({
      query,
      // a changelog or a guide sharing the task's words is no rival file to change, nor is a test of the
      // top file, which a change to it runs: the runner-up and near ties are other code
      results: ranking
        .filter(
          (h, i) =>
            i === 0 || (h.chunk.chunk_type !== "documentation" && !evidence.isOwnTest(h.chunk.metadata.file_path, ranking[0]!.chunk.metadata.file_path)),
        )
        .map((h) => ({
          file: h.chunk.metadata.file_path,
          score: h.combined_score,
          text: h.chunk.text,
          isTest: evidence.isTest(h.chunk.metadata.file_path),
        })),
      definitions: () => defined,
    });
    const history = top ? await this.history(top.chunk.metadata.file_path, evidence) : undefined;
    const pastChanges = await this.pastChanges(query, evidence);
    // a name the task writes, not defined in the top file, whose definitions all lie outside the filters:
    // the filter hid the file to change (setCookie under paths: src/middleware)
    let outsideFilter: PreflightInput["outsideFilter"];
    const described = describeFilters(asked);
    if (described !== "" && signals.definedInTop.length === 0) {
      const passes = (f: string) => inPaths(f, filters.pathPrefixes) && (filters.files === undefined || filters.files.includes(f));
      for (const [name, files] of defined) {
        const code = files.filter((f) => !evidence.isTest(f)).slice(0, 3);
        if (code.length > 0 && !code.some(passes)) {
          outsideFilter = { name, files: code, filters: described };
          break;
        }
      }
    }
    return preflight({
      ...(outsideFilter ? { outsideFilter } : {}),
      ...(history ? { history } : {}),
      ...(pastChanges ? { pastChanges } : {}),
      query,
      testFiles: results.filter((r) => r.type === "test:test").map((r) => r.file),
      signals,
      quality,
      resultFiles,
      staleFiles: results.filter((r) => r.stale).map((r) => r.file),
      languages: [...new Set(results.map((r) => r.language))],
      ...(target ? { target } : {}),
      patterns: analysis,
      filePatterns: analysis.by_file ?? {},
      memories,
      inCycles,
      goldenLanguage: (f) => golden.get(f)?.language,
      isTestFile: (f) => evidence.isTest(f),
    });
  }
}

function snippet(h: SearchHit): string {
  const lines = h.chunk.text.split("\n");
  // the first line of a chunk's text is its header (`function login (src/auth.ts:10-30)`): a scope line instead
  const body = lines.slice(1, 1 + SNIPPET_LINES);
  const scope = typeof h.chunk.metadata.symbol_path === "string" ? h.chunk.metadata.symbol_path : h.chunk.metadata.file_path;
  const note = (text: string) => commentLine(h.chunk.metadata.language, text);
  const more = lines.length - 1 > SNIPPET_LINES ? [note(`… ${lines.length - 1 - SNIPPET_LINES} more lines`)] : [];
  return [note(scope), ...body, ...more].join("\n");
}

function describeFilters(f: CodebaseSearchRequest["filters"]): string {
  return Object.entries(f)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`)
    .join("; ");
}

export { LAYERS };
