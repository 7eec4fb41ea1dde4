/**
 * The memory engine: remember (de-duplicated), recall with confidence decay and relevance to a query,
 * forget, and import from conventional commits.
 */
import { MemoryFile, type MemoryEntry, type MemoryType } from "./store.ts";
import { confidence, STALE_BELOW } from "./decay.ts";
import { gitMemories, memoryKey } from "./git-extract.ts";
import { CortexError } from "../../core/errors.ts";
import { shortHash } from "../../core/hash.ts";
import { rankText } from "../text-match.ts";
import { log } from "../../core/log.ts";

export { MEMORY_TYPES, type MemoryEntry, type MemoryType } from "./store.ts";

export interface RecalledMemory extends MemoryEntry {
  confidence: number;
  stale: boolean;
}

export class MemoryEngine {
  private readonly file: MemoryFile;
  constructor(root: string) {
    this.file = new MemoryFile(root);
  }

  async remember(m: { type: MemoryType; category: string; memory: string; reason: string }): Promise<{ entry: MemoryEntry; created: boolean }> {
    return this.file.update<{ entry: MemoryEntry; created: boolean }>((entries) => {
      const key = memoryKey(m);
      const existing = entries.find((e) => memoryKey(e) === key && e.category === m.category);
      if (existing) return { entries, result: { entry: existing, created: false } };
      const created_at = new Date().toISOString();
      const entry: MemoryEntry = { id: "m-" + shortHash(`${m.type}:${m.category}:${m.memory}:${created_at}`).slice(0, 10), ...m, created_at, source: "user" };
      return { entries: [...entries, entry], result: { entry, created: true } };
    });
  }

  async forget(id: string): Promise<MemoryEntry> {
    return this.file.update((entries, removedCommits) => {
      const found = entries.find((e) => e.id === id);
      if (!found) throw new CortexError("NOT_FOUND", `no memory with id '${id}' (see: cortex memory list)`);
      // a memory imported from a commit stays removed: the next import from git skips that commit
      const commit = found.source === "git" ? found.commit : undefined;
      return {
        entries: entries.filter((e) => e.id !== id),
        result: found,
        ...(commit && !removedCommits.includes(commit) ? { removedCommits: [...removedCommits, commit] } : {}),
      };
    });
  }

  async recall(o: {
    category?: string;
    type?: MemoryType;
    query?: string;
    limit: number;
    now?: number;
  }): Promise<{ memories: RecalledMemory[]; total: number; skipped?: string[] }> {
    const now = o.now ?? Date.now();
    const read = this.file.readLenient();
    if (read.skipped.length > 0) log.warn(`.cortex/memory.json: ${read.skipped.length} malformed memories skipped: ${read.skipped.join("; ")}`);
    const entries = read.entries.filter((e) => (!o.category || e.category.toLowerCase() === o.category.toLowerCase()) && (!o.type || e.type === o.type));
    const relevance = o.query
      ? await rankText(
          entries.map((e) => ({ id: e.id, fields: { memory: e.memory, category: e.category, reason: e.reason } })),
          o.query,
          { memory: 2, category: 1.5 },
        )
      : undefined;
    const scored = entries
      .filter((e) => !relevance || relevance.has(e.id))
      .map((e) => {
        const c = confidence(e.type, e.created_at, now);
        return { e: { ...e, confidence: Math.round(c * 1000) / 1000, stale: c < STALE_BELOW }, score: c * (relevance?.get(e.id) ?? 1) };
      })
      .sort((a, b) => b.score - a.score || b.e.created_at.localeCompare(a.e.created_at));
    return { memories: scored.slice(0, o.limit).map((x) => x.e), total: scored.length, ...(read.skipped.length > 0 ? { skipped: read.skipped } : {}) };
  }

  /** Adds memories from the last 90 days of conventional commits; returns how many were new. */
  async importFromGit(root: string, days = 90): Promise<number> {
    const found = await gitMemories(root, days);
    if (found.length === 0) return 0;
    return this.file.update((entries, removedCommits) => {
      const have = new Set([...entries.flatMap((e) => [e.commit ?? "", memoryKey(e)]), ...removedCommits]);
      const fresh = found.filter((m) => !have.has(m.commit ?? "") && !have.has(memoryKey(m)));
      return { entries: [...entries, ...fresh], result: fresh.length };
    });
  }
}
