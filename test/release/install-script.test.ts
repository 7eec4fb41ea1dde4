/**
 * install.sh against a release folder served on 127.0.0.1: the release scripts/release.ts writes for this
 * platform's executable (the one the e2e tests build; archives gzipped at level 1 rather than 9, which
 * saves 40 s), installed with `sh install.sh` into a temporary folder, a corrupted archive refused with
 * nothing installed, and an unknown platform named in a clear error. The cases about the install folder
 * (a file that does not run, a full disk, an interrupt, relative folders, PATH) use releases whose
 * `cortex` is a small stand-in: a shell script printing the version, or junk. install.ps1 is not run
 * here: there is no PowerShell on the test machines.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { builtExecutable } from "../e2e/executable.ts";
import { currentPlatform, TARGETS } from "../../scripts/build.ts";
import { archiveName, writeRelease } from "../../scripts/release.ts";
import { zip } from "../../scripts/release/archive.ts";
import { VERSION } from "../../src/core/version.ts";

const platform = currentPlatform();
/** Another Unix platform, for an install that names the wrong one. */
const other = Object.keys(TARGETS).find((t) => t !== platform && !t.startsWith("windows-"))!;
/** The stand-in executable of the small releases: it answers --version as cortex does. */
const STAND_IN = `#!/bin/sh\necho "cortex ${VERSION}"\n`;
let work: string;
let server: ReturnType<typeof Bun.serve>;
const requests: string[] = [];
let base: string;

/** Serves <work>/<folder>/<file> at /<folder>/<file>. */
function serve(): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const file = join(work, "served", path);
      if (path.includes("..") || !existsSync(file) || !statSync(file).isFile()) return new Response("not found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
}

interface InstallOptions {
  /** The install folder (CORTEX_INSTALL_DIR); a new one under a new temporary folder if not given. */
  dir?: string;
  cwd?: string;
  /** The release folder whose install.sh runs (default "v"). */
  release?: string;
  /** The command that runs the script, before its path (default: sh). */
  shell?: string[];
  /** Started in a process group of its own, as a terminal's foreground job; the process is passed here. */
  started?: (proc: Bun.Subprocess) => Promise<void>;
}

/** Runs a release's install.sh; an env value of undefined removes that variable. */
async function install(
  env: Record<string, string | undefined>,
  opts: InstallOptions = {},
): Promise<{ code: number | null; signal: string | null; out: string; err: string; dir: string; home: string }> {
  const dir = opts.dir ?? join(mkdtempSync(join(work, "target-")), "bin");
  const home = mkdtempSync(join(work, "home-"));
  const merged: Record<string, string | undefined> = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, CORTEX_INSTALL_DIR: dir, ...env };
  const proc = Bun.spawn([...(opts.shell ?? ["sh"]), join(work, "served", opts.release ?? "v", "install.sh")], {
    env: Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined)),
    cwd: opts.cwd ?? work,
    stdout: "pipe",
    stderr: "pipe",
    detached: opts.started !== undefined,
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited, opts.started?.(proc)]);
  return { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode), out, err, dir, home };
}

/** A folder holding only an executable shell script `name` with this body. */
function shim(name: string, body: string): string {
  const dir = mkdtempSync(join(work, "shim-"));
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}`, { mode: 0o755 });
  return dir;
}

/** A folder where the stand-in cortex is installed, as an earlier install would have left it. */
function earlierInstall(): string {
  const dir = join(mkdtempSync(join(work, "target-")), "bin");
  mkdirSync(dir);
  writeFileSync(join(dir, "cortex"), STAND_IN.replace("cortex ", "cortex earlier "), { mode: 0o755 });
  return dir;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "cortex-install-e2e-"));
  server = serve();
  base = `http://127.0.0.1:${server.port}`;
  writeRelease({ [platform]: await builtExecutable() }, join(work, "served", "v"), { version: VERSION, baseUrl: `${base}/v`, compressionLevel: 1 });
  // the same release with one byte of the archive flipped and the original SHA256SUMS
  cpSync(join(work, "served", "v"), join(work, "served", "corrupt"), { recursive: true });
  const archive = join(work, "served", "corrupt", archiveName(VERSION, platform));
  const bytes = readFileSync(archive);
  bytes[bytes.length >> 1]! ^= 0xff;
  writeFileSync(archive, bytes);
  // small releases for this platform and `other`, each with its own install.sh: a stand-in cortex that
  // runs; junk with an ELF header, as another platform's executable or a damaged one looks to the kernel;
  // an empty file, which sh would run as an empty script and "succeed"
  const files = { standIn: STAND_IN, junk: `\x7fELF\x02\x01\x01${"\0".repeat(9)}${"junk ".repeat(200)}`, empty: "" };
  for (const [name, text] of Object.entries(files)) {
    const file = join(work, `${name}-cortex`);
    writeFileSync(file, text, { mode: 0o755 });
    writeRelease({ [platform]: file, [other]: file }, join(work, "served", name), { version: VERSION, baseUrl: `${base}/${name}`, compressionLevel: 1 });
  }
}, 300_000);

afterAll(() => {
  server?.stop(true);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("install.sh", () => {
  test("detects this platform, checks the checksum, installs a working cortex and says how to add it to PATH", async () => {
    requests.length = 0;
    const r = await install({});
    expect(r.code).toBe(0);
    expect(requests).toEqual(["/v/SHA256SUMS", `/v/${archiveName(VERSION, platform)}`]);
    const exe = join(r.dir, "cortex");
    expect(statSync(exe).mode & 0o777).toBe(0o755);
    expect(readdirSync(r.dir)).toEqual(["cortex"]);
    const version = Bun.spawnSync([exe, "--version"], { env: { HOME: work, CORTEX_HOME: join(work, "cortex-home") } });
    expect(version.stdout.toString().trim()).toBe(`cortex ${VERSION}`);
    expect(r.err).toContain(`installed ${exe} (cortex ${VERSION})`);
    expect(r.err).toContain(`${r.dir} is not on your PATH. Add it with:`);
    expect(r.err).toContain(`export PATH="${r.dir}:$PATH"`);
    expect(r.out).toBe("");
  }, 60_000);

  test("a corrupted archive is refused and nothing is installed", async () => {
    const r = await install({ CORTEX_INSTALL_BASE_URL: `${base}/corrupt` });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(
        `checksum mismatch for ${archiveName(VERSION, platform).replaceAll(".", "\\.")} \\(expected [0-9a-f]{64}, got [0-9a-f]{64}\\): the download is damaged or altered; nothing installed`,
      ),
    );
    expect(existsSync(r.dir)).toBe(false);
  }, 60_000);

  test("an unknown platform gets a clear error before any download", async () => {
    requests.length = 0;
    const r = await install({ CORTEX_INSTALL_PLATFORM: "plan9-mips" });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`cortex install: no cortex executable for this platform (plan9-mips); releases have: ${platform}\n`);
    expect(requests).toEqual([]);
    expect(existsSync(r.dir)).toBe(false);
  });

  test("a release folder without the archive: the download error names the address", async () => {
    const r = await install({ CORTEX_INSTALL_BASE_URL: `${base}/nowhere` });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`cortex install: download failed: ${base}/nowhere/SHA256SUMS`);
    expect(existsSync(r.dir)).toBe(false);
  });

  test("SHA256SUMS lists each archive in sha256sum's format", () => {
    const sums = readFileSync(join(work, "served", "v", "SHA256SUMS"), "utf8");
    const archive = readFileSync(join(work, "served", "v", archiveName(VERSION, platform)));
    expect(sums).toBe(`${new Bun.CryptoHasher("sha256").update(archive).digest("hex")}  ${archiveName(VERSION, platform)}\n`);
  });
});

describe("install.sh and the install folder", () => {
  const unchanged = (dir: string) => {
    expect(readdirSync(dir)).toEqual(["cortex"]);
    expect(readFileSync(join(dir, "cortex"), "utf8")).toContain("cortex earlier");
  };

  test("a cortex that does not run here (another platform's, a damaged one) is refused and the earlier install kept", async () => {
    for (const [release, wanted] of [
      ["junk", other],
      ["junk", platform],
    ] as const) {
      const dir = earlierInstall();
      const r = await install({ CORTEX_INSTALL_PLATFORM: wanted }, { dir, release });
      expect(r.code).toBe(1);
      expect(r.err).toContain("cortex install: the downloaded cortex does not run on this machine (it exited with status ");
      const hint =
        wanted === platform ? `is ${platform} this machine's platform?` : `CORTEX_INSTALL_PLATFORM is ${other}, but this machine looks like ${platform}.`;
      expect(r.err).toContain(`; ${hint} nothing installed, ${dir}/cortex unchanged\n`);
      expect(r.err).not.toContain("installed ");
      unchanged(dir);
    }
  });

  test("an empty cortex (which sh runs as an empty script, with status 0) is refused too", async () => {
    const dir = earlierInstall();
    const r = await install({}, { dir, release: "empty" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("the downloaded cortex does not run on this machine (it printed '' instead of a version)");
    unchanged(dir);
  });

  test("a stand-in that answers --version installs, named by what it printed", async () => {
    const r = await install({}, { release: "standIn" });
    expect(r.code).toBe(0);
    expect(r.err).toContain(`cortex install: installed ${r.dir}/cortex (cortex ${VERSION})\n`);
    expect(readdirSync(r.dir)).toEqual(["cortex"]);
  });

  test("<dir>/cortex being a folder is refused before any download (mv would move the file into it)", async () => {
    const dir = join(mkdtempSync(join(work, "target-")), "bin");
    mkdirSync(join(dir, "cortex"), { recursive: true });
    requests.length = 0;
    const r = await install({}, { dir, release: "standIn" });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`cortex install: ${dir}/cortex is a folder, not a file: move it away or set CORTEX_INSTALL_DIR to another folder; nothing installed\n`);
    expect(requests).toEqual([]);
    expect(readdirSync(join(dir, "cortex"))).toEqual([]);
    expect(readdirSync(dir)).toEqual(["cortex"]);
  });

  test("a full disk during the copy leaves no partial file, and the earlier install", async () => {
    // cp as it fails on a full disk: part of the file written, then an error
    const full = shim("cp", `head -c 100 "$1" > "$2"\necho "cp: error writing '$2': No space left on device" >&2\nexit 1\n`);
    const dir = earlierInstall();
    const r = await install({ PATH: `${full}:/usr/local/bin:/usr/bin:/bin` }, { dir, release: "standIn" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("No space left on device");
    expect(r.err).toMatch(/cannot write \S+\/\.cortex\.\d+\.part \(is the disk full\?\); nothing installed, \S+\/cortex unchanged\n$/);
    unchanged(dir);
  });

  test("an interrupt (Ctrl-C) during the copy leaves no partial file", async () => {
    // cp that has written part of the file when the interrupt comes
    const copying = join(work, "copying");
    const slow = shim("cp", `head -c 100 "$1" > "$2"\necho "$2" > "${copying}"\nexec sleep 20\n`);
    const dir = earlierInstall();
    let part = "";
    const r = await install(
      { PATH: `${slow}:/usr/local/bin:/usr/bin:/bin` },
      {
        dir,
        release: "standIn",
        // a terminal sends SIGINT to its whole foreground process group: the script and its cp
        started: async (proc) => {
          const until = Date.now() + 20_000;
          while (!existsSync(copying) && Date.now() < until) await Bun.sleep(20);
          part = readFileSync(copying, "utf8").trim();
          expect(existsSync(part)).toBe(true);
          process.kill(-proc.pid, "SIGINT");
        },
      },
    );
    expect(part).toMatch(/\.cortex\.\d+\.part$/);
    expect(r.code).toBe(130);
    expect(existsSync(part)).toBe(false);
    unchanged(dir);
  }, 30_000);

  test("a relative CORTEX_INSTALL_DIR: ~ and ~/ are $HOME, a plain one is under the current folder", async () => {
    const tilde = await install({ CORTEX_INSTALL_DIR: "~/bin" }, { release: "standIn" });
    expect(tilde.code).toBe(0);
    expect(tilde.err).toContain(`installed ${tilde.home}/bin/cortex (cortex ${VERSION})`);
    expect(tilde.err).toContain(`export PATH="${tilde.home}/bin:$PATH"`);
    expect(existsSync(join(tilde.home, "bin", "cortex"))).toBe(true);

    const cwd = mkdtempSync(join(work, "cwd-"));
    const plain = await install({ CORTEX_INSTALL_DIR: "bin/" }, { release: "standIn", cwd });
    expect(plain.code).toBe(0);
    expect(plain.err).toContain(`cortex install: CORTEX_INSTALL_DIR is relative: installing into ${cwd}/bin\n`);
    expect(plain.err).toContain(`installed ${cwd}/bin/cortex (cortex ${VERSION})`);
    expect(existsSync(join(cwd, "bin", "cortex"))).toBe(true);

    const user = await install({ CORTEX_INSTALL_DIR: "~someone/bin" }, { release: "standIn", cwd });
    expect(user.code).toBe(1);
    expect(user.err).toBe("cortex install: CORTEX_INSTALL_DIR=~someone/bin: give the full path (only a leading ~ or ~/ is expanded, to $HOME)\n");
  });

  test("HOME unset: the error has the script's prefix and comes before any download", async () => {
    requests.length = 0;
    const r = await install({ HOME: undefined, CORTEX_INSTALL_DIR: undefined }, { release: "standIn" });
    expect(r.code).toBe(1);
    expect(r.err).toBe("cortex install: HOME is not set: set HOME, or CORTEX_INSTALL_DIR to the folder to install into\n");
    expect(requests).toEqual([]);
  });

  test("an install folder that cannot be written is refused before any download", async () => {
    const file = join(work, "a-file");
    writeFileSync(file, "");
    requests.length = 0;
    const r = await install({}, { dir: join(file, "bin"), release: "standIn" });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`cortex install: cannot install into ${file}/bin: ${file} is not a folder (set CORTEX_INSTALL_DIR to a folder you can write)\n`);
    expect(requests).toEqual([]);
    // a folder without write permission (root may write anywhere, so only for other users)
    if (process.getuid?.() !== 0) {
      const locked = mkdtempSync(join(work, "locked-"));
      chmodSync(locked, 0o555);
      const r2 = await install({}, { dir: join(locked, "bin"), release: "standIn" });
      chmodSync(locked, 0o755);
      expect(r2.code).toBe(1);
      expect(r2.err).toBe(`cortex install: cannot write into ${locked} (set CORTEX_INSTALL_DIR to a folder you can write); nothing installed\n`);
      expect(requests).toEqual([]);
    }
  });

  test("another cortex earlier on PATH gets a warning naming it", async () => {
    const earlier = earlierInstall();
    const dir = join(mkdtempSync(join(work, "target-")), "bin");
    const shadowed = await install({ PATH: `${earlier}:${dir}:/usr/bin:/bin` }, { dir, release: "standIn" });
    expect(shadowed.code).toBe(0);
    expect(shadowed.err).toContain(
      `cortex install: warning: ${earlier}/cortex comes earlier on your PATH, so \`cortex\` still runs that one. Remove it, or put ${dir} before ${earlier} in PATH\n`,
    );
    expect(shadowed.err).not.toContain("is not on your PATH");
    // first on PATH: nothing to say
    const first = await install({ PATH: `${dir}:${earlier}:/usr/bin:/bin` }, { dir, release: "standIn" });
    expect(first.err).not.toContain("earlier on your PATH");
    expect(first.err).not.toContain(earlier);
    // not on PATH: the advice, and which cortex runs until then
    const off = await install({ PATH: `${earlier}:/usr/bin:/bin` }, { dir, release: "standIn" });
    expect(off.err).toContain(`${dir} is not on your PATH. Add it with:`);
    expect(off.err).toContain(`cortex install: until then, \`cortex\` runs ${earlier}/cortex\n`);
  });

  test("a full temporary folder is reported as a failed write, not a failed download", async () => {
    // a file size limit of 32 KB, with SIGXFSZ ignored so that writing past it fails as on a full disk
    // (curl's "failure writing output"): SHA256SUMS fits, the archive does not
    const dir = join(mkdtempSync(join(work, "target-")), "bin");
    const r = await install({}, { dir, shell: ["sh", "-c", `trap '' XFSZ; ulimit -f 64; exec sh "$0"`] });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`cortex install: could not save ${base}/v/${archiveName(VERSION, platform)} to `);
    expect(r.err).toContain("writing failed (is the disk full?). Set TMPDIR to a folder with a few hundred MB free; nothing installed\n");
    expect(r.err).not.toContain("download failed");
    expect(existsSync(dir)).toBe(false);
  });
});

describe("release archives", () => {
  test("the Windows zip holds the executable deflated, with its CRC, size and mode", () => {
    const data = new TextEncoder().encode("MZ not really an executable ".repeat(100));
    const bytes = Buffer.from(zip([{ name: "cortex.exe", data, mode: 0o755 }]));
    // local header
    expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
    const nameLength = bytes.readUInt16LE(26);
    const compressed = bytes.readUInt32LE(18);
    expect(bytes.subarray(30, 30 + nameLength).toString()).toBe("cortex.exe");
    const body = inflateRawSync(bytes.subarray(30 + nameLength, 30 + nameLength + compressed));
    expect(Buffer.compare(body, Buffer.from(data))).toBe(0);
    expect(bytes.readUInt32LE(14)).toBe(Bun.hash.crc32(data) >>> 0);
    // central directory, found from the end record
    const end = bytes.length - 22;
    expect(bytes.readUInt32LE(end)).toBe(0x06054b50);
    const central = bytes.readUInt32LE(end + 16);
    expect(bytes.readUInt32LE(central)).toBe(0x02014b50);
    expect((bytes.readUInt32LE(central + 38) >>> 16) & 0o777).toBe(0o755);
  });
});
