/**
 * A parse worker: owns one FactsParser and turns stored files (ParseJobs) into their parse tier.
 * Messages:
 *   in:  { type: "init", project } then { type: "job", id, job }
 *   out: { type: "ready" }, { type: "done", id, wire } (the parsed file's wire form, its int buffer
 *        transferred: parsed-file-wire.ts) or { type: "failed", id, error }
 */
import { FactsParser } from "../lang/parser.ts";
import type { ProjectInfo } from "../lang/project.ts";
import { parseStoredFile, type ParseJob } from "./file-record.ts";
import { encodeParsedFile } from "./parsed-file-wire.ts";
import { collectIfOver } from "../core/memory.ts";
import { edenGC } from "bun:jsc";

declare const self: Worker;

let parser: FactsParser | undefined;
let project: ProjectInfo | undefined;

self.onmessage = async (ev: MessageEvent) => {
  const msg = ev.data as { type: "init"; project: ProjectInfo } | { type: "job"; id: number; job: ParseJob };
  if (msg.type === "init") {
    project = msg.project;
    parser ??= await FactsParser.create();
    self.postMessage({ type: "ready" });
    return;
  }
  try {
    const wire = encodeParsedFile(await parseStoredFile(msg.job, parser!, project!));
    self.postMessage({ type: "done", id: msg.id, wire }, [wire.ints.buffer as ArrayBuffer]);
  } catch (e) {
    self.postMessage({ type: "failed", id: msg.id, error: (e as Error).stack ?? String(e) });
  }
  // Each file leaves its wire text behind (one string of all its strings, copied into the message):
  // young garbage that JavaScriptCore let pile up, about 100 MiB more peak than structured clones left
  // on go-src (parsed on one thread: 531 -> 625 MiB). A young collection every 16 files frees it for
  // nothing measurable (486 MiB, CPU unchanged).
  if (++jobsDone % 16 === 0) edenGC();
  collectIfOver();
};

let jobsDone = 0;
