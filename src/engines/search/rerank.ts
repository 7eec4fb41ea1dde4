/**
 * When to ask the cross-encoder, and what to do with its answer. The first-stage ranking (keyword,
 * vectors, structure) is confident when its first result clearly leads the second; then the order stays
 * and the search costs nothing more. When the two are within `minGap` of the first's score, the ranking
 * is unsure, and the cross-encoder, which reads query and passage together, reorders the top `topK`.
 * Results past the top K keep their place. A cross-encoder that is absent, loading or failing leaves the
 * order as it was and says so (the response's `rerank`).
 */

/** What the search engine needs of a cross-encoder (src/embed/rerank/cross-encoder.ts implements it). */
export interface Reranker {
  /** "ready", "loading …" or "unavailable: why". */
  state(): string;
  /** Starts loading in the background (a download on first use) and resolves when score() can run. */
  ready(): Promise<void>;
  /** One relevance score per passage, higher is more relevant. */
  score(query: string, passages: string[], signal?: AbortSignal): Promise<number[]>;
}

export interface RerankSettings {
  topK: number;
  minGap: number;
}

/** The relative lead of the first score over the second: 1 when alone, 0 when tied. */
export function scoreGap(scores: readonly number[]): number {
  if (scores.length < 2 || scores[0]! <= 0) return 1;
  return Math.max(0, (scores[0]! - scores[1]!) / scores[0]!);
}

export interface RerankOutcome<T> {
  order: T[];
  /** One line for the response: what was done and why. */
  note: string;
}

/**
 * Reorders the top of `items` by the cross-encoder when the scores say the ranking is unsure. `scoreOf`
 * gives each item's first-stage score, `textOf` the passage the cross-encoder reads.
 */
export async function rerankIfUnsure<T>(
  items: T[],
  query: string,
  reranker: Reranker,
  settings: RerankSettings,
  scoreOf: (item: T) => number,
  textOf: (item: T) => string,
  signal?: AbortSignal,
): Promise<RerankOutcome<T>> {
  const gap = scoreGap(items.map(scoreOf));
  const shownGap = gap.toFixed(3);
  if (items.length < 2) return { order: items, note: "skipped: fewer than two results" };
  if (gap >= settings.minGap) return { order: items, note: `skipped: confident (score gap ${shownGap} >= ${settings.minGap})` };
  const state = reranker.state();
  if (state !== "ready") {
    // start the load (or download) for the next search; this one keeps its order
    reranker.ready().catch(() => {});
    const now = reranker.state();
    if (now !== "ready") return { order: items, note: `not applied: reranker ${now}` };
  }
  const head = items.slice(0, settings.topK);
  let scores: number[];
  try {
    scores = await reranker.score(query, head.map(textOf), signal);
  } catch (e) {
    return { order: items, note: `not applied: ${e instanceof Error ? e.message : String(e)}` };
  }
  const reordered = head
    .map((item, i) => ({ item, i, s: scores[i] ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.item);
  return { order: [...reordered, ...items.slice(settings.topK)], note: `applied to the top ${head.length} (score gap ${shownGap} < ${settings.minGap})` };
}
