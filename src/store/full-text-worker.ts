/**
 * Loads a full build's staged words into its keyword indexes (see full-text-load.ts), then, when asked,
 * writes reference resolution's results as they come. Messages:
 *   in:  { dbPath, stagePath, laterIndexes, takesWrites } (laterIndexes: build the secondary indexes left, after
 *        the load; takesWrites: ResolutionWrites follow, the last one { kind: "end" })
 *   out: { ok: true, cpuMs, indexCpuMs, writesCpuMs, waitedMs } (the thread's CPU milliseconds, all, in the
 *        indexes and in the writes; wall milliseconds waiting for writes after the load) or { ok: false, error }
 */
import type { Database } from "bun:sqlite";
import {
  buildTextIndexesAt,
  LEFT_FOR_THE_WRITER,
  openForLoad,
  ResolutionWriter,
  type FullTextLoadCpu,
  type FullTextLoadJob,
  type ResolutionWrite,
} from "./full-text-load.ts";

declare const self: Worker;

/** While writes are taken: the connection, the writer, what the thread spent so far. */
let writing: { db: Database; writer: ResolutionWriter; cpu: FullTextLoadCpu; cpuAtStart: number; idleFrom: number } | undefined;
let failed = false;

const cpuMs = (): number => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

function fail(e: unknown): void {
  failed = true;
  if (writing) {
    writing.writer.abandon();
    try {
      writing.db.close();
    } catch {}
    writing = undefined;
  }
  self.postMessage({ ok: false, error: (e as Error).message });
}

self.onmessage = (ev: MessageEvent) => {
  if (failed) return;
  const data = ev.data as FullTextLoadJob | ResolutionWrite;
  try {
    if ("dbPath" in data) {
      if (!data.takesWrites) {
        self.postMessage({ ok: true, ...buildTextIndexesAt(data.dbPath, data.stagePath, data.laterIndexes) });
        return;
      }
      const db = openForLoad(data.dbPath);
      const start = cpuMs();
      // the indexes the writes rebuild anyway are left to the writer (built at its end)
      const leave = data.laterIndexes ? LEFT_FOR_THE_WRITER : [];
      writing = {
        db,
        writer: new ResolutionWriter(db, leave),
        cpu: buildTextIndexesAt(data.dbPath, data.stagePath, data.laterIndexes, db, leave),
        cpuAtStart: start,
        idleFrom: performance.now(),
      };
      return;
    }
    if (!writing) return;
    const w = writing;
    w.cpu.waitedMs += performance.now() - w.idleFrom;
    const before = cpuMs();
    w.writer.write(data);
    w.cpu.writesCpuMs += cpuMs() - before;
    w.idleFrom = performance.now();
    if (data.kind === "end" || data.kind === "abandon") {
      w.db.close();
      writing = undefined;
      w.cpu.cpuMs = cpuMs() - w.cpuAtStart;
      w.cpu.waitedMs = Math.round(w.cpu.waitedMs);
      self.postMessage({ ok: true, ...w.cpu });
    }
  } catch (e) {
    fail(e);
  }
};
