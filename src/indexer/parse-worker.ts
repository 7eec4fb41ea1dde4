/**
 * A parse worker: owns one FactsParser and turns stored files (ParseJobs) into their parse tier.
 * Messages:
 *   in:  { type: "init", project } then { type: "job", id, job }; { type: "stats" } under CORTEX_TRACE
 *   out: { type: "ready" }, { type: "done", id, wire } (the parsed file's wire form, its int buffer
 *        transferred: parsed-file-wire.ts) or { type: "failed", id, error }; { type: "stats", steps }
 *        (this thread's CPU seconds by step, and its full collections)
 */
import { FactsParser, type ParseStageClock } from "../lang/parser.ts";
import type { ProjectInfo } from "../lang/project.ts";
import { parseStoredFile, type ParseJob, type StoredFileClock } from "./file-record.ts";
import { encodeParsedFile } from "./parsed-file-wire.ts";
import { collectIfOver, collectionStats } from "../core/memory.ts";
import { edenGC } from "bun:jsc";
import { threadCpuMicros } from "../core/thread-cpu.ts";

declare const self: Worker;

let parser: FactsParser | undefined;
let project: ProjectInfo | undefined;

/**
 * Under CORTEX_TRACE, where this thread's CPU goes, step by step (the pool logs it at the end): what a
 * worker spends beyond the parse steps scripts/parse-check.ts measures on one thread. `post` is mostly not
 * the message: with a tiny message posted just before each file's, the tiny ones took 3.3 s of go-src's
 * 3.5 (one worker): the engine's deferred work (collection, we take it) runs at the first postMessage.
 */
type WorkerClock = ParseStageClock & StoredFileClock & { encode: number; post: number; collect: number; files: number };
const clock: WorkerClock | undefined = process.env.CORTEX_TRACE
  ? { decompress: 0, parse: 0, matches: 0, lines: 0, errors: 0, extract: 0, words: 0, chunks: 0, encode: 0, post: 0, collect: 0, files: 0 }
  : undefined;
const startCpu = threadCpuMicros();

self.onmessage = async (ev: MessageEvent) => {
  const msg = ev.data as { type: "init"; project: ProjectInfo } | { type: "job"; id: number; job: ParseJob } | { type: "stats" };
  if (msg.type === "init") {
    project = msg.project;
    parser ??= await FactsParser.create();
    if (clock) parser.stageClock = clock;
    self.postMessage({ type: "ready" });
    return;
  }
  if (msg.type === "stats") {
    const steps: Record<string, number> = {};
    for (const [k, v] of Object.entries(clock ?? {})) steps[k] = k === "files" ? v : v / 1e6;
    steps.total = (threadCpuMicros() - startCpu) / 1e6;
    steps.fullCollections = collectionStats().count;
    self.postMessage({ type: "stats", steps });
    return;
  }
  let t = 0;
  sourceSinceFull += msg.job.sizeBytes;
  try {
    const parsed = await parseStoredFile(msg.job, parser!, project!, clock);
    if (clock) t = threadCpuMicros();
    const wire = encodeParsedFile(parsed);
    if (clock) {
      const now = threadCpuMicros();
      clock.encode += now - t;
      t = now;
    }
    self.postMessage({ type: "done", id: msg.id, wire }, [wire.ints.buffer as ArrayBuffer]);
    if (clock) clock.post += threadCpuMicros() - t;
  } catch (e) {
    self.postMessage({ type: "failed", id: msg.id, error: (e as Error).stack ?? String(e) });
  }
  if (clock) {
    clock.files++;
    t = threadCpuMicros();
  }
  // Each file leaves its wire text behind (one string of all its strings, copied into the message):
  // young garbage that JavaScriptCore let pile up, about 100 MiB more peak than structured clones left
  // on go-src (parsed on one thread: 531 -> 625 MiB). A young collection every 16 files frees it for
  // nothing measurable (486 MiB, CPU unchanged).
  if (++jobsDone % 16 === 0) edenGC();
  if (sourceSinceFull >= FULL_AFTER_SOURCE_BYTES && collectIfOver()) sourceSinceFull = 0;
  if (clock) clock.collect += threadCpuMicros() - t;
};

let jobsDone = 0;
/**
 * A worker collects its whole heap (collectIfOver: the process over its budget) only after parsing this
 * much source since its last full collection. The budget alone let a worker collect at every file once
 * 250 ms had passed since its last: the kernel's parse tier sits at the budget throughout (464 MiB; its
 * own peak is 540 MiB, the build's 810 MiB comes later, in the keyword load and resolution), so each
 * worker ran 265-310 full collections of a heap of 70-115 MiB, most a few files after the last and
 * freeing under 2 MiB of it (logged per collection: 11 ms of the worker's CPU each, beside the
 * collector's helpers, and 80 ms of its wall time at load 20). A worker's old garbage grows with what it
 * parses, so the bytes parsed bound what it leaves uncollected: go-src's parse tier with no full
 * collection in its workers (32 MiB here) peaked at 703 MiB against 540, with 8 MiB at 510-530.
 */
const FULL_AFTER_SOURCE_BYTES = 8 * 2 ** 20;
let sourceSinceFull = 0; // bytes of source this worker parsed since its last full collection
