#!/usr/bin/env bun
/**
 * Builds one self-contained executable per platform with `bun build --compile`: grammars and every
 * worker entrypoint embedded.
 *
 *   bun scripts/build.ts                 all platforms → dist/cortex-<os>-<arch>[.exe]
 *   bun scripts/build.ts linux-x64       one platform
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/** Worker entrypoints (see src/core/worker-entry.ts): the executable must carry each one. */
export const WORKERS = ["src/indexer/parse-worker.ts"];

export const TARGETS: Record<string, { bunTarget: string; file: string }> = {
  "linux-x64": { bunTarget: "bun-linux-x64", file: "cortex-linux-x64" },
  "linux-arm64": { bunTarget: "bun-linux-arm64", file: "cortex-linux-arm64" },
  "darwin-x64": { bunTarget: "bun-darwin-x64", file: "cortex-darwin-x64" },
  "darwin-arm64": { bunTarget: "bun-darwin-arm64", file: "cortex-darwin-arm64" },
  "windows-x64": { bunTarget: "bun-windows-x64", file: "cortex-windows-x64.exe" },
};

export async function build(platform: string, outDir = join(ROOT, "dist")): Promise<string> {
  const t = TARGETS[platform];
  if (!t) throw new Error(`unknown platform '${platform}': ${Object.keys(TARGETS).join(", ")}`);
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, t.file);
  const proc = Bun.spawn(
    [process.execPath, "build", "--compile", `--target=${t.bunTarget}`, "--minify-syntax", join(ROOT, "src/cli/main.ts"), ...WORKERS.map((w) => join(ROOT, w)), "--outfile", outfile],
    { stdout: "inherit", stderr: "inherit", cwd: ROOT },
  );
  const code = await proc.exited;
  if (code !== 0) throw new Error(`bun build failed for ${platform} (exit ${code})`);
  return outfile;
}

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  for (const p of wanted.length ? wanted : Object.keys(TARGETS)) {
    const out = await build(p);
    console.log(`built ${out}`);
  }
}
