/**
 * Loads a full build's staged words into its keyword indexes (see
 * full-text-load.ts). Messages:
 *   in:  { dbPath, stagePath, laterIndexes } (laterIndexes: build the secondary indexes left, after the load)
 *   out: { ok: true, cpuMs, indexCpuMs } (the thread's CPU milliseconds, all and in the indexes) or { ok: false, error }
 */
import { buildTextIndexesAt } from "./full-text-load.ts";

declare const self: Worker;

self.onmessage = (ev: MessageEvent) => {
  const { dbPath, stagePath, laterIndexes } = ev.data as { dbPath: string; stagePath: string; laterIndexes: boolean };
  try {
    self.postMessage({ ok: true, ...buildTextIndexesAt(dbPath, stagePath, laterIndexes) });
  } catch (e) {
    self.postMessage({ ok: false, error: (e as Error).message });
  }
};
