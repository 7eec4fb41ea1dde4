#!/usr/bin/env bun
/**
 * Builds a release: the five executables, an archive per platform (cortex-<version>-<target>.tar.gz, .zip
 * for Windows), SHA256SUMS over the archives, install.sh and install.ps1 with the version and download
 * address filled in, and the npm packages (scripts/npm-packages.ts) from the same executables.
 *
 *   bun scripts/release.ts --base-url https://…/download/v0.1.0       → dist/release/, dist/npm/
 *   bun scripts/release.ts --base-url … linux-x64 darwin-arm64         some platforms only
 *
 * --base-url is where the release's files will be served from; install.sh downloads from it unless
 * CORTEX_INSTALL_BASE_URL says otherwise. Without it the scripts require CORTEX_INSTALL_BASE_URL.
 * Building for another platform makes Bun fetch that platform's runtime (from the npm registry) once.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { build, TARGETS } from "./build.ts";
import { generateNpmPackages } from "./npm-packages.ts";
import { tarGz, zip } from "./release/archive.ts";

const ROOT = resolve(import.meta.dir, "..");

export interface ReleaseFiles {
  dir: string;
  version: string;
  /** Archive file name per build target. */
  archives: Record<string, string>;
}

export const archiveName = (version: string, target: string) => `cortex-${version}-${target}.${target.startsWith("windows-") ? "zip" : "tar.gz"}`;

function sha256(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

/** An install script from packaging/install with this release's values in place of its placeholders. */
function installScript(file: string, values: Record<string, string>): string {
  let text = readFileSync(join(ROOT, "packaging/install", file), "utf8");
  for (const [key, value] of Object.entries(values)) {
    if (!text.includes(key)) throw new Error(`${file} has no ${key}: update scripts/release.ts`);
    // a value with a quote or backslash would break out of the script's string
    if (/['"\\$`]/.test(value)) throw new Error(`release value for ${key} holds a quote, backslash, $ or backtick: ${value}`);
    text = text.replaceAll(key, value);
  }
  return text;
}

/**
 * Writes the release folder from built executables (build target → file): archives, SHA256SUMS, and the
 * install scripts, which offer exactly the platforms given. `compressionLevel` (default 9) is for tests,
 * which would otherwise spend 45 s compressing.
 */
export function writeRelease(
  executables: Record<string, string>,
  outDir: string,
  options: { version: string; baseUrl?: string; compressionLevel?: number },
): ReleaseFiles {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const archives: Record<string, string> = {};
  const sums: string[] = [];
  for (const [target, file] of Object.entries(executables)) {
    if (!TARGETS[target]) throw new Error(`unknown build target '${target}': ${Object.keys(TARGETS).join(", ")}`);
    const windows = target.startsWith("windows-");
    const entry = { name: windows ? "cortex.exe" : "cortex", data: readFileSync(file), mode: 0o755 };
    const bytes = windows ? zip([entry], options.compressionLevel) : tarGz([entry], options.compressionLevel);
    const name = archiveName(options.version, target);
    writeFileSync(join(outDir, name), bytes);
    sums.push(`${sha256(bytes)}  ${name}`);
    archives[target] = name;
  }
  writeFileSync(join(outDir, "SHA256SUMS"), sums.join("\n") + "\n");
  const targets = Object.keys(executables);
  const values = (platforms: string[]) => ({
    __CORTEX_VERSION__: options.version,
    __CORTEX_BASE_URL__: options.baseUrl ?? "",
    __CORTEX_PLATFORMS__: platforms.join(" "),
  });
  writeFileSync(join(outDir, "install.sh"), installScript("install.sh", values(targets.filter((t) => !t.startsWith("windows-")))), { mode: 0o755 });
  writeFileSync(join(outDir, "install.ps1"), installScript("install.ps1", values(targets.filter((t) => t.startsWith("windows-")))));
  return { dir: outDir, version: options.version, archives };
}

function parseArgs(argv: string[]): { baseUrl?: string; targets: string[] } {
  const targets: string[] = [];
  let baseUrl: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--base-url") {
      baseUrl = argv[++i];
      if (!baseUrl || !/^https?:\/\//.test(baseUrl)) throw new Error("--base-url needs an http(s) URL");
    } else if (a.startsWith("-")) throw new Error(`unknown option ${a}; usage: bun scripts/release.ts [--base-url URL] [target...]`);
    else targets.push(a);
  }
  return { baseUrl, targets };
}

if (import.meta.main) {
  const { baseUrl, targets } = parseArgs(process.argv.slice(2));
  const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
  const wanted = targets.length ? targets : Object.keys(TARGETS);
  const executables: Record<string, string> = {};
  for (const t of wanted) {
    const started = performance.now();
    executables[t] = await build(t);
    console.log(`built ${executables[t]} (${(statSync(executables[t]).size / 1e6).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const release = writeRelease(executables, join(ROOT, "dist", "release"), { version, ...(baseUrl ? { baseUrl } : {}) });
  const npm = generateNpmPackages(executables, join(ROOT, "dist", "npm"), version);
  console.log(
    `\nrelease ${version} in ${release.dir}${baseUrl ? ` (served from ${baseUrl})` : " (no --base-url: install scripts need CORTEX_INSTALL_BASE_URL)"}`,
  );
  for (const [t, name] of Object.entries(release.archives)) {
    console.log(
      `  ${name.padEnd(40)} ${(statSync(join(release.dir, name)).size / 1e6).toFixed(1).padStart(6)} MB  (executable ${(statSync(executables[t]!).size / 1e6).toFixed(1)} MB)`,
    );
  }
  console.log(
    `  SHA256SUMS, install.sh, install.ps1\nnpm packages in ${join(ROOT, "dist", "npm")}: ${[basename(npm.main), ...Object.values(npm.platforms).map((d) => basename(d))].join(", ")}`,
  );
}
