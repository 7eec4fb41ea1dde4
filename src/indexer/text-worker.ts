/**
 * A text tier worker: reads, checks, hashes, decodes and compresses files from disk (readTextFile) for
 * the indexer's thread, which writes them. Messages:
 *   in:  { id, jobs } (FileJobs)
 *   out: { id, outcomes } (their TextOutcomes in order, each stored content's buffer transferred)
 */
import { readTextFile, type FileJob, type TextOutcome } from "./file-record.ts";

declare const self: Worker;

self.onmessage = (ev: MessageEvent) => {
  const { id, jobs } = ev.data as { id: number; jobs: FileJob[] };
  const outcomes: TextOutcome[] = jobs.map(readTextFile);
  // each stored content and trigram list moves rather than being copied (once per buffer: a transfer list
  // naming one twice is refused)
  const buffers = new Set(
    outcomes.flatMap((o) =>
      o.kind === "text" ? [o.file.content.buffer as ArrayBuffer, ...(o.file.trigrams ? [o.file.trigrams.buffer as ArrayBuffer] : [])] : [],
    ),
  );
  self.postMessage({ id, outcomes }, [...buffers]);
};
