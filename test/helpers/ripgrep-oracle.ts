/**
 * ripgrep as a recorded oracle for `cortex grep`. A fresh machine has no ripgrep (no npm package installs it
 * offline), so its output for each case is recorded in test/fixtures/grep-parity.ripgrep.json beside the
 * fixture folder, together with a digest of the fixture it was recorded from and ripgrep's version. Tests
 * always compare cortex with the recording; where `rg` is installed they also compare the recording with
 * live ripgrep. `bun scripts/record-ripgrep-oracle.ts` re-records it.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

export const PARITY_FIXTURE = join(import.meta.dir, "..", "fixtures", "grep-parity");
export const PARITY_RECORDING = join(import.meta.dir, "..", "fixtures", "grep-parity.ripgrep.json");

/** One comparison: cortex grep's arguments and the ripgrep arguments that mean the same search. */
export interface ParityCase {
  cortex: string[];
  rg: string[];
}

/** The searches compared; each must match something so that no case compares two empty outputs. */
export const PARITY_CASES: ParityCase[] = [
  { cortex: ["-s", "-C", "0", "apiKey"], rg: ["-s", "-F", "apiKey"] },
  { cortex: ["-i", "-C", "1", "API_KEY"], rg: ["-i", "-F", "-C", "1", "API_KEY"] },
  { cortex: ["-e", "-s", "-C", "2", "s\\.mu\\.R?(Un)?[Ll]ock"], rg: ["-s", "-C", "2", "s\\.mu\\.R?(Un)?[Ll]ock"] },
  { cortex: ["-C", "0", "--path", "src", "--ext", ".go", "return"], rg: ["-i", "-F", "-g", "*.go", "return", "src"] },
  { cortex: ["-C", "3", "return"], rg: ["-i", "-F", "-C", "3", "return"] },
  { cortex: ["-e", "-C", "0", "\\bkey\\b"], rg: ["-i", "\\bkey\\b"] },
  { cortex: ["-C", "1", "ünïcödé"], rg: ["-i", "-F", "-C", "1", "ünïcödé"] },
  { cortex: ["-s", "-C", "0", "--path", "src/web", "i++"], rg: ["-s", "-F", "i++", "src/web"] },
];

/** ripgrep's fixed output options: one line per hit with its path, sorted by path, no user config. */
export const RG_FIXED_ARGS = ["--no-heading", "--with-filename", "--line-number", "--sort", "path", "--no-config", "--no-ignore-parent"];

export interface ParityRecording {
  ripgrep_version: string;
  fixture_sha256: string;
  cases: Array<ParityCase & { stdout: string }>;
}

/** sha256 over the fixture's files (sorted paths and contents), so a recording cannot outlive its fixture. */
export function fixtureDigest(root = PARITY_FIXTURE): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else files.push(abs);
    }
  };
  walk(root);
  const h = createHash("sha256");
  for (const abs of files.map((f) => f).sort()) {
    h.update(relative(root, abs).split(sep).join("/"));
    h.update("\0");
    h.update(readFileSync(abs));
    h.update("\0");
  }
  return h.digest("hex");
}

export function readRecording(): ParityRecording {
  return JSON.parse(readFileSync(PARITY_RECORDING, "utf8")) as ParityRecording;
}

/** The ripgrep executable on PATH, or undefined where there is none (a fresh machine). */
export function ripgrepPath(): string | undefined {
  const found = Bun.which("rg");
  if (found === null) return undefined;
  // a stand-in that cannot run (CI's check puts an `rg` that exits 127 first on PATH) counts as absent
  const probe = Bun.spawnSync([found, "--version"], { stdout: "pipe", stderr: "ignore" });
  return probe.exitCode === 0 && probe.stdout.toString().startsWith("ripgrep ") ? found : undefined;
}

export function ripgrepVersion(rg: string): string {
  return Bun.spawnSync([rg, "--version"], { stdout: "pipe" }).stdout.toString().split("\n")[0]!.trim();
}

/** Runs ripgrep with the fixed output options in `cwd`; exit 1 (no match) is not an error. */
export function runRipgrep(rg: string, cwd: string, args: string[]): string {
  const p = Bun.spawnSync([rg, ...RG_FIXED_ARGS, ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0 && p.exitCode !== 1) throw new Error(`rg ${args.join(" ")} exited ${p.exitCode}: ${p.stderr.toString()}`);
  return p.stdout.toString();
}
