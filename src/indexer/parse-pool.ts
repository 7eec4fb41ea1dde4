/**
 * The parse tier of many stored files, in parallel on worker threads, yielding outcomes as they finish
 * so the caller can write them in batches while parsing goes on. A job's content is loaded only when it
 * is handed to a worker, so the backlog, not the project, is what sits in memory. Small jobs run on the
 * calling thread: starting workers (each loads the grammars it meets) costs more than parsing a handful
 * of files.
 */
import { FactsParser } from "../lang/parser.ts";
import type { ProjectInfo } from "../lang/project.ts";
import type { ParsedFile, UnparsedFile } from "../store/types.ts";
import { parseStoredFile, type ParseJob } from "./file-record.ts";
import { decodeParsedFile, type ParsedFileWire } from "./parsed-file-wire.ts";
import { availableParallelism } from "node:os";
import { startWorker } from "../core/worker-entry.ts";
import { log } from "../core/log.ts";

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

export type ParseOutcome = { kind: "parsed"; file: ParsedFile } | { kind: "failed"; path: string; error: string };

/**
 * Loads a stored file's content (undefined when it has gone from the index meanwhile). The bytes are handed
 * over: a worker's job takes them (moved, not copied, when they fill their buffer), so a loader returns a copy
 * of its own for each call, as a read from the store does.
 */
export type ContentLoader = (file: UnparsedFile) => Uint8Array | undefined;

/**
 * Parses `files` (on workers when there are many), yielding each outcome as it finishes. The list is
 * the pool's: a file's slot is emptied once it is parsed (parseInWorkers).
 */
export async function* parseFiles(
  files: UnparsedFile[],
  load: ContentLoader,
  project: ProjectInfo,
  workers = defaultWorkerCount(),
): AsyncGenerator<ParseOutcome> {
  if (files.length <= INLINE_LIMIT || workers < 1) {
    inlineParser ??= FactsParser.create();
    const parser = await inlineParser;
    for (const f of files) {
      const job = jobOf(f, load);
      if (!job) continue;
      try {
        yield { kind: "parsed", file: await parseStoredFile(job, parser, project) };
      } catch (e) {
        yield { kind: "failed", path: f.path, error: `parser crashed: ${(e as Error).stack ?? e}` };
      }
    }
    return;
  }
  yield* parseInWorkers(files, load, project, Math.min(workers, Math.ceil(files.length / 16)));
}

function jobOf(f: UnparsedFile, load: ContentLoader): ParseJob | undefined {
  const content = load(f);
  return content ? { fileId: f.fileId, path: f.path, sizeBytes: f.sizeBytes, mtimeMs: f.mtimeMs, content } : undefined;
}

async function* parseInWorkers(jobs: UnparsedFile[], load: ContentLoader, project: ProjectInfo, count: number): AsyncGenerator<ParseOutcome> {
  interface Slot {
    worker: Worker;
    inflight: number;
    started: boolean;
  }
  const slots: Slot[] = [];
  // a parsed file waits in its wire form, smaller than its objects, and is read back when handed out
  const ready: Array<ParseOutcome | { kind: "wire"; path: string; wire: ParsedFileWire; from: Worker }> = [];
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
  // and by bytes: a parsed file takes about 6 times its size until written, so 96 of the kernel's 1 MiB
  // generated headers waiting were over 500 MiB; a file larger than the bound goes when nothing else waits
  const MAX_WAITING_BYTES = 8 * 2 ** 20;
  let waitingBytes = 0; // source bytes of the jobs in flight and of the outcomes not yet handed out
  const readyBytes: number[] = []; // beside ready: each outcome's source bytes

  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const pump = () => {
    for (const slot of slots) {
      while (
        slot.started &&
        slot.inflight < PER_WORKER_INFLIGHT &&
        next < jobs.length &&
        ready.length - head + inflightTotal() < MAX_WAITING &&
        (waitingBytes === 0 || waitingBytes + jobs[next]!.sizeBytes <= MAX_WAITING_BYTES)
      ) {
        const id = next++;
        const job = jobOf(jobs[id]!, load);
        if (!job) {
          finished++; // gone from the index since it was listed: nothing to parse
          continue;
        }
        slot.inflight++;
        waitingBytes += job.sizeBytes;
        // the content is this job's own copy of the stored bytes (read for it just now): moved, not copied
        const content = job.content;
        const owned = content.byteOffset === 0 && content.byteLength === content.buffer.byteLength;
        slot.worker.postMessage({ type: "job", id, job }, owned ? [content.buffer as ArrayBuffer] : []);
      }
    }
  };
  const inflightTotal = () => slots.reduce((a, s) => a + s.inflight, 0);
  const stats: Array<Record<string, number>> = [];

  for (let i = 0; i < count; i++) {
    const slot: Slot = { worker: startWorker("indexer/parse-worker"), inflight: 0, started: false };
    slot.worker.onmessage = (ev: MessageEvent) => {
      const msg = ev.data;
      if (msg.type === "stats") {
        stats.push(msg.steps as Record<string, number>);
        notify();
        return;
      }
      if (msg.type === "ready") {
        slot.started = true;
        pump();
        notify(); // jobs skipped by the pump count as finished
        return;
      }
      slot.inflight--;
      const job = jobs[msg.id as number];
      if (msg.type === "done" || msg.type === "failed") {
        readyBytes.push(job?.sizeBytes ?? 0);
        // the file's listing goes once it is parsed: the kernel's 78,000 held to the end were a large part
        // of the calling thread's live heap, which its full collections mark each time
        (jobs as Array<UnparsedFile | undefined>)[msg.id as number] = undefined;
      }
      if (msg.type === "done") ready.push({ kind: "wire", path: job?.path ?? "?", wire: msg.wire as ParsedFileWire, from: slot.worker });
      else if (msg.type === "failed") ready.push({ kind: "failed", path: job?.path ?? "?", error: `parser crashed: ${msg.error}` });
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
        const waiting = ready[head]!;
        ready[head] = undefined as unknown as ParseOutcome; // let the outcome go once handed out
        waitingBytes -= readyBytes[head++]!;
        if (head > 1024 && head * 2 > ready.length) {
          ready.splice(0, head);
          readyBytes.splice(0, head);
          head = 0;
        }
        pump();
        if (waiting.kind !== "wire") {
          yield waiting;
          continue;
        }
        const outcome = wireOutcome(waiting.path, waiting.wire);
        // read: its buffer goes back to the worker for its next files (parsed-file-wire.ts)
        const buffer = waiting.wire.ints.buffer as ArrayBuffer;
        waiting.from.postMessage({ type: "spare", buffer }, [buffer]);
        yield outcome;
        continue;
      }
      if (failure) throw failure;
      await new Promise<void>((r) => (wake = r));
    }
    if (process.env.CORTEX_TRACE) {
      // each worker's CPU by step (parse-worker.ts): what the parse tier costs beyond parsing itself
      for (const s of slots) s.worker.postMessage({ type: "stats" });
      while (stats.length < slots.length && !failure) await new Promise<void>((r) => (wake = r));
      for (const [i, s] of stats.entries()) {
        const steps = Object.entries(s).map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`);
        log.warn(`parse worker ${i + 1}: ${steps.join(", ")} (CPU s)`);
      }
    }
  } finally {
    for (const s of slots) s.worker.terminate();
  }
}

/** A worker's parsed file read back; a wire form that cannot be read is that file's failure, not the run's. */
function wireOutcome(path: string, wire: ParsedFileWire): ParseOutcome {
  try {
    return { kind: "parsed", file: decodeParsedFile(wire) };
  } catch (e) {
    return { kind: "failed", path, error: `parser crashed: ${(e as Error).message}` };
  }
}
