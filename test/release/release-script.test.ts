/**
 * scripts/release.ts and scripts/npm-packages.ts as commands, without building: argument mistakes come
 * out as one line with exit code 2, --out keeps everything a release writes out of the repository's
 * dist/ (the build is replaced by a copy of a stand-in executable), and a release offers an install
 * script only for the platforms it has.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { currentPlatform, TARGETS } from "../../scripts/build.ts";
import { NPM_NAME, NPM_PLATFORMS, platformPackageName } from "../../scripts/npm-packages.ts";
import { archiveName, parseArgs, release, writeRelease } from "../../scripts/release.ts";
import { VERSION } from "../../src/core/version.ts";

const ROOT = resolve(import.meta.dir, "../..");
const platform = currentPlatform();
let work: string;
let standIn: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "cortex-release-script-"));
  standIn = join(work, "stand-in");
  writeFileSync(standIn, `#!/bin/sh\necho "cortex ${VERSION}"\n`, { mode: 0o755 });
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function runScript(script: string, args: string[]): { code: number | null; out: string; err: string } {
  const r = Bun.spawnSync([process.execPath, join(ROOT, "scripts", script), ...args], { cwd: work, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

/** Every file under a folder with its size and modification time, or null if there is no such folder. */
function snapshot(dir: string): string[] | null {
  if (!existsSync(dir)) return null;
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => {
      const st = statSync(join(dir, f));
      return `${f} ${st.size} ${st.mtimeMs}`;
    })
    .sort();
}

describe("release.ts on the command line", () => {
  test("argument mistakes: one line on stderr, exit code 2, before anything is built", () => {
    const usage = "usage: bun scripts/release.ts [--base-url URL] [--out DIR] [target...]";
    const cases: Array<[string[], string]> = [
      [["--bogus"], `release: unknown option --bogus; ${usage}\n`],
      [["--base-url"], `release: --base-url needs a value; ${usage}\n`],
      [["--base-url", "ftp://example.com/v1"], "release: --base-url needs an http(s) URL, not 'ftp://example.com/v1'\n"],
      [["plan9-mips"], `release: unknown target 'plan9-mips'; targets: ${Object.keys(TARGETS).join(", ")}\n`],
      [["--out"], `release: --out needs a value; ${usage}\n`],
      [["--out", standIn], `release: --out ${standIn} is not a folder\n`],
    ];
    for (const [args, message] of cases) {
      expect({ args, ...runScript("release.ts", args) }).toEqual({ args, code: 2, out: "", err: message });
    }
    expect(runScript("release.ts", ["--help"])).toEqual({ code: 0, out: `${usage}\n`, err: "" });
  });

  test("--out: relative to the current folder, as --out=DIR too; the default stays dist/", () => {
    expect(parseArgs([]).out).toBe(join(ROOT, "dist"));
    expect(parseArgs(["--out", "rel"], work).out).toBe(join(work, "rel"));
    expect(parseArgs(["--out=/tmp/x", "--base-url=https://example.com/v1", platform, platform], work)).toEqual({
      out: "/tmp/x",
      baseUrl: "https://example.com/v1",
      targets: [platform],
    });
  });

  test("--out puts the executables, release/ and npm/ there and leaves the repository's dist/ as it was", async () => {
    const before = snapshot(join(ROOT, "dist"));
    const args = parseArgs(["--out", "rel", "--base-url", "https://example.com/v1", platform], work);
    const built: Array<[string, string]> = [];
    const lines: string[] = [];
    // the build replaced by a copy of the stand-in, where build() would write the executable
    const fakeBuild = async (target: string, outDir: string) => {
      built.push([target, outDir]);
      mkdirSync(outDir, { recursive: true });
      const file = join(outDir, TARGETS[target]!.file);
      copyFileSync(standIn, file);
      return file;
    };
    const out = await release(args, fakeBuild, (line) => lines.push(line));
    const dir = join(work, "rel");
    expect(built).toEqual([[platform, dir]]);
    expect(out.release.dir).toBe(join(dir, "release"));
    expect(readdirSync(join(dir, "release")).sort()).toEqual([archiveName(VERSION, platform), "SHA256SUMS", "install.sh"].sort());
    const npmPlatform = NPM_PLATFORMS.find((p) => p.target === platform)!;
    expect(readdirSync(join(dir, "npm")).sort()).toEqual([NPM_NAME, platformPackageName(npmPlatform)].sort());
    expect(out.npm.main).toBe(join(dir, "npm", NPM_NAME));
    expect(lines.join("\n")).toContain(`npm packages in ${join(dir, "npm")}: `);
    expect(lines.join("\n")).toContain("  SHA256SUMS, install.sh\n");
    expect(snapshot(join(ROOT, "dist"))).toEqual(before);
  });
});

describe("release install scripts", () => {
  test("a release without a Windows build has no install.ps1, one without a Linux or macOS build no install.sh", () => {
    const unixOnly = writeRelease({ [platform]: standIn }, join(work, "unix-only"), { version: VERSION, compressionLevel: 1 });
    expect(unixOnly.scripts).toEqual(["install.sh"]);
    expect(existsSync(join(work, "unix-only", "install.ps1"))).toBe(false);
    expect(readFileSync(join(work, "unix-only", "install.sh"), "utf8")).toContain(`PLATFORMS="${platform}"`);

    const windowsOnly = writeRelease({ "windows-x64": standIn }, join(work, "windows-only"), { version: VERSION, compressionLevel: 1 });
    expect(windowsOnly.scripts).toEqual(["install.ps1"]);
    expect(existsSync(join(work, "windows-only", "install.sh"))).toBe(false);
    expect(readFileSync(join(work, "windows-only", "install.ps1"), "utf8")).toContain("$Platforms = 'windows-x64' -split ' '");

    const both = writeRelease({ [platform]: standIn, "windows-x64": standIn }, join(work, "both"), { version: VERSION, compressionLevel: 1 });
    expect(both.scripts).toEqual(["install.sh", "install.ps1"]);
  });
});

describe("npm-packages.ts on the command line", () => {
  test("an unknown target: one line on stderr, exit code 2", () => {
    expect(runScript("npm-packages.ts", ["plan9-mips"])).toEqual({
      code: 2,
      out: "",
      err: `npm-packages: unknown build target 'plan9-mips'; targets: ${NPM_PLATFORMS.map((p) => p.target).join(", ")}\n`,
    });
  });
});
