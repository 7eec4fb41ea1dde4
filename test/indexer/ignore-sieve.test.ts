import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { IgnoreSieve } from "../../src/indexer/ignore-sieve.ts";
import { IgnoreStack } from "../../src/indexer/ignore-rules.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
afterEach(() => p?.cleanup());

/** Every path the walk would ask about, in its order, with the verdict and deciding rule of one stack. */
function verdicts(root: string, sieve: boolean): string[] {
  const rules = new IgnoreStack(root, ["Vendor/", "*.TMP"], { sieve });
  const out: string[] = [];
  const visit = (dirRel: string): void => {
    const entries = readdirSync(dirRel === "" ? root : join(root, dirRel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    rules.enter(dirRel);
    for (const ent of entries) {
      const rel = dirRel === "" ? ent.name : `${dirRel}/${ent.name}`;
      const v = rules.check(rel, ent.isDirectory());
      out.push(`${rel}${ent.isDirectory() ? "/" : ""} ${v.ignored ? `ignored by ${v.rule}` : "kept"}`);
      if (ent.isDirectory() && !v.ignored) visit(rel);
    }
    rules.leave(dirRel);
  };
  visit("");
  return out;
}

/** A small seeded generator, so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const NAMES = "src build Build lib gen a b x.c x.o y.h main.go notes.txt core.tab.c doc tmp #x# !bang .hidden deep out.TMP vendor".split(" ");
// every kind of pattern: names, folders only, anchored, negated, wildcards, brackets, `**`, escapes, case
const PATTERNS =
  String.raw`*.o build/ /build !x.o *.tab.[ch] x.? /src/gen/ src/*/x.c **/deep deep/** a/**/y.h [bg]* !lib/ lib \#*# \!bang .* !.hidden /*.txt *.TXT doc/ !/doc g?n * !*.go tmp/ !src/ main.go **/a/b`.split(
    " ",
  );

describe("the ignore sieve", () => {
  test("leaves to the package every pattern it cannot read with certainty", () => {
    for (const pattern of ["has space", "caf\u00e9", "a\\nb", "a**b", "/a**b/c", "[abc", "\\ ", "/", "!", "//"])
      expect(IgnoreSieve.of(["*.o", pattern])).toBeUndefined();
    expect(IgnoreSieve.of(["*.o", "\\#*#", "/arch/*/include/generated/", "**/deep", "!keep.o", "[!a]*.c"])).toBeDefined();
  });

  test("rules out only paths no rule can match, by name or by path", () => {
    const sieve = IgnoreSieve.of(["*.o", "/vmlinux", "/arch/*/include/generated/", "cscope.*"])!;
    expect(sieve.mayMatch("drivers/net/x.c")).toBe(false);
    expect(sieve.mayMatch("drivers/net/x.o")).toBe(true);
    expect(sieve.mayMatch("drivers/net/X.O")).toBe(true); // may: a repository may ignore case
    expect(sieve.mayMatch("vmlinux")).toBe(true);
    expect(sieve.mayMatch("tools/vmlinux")).toBe(false);
    expect(sieve.mayMatch("arch/x86/include")).toBe(false);
    expect(sieve.mayMatch("arch/x86/include/generated")).toBe(true);
    expect(sieve.mayMatch("arch/x86/include/generated/asm/x.h")).toBe(true); // may: its first names fit
    expect(sieve.mayMatch("cscope.out")).toBe(true);
    // a path is asked about alone (its folders were decided before the walk entered them)
    const names = IgnoreSieve.of(["build"])!;
    expect(names.mayMatch("src/build")).toBe(true);
    expect(names.mayMatch("src/build/x.c")).toBe(false);
  });

  test("gives the same verdicts under a folder an outer file ignores and an inner one brings back", () => {
    p = tmpProject({
      ".gitignore": "build/\n*.o\n",
      "pkg/.gitignore": "!build/\n",
      "pkg/build/keep.c": "x",
      "pkg/build/out.o": "x",
      "build/x.c": "x",
    });
    const reference = verdicts(p.root, false);
    expect(reference).toContain("pkg/build/ kept");
    expect(reference).toContain("pkg/build/keep.c kept");
    expect(verdicts(p.root, true)).toEqual(reference);
  });

  test("gives every verdict and deciding rule the package gives alone, over random trees and rules", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed);
      const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
      const files: Record<string, string> = {};
      for (let i = 0; i < 120; i++) {
        const depth = 1 + Math.floor(next() * 4);
        files[Array.from({ length: depth }, () => pick(NAMES)).join("/") + (next() < 0.5 ? "" : `/${pick(NAMES)}`)] = "x";
      }
      // a folder and a file may not share a path: keep the first-written shape of each prefix
      const taken = new Set<string>();
      const tree: Record<string, string> = {};
      for (const path of Object.keys(files)) {
        const parts = path.split("/");
        const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
        if (prefixes.slice(0, -1).some((d) => taken.has(`f:${d}`)) || taken.has(`d:${path}`)) continue;
        prefixes.slice(0, -1).forEach((d) => taken.add(`d:${d}`));
        taken.add(`f:${path}`);
        tree[path] = "x";
      }
      const folders = [...taken].filter((t) => t.startsWith("d:")).map((t) => t.slice(2));
      for (const dir of ["", ...folders.filter(() => next() < 0.3)]) {
        const rules = Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(PATTERNS));
        const name = dir === "" ? ".gitignore" : `${dir}/${next() < 0.8 ? ".gitignore" : ".cortexignore"}`;
        if (!taken.has(`d:${name}`)) tree[name] = rules.join("\n") + "\n";
      }
      p = tmpProject(tree);
      const reference = verdicts(p.root, false);
      expect(reference.some((v) => v.includes("ignored"))).toBe(true);
      expect({ seed, verdicts: verdicts(p.root, true) }).toEqual({ seed, verdicts: reference });
      p.cleanup();
    }
  });
});
