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
  collectIfOver();
};
