/**
 * Team memory on disk: `.cortex/memory.json`, a file the team can commit. Every change re-reads the file
 * under a lock and writes it atomically, so two writers (two agents, a CLI and a server) never lose each
 * other's entries, and a reader never sees half a file. A malformed file is refused, never overwritten.
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
    reason: z.string(),
    created_at: z.string(),
    source: z.enum(["user", "git"]).default("user"),
    commit: z.string().optional(),
    author: z.string().optional(),
  })
  .strict();
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

const fileSchema = z.object({ version: z.literal(1), memories: z.array(memoryEntrySchema) }).strict();

export class MemoryFile {
  readonly path: string;
  constructor(root: string) {
    this.path = join(projectDir(root), "memory.json");
  }

  read(): MemoryEntry[] {
    if (!existsSync(this.path)) return [];
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, "utf8"));
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `.cortex/memory.json is not valid JSON (${(e as Error).message}); fix or remove it`);
    }
    const r = fileSchema.safeParse(raw);
    if (!r.success) throw new CortexError("INVALID_INPUT", `.cortex/memory.json: ${formatIssues(r.error.issues)}`);
    return r.data.memories;
  }

  /** Applies `change` to the current entries under the lock and writes the result atomically. */
  async update<T>(change: (entries: MemoryEntry[]) => { entries: MemoryEntry[]; result: T }): Promise<T> {
    const lock = await acquireLock(this.path + ".lock", ".cortex/memory.json", 10_000);
    try {
      const { entries, result } = change(this.read());
      writeFileAtomic(this.path, JSON.stringify({ version: 1, memories: entries }, null, 2) + "\n");
      return result;
    } finally {
      lock.release();
    }
  }
}
