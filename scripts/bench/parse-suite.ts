/**
 * Parse benchmark: what the language modules cost on their own, one thread, no database. Every file the
 * indexer would take (same walk, same size limit) is parsed into FileFacts in-process; the result is
 * throughput per language, the share of files with syntax errors, the facts found and the slowest
 * files (to spot anything quadratic). The peer is universal-ctags (`ctags -R`) over the same tree and
 * languages, in the same run: the usual tool for the same job (definitions from source).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Corpus } from "./corpora.ts";
import { runTimed, type BenchRow } from "./run.ts";
import { walkProject } from "../../src/indexer/walk.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import { languageFor } from "../../src/lang/registry.ts";

/** Our language ids → universal-ctags language names. */
const CTAGS_LANGUAGES: Record<string, string> = {
  c: "C", cpp: "C++", rust: "Rust", go: "Go", python: "Python", javascript: "JavaScript", typescript: "TypeScript",
  java: "Java", ruby: "Ruby", php: "PHP", c_sharp: "C#", kotlin: "Kotlin",
};

interface LanguageTotals {
  files: number;
  bytes: number;
  ms: number;
  withErrors: number;
  definitions: number;
  references: number;
}

export async function parseSuite(corpus: Corpus): Promise<BenchRow[]> {
  const walked = walkProject(corpus.root, { maxFileSize: 1024 * 1024, extraExcludes: [] });
  const paths = walked.files.map((f) => f.path).filter((p) => languageFor(p).module !== undefined);
  const project = buildProjectInfo(corpus.root, walked.files.map((f) => f.path));
  const parser = await FactsParser.create();
  // load each grammar and compile each query before the clock starts: a one-off cost per process
  const firstOfLanguage = new Map<string, string>();
  for (const p of paths) firstOfLanguage.set(languageFor(p).language, firstOfLanguage.get(languageFor(p).language) ?? p);
  for (const p of firstOfLanguage.values()) await parser.parse(p, "", project);
  const totals = new Map<string, LanguageTotals>();
  const slowest: Array<{ path: string; ms: number; kib: number }> = [];
  const started = performance.now();
  for (const path of paths) {
    const text = readFileSync(join(corpus.root, path), "utf8");
    const t0 = performance.now();
    const parsed = await parser.parse(path, text, project);
    const ms = performance.now() - t0;
    if (!parsed.facts) continue;
    const t = totals.get(parsed.language) ?? { files: 0, bytes: 0, ms: 0, withErrors: 0, definitions: 0, references: 0 };
    t.files++;
    t.bytes += Buffer.byteLength(text);
    t.ms += ms;
    if (parsed.facts.syntaxErrors > 0) t.withErrors++;
    t.definitions += parsed.facts.types.length + parsed.facts.functions.length + parsed.facts.variables.length;
    t.references += parsed.facts.references.length;
    totals.set(parsed.language, t);
    slowest.push({ path, ms, kib: text.length / 1024 });
  }
  const totalMs = performance.now() - started;
  const rows: BenchRow[] = [];
  let files = 0;
  let bytes = 0;
  for (const [lang, t] of [...totals].sort((a, b) => b[1].files - a[1].files)) {
    files += t.files;
    bytes += t.bytes;
    rows.push(
      { metric: `${lang}: files`, value: t.files, unit: "files" },
      { metric: `${lang}: parse + extract`, value: t.files / (t.ms / 1000), unit: "files/s", note: "one thread" },
      { metric: `${lang}: parse + extract`, value: t.bytes / (1 << 20) / (t.ms / 1000), unit: "MiB/s", note: "one thread" },
      { metric: `${lang}: files with syntax errors`, value: (100 * t.withErrors) / t.files, unit: "%" },
      { metric: `${lang}: definitions, references`, value: t.definitions, unit: "defs", note: `${t.references} references` },
    );
  }
  rows.push({ metric: "all parsed languages", value: files / (totalMs / 1000), unit: "files/s", note: `${files} files, ${(bytes / (1 << 20)).toFixed(1)} MiB, one thread` });
  slowest.sort((a, b) => b.ms - a.ms);
  for (const s of slowest.slice(0, 3)) rows.push({ metric: "slowest file", value: s.ms, unit: "ms", note: `${s.path} (${s.kib.toFixed(0)} KiB)` });

  const languages = [...totals.keys()].map((l) => CTAGS_LANGUAGES[l]).filter((l): l is string => l !== undefined);
  // a real tags file: ctags fails (exit 1) when it cannot truncate /dev/null
  const tagsDir = mkdtempSync(join(tmpdir(), "cortex-bench-ctags-"));
  const tagsFile = join(tagsDir, "tags");
  try {
    const ctags = await runTimed(["ctags", "-R", "-f", tagsFile, `--languages=${languages.join(",")}`, "."], {}, corpus.root);
    const tags = existsSync(tagsFile) ? readFileSync(tagsFile, "utf8").split("\n").filter((l) => l.length > 0 && !l.startsWith("!_TAG_")).length : 0;
    if (tags === 0) throw new Error(ctags.stderr.trim().split("\n")[0] || "no tags written");
    rows.push({ metric: "peer: ctags -R (same languages)", value: ctags.ms / 1000, unit: "s", note: `${tags} tags; cortex parse, one thread: ${(totalMs / 1000).toFixed(1)} s` });
  } catch (e) {
    rows.push({ metric: "peer: ctags -R", value: NaN, unit: "s", note: `not run: ${(e as Error).message.split("\n")[0]}` });
  } finally {
    rmSync(tagsDir, { recursive: true, force: true });
  }
  return rows;
}
