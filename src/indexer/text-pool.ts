/**
 * The text tier's reads (readTextFile: read, binary check, hash, decode, compress) on worker threads for a
 * large run, yielded in the jobs' order so the indexer's thread writes them as it would have read them
 * (same file ids). On one thread that work was most of the text tier (the kernel: about 11 s of CPU for
 * 76,839 files, zstd the larger part) while the other core idled; the indexer's thread now only writes.
 */
import { readTextFile, type FileJob, type TextOutcome } from "./file-record.ts";
import { startWorker } from "../core/worker-entry.ts";

/** Runs of fewer files read on the calling thread: starting workers costs more than they would save. */
const WORKER_MIN_FILES = 2000;
/** Files per message. */
const CHUNK = 32;
/**
 * Chunks in flight per worker: one being read, one waiting, so a worker never waits for the writer's next
 * message. Bounds what waits in memory (compressed contents) to a few chunks a worker.
 */
const PER_WORKER_INFLIGHT = 2;

export async function* readTextFiles(jobs: FileJob[], workers: number, minFiles = WORKER_MIN_FILES): AsyncGenerator<TextOutcome> {
  if (jobs.length < minFiles || workers < 1) {
    for (const job of jobs) yield readTextFile(job);
    return;
  }
  const chunks = Math.ceil(jobs.length / CHUNK);
  const done = new Map<number, TextOutcome[]>();
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let next = 0; // the next chunk to send
  let consumed = 0; // chunks handed out
  // read chunks wait for the one before them: at most this many ahead of the writer
  const window = (PER_WORKER_INFLIGHT + 1) * workers;
  const pool: Array<{ worker: Worker; inflight: number }> = [];
  const send = (slot: { worker: Worker; inflight: number }) => {
    while (slot.inflight < PER_WORKER_INFLIGHT && next < chunks && next < consumed + window) {
      const id = next++;
      slot.inflight++;
      slot.worker.postMessage({ id, jobs: jobs.slice(id * CHUNK, (id + 1) * CHUNK) });
    }
  };
  for (let i = 0; i < Math.min(workers, chunks); i++) {
    const slot = { worker: startWorker("indexer/text-worker"), inflight: 0 };
    slot.worker.onmessage = (ev: MessageEvent) => {
      const msg = ev.data as { id: number; outcomes: TextOutcome[] };
      slot.inflight--;
      done.set(msg.id, msg.outcomes);
      send(slot);
      notify();
    };
    slot.worker.onerror = (ev) => {
      failure = new Error(`text tier worker failed: ${(ev as ErrorEvent).message}`);
      notify();
    };
    pool.push(slot);
    send(slot);
  }
  try {
    for (let id = 0; id < chunks; id++) {
      let outcomes = done.get(id);
      while (!outcomes) {
        if (failure) throw failure;
        await new Promise<void>((r) => (wake = r));
        outcomes = done.get(id);
      }
      done.delete(id);
      consumed = id + 1;
      for (const slot of pool) send(slot);
      yield* outcomes;
    }
  } finally {
    for (const slot of pool) slot.worker.terminate();
  }
}
