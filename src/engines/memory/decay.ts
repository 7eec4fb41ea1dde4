/**
 * How much a memory is still worth: conventions never decay; decisions halve every 180 days; gotchas and
 * failures every 90 days. Below 30 % a memory is flagged stale (still returned, so it can be re-confirmed
 * or removed).
 */
import type { MemoryType } from "./store.ts";

export const HALF_LIFE_DAYS: Record<MemoryType, number | undefined> = { convention: undefined, decision: 180, gotcha: 90, failure: 90 };
export const STALE_BELOW = 0.3;

export function confidence(type: MemoryType, createdAt: string, now = Date.now()): number {
  const half = HALF_LIFE_DAYS[type];
  if (half === undefined) return 1;
  const days = Math.max(0, (now - Date.parse(createdAt)) / 86_400_000);
  return 0.5 ** (days / half);
}
