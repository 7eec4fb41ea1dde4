/**
 * A verification worker: confirms candidate files against a pattern off the main thread, so a regex that
 * backtracks for minutes cannot stall the server; the pool terminates a worker that overruns the deadline.
 *
 *   in:  VerifyJob (see pool.ts); a shared control array holds [stop flag, next chunk]
 *   out: { type: "ready" } once, then per job { type: "chunk", … } for each chunk taken and { type: "idle", jobId }
 * Workers take chunks from the shared counter, so two of them balance the load without a coordinator.
 */
import { openIndexReader } from "../../store/open-reader.ts";
import type { IndexReader } from "../../store/contract.ts";
import { LineMatcher } from "./line-scan.ts";
import { ByteLiteralScanner } from "./byte-scan.ts";
import { readDiskText } from "./disk-text.ts";
import { diskStateAt } from "./view.ts";
import { packHits } from "./hit-wire.ts";
import type { VerifyJob, ChunkResult, VerifiedFile } from "./pool.ts";

declare const self: Worker;

let open: { source: string; index: IndexReader } | undefined;

function indexAt(source: string): IndexReader {
  if (open?.source !== source) {
    void open?.index.close();
    open = { source, index: openIndexReader(source) };
  }
  return open.index;
}

async function run(job: VerifyJob): Promise<void> {
  const control = new Int32Array(job.control);
  const stopped = () => Atomics.load(control, 0) !== 0;
  const matcher = new LineMatcher(job.spec);
  // a literal the byte scanner handles is found in the stored bytes, never decoded (as inline searches do)
  const bytes = ByteLiteralScanner.for(job.spec);
  const index = indexAt(job.source);
  const chunks = Math.ceil(job.ids.length / job.chunkSize);
  for (;;) {
    if (stopped()) break;
    const chunk = Atomics.add(control, 1, 1);
    if (chunk >= chunks) break;
    const result: ChunkResult = { type: "chunk", jobId: job.jobId, chunk, files: [], complete: true };
    const start = chunk * job.chunkSize;
    const end = Math.min(job.ids.length, (chunk + 1) * job.chunkSize);
    const ids = job.ids.subarray(start, end);
    const stored = bytes ? await index.texts(ids, "bytes") : await index.texts(ids, "string");
    for (let i = start; i < end; i++) {
      if (stopped()) {
        result.complete = false;
        break;
      }
      const abs = job.disk[i];
      const text = abs !== undefined ? readDiskText(abs) : stored[i - start];
      if (text === undefined) continue;
      const hits =
        typeof text === "string" ? matcher.scan(text, job.contextLines, job.maxPerFile, stopped) : bytes!.scan(text, job.contextLines, job.maxPerFile);
      if (hits.length > 0) result.files.push(verified(job, i, hits, abs !== undefined));
      if (stopped()) {
        result.complete = false;
        break;
      }
    }
    // the hits packed (hit-wire.ts): structured clones of thousands of hit objects cost more than finding them
    const { files, ...rest } = result;
    self.postMessage({ ...rest, files: [], wire: packHits(files) });
  }
  self.postMessage({ type: "idle", jobId: job.jobId });
}

/** A file's hits, checked on disk when the job asks and they came from the index. */
function verified(job: VerifyJob, item: number, hits: ChunkResult["files"][number]["hits"], fromDisk: boolean): VerifiedFile {
  const file: VerifiedFile = { item, hits };
  const check = job.onDisk;
  if (check !== undefined && !fromDisk) {
    const row = { mtimeMs: check.mtimes[item]!, sizeBytes: check.sizes[item]! };
    if (diskStateAt(check.root, check.paths[item]!, row) !== "same") file.stale = true;
  }
  return file;
}

self.onmessage = (ev: MessageEvent) => {
  const msg = ev.data as VerifyJob;
  run(msg).catch((e: Error) => self.postMessage({ type: "error", jobId: msg.jobId, error: e.message }));
};

self.postMessage({ type: "ready" });
