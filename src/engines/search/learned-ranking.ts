/**
 * The file ranking's learned weights: file-ranking.json beside this module, written by
 * scripts/eval/train-ranker.ts (coordinate ascent over recorded dev rankings; docs/design.md, "Search"), laid
 * over the hand-chosen HAND_FILE_RANKING. The data file names a weight by its key ("chunk") or, for the weights
 * a question's kind moves, by the kind and the key ("describe.history"); a name outside LEARNED_KNOBS or a value
 * that is not a finite number ≥ 0 is a broken data file, refused at start rather than ranked with.
 */
import learned from "./file-ranking.json" with { type: "json" };

/**
 * The weights the trainer may set: those a recorded ranking can replay (file-record.ts). The term weighting
 * (fields, title, queryTfSaturation) and the history's breadth change the recorded lists themselves and stay
 * hand-chosen.
 */
export const LEARNED_KNOBS = [
  "chunk",
  "chunkShort",
  "chunkPower",
  "contentPower",
  "nameShare",
  "definitions",
  "definitionsRarest",
  "mentions",
  "nonSource",
  "scope",
  "tests",
  "history",
  "historyGate",
  "coChange",
  "coChangeLong",
  "coChangeLeaders",
  "coChangeMinCommits",
  "titleLong",
  "familyCap",
  "familySlot",
  "familyPool",
  "kindUnseen",
  "kindEnd",
  "describe.history",
  "describe.chunkPower",
  "describe.chunkShort",
  "describe.nonSource",
  "describe.nameShare",
  "describe.definitions",
  "describe.tests",
  "change.history",
  "change.historyGate",
  "change.chunkShort",
  "change.nameShare",
  "change.definitions",
  "change.tests",
] as const;

export type LearnedKnob = (typeof LEARNED_KNOBS)[number];

/** The shipped data file's weights. */
export const LEARNED_WEIGHTS: Readonly<Record<string, unknown>> = learned.weights;

/** A copy of `hand` with `weights` laid over it; throws on a weight the file may not set or a value that is not a number. */
export function withLearned<T extends object>(hand: T, weights: Readonly<Record<string, unknown>>, source = "file-ranking.json"): T {
  const out = structuredClone(hand) as Record<string, unknown>;
  const known = new Set<string>(LEARNED_KNOBS);
  for (const [name, value] of Object.entries(weights)) {
    if (!known.has(name)) throw new Error(`${source}: "${name}" is not a learned weight (known: ${LEARNED_KNOBS.join(", ")})`);
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
      throw new Error(`${source}: "${name}" must be a number ≥ 0, not ${JSON.stringify(value)}`);
    const [group, key] = name.split(".") as [string, string | undefined];
    if (key === undefined) out[group] = value;
    else out[group] = { ...(out[group] as Record<string, number>), [key]: value };
  }
  return out as T;
}
