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

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

export async function* parseFiles(jobs: FileJob[], project: ProjectInfo, workers = defaultWorkerCount()): AsyncGenerator<FileOutcome> {
  if (jobs.length <= INLINE_LIMIT || workers <= 1) {
    inlineParser ??= FactsParser.create();
    const parser = await inlineParser;
    for (const job of jobs) yield await processFile(job, parser, project);
    return;
  }
  yield* parseInWorkers(jobs, project, Math.min(workers, Math.ceil(jobs.length / 16)));
}

async function* parseInWorkers(jobs: FileJob[], project: ProjectInfo, count: number): AsyncGenerator<FileOutcome> {
  const pool: Worker[] = [];
  const ready: FileOutcome[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  let next = 0;
  let finished = 0;
  // Keep enough jobs queued per worker that none idles while the main thread is inside a write
  // transaction (it only hands out new jobs between transactions).
  const PER_WORKER_INFLIGHT = 48;

  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const feed = (w: Worker) => {
    if (next < jobs.length) {
      const id = next++;
      w.postMessage({ type: "job", id, job: jobs[id] });
    }
  };

  for (let i = 0; i < count; i++) {
    const w = new Worker(workerEntry("indexer/parse-worker"));
    w.onmessage = (ev: MessageEvent) => {
      const msg = ev.data;
      if (msg.type === "ready") {
        for (let k = 0; k < PER_WORKER_INFLIGHT; k++) feed(w);
        return;
      }
      if (msg.type === "done") ready.push(msg.outcome as FileOutcome);
      else if (msg.type === "failed") {
        const job = jobs[msg.id as number];
        ready.push({ kind: "unreadable", path: job?.path ?? "?", error: `parser crashed: ${msg.error}` });
      }
      finished++;
      feed(w);
      notify();
    };
    w.onerror = (ev) => {
      failure = new Error(`parse worker failed: ${(ev as ErrorEvent).message}`);
      notify();
    };
    w.postMessage({ type: "init", project });
    pool.push(w);
  }

  try {
    while (finished < jobs.length || ready.length > 0) {
      if (ready.length > 0) {
        yield ready.shift()!;
        continue;
      }
      if (failure) throw failure;
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    for (const w of pool) w.terminate();
  }
}
