/**
 * get_team_patterns: how the team does things, measured. For every group of alternative patterns (test
 * framework, HTTP client, error wrapping, async style, logging…) it counts the files showing each, their
 * share, and the trend — the share among files changed in recent commits against the share overall
 * (rising, declining, stable). A group where two patterns each pass 20% is a conflict. Golden files are
 * the files that use the most preferred patterns.
 */
import { describesLocalTree } from "../../store/open-reader.ts";
import { inAuxiliaryFolder } from "../../core/rel-path.ts";
import type { IndexReader } from "../../store/contract.ts";
import { importMatches, PATTERN_GROUPS, shows, type FileFacts, type PatternCategory } from "./catalog.ts";

export { PATTERN_CATEGORIES, type PatternCategory } from "./catalog.ts";

export type Trend = "rising" | "declining" | "stable";

export interface PatternUsage {
  name: string;
  files: number;
  /** Share of the group's files that show this pattern. */
  share: number;
  trend: Trend;
  /** Share among files changed in the recent window (when history is available). */
  recent_share?: number;
  examples: string[];
}

export interface GroupReport {
  id: string;
  category: PatternCategory;
  title: string;
  files: number;
  patterns: PatternUsage[];
  preferred?: string;
  conflict: boolean;
}

export interface TeamPatterns {
  category: PatternCategory | "all";
  groups: GroupReport[];
  conflicts: Array<{ group: string; category: PatternCategory; patterns: Array<{ name: string; share: number }> }>;
  golden_files: Array<{ file: string; score: number; patterns: string[] }>;
  analyzed_files: number;
  history: { recent_files: number; window_days: number } | { unavailable: string };
  /** When asked for (`files`): the patterns each of those files shows, with its group's verdict. */
  by_file?: Record<string, FilePattern[]>;
}

export interface FilePattern {
  group: string;
  category: PatternCategory;
  pattern: string;
  share: number;
  trend: Trend;
  preferred: boolean;
  conflict: boolean;
}

const CONFLICT_SHARE = 0.2;

async function recentlyChanged(root: string, days: number): Promise<Set<string> | string> {
  try {
    const proc = Bun.spawn(["git", "-C", root, "log", `--since=${days}.days`, "--relative", "--name-only", "--pretty=format:"], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) return err.includes("not a git repository") ? "not a git repository" : `git log failed: ${err.trim().split("\n")[0]}`;
    return new Set(
      out
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean),
    );
  } catch {
    return "git is not installed";
  }
}

const JS_LANGUAGES = new Set(PATTERN_GROUPS.find((g) => g.id === "js-test-framework")!.languages);
const RUNNER_IMPORTS = PATTERN_GROUPS.find((g) => g.id === "js-test-framework")!.patterns.flatMap((p) => p.imports ?? []);
const GLOBAL_TEST_CALLS = ["describe", "it", "test"];

function importsTestRunner(imports: string[]): boolean {
  return imports.some((m) => RUNNER_IMPORTS.some((r) => importMatches(r, m)));
}

export class PatternsEngine {
  constructor(
    private readonly store: IndexReader,
    private readonly root: string,
  ) {}

  /**
   * The module whose globals (describe, it, expect) the project's JavaScript tests use without importing
   * them: vitest when a Vite or Vitest config turns `globals` on (hono's 123 test files, 15 of which
   * import vitest), Jest (its globals are the default) when a Jest config or package.json's "jest" key
   * exists. Undefined when the project sets up neither.
   */
  private async globalsTestRunner(): Promise<string | undefined> {
    const configs = (await this.store.allFiles())
      .map((f) => f.path)
      .filter((p) => /(^|\/)(vite|vitest)\.config\.[cm]?[jt]s$|(^|\/)jest\.config\.([cm]?[jt]s|json)$|^package\.json$/.test(p));
    if (configs.length === 0) return undefined;
    const texts = await this.store.contents(configs);
    const text = (p: string) => texts.get(p) ?? "";
    if (configs.some((p) => /vite(st)?\.config/.test(p) && /\bglobals\s*:\s*true\b/.test(text(p)))) return "vitest";
    if (configs.some((p) => /jest\.config/.test(p) || (p === "package.json" && /"jest"\s*:\s*\{/.test(text(p))))) return "@jest/globals";
    return undefined;
  }

  async analyze(o: { category?: PatternCategory; windowDays?: number; files?: string[] | "all"; goldenLimit?: number } = {}): Promise<TeamPatterns> {
    const asked = o.files === "all" ? "all" : o.files ? new Set(o.files) : undefined;
    const byFile: Record<string, FilePattern[]> = {};
    const windowDays = o.windowDays ?? 90;
    const [imports, calls, code] = await Promise.all([this.store.importsByFile(), this.store.callsByFile(), this.store.codeFiles()]);
    // texts are read in one batch per group whose patterns look at content, before its files are judged
    const texts = new Map<string, string>();
    const runner = await this.globalsTestRunner();
    const files: FileFacts[] = code.map((f) => {
      let fileImports = imports.get(f.path) ?? [];
      const fileCalls = calls.get(f.path) ?? new Set<string>();
      // a test file calling describe/it/test with no runner imported uses the runner's globals
      if (runner && f.isTest && JS_LANGUAGES.has(f.language) && GLOBAL_TEST_CALLS.some((c) => fileCalls.has(c)) && !importsTestRunner(fileImports))
        fileImports = [...fileImports, runner];
      return { path: f.path, language: f.language, isTest: f.isTest, imports: fileImports, calls: fileCalls, text: () => texts.get(f.path) ?? "" };
    });
    // a shared store's repositories have no history here (the folder's own git log would describe another project)
    const recent = describesLocalTree(this.store.source) ? await recentlyChanged(this.root, windowDays) : "a shared store holds indexes, not git history";
    const groups: GroupReport[] = [];
    const preferredHits = new Map<string, string[]>();
    for (const g of PATTERN_GROUPS) {
      if (o.category && g.category !== o.category) continue;
      const langFiles = files.filter(
        (f) => g.languages.includes(f.language) && (!g.within || f.imports.some((m) => g.within!.some((w) => importMatches(w, m)))),
      );
      if (g.patterns.some((p) => p.content)) {
        const missing = langFiles.filter((f) => !texts.has(f.path)).map((f) => f.path);
        const read = await this.store.contents(missing);
        for (const p of missing) texts.set(p, read.get(p) ?? "");
      }
      const users = g.patterns.map((p) => langFiles.filter((f) => shows(p, f)));
      const involved = new Set(users.flatMap((u) => u.map((f) => f.path)));
      if (involved.size === 0) continue;
      const recentInvolved = typeof recent === "string" ? 0 : [...involved].filter((p) => recent.has(p)).length;
      const patterns: PatternUsage[] = g.patterns
        .map((p, i) => {
          const u = users[i]!;
          const share = u.length / involved.size;
          const usage: PatternUsage = {
            name: p.name,
            files: u.length,
            share: Math.round(share * 1000) / 1000,
            trend: "stable",
            examples: u.slice(0, 3).map((f) => f.path),
          };
          if (typeof recent !== "string" && recentInvolved >= 3) {
            const rs = u.filter((f) => recent.has(f.path)).length / recentInvolved;
            usage.recent_share = Math.round(rs * 1000) / 1000;
            usage.trend = rs > share * 1.2 + 0.02 ? "rising" : rs < share * 0.8 - 0.02 ? "declining" : "stable";
          }
          return usage;
        })
        .filter((p) => p.files > 0)
        .sort((a, b) => b.files - a.files);
      const top = patterns.filter((p) => p.share >= CONFLICT_SHARE);
      const conflict = top.length >= 2;
      const preferred = patterns.find((p) => p.trend !== "declining")?.name ?? patterns[0]?.name;
      const report: GroupReport = {
        id: g.id,
        category: g.category,
        title: g.title,
        files: involved.size,
        patterns,
        conflict,
        ...(preferred ? { preferred } : {}),
      };
      groups.push(report);
      if (asked) {
        g.patterns.forEach((p, i) => {
          const usage = patterns.find((u) => u.name === p.name);
          if (!usage) return;
          for (const f of users[i]!) {
            if (asked !== "all" && !asked.has(f.path)) continue;
            (byFile[f.path] ??= []).push({
              group: g.title,
              category: g.category,
              pattern: p.name,
              share: usage.share,
              trend: usage.trend,
              preferred: p.name === preferred,
              conflict,
            });
          }
        });
      }
      if (preferred) {
        const def = g.patterns.find((p) => p.name === preferred)!;
        // golden files are examples of the project's code: not a benchmark's or an example folder's file
        for (const f of langFiles)
          if ((!f.isTest || def.tests === true) && !inAuxiliaryFolder(f.path))
            if (shows(def, f)) preferredHits.set(f.path, [...(preferredHits.get(f.path) ?? []), `${g.title}: ${preferred}`]);
      }
    }
    const golden = [...preferredHits.entries()]
      .map(([file, pats]) => ({ file, score: pats.length, patterns: pats }))
      .sort((a, b) => b.score - a.score || a.file.localeCompare(b.file))
      .slice(0, o.goldenLimit ?? 5);
    return {
      category: o.category ?? "all",
      groups,
      conflicts: groups
        .filter((g) => g.conflict)
        .map((g) => ({
          group: g.title,
          category: g.category,
          patterns: g.patterns.filter((p) => p.share >= CONFLICT_SHARE).map((p) => ({ name: p.name, share: p.share })),
        })),
      golden_files: golden,
      analyzed_files: files.length,
      history: typeof recent === "string" ? { unavailable: recent } : { recent_files: recent.size, window_days: windowDays },
      ...(asked ? { by_file: byFile } : {}),
    };
  }
}
