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
 * worker spends beyond the parse steps scripts/parse-check.ts measures on one thread. Timed by
 * threadCpuMicros's up-to-date clock: with getrusage's, `post` was charged the steps' CPU since the
 * scheduler's last update (its postMessage wakes the indexer's thread and so brings the count up to
 * date), 1.7 s of a go-src worker's 12.8, where the message itself takes 7 µs a file.
 */
type WorkerClock = ParseStageClock & StoredFileClock & { encode: number; post: number; collect: number; files: number };
const clock: WorkerClock | undefined = process.env.CORTEX_TRACE
  ? { decompress: 0, parse: 0, matches: 0, lines: 0, errors: 0, extract: 0, words: 0, chunks: 0, encode: 0, post: 0, collect: 0, files: 0 }
  : undefined;
const startCpu = clock ? threadCpuMicros() : 0;

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
  // collectIfOver after every file: on the kernel the process sits at its budget through the parse tier, so
  // each worker runs about 300 full collections of a 70-115 MiB heap, most freeing under 2 MiB. Most of what
  // the trace counted as their cost was the resident-size read (memory.ts residentBytes); with that fixed,
  // a worker that collected only after 8 MiB of source parsed since its last full collection spent the same
  // CPU on the kernel (228.9 s / 410 s against 226.3 s / 408 s, a quiet pair) and peaked higher (kernel 853
  // against 827 MiB, go-src 638 against 557): its young collections, run by the engine while parsing, did
  // the work the full ones had. docs/benchmarks.md, "The kernel and go-src after this stop's merges".
  collectIfOver();
  if (clock) clock.collect += threadCpuMicros() - t;
};

let jobsDone = 0;
