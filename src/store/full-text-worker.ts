/**
 * Loads a full build's staged words into its keyword indexes (see
 * full-text-load.ts). Messages:
 *   in:  { dbPath, stagePath }
 *   out: { ok: true, cpuMs } (the thread's CPU milliseconds) or { ok: false, error }
 */
import { buildTextIndexesAt } from "./full-text-load.ts";

declare const self: Worker;

self.onmessage = (ev: MessageEvent) => {
  const { dbPath, stagePath } = ev.data as { dbPath: string; stagePath: string };
  try {
    const cpuMs = buildTextIndexesAt(dbPath, stagePath);
    self.postMessage({ ok: true, cpuMs });
  } catch (e) {
    self.postMessage({ ok: false, error: (e as Error).message });
  }
};
