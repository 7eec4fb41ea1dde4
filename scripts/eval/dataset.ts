/**
 * The SWE-bench localization rows (one JSON object per line, see ../shared/bench/README.md) and where
 * each repository's git history lives on this machine. Rows are validated field by field, so a broken
 * data file fails with the line and field at fault instead of skewing the metrics.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { CortexError } from "../../src/core/errors.ts";
import { formatIssues } from "../../src/core/zod-issues.ts";

/** A string matching `re`; refine (not regex) so the message says the rule in words. */
const matching = (re: RegExp, rule: string) => z.string().refine((s) => re.test(s), rule);

const rowSchema = z.object({
  instance_id: z.string().min(1),
  repo: matching(/^[^/\s]+\/[^/\s]+$/, "must be owner/name"),
  base_commit: matching(/^[0-9a-f]{7,40}$/, "must be a commit id"),
  problem_statement: z.string(),
  gold_files: z.array(z.string().min(1)).min(1),
  fetch_source: matching(/^github:[^/\s]+\/[^/\s]+$/, "must be github:<owner>/<name>"),
  new_files: z.array(z.string()).optional(),
});

export type Instance = z.infer<typeof rowSchema>;

export interface InstanceFilter {
  /** Keep only these repositories (owner/name). */
  repos?: string[];
  /** Keep the first n rows (after the repository filter), in file order. */
  limit?: number;
}

export function loadInstances(file: string, filter: InstanceFilter = {}): Instance[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CortexError("INVALID_INPUT", `data: cannot read ${file}: ${(e as Error).message}`);
  }
  const rows: Instance[] = [];
  const seen = new Set<string>();
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `data: ${file}:${i + 1}: not valid JSON (${(e as Error).message})`);
    }
    const parsed = rowSchema.safeParse(raw);
    if (!parsed.success) throw new CortexError("INVALID_INPUT", `data: ${file}:${i + 1}: ${formatIssues(parsed.error.issues)}`);
    if (seen.has(parsed.data.instance_id)) throw new CortexError("INVALID_INPUT", `data: ${file}:${i + 1}: instance_id '${parsed.data.instance_id}' appears twice`);
    seen.add(parsed.data.instance_id);
    rows.push(parsed.data);
  });
  if (filter.repos && filter.repos.length > 0) {
    const unknown = filter.repos.filter((r) => !rows.some((row) => row.repo === r));
    if (unknown.length > 0) throw new CortexError("INVALID_INPUT", `repo: no instance of ${unknown.join(", ")} in ${file}`);
  }
  const kept = filter.repos && filter.repos.length > 0 ? rows.filter((r) => filter.repos!.includes(r.repo)) : rows;
  return filter.limit === undefined ? kept : kept.slice(0, filter.limit);
}

/**
 * The git directory of an instance's repository under `mirrors`: the `fetch` tool puts a snapshot of
 * `github:<owner>/<name>` in `<mirrors>/<owner>+<name>/repo` (a bare repository); a plain clone at
 * `<mirrors>/<owner>+<name>` works as well.
 */
export function gitDirFor(instance: Instance, mirrors: string): string {
  const source = instance.fetch_source.slice("github:".length);
  const base = join(mirrors, source.replace("/", "+"));
  for (const candidate of [join(base, "repo"), join(base, "repo", ".git"), base, join(base, ".git")]) {
    if (existsSync(join(candidate, "HEAD")) && existsSync(join(candidate, "objects"))) return candidate;
  }
  throw new CortexError("NOT_FOUND", `no git repository for ${instance.repo} at ${base}: fetch ${instance.fetch_source} first`);
}
