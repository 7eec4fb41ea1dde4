/**
 * install.sh against a release folder served on 127.0.0.1: the release scripts/release.ts writes for this
 * platform's executable (the one the e2e tests build; archives gzipped at level 1 rather than 9, which
 * saves 40 s), installed with `sh install.sh` into a temporary folder, a corrupted archive refused with
 * nothing installed, and an unknown platform named in a clear error. install.ps1 is not run here: there is
 * no PowerShell on the test machines.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { builtExecutable } from "../e2e/executable.ts";
import { currentPlatform } from "../../scripts/build.ts";
import { archiveName, writeRelease } from "../../scripts/release.ts";
import { zip } from "../../scripts/release/archive.ts";
import { VERSION } from "../../src/core/version.ts";

const platform = currentPlatform();
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

async function install(env: Record<string, string>): Promise<{ code: number; out: string; err: string; dir: string }> {
  const dir = join(mkdtempSync(join(work, "target-")), "bin");
  const home = mkdtempSync(join(work, "home-"));
  const proc = Bun.spawn(["sh", join(work, "served", "v", "install.sh")], {
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, CORTEX_INSTALL_DIR: dir, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err, dir };
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
