/**
 * Team memory on disk: `.cortex/memory.json`, a file the team can commit. Every change re-reads the file
 * under a lock and writes it atomically, so two writers (two agents, a CLI and a server) never lose each
 * other's entries, and a reader never sees half a file. A malformed file is refused, never overwritten;
 * a reader that only recalls (search_codebase, get_memory) skips a malformed entry and says which.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { acquireLock } from "../../core/lock.ts";
import { writeFileAtomic } from "../../core/fs-atomic.ts";
import { CortexError } from "../../core/errors.ts";
import { formatIssues } from "../../core/zod-issues.ts";
import { projectDir } from "../../core/paths.ts";

export const MEMORY_TYPES = ["convention", "decision", "gotcha", "failure"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const memoryEntrySchema = z
  .object({
    id: z.string().min(1),
    type: z.enum(MEMORY_TYPES),
    category: z.string().min(1),
    memory: z.string().min(1),
    reason: z.string().default(""),
    created_at: z.string().refine((v) => !Number.isNaN(Date.parse(v)), "expected a date and time, such as 2026-11-29T10:00:00Z"),
    source: z.enum(["user", "git"]).default("user"),
    commit: z.string().optional(),
    author: z.string().optional(),
  })
  .strict();
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

const fileSchema = z
  .object({
    version: z.literal(1),
    memories: z.array(memoryEntrySchema),
    /** Commits whose imported memory was removed: importing from git does not bring it back. */
    removed_commits: z.array(z.string()).optional(),
  })
  .strict();

/** The file as read: its entries, and the commits whose memories were removed. */
export interface MemoryFileContents {
  entries: MemoryEntry[];
  removedCommits: string[];
}

export class MemoryFile {
  readonly path: string;
  constructor(root: string) {
    this.path = join(projectDir(root), "memory.json");
  }

  /** The whole file, strictly: any malformed entry refuses it (a write must not drop what it cannot read). */
  contents(): MemoryFileContents {
    const raw = this.raw();
    if (raw === undefined) return { entries: [], removedCommits: [] };
    const r = fileSchema.safeParse(raw);
    if (!r.success) throw new CortexError("INVALID_INPUT", `.cortex/memory.json: ${formatIssues(r.error.issues)}`);
    return { entries: r.data.memories, removedCommits: r.data.removed_commits ?? [] };
  }

  /**
   * The entries that are well formed, and what is wrong with the others (`memories[3].created_at: …`): one
   * hand-edited entry must not stop every search that recalls memories. Still an error when the file
   * itself is not JSON or not a memory file.
   */
  readLenient(): { entries: MemoryEntry[]; skipped: string[] } {
    const raw = this.raw();
    if (raw === undefined) return { entries: [], skipped: [] };
    const whole = fileSchema.safeParse(raw);
    if (whole.success) return { entries: whole.data.memories, skipped: [] };
    const list = (raw as { memories?: unknown })?.memories;
    if (!Array.isArray(list)) throw new CortexError("INVALID_INPUT", `.cortex/memory.json: ${formatIssues(whole.error.issues)}`);
    const entries: MemoryEntry[] = [];
    const skipped: string[] = [];
    list.forEach((item, i) => {
      const r = memoryEntrySchema.safeParse(item);
      if (r.success) entries.push(r.data);
      else skipped.push(formatIssues(r.error.issues.map((issue) => ({ ...issue, path: ["memories", i, ...issue.path] }))));
    });
    return { entries, skipped };
  }

  private raw(): unknown {
    if (!existsSync(this.path)) return undefined;
    try {
      return JSON.parse(readFileSync(this.path, "utf8"));
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `.cortex/memory.json is not valid JSON (${(e as Error).message}); fix or remove it`);
    }
  }

  /** Applies `change` to the current entries under the lock and writes the result atomically. */
  async update<T>(change: (entries: MemoryEntry[], removedCommits: string[]) => { entries: MemoryEntry[]; result: T; removedCommits?: string[] }): Promise<T> {
    const lock = await acquireLock(this.path + ".lock", ".cortex/memory.json", 10_000);
    try {
      const before = this.contents();
      const { entries, result, removedCommits = before.removedCommits } = change(before.entries, before.removedCommits);
      const file = { version: 1, memories: entries, ...(removedCommits.length > 0 ? { removed_commits: removedCommits } : {}) };
      writeFileAtomic(this.path, JSON.stringify(file, null, 2) + "\n");
      return result;
    } finally {
      lock.release();
    }
  }
}
