/**
 * Benchmark corpora anyone can rebuild: Debian source packages copied into a scratch folder (so the
 * benchmarks may modify files), and any folder given by path.
 *
 *   go      golang-1.19-src   (apt-get install golang-1.19-src)   → /usr/share/go-1.19/src
 *   django  python3-django    (apt-get install python3-django)    → /usr/lib/python3/dist-packages/django
 *   kernel  linux-source-6.1  (apt-get install linux-source-6.1)  → /usr/src/linux-source-6.1.tar.xz, extracted
 *   jdk17   openjdk-17-source (apt-get install openjdk-17-source) → /usr/lib/jvm/openjdk-17/lib/src.zip, extracted
 *   glibc   glibc-source      (apt-get install glibc-source)      → /usr/src/glibc/glibc-2.36.tar.xz, extracted
 *   boost   libboost1.74-dev  (apt-get install libboost1.74-dev)  → /usr/include/boost (the headers: Boost is mostly headers)
 *   go+django  both, in go/ and django/ of one folder
 */
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const SCRATCH = resolve(import.meta.dir, "..", "..", ".bench");

/**
 * Where corpus copies go: outside this repository, whose .gitignore lists .bench/ (cortex obeys the
 * ignore rules of a repository around the project, as git does, so a copy inside it indexed nothing).
 * CORTEX_BENCH_CORPORA moves it.
 */
export const CORPORA = process.env.CORTEX_BENCH_CORPORA ? resolve(process.env.CORTEX_BENCH_CORPORA) : join(tmpdir(), "cortex-bench-corpora");

const DEBIAN: Record<string, { src: string; pkg: string }> = {
  go: { src: "/usr/share/go-1.19/src", pkg: "golang-1.19-src" },
  django: { src: "/usr/lib/python3/dist-packages/django", pkg: "python3-django" },
  boost: { src: "/usr/include/boost", pkg: "libboost1.74-dev" },
};

/** Corpora made of several Debian ones, each copied into a folder of its own name (go+django: ~12,500 files). */
const COMBINED: Record<string, string[]> = {
  "go+django": ["go", "django"],
};

export interface Corpus {
  name: string;
  /** A writable copy the benchmark may change. */
  root: string;
  /** Where it came from, for the report. */
  source: string;
}

/**
 * Corpora shipped as an archive, extracted into a folder of the corpus's name:
 * - the Linux kernel (Debian linux-source-6.1, 78,579 files). Its top-level .gitignore ends with Debian's
 *   packaging rule `/*` (then `!/debian/`), which hides the whole tree exactly as git would; that one
 *   line is removed so the tree is indexed as kernel developers see it;
 * - the JDK 17 class library sources (src.zip: a folder per Java module);
 * - glibc 2.36 (the upstream tarball Debian ships).
 */
const ARCHIVES: Record<string, { archive: string; pkg: string; top?: string; unignore?: string }> = {
  kernel: { archive: "/usr/src/linux-source-6.1.tar.xz", pkg: "linux-source-6.1", top: "linux-source-6.1", unignore: "/*" },
  jdk17: { archive: "/usr/lib/jvm/openjdk-17/lib/src.zip", pkg: "openjdk-17-source" },
  glibc: { archive: "/usr/src/glibc/glibc-2.36.tar.xz", pkg: "glibc-source", top: "glibc-2.36" },
};

function extractArchive(name: string): Corpus {
  const t = ARCHIVES[name]!;
  if (!existsSync(t.archive)) throw new Error(`corpus '${name}' needs the Debian package ${t.pkg}: apt-get install ${t.pkg}`);
  const root = join(CORPORA, name);
  rmSync(root, { recursive: true, force: true });
  if (t.top) rmSync(join(CORPORA, t.top), { recursive: true, force: true });
  mkdirSync(CORPORA, { recursive: true });
  // a zip has no top folder: it is extracted into the corpus's own
  const command = t.archive.endsWith(".zip") ? ["unzip", "-q", t.archive, "-d", root] : ["tar", "-xJf", t.archive, "-C", CORPORA];
  const run = Bun.spawnSync(command, { stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`extracting ${t.archive} failed: ${run.stderr.toString()}`);
  if (t.top) renameSync(join(CORPORA, t.top), root);
  const gitignore = join(root, ".gitignore");
  if (t.unignore && existsSync(gitignore))
    writeFileSync(
      gitignore,
      readFileSync(gitignore, "utf8")
        .split("\n")
        .filter((l) => l !== t.unignore)
        .join("\n"),
    );
  return { name, root, source: `Debian ${t.pkg} (${t.archive})${t.unignore ? `, its top-level '${t.unignore}' ignore rule removed` : ""}` };
}

/** Resolves a corpus name or path to a fresh writable copy. */
export function prepareCorpus(nameOrPath: string): Corpus {
  if (ARCHIVES[nameOrPath]) return extractArchive(nameOrPath);
  const parts = COMBINED[nameOrPath];
  if (parts) {
    const root = join(CORPORA, nameOrPath);
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    for (const part of parts) {
      const d = DEBIAN[part]!;
      if (!existsSync(d.src)) throw new Error(`corpus '${nameOrPath}' needs the Debian package ${d.pkg}: apt-get install ${d.pkg}`);
      cpSync(d.src, join(root, part), { recursive: true, dereference: false, verbatimSymlinks: true });
    }
    return { name: nameOrPath, root, source: parts.map((x) => `Debian ${DEBIAN[x]!.pkg} (${DEBIAN[x]!.src}) in ${x}/`).join(" + ") };
  }
  const known = DEBIAN[nameOrPath];
  const src = known ? known.src : resolve(nameOrPath);
  if (!existsSync(src)) {
    throw new Error(known ? `corpus '${nameOrPath}' needs the Debian package ${known.pkg}: apt-get install ${known.pkg}` : `no such folder: ${src}`);
  }
  const name = known ? nameOrPath : src.split("/").filter(Boolean).pop()!;
  const root = join(CORPORA, name);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(CORPORA, { recursive: true });
  cpSync(src, root, { recursive: true, dereference: false, verbatimSymlinks: true });
  return { name, root, source: known ? `Debian ${known.pkg} (${src})` : src };
}
