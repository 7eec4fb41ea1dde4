/**
 * A parse worker: owns one FactsParser and turns stored files (ParseJobs) into their parse tier.
 * Messages:
 *   in:  { type: "init", project } then { type: "job", id, job }; { type: "spare", buffer } (a wire form's
 *        buffer, handed back once read, for the next files); { type: "stats" } under CORTEX_TRACE
 *   out: { type: "ready" }, { type: "done", id, wire } (the parsed file's wire form, its buffer
 *        transferred: parsed-file-wire.ts) or { type: "failed", id, error }; { type: "stats", steps }
 *        (this thread's CPU seconds by step, and its full collections)
 */
import { FactsParser, type ParseStageClock } from "../lang/parser.ts";
import type { ProjectInfo } from "../lang/project.ts";
import { parseStoredFile, type ParseJob, type StoredFileClock } from "./file-record.ts";
import { encodeParsedFile, recycleWireBuffer } from "./parsed-file-wire.ts";
import { collectOnGrowth, collectionStats, PARSE_TIER_GROWTH_BYTES } from "../core/memory.ts";
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
  const msg = ev.data as
    | { type: "init"; project: ProjectInfo }
    | { type: "job"; id: number; job: ParseJob }
    | { type: "spare"; buffer: ArrayBuffer }
    | { type: "stats" };
  if (msg.type === "spare") {
    recycleWireBuffer(msg.buffer);
    return;
  }
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
  // A full collection once the process is over its budget and has grown by 16 MiB since this thread's last
  // one (memory.ts collectOnGrowth, PARSE_TIER_GROWTH_BYTES), asked after every file. It was collectIfOver,
  // over the budget alone: since index runs keep the allocator's free holes (cli/allocator-restart.ts) the
  // resident size no longer falls after a collection, so a worker on the kernel collected whenever the 250 ms
  // spacing let it, 620-706 times, most freeing little, and what each one freed was faulted in again: 13-16 s
  // of each worker's 144-150 s of CPU. On growth: 60 per worker, 5.4-5.7 s (the young collections below
  // included), the kernel's parse tier 233-255 → 206 s, its peak unchanged, go-src's within its spread
  // (docs/benchmarks.md, "Full collections on growth"). Earlier, before the allocator's option, collecting only
  // after 8 MiB of source parsed cost the same CPU and peaked higher: its young collections did the full ones' work.
  collectOnGrowth(undefined, PARSE_TIER_GROWTH_BYTES);
  if (clock) clock.collect += threadCpuMicros() - t;
};

let jobsDone = 0;
