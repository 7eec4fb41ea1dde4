/**
 * Parses many files in parallel on worker threads, yielding outcomes as they finish so the caller can
 * write them in batches while parsing goes on. Small jobs run on the calling thread: starting workers
 * (each loads the grammars it meets) costs more than parsing a handful of files.
 */
import { FactsParser } from "../lang/parser.ts";
import type { ProjectInfo } from "../lang/project.ts";
import { processFile, type FileJob, type FileOutcome } from "./file-record.ts";
import { availableParallelism } from "node:os";
import { workerEntry } from "../core/worker-entry.ts";

const INLINE_LIMIT = 64;
let inlineParser: Promise<FactsParser> | undefined;

/**
 * One worker per core but one, and at least two: the calling thread writes what the workers parse
 * (SQLite, in C), but writing is a third of parsing, so on 2 cores a lone worker left the writer idle two
 * thirds of the time (go-src: parse and write 52.7 s with one worker, 43.2 s with two).
 */
export function defaultWorkerCount(): number {
  return Math.min(8, Math.max(2, availableParallelism() - 1));
}

export async function* parseFiles(jobs: FileJob[], project: ProjectInfo, workers = defaultWorkerCount()): AsyncGenerator<FileOutcome> {
  if (jobs.length <= INLINE_LIMIT || workers < 1) {
    inlineParser ??= FactsParser.create();
    const parser = await inlineParser;
    for (const job of jobs) yield await processFile(job, parser, project);
    return;
  }
  yield* parseInWorkers(jobs, project, Math.min(workers, Math.ceil(jobs.length / 16)));
}

async function* parseInWorkers(jobs: FileJob[], project: ProjectInfo, count: number): AsyncGenerator<FileOutcome> {
  interface Slot {
    worker: Worker;
    inflight: number;
    started: boolean;
  }
  const slots: Slot[] = [];
  const ready: FileOutcome[] = [];
  let head = 0; // ready[head…] are not yet handed out
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  let next = 0;
  let finished = 0;
  // Enough queued per worker that none idles while the caller is inside a write transaction, but a
  // bounded backlog overall: parsed files wait in memory (text, facts, chunk words) until written, and a
  // caller slower than the workers must slow them down, not let outcomes pile up.
  const PER_WORKER_INFLIGHT = 16;
  const MAX_WAITING = 96;

  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const pump = () => {
    for (const slot of slots) {
      while (slot.started && slot.inflight < PER_WORKER_INFLIGHT && next < jobs.length && ready.length - head + inflightTotal() < MAX_WAITING) {
        const id = next++;
        slot.inflight++;
        slot.worker.postMessage({ type: "job", id, job: jobs[id] });
      }
    }
  };
  const inflightTotal = () => slots.reduce((a, s) => a + s.inflight, 0);

  for (let i = 0; i < count; i++) {
    const slot: Slot = { worker: new Worker(workerEntry("indexer/parse-worker")), inflight: 0, started: false };
    slot.worker.onmessage = (ev: MessageEvent) => {
      const msg = ev.data;
      if (msg.type === "ready") {
        slot.started = true;
        pump();
        return;
      }
      slot.inflight--;
      if (msg.type === "done") ready.push(msg.outcome as FileOutcome);
      else if (msg.type === "failed") {
        const job = jobs[msg.id as number];
        ready.push({ kind: "unreadable", path: job?.path ?? "?", error: `parser crashed: ${msg.error}` });
      }
      finished++;
      pump();
      notify();
    };
    slot.worker.onerror = (ev) => {
      failure = new Error(`parse worker failed: ${(ev as ErrorEvent).message}`);
      notify();
    };
    slot.worker.postMessage({ type: "init", project });
    slots.push(slot);
  }

  try {
    while (finished < jobs.length || head < ready.length) {
      if (head < ready.length) {
        const outcome = ready[head]!;
        ready[head++] = undefined as unknown as FileOutcome; // let the outcome go once handed out
        if (head > 1024 && head * 2 > ready.length) {
          ready.splice(0, head);
          head = 0;
        }
        pump();
        yield outcome;
        continue;
      }
      if (failure) throw failure;
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    for (const s of slots) s.worker.terminate();
  }
}
