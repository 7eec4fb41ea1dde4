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
import { siblingsOf, type EditSignals } from "./edit-signals.ts";
import { BASE_BLOCKERS, historyReady, pastChangesWider, READY_RULE, signalBlockers, type Blocker, type CardSignals, type ReadyRule } from "./ready-rule.ts";
import { inAuxiliaryFolder } from "../../core/rel-path.ts";

const GROUP_LANGUAGES = new Map(PATTERN_GROUPS.map((g) => [g.id, g.languages]));

export interface Preflight {
  ready: boolean;
  /** Only when not ready: why, one word per reason (the first is nextAction's). */
  blockers?: Blocker[];
  /** Only when ready by the history's way (ready-rule.ts HistoryRule): what blocked the search's way (their texts are warnings). */
  waived?: Blocker[];
  /** Only when not ready: the first thing to do. */
  nextAction?: string;
  /** Failure memories about the area (at most 3). */
  warnings?: string[];
  patterns?: { do: string[]; avoid: string[] };
  bestExample?: string;
  /** The target's code callers in the results, the first three outside them, and tests using it outside them (at most 3). */
  impact?: { coverage: string; files: string[]; target: string; tests?: string[] };
  /** Only when not ready: concrete next searches, tool calls or files (at most 4). */
  whatWouldHelp?: string[];
  risk: "low" | "medium" | "high";
  evidence: { score: number; codeMatch: number; patternAlignment: number; memorySupport: number };
  /** What `ready` was decided from, beside the evidence score (edit-signals.ts). */
  signals?: CardSignals;
  /**
   * Files the project's git history says usually change with the top result, outside the results: read
   * them too (at most 3). Only where the index keeps a history.
   */
  changedTogether?: Array<{ file: string; commits: string }>;
  /**
   * The past commits whose subjects read like the task (those that changed indexed code): how many, how
   * many changed only files this card shows, and the files the others changed outside it, most often
   * changed first (at most 3). Only where the index keeps a history and such commits exist.
   */
  pastChanges?: { commits: number; within: number; outside: Array<{ file: string; commits: number }> };
}

/** Evidence scores below this (of 100) are too thin to act on. */
export const READY_SCORE = 40;
/** A pattern seen in fewer files is not yet a team convention to recommend or warn against. */
export const CONVENTION_FILES = 3;
/** How many top results count as the files being changed, for pattern conflicts. */
export const FILES_AT_HAND = 3;
/** Share of the edit target's callers that must be in the results. */
export const CALLER_COVERAGE = 0.75;
/** A file changed with the top result in this share of its commits (and at least twice) is "usually changed together". */
export const CHANGED_TOGETHER = 0.5;
/** How many past commits whose subjects best match the task the card weighs (docs/benchmarks.md: 5 to 30 were tried on dev, 10 told safe tasks apart best). */
export const PAST_CHANGES = 10;

export interface PreflightInput {
  /** The task as asked: next searches are built from it. */
  query: string;
  quality: SearchQuality;
  signals?: EditSignals;
  /** The ready rule (default READY_RULE; the evaluation replays others). */
  rule?: ReadyRule;
  resultFiles: string[];
  /** Result files changed on disk or removed since they were indexed: the card's evidence is their indexed text. */
  staleFiles?: string[];
  /** A name the task writes that only files outside the request's filters define (and not the top file). */
  outsideFilter?: { name: string; files: string[]; filters: string };
  /** Result files that are tests. */
  testFiles: string[];
  /** Languages of the results, best first. */
  languages: string[];
  target?: {
    label: string;
    /** The definition's plain name, when the target is a definition. */
    name?: string | undefined;
    /** Code files calling the target (tests apart: testCallers). */
    callers: string[];
    /** Code files importing the target's file (only for a whole-file target). */
    importers: string[];
    /**
     * Tests calling or importing the target. They are not what a change edits but what checks it: they are
     * named on the card (impact.tests, a warning) and do not count as callers missing. On the dev split's edit
     * tasks, callers-missing counted them alike (docs/benchmarks.md, issue 15 pf5).
     */
    testCallers?: string[];
    /** Files calling the name where resolution bound no definition (only looked up when no caller resolved). */
    unresolved?: string[];
    /** Other non-test files defining the target's name (only for a definition target). */
    twins?: string[];
  };
  patterns: TeamPatterns;
  filePatterns: Record<string, FilePattern[]>;
  memories: RecalledMemory[];
  /** Result files that are part of an import cycle. */
  inCycles: string[];
  /**
   * From the project's history (absent without one): the top result's commits, and the files changed with
   * it in at least CHANGED_TOGETHER of them (and twice or more), most shared commits first.
   */
  history?: { file: string; commits: number; partners: Array<{ file: string; count: number }> };
  /**
   * From the project's history (absent without one): the PAST_CHANGES commits whose subjects best match the
   * task, best first, each with its match score and the code files it changed that the index holds now,
   * tests left out.
   */
  pastChanges?: Array<{ subject: string; score: number; files: string[] }>;
  goldenLanguage: (file: string) => string | undefined;
  /** Whether a file is a test (an example for production code is not one); absent: none is. */
  isTestFile?: (file: string) => boolean;
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

/** How many leading folders two root-relative paths share (src/a/x.ts and src/a/b/y.ts: 2). */
function sharedFolders(a: string, b: string): number {
  const x = a.split("/").slice(0, -1);
  const y = b.split("/").slice(0, -1);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/**
 * The patterns of a group the files at hand follow, each with its files. A file showing two or more of
 * the group's patterns follows none of them (Python files mixing `except ValueError:` and `except
 * Exception:`, Rust files using both `?` and `unwrap`): it leaves the choice open rather than taking a
 * side. On the dev split's edit tasks, counting such files blocked 28 safe tasks and 15 unsafe ones;
 * counting sides, 7 and 3 (docs/benchmarks.md, "The edit preflight on sixteen dev repositories").
 */
function sidesAtHand(files: readonly string[], byFile: Record<string, FilePattern[]>, group: string): Map<string, string[]> {
  const sides = new Map<string, string[]>();
  for (const f of files) {
    const own = new Set((byFile[f] ?? []).filter((p) => p.group === group).map((p) => p.pattern));
    if (own.size !== 1) continue;
    const pattern = [...own][0]!;
    sides.set(pattern, [...(sides.get(pattern) ?? []), f]);
  }
  return sides;
}

/**
 * Names the language's runtime calls by protocol (constructors, dunders, entry points, printing and
 * equality): other definitions of them are other classes' own, not variants a change must follow.
 */
const PROTOCOL_NAME = /^(__\w+__|constructor|__construct|initialize|init|new|main|toString|to_s|inspect|equals|hashCode|String)$/;

/**
 * The other definitions of the target's name a change to it may have to follow, and that the card does not
 * show already: not in the results, and not a protocol name (PROTOCOL_NAME). On the dev split's edit tasks
 * the check blocked more safe tasks than unsafe ones (28 and 19); those whose twins were all in the
 * results or whose name was `__construct`, `__init__` or `main` were most of the safe ones (now 12 and 9;
 * docs/benchmarks.md, "The edit preflight on sixteen dev repositories").
 */
function twinsToFollow(target: PreflightInput["target"], inResults: ReadonlySet<string>): string[] {
  if (!target?.name || PROTOCOL_NAME.test(target.name)) return [];
  return (target.twins ?? []).filter((f) => !inResults.has(f));
}

export function preflight(i: PreflightInput): Preflight {
  const stress: Array<{ kind: Blocker; action: string; help: string[] }> = [];
  const inResults = new Set(i.resultFiles);

  // code match
  const codeMatch = i.quality.confidence;
  if (i.quality.status === "low_confidence")
    stress.push({
      kind: "low-confidence",
      action: `Search evidence is thin (confidence ${i.quality.confidence}): ${i.quality.hint ?? "rephrase the query"}`,
      help: [i.quality.hint ?? "Rephrase the query with names used in the code"],
    });

  // callers of the edit target
  let impact: Preflight["impact"];
  let callerCount = 0;
  let missingCallers: string[] = [];
  let testsOutside: string[] = [];
  if (i.target) {
    const callers = [...new Set([...i.target.callers, ...i.target.importers])];
    callerCount = callers.length;
    const covered = callers.filter((c) => inResults.has(c));
    const missing = callers.filter((c) => !inResults.has(c));
    missingCallers = missing;
    const outside = [...new Set([...i.target.importers, ...i.target.callers])].filter((f) => !inResults.has(f));
    impact = { target: i.target.label, coverage: `${covered.length}/${callers.length} callers in results`, files: outside.slice(0, 3) };
    testsOutside = (i.target.testCallers ?? []).filter((f) => !inResults.has(f));
    if (testsOutside.length > 0) impact.tests = testsOutside.slice(0, 3);
    if (callers.length > 0 && covered.length / callers.length < CALLER_COVERAGE) {
      stress.push({
        kind: "callers-missing",
        action: `${missing.length} of ${callers.length} callers of ${i.target.label} are not in the results (${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}): read them before changing its behaviour or signature`,
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
      kind: "unresolved-callers",
      action: `No call to ${i.target.label} was resolved, but ${maybe.length} file${maybe.length === 1 ? "" : "s"} call${maybe.length === 1 ? "s" : ""} a '${i.target.name}' the index could not bind (an interface or dynamic receiver): check whether they reach it`,
      help: [
        `find_symbol_occurrences {"symbol_name":"${i.target.name}"} lists every use of the name`,
        ...maybe.slice(0, 2).map((f) => `read ${f} (calls '${i.target!.name}')`),
      ],
    });
  }

  // patterns in the files at hand
  // the files at hand: the top results, the ones an edit would touch (lower ones are context)
  const atHand = i.resultFiles.slice(0, FILES_AT_HAND);
  const shown = atHand.flatMap((f) => i.filePatterns[f] ?? []);
  // a conflict matters here when the files at hand are themselves split: one follows a pattern of the group,
  // another a different one
  const conflicts = i.patterns.conflicts.flatMap((c) => {
    const sides = sidesAtHand(atHand, i.filePatterns, c.group);
    return sides.size >= 2 ? [{ ...c, sides }] : [];
  });
  for (const c of conflicts) {
    const split = [...c.sides].map(([pattern, files]) => `${files.join(", ")} ${files.length === 1 ? "uses" : "use"} ${pattern}`).join("; ");
    stress.push({
      kind: "pattern-conflict",
      action: `Patterns conflict in ${c.group}: ${c.patterns.map((p) => `${p.name} (${pct(p.share)})`).join(" vs ")}, and the files at hand are split (${split}); decide which one this change follows`,
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
      kind: "stale-memory",
      action: `A memory about this area is stale (confidence ${pct(m.confidence)}): "${m.memory}"; check it still holds`,
      help: [`verify "${m.memory}" (${m.type}, ${m.created_at.slice(0, 10)}); remove it with cortex memory remove ${m.id} if it no longer holds`],
    });
  }
  const fresh = i.memories.filter((m) => !m.stale);
  const memorySupport = i.memories.length === 0 ? 0.5 : stale.length === i.memories.length ? 0.2 : fresh.reduce((s, m) => s + m.confidence, 0) / fresh.length;

  // evidence read from files that have changed since: an edit made from it may land on the wrong lines, or
  // in a file that is gone (a top file renamed since indexing was READY)
  const staleAtHand = atHand.filter((f) => i.staleFiles?.includes(f));
  if (staleAtHand.length > 0) {
    stress.push({
      kind: "stale-evidence",
      action: `${staleAtHand.join(", ")} changed or ${staleAtHand.length === 1 ? "was" : "were"} removed since indexing: the evidence is the indexed text; update the index and ask again`,
      help: ['refresh_index {"incremental":true} reads the changed files (cortex index from a shell); then ask again'],
    });
  }

  if (i.outsideFilter) {
    const o = i.outsideFilter;
    stress.push({
      kind: "outside-filter",
      action: `${o.name} is defined in ${o.files.join(", ")}, which the filters (${o.filters}) leave out: the file to change may be there; ask again without them`,
      help: [
        `search_codebase ${quoted({ query: i.query, intent: "edit" })} searches the whole project`,
        ...o.files.slice(0, 1).map((f) => `read ${f} (defines ${o.name})`),
      ],
    });
  }

  const score = Math.round(45 * codeMatch + 30 * patternAlignment + 25 * memorySupport);
  if (score < READY_SCORE || i.resultFiles.length === 0) {
    stress.push({
      kind: "thin-evidence",
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
  // an example in the task's languages, or none: a Go file is no example for a Python change; nor is a
  // test, a benchmark or an example folder's file for production code (hono's every card showed
  // benchmarks/http-server/benchmark.ts)
  const topIsTest = i.resultFiles[0] !== undefined && i.testFiles.includes(i.resultFiles[0]);
  const fitsAsExample = (f: string) => topIsTest || (!i.isTestFile?.(f) && !inAuxiliaryFolder(f));
  // the example nearest the file to change (most folders in common), the best-scoring one among equals:
  // a project-wide first showed every hono card src/adapter/aws-lambda/handler.ts
  const candidates = (langs.size > 0 ? i.patterns.golden_files.filter((g) => langs.has(i.goldenLanguage(g.file) ?? "")) : i.patterns.golden_files).filter(
    (g) => fitsAsExample(g.file) && g.file !== i.resultFiles[0],
  );
  const near = (f: string) => sharedFolders(f, i.resultFiles[0] ?? "");
  const golden = candidates.reduce<(typeof candidates)[number] | undefined>(
    (best, g) => (best === undefined || near(g.file) > near(best.file) || (near(g.file) === near(best.file) && g.score > best.score) ? g : best),
    undefined,
  );

  const failures = i.memories.filter((m) => m.type === "failure" && !m.stale).slice(0, 3);
  const risk =
    failures.length > 0 || i.inCycles.length > 0 || callerCount > 10
      ? failures.length > 0 && (i.inCycles.length > 0 || callerCount > 10)
        ? "high"
        : "medium"
      : "low";

  // what the signals say (ready-rule.ts); the older checks the rule no longer counts stay on the card as advice
  const together = (i.history?.partners ?? []).filter((p) => !inResults.has(p.file));
  // what the card shows (as the evaluation counts it): the results, the impact's files, the files changed together
  const shownFiles = new Set([...i.resultFiles, ...(impact?.files ?? []), ...together.slice(0, 3).map((p) => p.file)]);
  const past = pastChangesOf(i.pastChanges, shownFiles);
  const signals: CardSignals | undefined = i.signals
    ? {
        ...i.signals,
        fanIn: missingCallers.length,
        twins: twinsToFollow(i.target, inResults).length,
        ...(i.history ? { changedTogether: together.length } : {}),
        ...(past ? { pastCommits: past.commits, pastCovered: past.covered } : {}),
      }
    : undefined;
  const rule = i.rule ?? READY_RULE;
  if (signals) {
    const found = signalBlockers(signals, rule);
    stress.push(...found.map((kind) => signalStress(kind, signals, i, missingCallers)));
  }
  const advice = stress.filter((x) => BASE_BLOCKERS.includes(x.kind) && !rule.base.includes(x.kind));
  let blocking = stress.filter((x) => !advice.includes(x));
  let waived: Blocker[] | undefined;
  if (blocking.length > 0 && signals && rule.history) {
    if (
      historyReady(
        stress.map((x) => x.kind),
        signals,
        rule.history,
      )
    ) {
      // the history's way: changes like this one stayed within these files; what blocked the search's way is advice
      advice.push(...blocking);
      waived = [...new Set(blocking.map((x) => x.kind))];
      blocking = [];
    } else if (past && pastChangesWider(signals, rule.history)) blocking.push(pastStress(past));
  }
  blocking.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  const ready = blocking.length === 0;
  const card: Preflight = {
    ready,
    risk,
    evidence: { score, codeMatch, patternAlignment: Math.round(patternAlignment * 100) / 100, memorySupport: Math.round(memorySupport * 100) / 100 },
  };
  if (waived) card.waived = waived;
  if (!ready) {
    card.blockers = [...new Set(blocking.map((x) => x.kind))];
    card.nextAction = blocking[0]!.action;
  }
  if (failures.length > 0) card.warnings = failures.map((m) => m.memory + (m.reason ? ` (${m.reason})` : ""));
  if (advice.length > 0) card.warnings = [...(card.warnings ?? []), ...advice.map((x) => x.action)];
  if (doList.length > 0 || avoidList.length > 0) card.patterns = { do: doList, avoid: avoidList };
  if (golden) card.bestExample = golden.file;
  if (impact) card.impact = impact;
  if (!ready) card.whatWouldHelp = [...new Set(blocking.flatMap((s) => s.help))].slice(0, 4);
  if (signals) card.signals = signals;
  if (together.length > 0) card.changedTogether = together.slice(0, 3).map((p) => ({ file: p.file, commits: `${p.count} of ${i.history!.commits}` }));
  if (past) card.pastChanges = { commits: past.commits, within: past.within, outside: past.outside.slice(0, 3) };
  if (i.inCycles.length > 0 && card.warnings === undefined)
    card.warnings = [`${i.inCycles.slice(0, 3).join(", ")} ${i.inCycles.length === 1 ? "is" : "are"} in an import cycle (detect_circular_dependencies)`];
  if (testsOutside.length > 0 && i.target)
    card.warnings = [
      ...(card.warnings ?? []),
      `${testsOutside.length} test${testsOutside.length === 1 ? "" : "s"} outside the results use${testsOutside.length === 1 ? "s" : ""} ${i.target.label} (${testsOutside.slice(0, 3).join(", ")}${testsOutside.length > 3 ? ", …" : ""}): run ${testsOutside.length === 1 ? "it" : "them"} after the change`,
    ];
  return card;
}

/** Which blocker the card names first: what the agent must read before anything else. */
const ORDER: Blocker[] = [
  // first: whatever else the card says was read from text that is no longer there
  "stale-evidence",
  "outside-filter",
  "callers-missing",
  "unresolved-callers",
  "wide-fan-in",
  "sweep",
  "twin-definitions",
  "changed-together",
  "past-changes",
  "sibling-files",
  "defined-elsewhere",
  "top-is-test",
  "close-runner-up",
  "words-missing",
  "weak-top",
  "low-confidence",
  "pattern-conflict",
  "stale-memory",
  "thin-evidence",
];

const quoted = (o: unknown) => JSON.stringify(o);

interface PastChanges {
  /** Past commits that changed indexed code. */
  commits: number;
  /** Of them, those whose every such file is shown. */
  within: number;
  /** Their share, each commit weighted by its subject's match score. */
  covered: number;
  /** Files they changed outside what is shown, most commits first (then by summed match). */
  outside: Array<{ file: string; commits: number }>;
  /** The best-matching commit that changed files outside, for the message. */
  example?: { subject: string; files: string[] };
}

/** How the past changes that read like the task sit against what the card shows; undefined without any. */
function pastChangesOf(list: PreflightInput["pastChanges"], shown: ReadonlySet<string>): PastChanges | undefined {
  const withCode = (list ?? []).filter((c) => c.files.length > 0);
  if (withCode.length === 0) return undefined;
  let weight = 0;
  let inside = 0;
  let within = 0;
  let example: PastChanges["example"];
  const outside = new Map<string, { commits: number; score: number }>();
  for (const c of withCode) {
    const w = Math.max(c.score, 1e-9);
    weight += w;
    const out = c.files.filter((f) => !shown.has(f));
    if (out.length === 0) {
      inside += w;
      within++;
      continue;
    }
    example ??= { subject: c.subject, files: out };
    for (const f of out) {
      const o = outside.get(f) ?? { commits: 0, score: 0 };
      outside.set(f, { commits: o.commits + 1, score: o.score + w });
    }
  }
  return {
    commits: withCode.length,
    within,
    covered: Math.round((inside / weight) * 1000) / 1000,
    outside: [...outside.entries()].sort((a, b) => b[1].commits - a[1].commits || b[1].score - a[1].score).map(([file, o]) => ({ file, commits: o.commits })),
    ...(example ? { example } : {}),
  };
}

/** The history's blocker: changes like this one reached files the card does not show; it names them. */
function pastStress(p: PastChanges): { kind: Blocker; action: string; help: string[] } {
  const named = p.outside.slice(0, 3).map((o) => `${o.file} (${o.commits} of ${p.commits})`);
  return {
    kind: "past-changes",
    action: `Of the ${p.commits} past commits whose subjects read like this task, ${p.within} changed only files shown here; the others also changed ${named.join(", ")}${p.outside.length > 3 ? ", …" : ""}${p.example ? ` (e.g. "${p.example.subject}")` : ""}: check whether this change reaches them too`,
    help: p.outside.slice(0, 3).map((o) => `read ${o.file} (changed by ${o.commits} of ${p.commits} similar past commits)`),
  };
}

/** The next search, as a tool call an agent can make as written. */
function nextSearch(query: string): string {
  return `search_codebase ${quoted({ query, intent: "edit" })}`;
}

/**
 * The verbs an edit task is phrased with: what the task does, not what the code says. An exact search
 * for "rename" or "add" finds the word everywhere and the change nowhere.
 */
const TASK_VERBS = new Set(
  "add adds added allow change changes changed create delete deprecate drop ensure fix fixes fixed handle implement improve make move refactor remove removed rename renamed replace rewrite set support update updated use".split(
    " ",
  ),
);

/**
 * The names the task writes, as the next calls should look them up: the old name of a rename first and
 * its new one out (nothing defines it yet: `rename Login to SignIn` lists the files using Login), and no
 * name every class has (`__init__`, `constructor`), whose uses are everywhere.
 */
function namesToLookUp(s: CardSignals, query: string): string[] {
  const { oldName, newName } = renameOf(query);
  const names = s.identifiers.filter((n) => n !== newName && !/^__\w+__$/.test(n) && n !== "constructor" && n !== "init" && n !== "new");
  return oldName ? [oldName, ...names.filter((n) => n !== oldName)] : names;
}

/** `rename A to B` (A.b, `A`, A::b): the last parts of the old and the new name. */
function renameOf(query: string): { oldName?: string; newName?: string } {
  const m = /\brenam\w*\s+`?([\w.:]+)`?\s+(?:to|as|into)\s+`?([\w.:]+)/i.exec(query);
  if (!m) return {};
  return { oldName: m[1]!.split(/[.:]+/).pop()!, newName: m[2]!.split(/[.:]+/).pop()! };
}

/** The task's words the top file lacks, less the task's verbs and a rename's new name: what an exact search should look for. */
function wordsToLookUp(s: CardSignals, query: string): string[] {
  const { oldName, newName } = renameOf(query);
  const lower = (w: string) => w.toLowerCase();
  // the new name and its parts (signin, sign) are nowhere yet; its parts the old name shares stay
  const oldParts = new Set((oldName ?? "").split(/(?<=[a-z0-9])(?=[A-Z])|_/).map(lower));
  const newParts = new Set([lower(newName ?? ""), ...(newName ?? "").split(/(?<=[a-z0-9])(?=[A-Z])|_/).map(lower)].filter((w) => w && !oldParts.has(w)));
  // ("everywhere", "all": the task's reach, which the sweep check reads, not a word of the code)
  const reach = new Set(s.sweepWords.map(lower));
  return s.topMissing.filter((w) => !TASK_VERBS.has(lower(w)) && !newParts.has(lower(w)) && !reach.has(lower(w)));
}

/** What a signal blocker says and what to do next: a named file or caller, and a concrete search. */
export function signalStress(kind: Blocker, s: CardSignals, i: PreflightInput, missingCallers: string[]): { kind: Blocker; action: string; help: string[] } {
  const top = i.resultFiles[0] ?? "the top result";
  const names = namesToLookUp(s, i.query);
  const words = wordsToLookUp(s, i.query);
  const second = i.resultFiles[1];
  const target = i.target;
  const byName = target?.name ? [`find_symbol_occurrences ${quoted({ symbol_name: target.name })} lists every use of ${target.name}`] : [];
  // a name the task writes that the top file defines, but so do other files (ready-rule.ts namesTop)
  const shared = s.definedInTop.find((n) => (s.namedFiles[n] ?? 0) > 1);
  switch (kind) {
    case "wide-fan-in":
      return {
        kind,
        action: `${s.fanIn} files outside the results use ${target?.label ?? top} (${missingCallers.slice(0, 3).join(", ")}${s.fanIn > 3 ? ", …" : ""}): a change to it is broad, read its callers first`,
        help: [
          `cortex_graph ${quoted({ operation: "callers", target: target?.label ?? top })} lists every caller`,
          ...missingCallers.slice(0, 2).map((f) => `read ${f} (uses ${target?.label ?? top})`),
        ],
      };
    case "twin-definitions": {
      const twins = twinsToFollow(target, new Set(i.resultFiles));
      return {
        kind,
        action: `${target?.name ?? top} is also defined in ${twins.slice(0, 3).join(", ")}${twins.length > 3 ? ", …" : ""}: a change to ${target?.label ?? top} usually has to follow in each (another platform, an implementation of the same interface)`,
        help: [
          ...twins.slice(0, 2).map((f) => `read ${f} (also defines ${target?.name ?? top})`),
          ...(target?.name ? [`find_symbol_occurrences ${quoted({ symbol_name: target.name })} lists every definition and use`] : []),
        ],
      };
    }
    case "changed-together": {
      const h = i.history!;
      const missing = h.partners.filter((p) => !i.resultFiles.includes(p.file));
      const named = missing.slice(0, 3).map((p) => `${p.file} (${p.count} of ${h.commits} commits)`);
      return {
        kind,
        action: `${h.file} is usually changed together with ${named.join(", ")}${missing.length > 3 ? ", …" : ""}, not in the results: read ${missing.length === 1 ? "it" : "them"} before changing ${h.file}`,
        help: missing.slice(0, 3).map((p) => `read ${p.file} (changed with ${h.file} in ${p.count} of ${h.commits} commits)`),
      };
    }
    case "defined-elsewhere": {
      const [name, files] = Object.entries(s.definedElsewhere)[0]!;
      return {
        kind,
        action: `The task names ${name}, defined in ${files.join(", ")}, not in the top result ${top}: the file to change is likely ${files[0]}`,
        help: [`read ${files[0]} (defines ${name})`, nextSearch(name), `find_symbol_occurrences ${quoted({ symbol_name: name })} lists its uses`],
      };
    }
    case "top-is-test": {
      const code = i.resultFiles.find((f) => !i.testFiles.includes(f));
      return {
        kind,
        action: `The top result ${top} is a test: the task's words match tests better than code; the code to change is ${code ? `perhaps ${code}, not confirmed` : "not in the results"}`,
        help: [...(code ? [`read ${code}`] : []), nextSearch(`${[...names, ...words].slice(0, 4).join(" ") || i.query}`), ...byName].slice(0, 3),
      };
    }
    case "close-runner-up":
      return {
        kind,
        action: `${second ? `${top} and ${second} match the task about equally` : `${s.nearTies + 1} files match the task about equally`} (runner-up at ${Math.round(s.runnerUpRatio * 100)}% of the top score): which one to change is not settled${shared ? `; the task names ${shared}, which ${s.namedFiles[shared]} files define, so the name does not settle it` : ""}`,
        help: [
          ...(second ? [`read ${second} beside ${top}`] : []),
          ...(shared ? [`find_symbol_occurrences ${quoted({ symbol_name: shared })} lists the ${s.namedFiles[shared]} files defining ${shared}`] : []),
          names.length > 0
            ? `find_symbol_occurrences ${quoted({ symbol_name: names[0] })} finds where ${names[0]} is defined`
            : `${nextSearch(i.query)} again naming the function or type to change`,
          ...byName,
        ].slice(0, 3),
      };
    case "words-missing":
      return {
        kind,
        action: i.resultFiles[0]
          ? `The top result ${top} holds ${Math.round(s.topCoverage * 100)}% of the task's words (missing: ${s.topMissing.slice(0, 5).join(", ")}): the code for that part is not found`
          : `No result holds the task's words (${s.topMissing.slice(0, 5).join(", ")})${i.quality.hint ? `: ${i.quality.hint}` : ""}`,
        help: [
          nextSearch((words.length > 0 ? words : names.length > 0 ? names : s.topMissing).slice(0, 4).join(" ")),
          ...(words[0] ? [`cortex_exact ${quoted({ query: words[0] })} finds the exact word`] : []),
        ],
      };
    case "sweep":
      return {
        kind,
        action: `The task says it reaches many places (${s.sweepWords.join(", ")}): list them before editing ${top}`,
        help: [
          `cortex_exact ${quoted({ query: names[0] ?? words[0] ?? top })} lists every file to change`,
          ...(target ? [`cortex_graph ${quoted({ operation: "callers", target: target.label })} lists the callers of ${target.label}`] : []),
        ],
      };
    case "sibling-files": {
      const kin = i.resultFiles.slice(1).filter((f) => !i.testFiles.includes(f) && siblingsOf(top, [f]) > 0);
      return {
        kind,
        action: `${top} has siblings in the results (${kin.slice(0, 3).join(", ")}): a change to one usually has to follow in each; decide which of them the task covers`,
        help: [...kin.slice(0, 2).map((f) => `read ${f} beside ${top}`), nextSearch(`${i.query} ${kin.length > 0 ? "in every variant" : ""}`.trim())],
      };
    }
    case "weak-top":
      return {
        kind,
        action: `No result defines what the task names or matches it strongly (top score ${s.topScore}): ${top} is a guess`,
        help: [
          names.length > 0
            ? `find_symbol_occurrences ${quoted({ symbol_name: names[0] })} finds where ${names[0]} is defined`
            : `${nextSearch(i.query)} again naming the function or type to change`,
          ...(words.length > 0 ? [nextSearch(words.slice(0, 4).join(" "))] : []),
        ],
      };
    default:
      return { kind, action: kind, help: [] };
  }
}
