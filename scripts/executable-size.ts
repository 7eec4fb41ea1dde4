#!/usr/bin/env bun
/**
 * Accounts for every megabyte of one platform's executable: the Bun runtime (measured as the executable
 * Bun compiles for an empty program on the same target), each group of embedded assets (their size on
 * disk and as embedded, zstd), and the rest, which is the bundled JavaScript of cortex and its libraries
 * with its bytecode. Figures in docs/benchmarks.md, "Executable size".
 *
 *   bun scripts/executable-size.ts [platform]      default: this machine's
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, compressedAsset, currentPlatform, embeddedAssets, TARGETS } from "./build.ts";

const MB = (n: number) => (n / 1e6).toFixed(2).padStart(7);

const platform = process.argv[2] ?? currentPlatform();
const target = TARGETS[platform];
if (!target) throw new Error(`unknown platform '${platform}': ${Object.keys(TARGETS).join(", ")}`);
const dir = mkdtempSync(join(tmpdir(), "cortex-size-"));
try {
  const exe = statSync(await build(platform, dir)).size;
  writeFileSync(join(dir, "empty.ts"), "export {};\n");
  const empty = await Bun.build({ entrypoints: [join(dir, "empty.ts")], compile: { target: target.bunTarget, outfile: join(dir, "empty") } });
  if (!empty.success) throw new Error(`could not compile an empty program for ${platform}`);
  const runtime = statSync(join(dir, "empty")).size;

  const groups = new Map<string, { raw: number; embedded: number }>();
  for (const a of embeddedAssets(platform)) {
    const c = await compressedAsset(a.abs);
    const g = groups.get(a.group) ?? { raw: 0, embedded: 0 };
    g.raw += c.size;
    g.embedded += statSync(c.path).size;
    groups.set(a.group, g);
  }
  // identical files are embedded once (build.ts names compressed copies by content)
  const distinct = new Map<string, number>();
  for (const a of embeddedAssets(platform)) {
    const c = await compressedAsset(a.abs);
    distinct.set(c.path, statSync(c.path).size);
  }
  const assets = [...distinct.values()].reduce((s, n) => s + n, 0);

  console.log(`${platform}: ${MB(exe)} MB\n`);
  console.log(`  ${"part".padEnd(44)} ${"on disk".padStart(9)} ${"embedded".padStart(9)}`);
  console.log(`  ${"Bun runtime (an empty program compiled)".padEnd(44)} ${MB(runtime)} MB ${MB(runtime)} MB`);
  for (const [name, g] of groups) console.log(`  ${name.padEnd(44)} ${MB(g.raw)} MB ${MB(g.embedded)} MB`);
  const dup = [...groups.values()].reduce((s, g) => s + g.embedded, 0) - assets;
  if (dup > 0) console.log(`  ${"(identical files embedded once)".padEnd(44)} ${"".padStart(10)} ${MB(-dup)} MB`);
  console.log(`  ${"JavaScript + bytecode (cortex and libraries)".padEnd(44)} ${"".padStart(10)} ${MB(exe - runtime - assets)} MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
