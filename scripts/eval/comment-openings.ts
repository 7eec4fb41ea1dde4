#!/usr/bin/env bun
/**
 * EXPERIMENT (qdesc, not kept): the opening words of each dev repository's comments (the parser's comment
 * ranges, every docstring question's own comment blanked), at the docstring set's commit, for
 * rank-tune's replay (CORTEX_COMMENT_STYLES). Writes /tmp/qdesc/comment-openings.json.
 *
 *   bun scripts/eval/comment-openings.ts '{"owner/repo": "<commit>", ...}'
 */
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync, rmSync } from "node:fs";
import { readCorpusTexts } from "../corpus-texts.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import { openingWord } from "../../src/core/words.ts";
import { CORPUS_FILTERS } from "./corpus.ts";
const commits: Record<string, string> = JSON.parse(process.argv[2]!);
// every docstring question's own comment blanked (as the eval's corpus does), so no question counts its own opening
const strips = new Map<string, Array<[number, number]>>();
for (const line of (await Bun.file("scripts/eval/sets/data/docstrings.jsonl").text()).split("\n")) {
  if (!line.trim()) continue;
  const d = JSON.parse(line) as { repo: string; file: string; strip: Array<[number, number]> };
  const k = `${d.repo}:${d.file}`;
  strips.set(k, [...(strips.get(k) ?? []), ...d.strip]);
}
const out: Record<string, { comments: number; openings: Record<string, number> }> = {};
const parser = await FactsParser.create();
for (const [repo, commit] of Object.entries(commits)) {
  const dir = `/tmp/qdesc/co/${repo.replace("/", "+")}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execSync(`git --git-dir /work/.mirror/${repo.replace("/", "+")}/repo archive ${commit} | tar -x -C ${dir}`);
  const { project, files } = readCorpusTexts(dir, {});
  const openings = new Map<string, number>();
  let comments = 0;
  for (const f of files) {
    if (!CORPUS_FILTERS.source(f.path)) continue;
    let text = f.text;
    for (const [a, b] of strips.get(`${repo}:${f.path}`) ?? []) text = text.slice(0, a) + text.slice(a, b).replace(/[^\n]/g, " ") + text.slice(b);
    const parsed = await parser.parse(f.path, text, project);
    for (const [s, e] of parsed.comments ?? []) {
      const w = openingWord(text.slice(s, Math.min(e, s + 200)));
      if (!w) continue;
      comments++;
      openings.set(w, (openings.get(w) ?? 0) + 1);
    }
  }
  out[repo] = { comments, openings: Object.fromEntries(openings) };
  console.error(
    repo,
    files.length,
    comments,
    [...openings]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([w, n]) => `${w}:${n}`)
      .join(" "),
  );
}
writeFileSync("/tmp/qdesc/comment-openings.json", JSON.stringify(out));
