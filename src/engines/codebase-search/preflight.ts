/**
 * The edit preflight card (search_codebase with intent edit, refactor or migrate): is there enough
 * evidence to change this code now, and if not, what is missing. Evidence is triangulated from three
 * sources, as codebase-context does: how well the search matched (45%), whether the area follows settled
 * team patterns (30%), and what team memory says (25%). Any sign of stress — a low-confidence search,
 * callers of the edit target not in the results, conflicting patterns in the files at hand, a stale
 * memory about the area, thin evidence — makes `ready` false with the next step to take, so an agent is
 * not confidently wrong.
 */
import type { RecalledMemory } from "../memory/index.ts";
import type { FilePattern, TeamPatterns } from "../team-patterns/index.ts";
import type { SearchQuality } from "./quality.ts";
import { PATTERN_GROUPS } from "../team-patterns/catalog.ts";

const GROUP_LANGUAGES = new Map(PATTERN_GROUPS.map((g) => [g.id, g.languages]));

export interface Preflight {
  ready: boolean;
  /** Only when not ready: the first thing to do. */
  nextAction?: string;
  /** Failure memories about the area (at most 3). */
  warnings?: string[];
  patterns?: { do: string[]; avoid: string[] };
  bestExample?: string;
  impact?: { coverage: string; files: string[]; target: string };
  /** Only when not ready: concrete next searches, tool calls or files (at most 4). */
  whatWouldHelp?: string[];
  risk: "low" | "medium" | "high";
  evidence: { score: number; codeMatch: number; patternAlignment: number; memorySupport: number };
}

/** Evidence scores below this (of 100) are too thin to act on. */
export const READY_SCORE = 40;
/** A pattern seen in fewer files is not yet a team convention to recommend or warn against. */
export const CONVENTION_FILES = 3;
/** How many top results count as the files being changed, for pattern conflicts. */
export const FILES_AT_HAND = 3;
/** Share of the edit target's callers that must be in the results. */
export const CALLER_COVERAGE = 0.75;

export interface PreflightInput {
  quality: SearchQuality;
  resultFiles: string[];
  /** Languages of the results, best first. */
  languages: string[];
  target?: {
    label: string;
    /** The definition's plain name, when the target is a definition. */
    name?: string | undefined;
    callers: string[];
    importers: string[];
    /** Files calling the name where resolution bound no definition (only looked up when no caller resolved). */
    unresolved?: string[];
  };
  patterns: TeamPatterns;
  filePatterns: Record<string, FilePattern[]>;
  memories: RecalledMemory[];
  /** Result files that are part of an import cycle. */
  inCycles: string[];
  goldenLanguage: (file: string) => string | undefined;
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

export function preflight(i: PreflightInput): Preflight {
  const stress: Array<{ action: string; help: string[] }> = [];
  const inResults = new Set(i.resultFiles);

  // code match
  const codeMatch = i.quality.confidence;
  if (i.quality.status === "low_confidence")
    stress.push({
      action: `Search evidence is thin (confidence ${i.quality.confidence}): ${i.quality.hint ?? "rephrase the query"}`,
      help: [i.quality.hint ?? "Rephrase the query with names used in the code"],
    });

  // callers of the edit target
  let impact: Preflight["impact"];
  let callerCount = 0;
  if (i.target) {
    const callers = [...new Set([...i.target.callers, ...i.target.importers])];
    callerCount = callers.length;
    const covered = callers.filter((c) => inResults.has(c));
    const missing = callers.filter((c) => !inResults.has(c));
    const outside = [...new Set([...i.target.importers, ...i.target.callers])].filter((f) => !inResults.has(f));
    impact = { target: i.target.label, coverage: `${covered.length}/${callers.length} callers in results`, files: outside.slice(0, 3) };
    if (callers.length > 0 && covered.length / callers.length < CALLER_COVERAGE) {
      stress.push({
        action: `${missing.length} of ${callers.length} callers of ${i.target.label} are not in the results: read them before changing its behaviour or signature`,
        help: [
          `cortex_graph {"operation":"callers","target":"${i.target.label}"} lists every caller`,
          ...missing.slice(0, 2).map((f) => `read ${f} (uses ${i.target!.label})`),
        ],
      });
    }
  }

  const maybe = (i.target?.unresolved ?? []).filter((f) => !inResults.has(f));
  if (i.target?.name && maybe.length > 0) {
    stress.push({
      action: `No call to ${i.target.label} was resolved, but ${maybe.length} file${maybe.length === 1 ? "" : "s"} call${maybe.length === 1 ? "s" : ""} a '${i.target.name}' the index could not bind (an interface or dynamic receiver): check whether they reach it`,
      help: [
        `find_symbol_occurrences {"symbol_name":"${i.target.name}"} lists every use of the name`,
        ...maybe.slice(0, 2).map((f) => `read ${f} (calls '${i.target!.name}')`),
      ],
    });
  }

  // patterns in the files at hand
  // the files at hand: the top results, the ones an edit would touch (lower ones are context)
  const shown = i.resultFiles.slice(0, FILES_AT_HAND).flatMap((f) => i.filePatterns[f] ?? []);
  // a conflict matters here when the files at hand are themselves split: two patterns of the group among them
  const conflicts = i.patterns.conflicts.filter((c) => new Set(shown.filter((p) => p.group === c.group).map((p) => p.pattern)).size >= 2);
  for (const c of conflicts) {
    stress.push({
      action: `Patterns conflict in ${c.group}: ${c.patterns.map((p) => `${p.name} (${pct(p.share)})`).join(" vs ")}; decide which one this change follows`,
      help: [`get_team_patterns {"category":"${c.category}"} shows the trend of each; remember the decision with remember {"type":"decision"}`],
    });
  }
  const preferredShown = shown.filter((p) => p.preferred && p.trend !== "declining").length;
  const decliningShown = shown.filter((p) => p.trend === "declining").length;
  const patternAlignment =
    conflicts.length > 0 ? 0.2 : shown.length === 0 ? 0.5 : preferredShown > 0 && decliningShown === 0 ? 1 : decliningShown > 0 ? 0.4 : 0.6;

  // memory
  const stale = i.memories.filter((m) => m.stale);
  for (const m of stale.slice(0, 1)) {
    stress.push({
      action: `A memory about this area is stale (confidence ${pct(m.confidence)}): "${m.memory}"; check it still holds`,
      help: [`verify "${m.memory}" (${m.type}, ${m.created_at.slice(0, 10)}); remove it with cortex memory remove ${m.id} if it no longer holds`],
    });
  }
  const fresh = i.memories.filter((m) => !m.stale);
  const memorySupport = i.memories.length === 0 ? 0.5 : stale.length === i.memories.length ? 0.2 : fresh.reduce((s, m) => s + m.confidence, 0) / fresh.length;

  const score = Math.round(45 * codeMatch + 30 * patternAlignment + 25 * memorySupport);
  if (score < READY_SCORE || i.resultFiles.length === 0) {
    stress.push({
      action: `Too little evidence (score ${score} of 100, ${READY_SCORE} needed)`,
      help: ["search again naming the function, type or file to change"],
    });
  }

  // the team's direction in the results' languages
  const langs = new Set(i.languages);
  const relevant = i.patterns.groups.filter(
    (g) => g.files >= CONVENTION_FILES && (shown.some((p) => p.group === g.title) || (GROUP_LANGUAGES.get(g.id) ?? []).some((l) => langs.has(l))),
  );
  const doList = relevant
    .flatMap((g) =>
      g.patterns
        .filter((p) => p.name === g.preferred && p.trend !== "declining")
        .map((p) => ({ text: `${g.title}: ${p.name} (${pct(p.share)}${p.trend === "rising" ? ", rising" : ""})`, share: p.share })),
    )
    .sort((a, b) => b.share - a.share)
    .slice(0, 3)
    .map((x) => x.text);
  const avoidList = relevant
    .flatMap((g) =>
      g.patterns.filter((p) => p.trend === "declining").map((p) => ({ text: `${g.title}: ${p.name} (${pct(p.share)}, declining)`, share: p.share })),
    )
    .sort((a, b) => b.share - a.share)
    .slice(0, 3)
    .map((x) => x.text);
  const golden = i.patterns.golden_files.find((g) => langs.has(i.goldenLanguage(g.file) ?? "")) ?? i.patterns.golden_files[0];

  const failures = i.memories.filter((m) => m.type === "failure" && !m.stale).slice(0, 3);
  const risk =
    failures.length > 0 || i.inCycles.length > 0 || callerCount > 10
      ? failures.length > 0 && (i.inCycles.length > 0 || callerCount > 10)
        ? "high"
        : "medium"
      : "low";

  const ready = stress.length === 0;
  const card: Preflight = {
    ready,
    risk,
    evidence: { score, codeMatch, patternAlignment: Math.round(patternAlignment * 100) / 100, memorySupport: Math.round(memorySupport * 100) / 100 },
  };
  if (!ready) card.nextAction = stress[0]!.action;
  if (failures.length > 0) card.warnings = failures.map((m) => m.memory + (m.reason ? ` (${m.reason})` : ""));
  if (doList.length > 0 || avoidList.length > 0) card.patterns = { do: doList, avoid: avoidList };
  if (golden) card.bestExample = golden.file;
  if (impact) card.impact = impact;
  if (!ready) card.whatWouldHelp = [...new Set(stress.flatMap((s) => s.help))].slice(0, 4);
  if (i.inCycles.length > 0 && card.warnings === undefined)
    card.warnings = [`${i.inCycles.slice(0, 3).join(", ")} ${i.inCycles.length === 1 ? "is" : "are"} in an import cycle (detect_circular_dependencies)`];
  return card;
}
