#!/usr/bin/env bun
/**
 * Builds a release: the five executables, an archive per platform (cortex-<version>-<target>.tar.gz, .zip
 * for Windows), SHA256SUMS over the archives, install.sh and install.ps1 with the version and download
 * address filled in, and the npm packages (scripts/npm-packages.ts) from the same executables.
 *
 *   bun scripts/release.ts --base-url https://…/download/v0.1.0       → dist/release/, dist/npm/
 *   bun scripts/release.ts --base-url … linux-x64 darwin-arm64         some platforms only
 *   bun scripts/release.ts --out /tmp/rel …                            → /tmp/rel/ instead of dist/
 *
 * --base-url is where the release's files will be served from; install.sh downloads from it unless
 * CORTEX_INSTALL_BASE_URL says otherwise. Without it the scripts require CORTEX_INSTALL_BASE_URL.
 * --out is the folder for the executables, release/ and npm/ (default: the repository's dist/).
 * Building for another platform makes Bun fetch that platform's runtime (from the npm registry) once.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { build, TARGETS } from "./build.ts";
import { type GeneratedPackages, generateNpmPackages } from "./npm-packages.ts";
import { tarGz, zip } from "./release/archive.ts";

const ROOT = resolve(import.meta.dir, "..");

export interface ReleaseFiles {
  dir: string;
  version: string;
  /** Archive file name per build target. */
  archives: Record<string, string>;
  /** The install scripts written: install.sh if a Linux or macOS target was given, install.ps1 if a Windows one. */
  scripts: string[];
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
 * install scripts, which offer exactly the platforms given. A script with no platform to offer is not
 * written: install.ps1 of a release without a Windows build would only fail, after the user ran it, with
 * "releases have: " and nothing after it. `compressionLevel` (default 9) is for tests, which would
 * otherwise spend 45 s compressing.
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
  const unix = targets.filter((t) => !t.startsWith("windows-"));
  const windows = targets.filter((t) => t.startsWith("windows-"));
  const scripts: string[] = [];
  if (unix.length) {
    writeFileSync(join(outDir, "install.sh"), installScript("install.sh", values(unix)), { mode: 0o755 });
    scripts.push("install.sh");
  }
  if (windows.length) {
    writeFileSync(join(outDir, "install.ps1"), installScript("install.ps1", values(windows)));
    scripts.push("install.ps1");
  }
  return { dir: outDir, version: options.version, archives, scripts };
}

const USAGE = "usage: bun scripts/release.ts [--base-url URL] [--out DIR] [target...]";

/** A mistake in the command line: reported in one line with exit code 2, not as a stack trace. */
class UsageError extends Error {}

export interface ReleaseArgs {
  baseUrl?: string;
  /** Folder for the executables, release/ and npm/ (absolute). */
  out: string;
  targets: string[];
}

export function parseArgs(argv: string[], cwd = process.cwd()): ReleaseArgs {
  const targets: string[] = [];
  let baseUrl: string | undefined;
  let out = join(ROOT, "dist");
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    // --name value or --name=value
    const [name, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new UsageError(`${name} needs a value; ${USAGE}`);
      return v;
    };
    if (name === "--base-url") {
      baseUrl = value();
      if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`--base-url needs an http(s) URL, not '${baseUrl}'`);
    } else if (name === "--out") out = resolve(cwd, value());
    else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}; ${USAGE}`);
    else if (!TARGETS[a]) throw new UsageError(`unknown target '${a}'; targets: ${Object.keys(TARGETS).join(", ")}`);
    else if (!targets.includes(a)) targets.push(a);
  }
  return { ...(baseUrl ? { baseUrl } : {}), out, targets };
}

/** Builds the executables into args.out, then the release (args.out/release) and the npm packages (args.out/npm). */
export async function release(
  args: ReleaseArgs,
  buildTarget: (target: string, outDir: string) => Promise<string> = build,
  log: (line: string) => void = console.log,
): Promise<{ release: ReleaseFiles; npm: GeneratedPackages }> {
  const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
  const wanted = args.targets.length ? args.targets : Object.keys(TARGETS);
  const executables: Record<string, string> = {};
  for (const t of wanted) {
    const started = performance.now();
    executables[t] = await buildTarget(t, args.out);
    log(`built ${executables[t]} (${(statSync(executables[t]).size / 1e6).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const rel = writeRelease(executables, join(args.out, "release"), { version, ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}) });
  const npm = generateNpmPackages(executables, join(args.out, "npm"), version);
  log(
    `\nrelease ${version} in ${rel.dir}${args.baseUrl ? ` (served from ${args.baseUrl})` : " (no --base-url: install scripts need CORTEX_INSTALL_BASE_URL)"}`,
  );
  for (const [t, name] of Object.entries(rel.archives)) {
    log(
      `  ${name.padEnd(40)} ${(statSync(join(rel.dir, name)).size / 1e6).toFixed(1).padStart(6)} MB  (executable ${(statSync(executables[t]!).size / 1e6).toFixed(1)} MB)`,
    );
  }
  log(
    `  ${["SHA256SUMS", ...rel.scripts].join(", ")}\nnpm packages in ${join(args.out, "npm")}: ${[basename(npm.main), ...Object.values(npm.platforms).map((d) => basename(d))].join(", ")}`,
  );
  return { release: rel, npm };
}

if (import.meta.main) {
  let args: ReleaseArgs;
  try {
    const argv = process.argv.slice(2);
    if (argv.includes("--help") || argv.includes("-h")) {
      console.log(USAGE);
      process.exit(0);
    }
    args = parseArgs(argv);
    if (existsSync(args.out) && !statSync(args.out).isDirectory()) throw new UsageError(`--out ${args.out} is not a folder`);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`release: ${e.message}`);
    process.exit(2);
  }
  await release(args);
}
