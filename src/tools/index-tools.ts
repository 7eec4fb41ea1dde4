/**
 * get_indexing_status and refresh_index (codebase-context): the state of the index — progress while it
 * builds, the last run, what it holds, embeddings coverage, what changed on disk since — and a way to
 * rebuild or refresh it (with progress notifications) that also imports memories from recent commits.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import { indexStatus, type IndexStatus } from "../indexer/status.ts";
import type { IndexReport } from "../indexer/pipeline.ts";
import { overallProgress } from "../indexer/progress.ts";
import type { RepoInfo } from "../store/postgres/repos.ts";
import { localModelPresence, type ModelPresence } from "../embed/model-presence.ts";

/** Why semantic ranking is off while the local model is missing, and what fetches it. */
function modelMissing(m: ModelPresence): string {
  return process.env.CORTEX_OFFLINE === "1"
    ? `the model ${m.model} is not in ${m.folder} and CORTEX_OFFLINE=1 forbids the download: search is keyword-ranked until it is there`
    : `the model ${m.model} is not downloaded yet: search is keyword-ranked until 'cortex doctor --fetch' or 'cortex index --embed' fetches it`;
}

type LocalStatus = IndexStatus & {
  progress?: { phase?: "text" | "parse"; done: number; total: number };
  embeddings?: string;
  /** The local embedding model's files: whether they are there (no load). */
  embedding_model?: ModelPresence;
};
/** Over a shared store: the repositories the call reads, each with its commit, generation and freshness. */
interface SharedStatus {
  state: "ready";
  store: string;
  repos: RepoInfo[];
}

export const statusTool = defineTool({
  name: "get_indexing_status",
  title: "Index state, progress and freshness",
  description:
    "Report the state of the project's index: ready (updating: true while a run refreshes it; answers come from the index meanwhile), " +
    "missing (with damaged: why, when a database is there but cannot be read; the next run builds it again), or indexing (the first build, with progress), when it was last built " +
    "and on which branch and commit, how many files it holds per language, embeddings coverage for semantic search (and whether the local model's files are there), " +
    "and how many files changed on disk since (modified, added, deleted). Use it when results look stale or empty. " +
    "On a shared store it lists the repositories instead: name, commit, generation, files, when each was published and which embedding models its vectors cover.",
  input: z.object({}).strict(),
  annotations: READ_ONLY,
  profiles: ["codebase-context"],
  sharedStore: "reads",
  needsIndex: false,
  cli: { command: ["status"], summary: "state of the index and how much changed on disk since it was built" },
  example: {},
  async handler(_args, ctx): Promise<LocalStatus | SharedStatus> {
    const s = ctx.session;
    if (s.sharedStore) return { state: "ready", store: s.sharedStore.url, repos: await s.sharedStore.repos() };
    const store = s.reader();
    const status: LocalStatus = await indexStatus(s.root, s.location, store, s.config, s.isIndexing, s.indexRunActive);
    if (!store && s.damagedIndex) status.damaged = s.damagedIndex;
    if (s.progress) status.progress = s.progress;
    if (store) {
      status.embeddings = await s.embeddingsState();
      const model = localModelPresence(s.config.embeddings, s.root);
      if (model) status.embedding_model = model;
    }
    return status;
  },
  render(st) {
    if ("repos" in st)
      return [
        `${st.store}: ${st.repos.length} repositories`,
        ...st.repos.map(
          (r) =>
            `  ${r.name}: generation ${r.generation}, ${r.files} files${r.commit ? ` @ ${r.commit.slice(0, 10)}` : ""}, published ${r.indexedAt ?? "never"}${r.vectors.length ? `, vectors of ${r.vectors.join(", ")}` : ""}`,
        ),
      ].join("\n");
    if (st.state !== "ready")
      return `${st.root}: ${
        st.state === "indexing"
          ? `indexing…${st.progress ? ` ${progressText(st.progress)}` : ""}`
          : st.damaged
            ? `no usable index: ${st.damaged} (the next 'cortex index' or query builds it again)`
            : "no index yet (run 'cortex index')"
      }`;
    const lines = [`${st.root}: index ready${st.updating ? `, updating${st.progress ? ` (${progressText(st.progress)})` : ""}` : ""}`];
    lines.push(
      `  files: ${st.files}  (${Object.entries(st.languages ?? {})
        .slice(0, 8)
        .map(([l, n]) => `${l} ${n}`)
        .join(", ")})`,
    );
    if (st.last_run) lines.push(`  last run: ${st.last_run}${st.branch ? ` on ${st.branch}` : ""}${st.commit ? ` @ ${st.commit.slice(0, 10)}` : ""}`);
    if (st.database) lines.push(`  database: ${st.database} (${((st.database_bytes ?? 0) / (1 << 20)).toFixed(1)} MiB)`);
    const parse = st.tiers?.parse;
    if (parse && parse.state !== "complete")
      lines.push(
        `  parse tier: ${parse.parsed_files} of ${parse.total_files} files parsed${parse.finishing ? ", keyword index and references still to build" : ""} (${parse.state === "building" ? "being built" : "interrupted: run 'cortex index' to finish it"}); exact and regex search cover every file`,
      );
    if (st.embeddings)
      lines.push(`  embeddings: ${st.embeddings}${st.embedding_model && !st.embedding_model.present ? ` (${modelMissing(st.embedding_model)})` : ""}`);
    const c = st.changed_since_index;
    if (c)
      lines.push(
        `  changed on disk since: ${c.modified} modified, ${c.added} added, ${c.deleted} deleted${c.examples.length ? ` (e.g. ${c.examples.join(", ")})` : ""}`,
      );
    const big = st.too_large;
    if (big)
      lines.push(
        `  not indexed for their size: ${big.files} file${big.files === 1 ? "" : "s"} over ${big.limit_bytes} bytes (e.g. ${big.examples.join(", ")}; raise index.max_file_size in .cortex/config.yml to include them)`,
      );
    return lines.join("\n");
  },
});

export const refreshTool = defineTool({
  name: "refresh_index",
  title: "Rebuild or refresh the index",
  description:
    "Re-index the project now: a full rebuild (written aside and swapped in) or, with incremental: true, only the " +
    "files that changed. Also imports memories from conventional commits of the last 90 days. The MCP server keeps " +
    "the index current by itself; call this after large changes made outside its view, or to recover.",
  input: z
    .object({
      incremental: z.boolean().default(false).describe("Only re-parse files that changed (default: full rebuild)"),
      reason: z.string().trim().max(500).optional().describe("Why the refresh is needed (recorded in the result)"),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  profiles: ["codebase-context"],
  sharedStore: { unavailable: "refresh_index rebuilds this machine's index; the shared store is written by indexers (cortex index --repo <name> <path>)" },
  needsIndex: false,
  cli: { command: ["reindex"], summary: "rebuild the index (--incremental for changed files only) and import commit memories" },
  example: { incremental: true, reason: "pulled new commits" },
  async handler(args, ctx): Promise<IndexReport & { reason?: string; memories_imported: number }> {
    const s = ctx.session;
    await s.idle();
    let sent = -1;
    const report = await s.index({
      full: !args.incremental,
      onProgress: (p) => {
        // one growing number for the whole run (each tier counts from 0), the tier and its files in words
        const o = overallProgress(p);
        if (o.progress > sent) ctx.progress?.((sent = o.progress), o.total, o.message);
      },
    });
    const memories_imported = await s.memory().importFromGit(s.root);
    return { ...report, ...(args.reason ? { reason: args.reason } : {}), memories_imported };
  },
  render: (r) =>
    `re-indexed (${r.mode}): ${r.files} files, ${r.parsed} parsed, ${r.deleted} removed in ${(r.tookMs / 1000).toFixed(2)} s; ${r.memories_imported} memories imported from commits`,
});

/** "text tier 1200/7849 files", "parse tier 64/7849 files" (a progress of an older shape: the counts alone). */
function progressText(p: { phase?: string; done: number; total: number }): string {
  return `${p.phase ? `${p.phase} tier ` : ""}${p.done}/${p.total} files`;
}
