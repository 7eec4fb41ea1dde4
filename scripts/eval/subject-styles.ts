#!/usr/bin/env bun
/**
 * For file records made before they kept the history's subject style (file-record.ts `style`): per
 * instance, how the commit subjects the index would store are worded (SubjectStyle), read from the
 * repository's mirror at the instance's base commit the way the indexer reads its history (the newest
 * 2,000 commits, merges and sweeps left out: indexer/git-history.ts, store/history-store.ts). The output is
 * rank-tune's `--styles`.
 *
 *   bun scripts/eval/subject-styles.ts --data scripts/eval/sets/data/commits.jsonl[,more.jsonl] [--split dev] --out styles.json
 */
import { parseArgs } from "node:util";
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { spawnSync } from "node:child_process";
import { loadInstances } from "./dataset.ts";
import { parseLog } from "../../src/indexer/git-history.ts";
import { SWEEP_FILES, styleOf } from "../../src/store/history-store.ts";
import { recordedStyle, type RecordedStyle } from "./file-record.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    data: { type: "string" },
    split: { type: "string" },
    mirrors: { type: "string", default: "/work/.mirror" },
    commits: { type: "string", default: "2000" },
    out: { type: "string" },
  },
});
if (!values.data || !values.out) throw new Error("--data and --out are required");
const byCommit = new Map<string, RecordedStyle>();
const out: Record<string, RecordedStyle> = {};
for (const data of values.data.split(",")) {
  for (const instance of loadInstances(resolve(data), values.split ? { split: values.split } : {})) {
    const key = `${instance.repo}@${instance.base_commit}`;
    let style = byCommit.get(key);
    if (!style) {
      // a repository's own mirror, or SWE-bench's copy of it
      const own = resolve(values.mirrors!, instance.repo.replace("/", "+"), "repo");
      const git = existsSync(own) ? own : resolve(values.mirrors!, `swe-bench+${instance.repo.replace("/", "__")}`, "repo");
      const r = spawnSync(
        "git",
        [
          "--git-dir",
          git,
          "log",
          "--no-merges",
          "--no-renames",
          "--name-only",
          "-z",
          `--max-count=${values.commits}`,
          "--format=%x1e%H %ct %s",
          instance.base_commit,
          "--",
        ],
        {
          maxBuffer: 1 << 30,
        },
      );
      if (r.status !== 0) throw new Error(`git log ${key}: ${r.stderr}`);
      // as writeHistory stores them: sweeps and commits without paths left out
      const subjects = parseLog(r.stdout)
        .filter((c) => new Set(c.files).size > 0 && new Set(c.files).size <= SWEEP_FILES)
        .map((c) => c.subject);
      style = recordedStyle(styleOf(subjects));
      byCommit.set(key, style);
    }
    out[instance.instance_id] = style;
  }
}
writeFileSync(resolve(values.out), JSON.stringify(out));
process.stderr.write(`${Object.keys(out).length} instances, ${byCommit.size} commits\n`);
