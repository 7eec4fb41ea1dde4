/**
 * Memories from history: conventional commits of the last 90 days (`fix(auth): …`, `feat!: …`,
 * `revert: …`, `BREAKING CHANGE:`) become gotchas, decisions and failures, with the scope as category.
 * Runs git without a shell; a project that is not a git repository (or no git installed) yields none.
 */
import type { MemoryEntry, MemoryType } from "./store.ts";
import { shortHash } from "../../core/hash.ts";

const CONVENTIONAL = /^(?<kind>feat|fix|revert|refactor|perf|build|chore|docs|style|test|ci)(?:\((?<scope>[^)]+)\))?(?<bang>!)?:\s*(?<subject>.+)$/i;

/** The memory type a conventional commit carries, or undefined for commits that teach nothing lasting. */
function typeOf(kind: string, breaking: boolean): MemoryType | undefined {
  if (breaking) return "decision";
  switch (kind.toLowerCase()) {
    case "fix":
      return "gotcha";
    case "revert":
      return "failure";
    case "feat":
    case "refactor":
    case "perf":
      return "decision";
    default:
      return undefined;
  }
}

export function memoriesFromLog(log: string): MemoryEntry[] {
  const out: MemoryEntry[] = [];
  for (const record of log.split("\x1e")) {
    const [hash, author, date, subject, body] = record.replace(/^\n/, "").split("\x1f");
    if (!hash || !subject || !date) continue;
    const m = CONVENTIONAL.exec(subject.trim());
    if (!m?.groups) continue;
    const breaking = m.groups.bang === "!" || /^BREAKING[ -]CHANGE:/m.test(body ?? "");
    const type = typeOf(m.groups.kind!, breaking);
    if (!type) continue;
    const breakingNote = /^BREAKING[ -]CHANGE:\s*(.+)$/m.exec(body ?? "")?.[1];
    out.push({
      id: "git-" + hash.slice(0, 10),
      type,
      category: (m.groups.scope ?? m.groups.kind!).toLowerCase(),
      memory: m.groups.subject!.trim(),
      reason: breakingNote ? `breaking change: ${breakingNote}` : `${m.groups.kind!.toLowerCase()} commit ${hash.slice(0, 10)}`,
      created_at: new Date(date).toISOString(),
      source: "git",
      commit: hash,
      ...(author ? { author } : {}),
    });
  }
  return out;
}

export async function gitMemories(root: string, days = 90): Promise<MemoryEntry[]> {
  try {
    const proc = Bun.spawn(["git", "-C", root, "log", `--since=${days}.days`, "--no-merges", "--pretty=format:%H%x1f%an%x1f%aI%x1f%s%x1f%b%x1e"], {
      stdout: "pipe",
      stderr: "ignore",
    });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    return code === 0 ? memoriesFromLog(out) : [];
  } catch {
    return [];
  }
}

/** A key that makes two memories the same one: type plus the text without case and punctuation. */
export function memoryKey(m: Pick<MemoryEntry, "type" | "memory">): string {
  return (
    m.type +
    ":" +
    shortHash(
      m.memory
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, " ")
        .trim(),
    )
  );
}
