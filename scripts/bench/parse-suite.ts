/**
 * Parse benchmark: how fast each language module turns files into FileFacts, and whether it stays
 * linear on pathological inputs.
 *
 * 1. Every corpus file a language module claims is parsed on one thread, in process, with the file
 *    contents already in memory (after a warm-up pass over the first files, so grammar loading, query
 *    compilation and the WASM tier-up are not counted): files/s, MiB/s and CPU seconds per language.
 *    The peer is universal-ctags (`ctags -R`, when installed) tagging the same language in the same
 *    folder, timed as a process.
 *    Beside it, tree-sitter's parse alone (no query, no extraction) of the same files: the floor under
 *    every indexing figure, and times the cores, the ceiling of cold indexing on this machine.
 * 2. Scaling: generated files with 1,000 / 2,000 / 4,000-link call chains, nestings and boolean chains
 *    for the languages present; the row is the time ratio of 4,000 to 1,000 links (about 4 when linear,
 *    about 16 when quadratic).
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Corpus } from "./corpora.ts";
import { runTimed, type BenchRow } from "./run.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import { grammarFiles } from "../../src/lang/grammars.ts";
import { Language, Parser } from "web-tree-sitter";
import { availableParallelism } from "node:os";
import { languageFor, moduleFor } from "../../src/lang/registry.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";

/** universal-ctags language names of our modules. */
const CTAGS_NAMES: Record<string, string> = {
  python: "Python",
  ruby: "Ruby",
  php: "PHP",
  go: "Go",
  typescript: "TypeScript",
  javascript: "JavaScript",
  java: "Java",
  kotlin: "Kotlin",
  c_sharp: "C#",
  c: "C",
  cpp: "C++",
  rust: "Rust",
};

/** Generated inputs whose size is `n` links of one construct, per language and file name. */
const SCALING: Record<string, Array<{ name: string; path: string; gen: (n: number) => string }>> = {
  python: [
    { name: "method chain x.m().m()…", path: "x.py", gen: (n) => "def f():\n    return x" + ".m()".repeat(n) + "\n" },
    { name: "nested calls g(g(…))", path: "x.py", gen: (n) => "def f():\n    return " + "g(".repeat(n) + "1" + ")".repeat(n) + "\n" },
    { name: "a or b or …", path: "x.py", gen: (n) => "def f():\n    return " + Array.from({ length: n }, (_, i) => `a${i}`).join(" or ") + "\n" },
  ],
  ruby: [
    { name: "method chain x.m(1).m(1)…", path: "x.rb", gen: (n) => "def f\n  x" + ".m(1)".repeat(n) + "\nend\n" },
    { name: "constant path A::B::…", path: "x.rb", gen: (n) => "def f\n  " + Array.from({ length: n }, (_, i) => `A${i}`).join("::") + "\nend\n" },
    { name: "a && b && …", path: "x.rb", gen: (n) => "def f\n  " + Array.from({ length: n }, (_, i) => `a${i}`).join(" && ") + "\nend\n" },
  ],
  c: [
    { name: "field call chain x->m(1)->…", path: "x.c", gen: (n) => "void f(void) {\n  v = x" + "->m(1)".repeat(n) + ";\n}\n" },
    { name: "nested calls g(g(…))", path: "x.c", gen: (n) => "int f(void) {\n  return " + "g(".repeat(n) + "1" + ")".repeat(n) + ";\n}\n" },
    {
      name: "a && b || …",
      path: "x.c",
      gen: (n) => "int f(void) {\n  return " + Array.from({ length: n }, (_, i) => (i === 0 ? "" : i % 2 ? " && " : " || ") + `a${i}`).join("") + ";\n}\n",
    },
  ],
  cpp: [
    { name: "method chain x.m(1).m(1)…", path: "x.cpp", gen: (n) => "void f() {\n  auto v = x" + ".m(1)".repeat(n) + ";\n}\n" },
    { name: "nested calls g(g(…))", path: "x.cpp", gen: (n) => "int f() {\n  return " + "g(".repeat(n) + "1" + ")".repeat(n) + ";\n}\n" },
    {
      name: "a && b || …",
      path: "x.cpp",
      gen: (n) => "bool f() {\n  return " + Array.from({ length: n }, (_, i) => (i === 0 ? "" : i % 2 ? " && " : " || ") + `a${i}`).join("") + ";\n}\n",
    },
  ],
  rust: [
    { name: "method chain x.m(1).m(1)…", path: "x.rs", gen: (n) => "fn f() {\n    let v = x" + ".m(1)".repeat(n) + ";\n}\n" },
    { name: "nested calls g(g(…))", path: "x.rs", gen: (n) => "fn f() {\n    " + "g(".repeat(n) + "1" + ")".repeat(n) + ";\n}\n" },
    {
      name: "a && b || …",
      path: "x.rs",
      gen: (n) => "fn f() -> bool {\n    " + Array.from({ length: n }, (_, i) => (i === 0 ? "" : i % 2 ? " && " : " || ") + `a${i}`).join("") + "\n}\n",
    },
  ],
  javascript: [
    { name: "method chain x.m().m()…", path: "x.js", gen: (n) => "function f(x) {\n  return x" + ".m(a)".repeat(n) + ";\n}\n" },
    { name: "nested callbacks f(function () { f(…) })", path: "x.js", gen: (n) => "f(function () {\n".repeat(n) + "g();\n" + "});\n".repeat(n) },
    { name: "a && b && …", path: "x.js", gen: (n) => "function f() {\n  return " + Array.from({ length: n }, (_, i) => `a${i}`).join(" && ") + ";\n}\n" },
  ],
  typescript: [
    {
      name: "else-if chain with casts",
      path: "x.ts",
      gen: (n) =>
        "function f(x: K): R {\n" +
        Array.from({ length: n }, (_, i) => `${i ? "else " : ""}if (x === ${i}) { return h${i}(x as T${i}); }`).join("\n") +
        "\n}\n",
    },
    { name: "nested objects { a: { a: … } }", path: "x.ts", gen: (n) => "export const o = " + "{ a: ".repeat(n) + "1" + " }".repeat(n) + ";\n" },
    { name: "nested generic types A<A<…>>", path: "x.ts", gen: (n) => "type T = " + "A<".repeat(n) + "X" + ">".repeat(n) + ";\n" },
  ],
  go: [
    { name: "method chain x.M().M()…", path: "x.go", gen: (n) => "package p\n\nfunc f() {\n\t_ = x" + ".M()".repeat(n) + "\n}\n" },
    { name: "nested calls g(g(…))", path: "x.go", gen: (n) => "package p\n\nfunc f() {\n\t_ = " + "g(".repeat(n) + "1" + ")".repeat(n) + "\n}\n" },
    { name: "selector chain a.b.c…", path: "x.go", gen: (n) => "package p\n\nfunc f() {\n\t_ = a" + ".b".repeat(n) + "\n}\n" },
    {
      name: "a && b && …",
      path: "x.go",
      gen: (n) => "package p\n\nfunc f() bool {\n\treturn " + Array.from({ length: n }, (_, i) => `a${i}`).join(" && ") + "\n}\n",
    },
  ],
  java: [
    { name: "method chain x.m(1).m(1)…", path: "X.java", gen: (n) => "class X { Object f() { return x" + ".m(1)".repeat(n) + "; } }\n" },
    { name: "nested generics List<List<…>>", path: "X.java", gen: (n) => "class X { " + "List<".repeat(n) + "Foo" + ">".repeat(n) + " f; }\n" },
    {
      name: "nested new Foo(new Foo(…))",
      path: "X.java",
      gen: (n) => "class X { Object f() { return " + "new Foo(".repeat(n) + "1" + ")".repeat(n) + "; } }\n",
    },
    { name: "A.B + A.B + …", path: "X.java", gen: (n) => "class X { int f() { return " + Array.from({ length: n }, () => "A.B").join(" + ") + "; } }\n" },
  ],
  kotlin: [
    { name: "method chain x.m(1).m(1)…", path: "X.kt", gen: (n) => "fun f() = x" + ".m(1)".repeat(n) + "\n" },
    { name: "nested generics List<List<…>>", path: "X.kt", gen: (n) => "val f: " + "List<".repeat(n) + "Foo" + ">".repeat(n) + "? = null\n" },
    { name: "a && b && …", path: "X.kt", gen: (n) => "fun f() = " + Array.from({ length: n }, (_, i) => `a${i}`).join(" && ") + "\n" },
  ],
  c_sharp: [
    { name: "method chain x.M(1).M(1)…", path: "X.cs", gen: (n) => "class X { object F() { return x" + ".M(1)".repeat(n) + "; } }\n" },
    { name: "nested generics List<List<…>>", path: "X.cs", gen: (n) => "class X { " + "List<".repeat(n) + "Foo" + ">".repeat(n) + " f; }\n" },
    { name: "A.B + A.B + …", path: "X.cs", gen: (n) => "class X { int F() { return " + Array.from({ length: n }, () => "A.B").join(" + ") + "; } }\n" },
  ],
  php: [
    { name: "method chain $x->m()->…", path: "x.php", gen: (n) => "<?php\nfunction f($x) {\n  return $x" + "->m(1)".repeat(n) + ";\n}\n" },
    {
      name: "concatenation 'a' . 'b' . …",
      path: "x.php",
      gen: (n) => "<?php\nfunction f() {\n  return " + Array.from({ length: n }, (_, i) => `'s${i}'`).join(" . ") + ";\n}\n",
    },
    {
      name: "$a || $b || …",
      path: "x.php",
      gen: (n) => "<?php\nfunction f() {\n  return " + Array.from({ length: n }, (_, i) => `$a${i}`).join(" || ") + ";\n}\n",
    },
  ],
};

/** Runs universal-ctags over a folder for one language; CPU time from GNU time when it is there. */
async function ctags(language: string, cwd: string): Promise<{ ms: number; cpuMs?: number }> {
  // tags go to stdout, which is discarded: with `-f /dev/null` ctags' C# parser fails truncating the file
  const cmd = ["ctags", "-R", "-f", "-", `--languages=${language}`, "."];
  if (!existsSync("/usr/bin/time")) return { ms: (await runTimed(cmd, {}, cwd)).ms };
  const started = performance.now();
  const proc = Bun.spawn(["/usr/bin/time", "-f", "__CPU__%U %S", ...cmd], { cwd, stdout: "ignore", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`ctags exited with ${code}: ${stderr.trim()}`);
  const m = /__CPU__([\d.]+) ([\d.]+)/.exec(stderr);
  return m ? { ms, cpuMs: (Number(m[1]) + Number(m[2])) * 1000 } : { ms };
}

/** Wall ms for web-tree-sitter to parse every file into a tree and free it, after a warm-up pass. */
async function treeSitterAlone(lang: string, files: Array<{ text: string }>): Promise<number> {
  const m = moduleFor(lang);
  const file = m && grammarFiles[m.grammar];
  if (!file) return NaN;
  const parser = new Parser(); // the runtime is initialised by FactsParser.create
  parser.setLanguage(await Language.load(file));
  try {
    for (const f of files.slice(0, 200)) parser.parse(f.text)?.delete();
    const t0 = performance.now();
    for (const f of files) parser.parse(f.text)?.delete();
    return performance.now() - t0;
  } finally {
    parser.delete();
  }
}

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  for (const rel of readdirSync(root, { recursive: true }) as string[]) {
    const p = String(rel);
    if (statSync(join(root, p), { throwIfNoEntry: false })?.isFile()) out.push(p);
  }
  return out.sort();
}

export async function parseSuite(corpus: Corpus): Promise<BenchRow[]> {
  const paths = listFiles(corpus.root);
  const project = buildProjectInfo(corpus.root, paths);
  const byLanguage = new Map<string, Array<{ path: string; text: string }>>();
  for (const p of paths) {
    const m = languageFor(p).module;
    if (!m) continue;
    const list = byLanguage.get(m.id) ?? [];
    list.push({ path: p, text: readFileSync(join(corpus.root, p), "utf8") });
    byLanguage.set(m.id, list);
  }
  const parser = await FactsParser.create();
  const rows: BenchRow[] = [];
  for (const [lang, files] of [...byLanguage].sort((a, b) => b[1].length - a[1].length)) {
    for (const f of files.slice(0, 200)) await parser.parse(f.path, f.text, project); // warm-up
    const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    const cpu0 = cpuMs();
    const t0 = performance.now();
    let errors = 0;
    for (const f of files) errors += (await parser.parse(f.path, f.text, project)).facts?.syntaxErrors ? 1 : 0;
    const ms = performance.now() - t0;
    const cpu = cpuMs() - cpu0;
    rows.push({ metric: `${lang}: files`, value: files.length, unit: "files", note: `${(bytes / 2 ** 20).toFixed(1)} MiB; ${errors} with syntax errors` });
    rows.push({
      metric: `${lang}: parse + extract, 1 thread`,
      value: files.length / (ms / 1000),
      unit: "files/s",
      note: `${(bytes / 2 ** 20 / (ms / 1000)).toFixed(2)} MiB/s wall`,
    });
    rows.push({ metric: `${lang}: CPU time`, value: cpu / 1000, unit: "s", note: `${(files.length / (cpu / 1000)).toFixed(0)} files per CPU second` });
    const treeMs = await treeSitterAlone(lang, files);
    const cores = availableParallelism();
    rows.push({
      metric: `${lang}: tree-sitter parse alone, 1 thread`,
      value: files.length / (treeMs / 1000),
      unit: "files/s",
      note: `${(bytes / 2 ** 20 / (treeMs / 1000)).toFixed(2)} MiB/s; ${Math.round((treeMs / ms) * 100)} % of parse + extract; on ${cores} cores at best ${Math.round((cores * files.length) / (treeMs / 1000))} files/s`,
    });
    const ctagsName = CTAGS_NAMES[lang];
    if (ctagsName) {
      try {
        const r = await ctags(ctagsName, corpus.root);
        rows.push({
          metric: `${lang}: universal-ctags -R (peer)`,
          value: files.length / (r.ms / 1000),
          unit: "files/s",
          note: `${(r.ms / 1000).toFixed(2)} s wall, one process`,
        });
        if (r.cpuMs !== undefined)
          rows.push({
            metric: `${lang}: universal-ctags CPU time (peer)`,
            value: r.cpuMs / 1000,
            unit: "s",
            note: `${(files.length / (r.cpuMs / 1000)).toFixed(0)} files per CPU second`,
          });
      } catch (e) {
        rows.push({ metric: `${lang}: universal-ctags -R (peer)`, value: NaN, unit: "files/s", note: `not run: ${(e as Error).message.split("\n")[0]}` });
      }
    }
  }
  for (const lang of byLanguage.keys()) {
    for (const c of SCALING[lang] ?? []) {
      const times: number[] = [];
      for (const n of [1000, 4000]) {
        const text = c.gen(n);
        await parser.parse(c.path, c.gen(n / 2), project);
        let best = Infinity;
        for (let r = 0; r < 5; r++) {
          const t = cpuMs();
          await parser.parse(c.path, text, project);
          best = Math.min(best, cpuMs() - t);
        }
        times.push(best);
      }
      rows.push({
        metric: `${lang} scaling: ${c.name}`,
        value: times[1]! / Math.max(times[0]!, 0.01),
        unit: "× for 4× size",
        note: `${times[0]!.toFixed(1)} → ${times[1]!.toFixed(1)} ms CPU`,
      });
    }
  }
  return rows;
}
