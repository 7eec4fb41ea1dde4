/**
 * What an MCP client hears of an index run in the background (notifications/message, through the log):
 * each tier's start and end, and the parse tier every quarter, so that an agent knows when grep and exact
 * search answer (the text tier) and when the rest does.
 */
import type { IndexProgress } from "../indexer/pipeline.ts";
import { log } from "../core/log.ts";

/** Runs this large are told to the client as they go (notifications/message); smaller ones at debug level. */
const NOTICE_FILES = 500;

/** A progress callback that logs the run's tiers (info for runs of NOTICE_FILES files or more, else debug). */
export function tierNotices(): (p: IndexProgress) => void {
  let phase = "";
  let quarter = 0;
  // the run's size, from its tiers' file counts (the finish phase counts steps)
  let files = 0;
  return (p) => {
    if (p.phase === "text" || p.phase === "parse") files = Math.max(files, p.total);
    const say = (message: string) => (files >= NOTICE_FILES ? log.info(message) : log.debug(message));
    if (p.phase === "finish" && phase === "finish") {
      if (p.step && p.step !== "done") say(`index: finishing: ${p.step}`);
      return;
    }
    if (p.phase !== phase) {
      if (phase === "text" && p.phase !== "walk") say("index: text tier written: grep and exact search answer from every file now");
      phase = p.phase;
      quarter = 0;
      if (p.phase === "text" && p.total > 0) say(`index: text tier: reading ${p.total} files`);
      if (p.phase === "parse" && p.total > 0) say(`index: parse tier: parsing ${p.total} files (symbols, references, graphs, search chunks follow)`);
      if (p.phase === "finish") say(`index: parse tier written; finishing: ${p.step ?? "references and the keyword index"}`);
      return;
    }
    if (p.phase === "parse" && p.total > 0 && Math.floor((p.done / p.total) * 4) > quarter) {
      quarter = Math.floor((p.done / p.total) * 4);
      if (quarter < 4) say(`index: parse tier: ${p.done}/${p.total} files`);
    }
  };
}
