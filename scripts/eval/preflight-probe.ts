/**
 * What else the index knew when a preflight card was made, recorded beside the card so that candidate
 * signals for the ready rule can be studied from a saved run (scripts/eval/preflight-tune.ts) without
 * indexing again: how many files hold each of the task's words, the project's history around the top
 * results (files changed with each, how big their commits were) and the past commits whose subjects read
 * like the task (which files they changed), the top files' importers and users, the files defining the
 * top result's name; the evaluation adds the ranking down to 15 files and the top files' team patterns.
 * Only the evaluation records this; the card reads what the rule needs on its own.
 */
import type { IndexReader } from "../../src/store/contract.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import { taskIdentifiers, taskTerms } from "../../src/engines/codebase-search/edit-signals.ts";

export interface Probe {
  /** Indexed files in the project. */
  files: number;
  /** Each significant task word with the number of files whose words hold it (path, names, comments, code), capped at 5000. */
  terms: Array<{ term: string; files: number }>;
  /** The top three results' history: how many commits changed each, and its 20 most frequent partners. */
  history: Array<{ file: string; commits: number; partners: Array<{ file: string; count: number }> }>;
  /**
   * The thirty past commits whose subjects best match the task: their match, the files each changed (first
   * 40, and how many), and those of them the index holds now as code that is not a test.
   */
  similar: Array<{ score: number; coverage: number; subject: string; files: string[]; size: number; code: string[] }>;
  /** Definitions in the top file, and its length in lines. */
  topSymbols: number;
  topLines: number;
  /** The top three results' importers and users (files, most references first, at most 20 each). */
  graph?: Array<{ file: string; importers: string[]; users: string[] }>;
  /** The search's ranking further down (search_codebase with limit 15): files and scores, best first. */
  wider?: Array<{ file: string; score: number; symbol?: string }>;
  /** Files defining the top result's definition name (the last part of its symbol), tests included. */
  definers?: string[];
  /**
   * Each name the task writes as code (edit-signals.ts taskIdentifiers): the files defining it (tests
   * included, at most 20), how many definitions, and their kinds, for studying which names pick out one
   * definition.
   */
  named?: Array<{ name: string; files: string[]; defs: number; kinds: string[] }>;
  /** The project's pattern conflicts (groups), and the patterns each of the top three files shows ("group: pattern"). */
  patterns?: { conflicts: string[]; byFile: Record<string, string[]> };
}

const WORDS = { path: 1, defs: 1, doc: 1, code: 1 };

export async function probe(reader: IndexReader, query: string, results: ReadonlyArray<{ file: string; symbol?: string }>): Promise<Probe> {
  const terms: Probe["terms"] = [];
  for (const term of taskTerms(query)) {
    const hits = await reader.weightedFileScores(new Map([[term, 1]]), WORDS, {}, 5000);
    terms.push({ term, files: hits.size });
  }
  const tops = results.slice(0, 3).map((r) => r.file);
  const co = reader.coChanges ? await reader.coChanges(tops) : new Map();
  const history = tops.flatMap((file) => {
    const h = co.get(file);
    return h ? [{ file, commits: h.commits, partners: h.partners }] : [];
  });
  const matches = reader.matchingCommits ? await reader.matchingCommits(analyzeQuery(query).weights, 30) : [];
  const known = await reader.filesInfo([...new Set(matches.flatMap((m) => m.files))]);
  const similar = matches.map((m) => ({
    score: Math.round(m.score * 1000) / 1000,
    coverage: Math.round(m.coverage * 1000) / 1000,
    subject: m.subject,
    files: m.files.slice(0, 40),
    size: m.files.length,
    code: m.files.filter((f) => known.has(f) && !known.get(f)!.isTest),
  }));
  const graph = await Promise.all(
    tops.map(async (file) => ({
      file,
      importers: (await reader.importers(file)).slice(0, 20).map((c) => c.file),
      users: (await reader.users(await reader.symbolIdsOf(file), file)).slice(0, 20).map((c) => c.file),
    })),
  );
  const sym = results[0]?.symbol;
  const name = sym ? sym.split(".").pop()! : undefined;
  const definers = name ? [...new Set((await reader.symbolsNamed([name])).map((s) => s.file))] : [];
  const top = results[0]?.file;
  const topSymbols = top ? (await reader.symbolsOfFiles([top])).length : 0;
  const text = top ? (await reader.contents([top])).get(top) : undefined;
  const ids = taskIdentifiers(query);
  const rows = ids.length > 0 ? await reader.symbolsNamed(ids) : [];
  const named = ids.map((n) => {
    const own = rows.filter((r) => r.name === n);
    return { name: n, files: [...new Set(own.map((r) => r.file))].slice(0, 20), defs: own.length, kinds: [...new Set(own.map((r) => r.kind))] };
  });
  return {
    files: await reader.fileCount(),
    terms,
    history,
    similar,
    topSymbols,
    topLines: text ? text.split("\n").length : 0,
    graph,
    definers,
    named,
  };
}
