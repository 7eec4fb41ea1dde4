import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { resolveAstGrep, versionOf } from "../../src/engines/structural/install.ts";
import { AST_GREP_VERSION, RELEASES } from "../../src/engines/structural/release.ts";
import { CortexError } from "../../src/core/errors.ts";
import { sha256 } from "../../src/core/hash.ts";
import { AST_GREP_BIN, ReleaseServer, buildZip, integrityOf, packedTarball, testRelease } from "../helpers/ast-grep.ts";

const ENV_KEYS = ["CORTEX_AST_GREP", "CORTEX_AST_GREP_MIRROR", "CORTEX_AST_GREP_SOURCE", "CORTEX_OFFLINE"] as const;
const REPO = resolve(import.meta.dir, "..", "..");
const rel = testRelease();

let server: ReleaseServer;
let tarball: Uint8Array;
let npmPath: string;
const saved: Record<string, string | undefined> = {};

const freshBin = () => mkdtempSync(join(tmpdir(), "cortex-bin-"));
const contents = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

async function failure(p: Promise<unknown>): Promise<CortexError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CortexError);
    return e as CortexError;
  }
  throw new Error("expected the call to fail");
}

beforeAll(async () => {
  for (const k of ENV_KEYS) saved[k] = process.env[k];
  tarball = await packedTarball();
  server = new ReleaseServer();
  npmPath = server.publish(rel, "npm", tarball);
}, 180_000);

afterAll(() => {
  server.stop();
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

beforeEach(() => {
  delete process.env.CORTEX_AST_GREP;
  delete process.env.CORTEX_AST_GREP_SOURCE;
  process.env.CORTEX_AST_GREP_MIRROR = server.url;
  process.env.CORTEX_OFFLINE = "1"; // loopback mirrors stay allowed; anything else would be refused
  server.mode = "ok";
  server.delayMs = 0;
});

describe("pinned release", () => {
  test("matches what the registry published: lock file integrity, packed tarball, executable hash", () => {
    const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8"));
    expect(lock.packages[`node_modules/${rel.npmPackage}`].integrity).toBe(rel.integrity);
    expect(lock.packages[`node_modules/${rel.npmPackage}`].version).toBe(AST_GREP_VERSION);
    expect(integrityOf(tarball)).toBe(rel.integrity);
    expect(sha256(readFileSync(AST_GREP_BIN))).toBe(rel.executableSha256);
  });

  test("every platform has a well-formed pin", () => {
    expect(Object.keys(RELEASES).sort()).toEqual(["darwin-arm64", "darwin-x64", "linux-arm64-gnu", "linux-x64-gnu", "win32-arm64-msvc", "win32-x64-msvc"]);
    for (const r of Object.values(RELEASES)) {
      expect(r.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
      expect(r.executableSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(r.executable).toBe(r.id.startsWith("win32") ? "ast-grep.exe" : "ast-grep");
      expect(r.npmPackage).toBe(`@ast-grep/cli-${r.id}`);
    }
  });
});

describe("download", () => {
  test("a first call downloads, verifies and installs ast-grep; callers after it share the result", async () => {
    const bin = freshBin();
    const progress: Array<[number, number | undefined]> = [];
    const b = await resolveAstGrep({ binDir: bin, onProgress: (received, total) => progress.push([received, total]) });
    expect(b).toEqual({ path: join(bin, rel.executable), version: AST_GREP_VERSION, source: "download" });
    expect(progress.at(-1)).toEqual([tarball.length, tarball.length]);
    expect(contents(bin)).toEqual([rel.executable]);
    expect(statSync(b.path).mode & 0o111).toBe(0o111);
    expect(sha256(readFileSync(b.path))).toBe(rel.executableSha256);
    expect(await versionOf(b.path)).toBe(AST_GREP_VERSION);
    expect((await resolveAstGrep({ binDir: bin })).path).toBe(b.path);
    expect(server.count(npmPath)).toBe(1);
  }, 120_000);

  test("integrity mismatch: refused with what failed and how to install by hand; bin/ stays empty", async () => {
    server.mode = "corrupt";
    const bin = freshBin();
    const e = await failure(resolveAstGrep({ binDir: bin }));
    expect(e.code).toBe("DOWNLOAD_FAILED");
    expect(e.message).toContain(`integrity mismatch: expected ${rel.integrity}, got sha512-`);
    expect(e.message).toContain(server.url);
    expect(e.message).toContain(`npm install -g @ast-grep/cli@${AST_GREP_VERSION}`);
    expect(e.message).toContain("CORTEX_AST_GREP");
    expect(contents(bin)).toEqual([]);
  }, 120_000);

  test("truncated archive: a dropped connection and a short body are both refused; bin/ stays empty", async () => {
    server.mode = "truncated-length";
    const bin = freshBin();
    const dropped = await failure(resolveAstGrep({ binDir: bin }));
    expect(dropped.code).toBe("DOWNLOAD_FAILED");
    expect(dropped.message).toMatch(/connection broke after \d+ bytes|download is incomplete: received \d+ of \d+ bytes/);
    expect(contents(bin)).toEqual([]);
    server.mode = "short-body";
    const short = await failure(resolveAstGrep({ binDir: bin }));
    expect(short.message).toContain("integrity mismatch");
    expect(contents(bin)).toEqual([]);
  }, 120_000);

  test("server error and missing archive: the HTTP status and the address are reported; bin/ stays empty", async () => {
    const bin = freshBin();
    server.mode = "error";
    const e = await failure(resolveAstGrep({ binDir: bin }));
    expect(e.code).toBe("DOWNLOAD_FAILED");
    expect(e.message).toContain("HTTP 500");
    expect(e.message).toContain(`${server.url}${npmPath}`);
    server.mode = "not-found";
    expect((await failure(resolveAstGrep({ binDir: bin }))).message).toContain("HTTP 404");
    expect(contents(bin)).toEqual([]);
    // a failure is not remembered: the next call tries again and succeeds
    server.mode = "ok";
    expect((await resolveAstGrep({ binDir: bin })).source).toBe("download");
  }, 120_000);

  test("two concurrent first calls in one process download once", async () => {
    const bin = freshBin();
    server.delayMs = 300;
    const before = server.count(npmPath);
    const [a, b] = await Promise.all([resolveAstGrep({ binDir: bin }), resolveAstGrep({ binDir: bin })]);
    expect(a.path).toBe(b.path);
    expect(server.count(npmPath) - before).toBe(1);
    expect(contents(bin)).toEqual([rel.executable]);
  }, 120_000);

  test("two processes calling at once download once: the second waits for the lock and finds the cache", async () => {
    const bin = freshBin();
    server.delayMs = 1500;
    const before = server.count(npmPath);
    const child = () =>
      Bun.spawn([process.execPath, join(REPO, "test", "helpers", "install-child.ts"), bin], {
        env: { ...process.env, CORTEX_AST_GREP_MIRROR: server.url, CORTEX_OFFLINE: "1" },
        stdout: "pipe",
        stderr: "pipe",
      });
    const procs = [child(), child()];
    const outs = await Promise.all(procs.map(async (p) => ({ out: await new Response(p.stdout).text(), code: await p.exited })));
    const results = outs.map((o) => JSON.parse(o.out.trim()));
    expect(outs.map((o) => o.code)).toEqual([0, 0]);
    expect(results[0].path).toBe(join(bin, rel.executable));
    expect(results[1].path).toBe(results[0].path);
    expect(results.map((r) => r.source).sort()).toEqual(["cache", "download"]);
    expect(server.count(npmPath) - before).toBe(1);
    expect(contents(bin)).toEqual([rel.executable]);
  }, 180_000);

  test("a later process finds the cached executable and makes no request", async () => {
    const bin = freshBin();
    await resolveAstGrep({ binDir: bin });
    const before = server.count(npmPath);
    const p = Bun.spawn([process.execPath, join(REPO, "test", "helpers", "install-child.ts"), bin], {
      env: { ...process.env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = JSON.parse((await new Response(p.stdout).text()).trim());
    expect(await p.exited).toBe(0);
    expect(out).toEqual({ path: join(bin, rel.executable), version: AST_GREP_VERSION, source: "cache" });
    expect(server.count(npmPath)).toBe(before);
  }, 120_000);

  test("a cached executable reporting another version is replaced by a verified download", async () => {
    const bin = freshBin();
    const stale = join(bin, rel.executable);
    writeFileSync(stale, "#!/bin/sh\necho 'ast-grep 0.1.0'\n");
    chmodSync(stale, 0o755);
    const b = await resolveAstGrep({ binDir: bin });
    expect(b.source).toBe("download");
    expect(sha256(readFileSync(stale))).toBe(rel.executableSha256);
  }, 120_000);

  test("what a process that died mid-download left behind (lock, partial files) is cleared", async () => {
    const bin = freshBin();
    const dead = Bun.spawnSync(["true"]).pid;
    writeFileSync(join(bin, ".ast-grep.lock"), JSON.stringify({ pid: dead, at: new Date().toISOString() }));
    writeFileSync(join(bin, `.partial-${dead}-abc.tgz`), tarball.subarray(0, 1000));
    writeFileSync(join(bin, `.partial-${dead}-abc-${rel.executable}`), "half");
    const b = await resolveAstGrep({ binDir: bin });
    expect(b.source).toBe("download");
    expect(contents(bin)).toEqual([rel.executable]);
  }, 120_000);

  test("offline with a public source: refused before any request, with how to install by hand", async () => {
    process.env.CORTEX_AST_GREP_MIRROR = "https://registry.npmjs.org";
    const bin = freshBin();
    const before = server.requests.length;
    const e = await failure(resolveAstGrep({ binDir: bin }));
    expect(e.code).toBe("AST_GREP_MISSING");
    expect(e.message).toContain("downloads are disabled (CORTEX_OFFLINE=1)");
    expect(e.message).toContain(`npm install -g @ast-grep/cli@${AST_GREP_VERSION}`);
    expect(server.requests.length).toBe(before);
    expect(contents(bin)).toEqual([]);
  });

  test("GitHub release archive: the executable is verified by its sha256; another executable is refused", async () => {
    process.env.CORTEX_AST_GREP_SOURCE = "github";
    const exe = readFileSync(AST_GREP_BIN);
    const sg = readFileSync(join(AST_GREP_BIN, "..", "sg"));
    const path = server.publish(
      rel,
      "github",
      buildZip([
        { name: "sg", data: sg, deflate: true },
        { name: rel.executable, data: exe, deflate: true },
      ]),
    );
    expect(path).toBe(`/${AST_GREP_VERSION}/app-${rel.githubTarget}.zip`);
    const bin = freshBin();
    const b = await resolveAstGrep({ binDir: bin });
    expect(b.source).toBe("download");
    expect(sha256(readFileSync(b.path))).toBe(rel.executableSha256);
    expect(contents(bin)).toEqual([rel.executable]);

    server.publish(rel, "github", buildZip([{ name: rel.executable, data: sg }]));
    const other = freshBin();
    const e = await failure(resolveAstGrep({ binDir: other }));
    expect(e.message).toContain(`is not the ast-grep ${AST_GREP_VERSION} release: sha256 ${sha256(sg)}`);
    expect(contents(other)).toEqual([]);
  }, 180_000);
});

describe("CORTEX_AST_GREP", () => {
  test("an executable named by CORTEX_AST_GREP is used as it is, with no download", async () => {
    process.env.CORTEX_AST_GREP = AST_GREP_BIN;
    const before = server.requests.length;
    const b = await resolveAstGrep({ binDir: freshBin() });
    expect(b).toEqual({ path: AST_GREP_BIN, version: AST_GREP_VERSION, source: "env" });
    expect(server.requests.length).toBe(before);
  });

  test("a CORTEX_AST_GREP that does not exist or is not ast-grep is a clear error", async () => {
    process.env.CORTEX_AST_GREP = join(tmpdir(), "no-such-ast-grep");
    const missing = await failure(resolveAstGrep({ binDir: freshBin() }));
    expect(missing.code).toBe("AST_GREP_MISSING");
    expect(missing.message).toContain(`CORTEX_AST_GREP points at ${join(tmpdir(), "no-such-ast-grep")}, which does not exist`);
    process.env.CORTEX_AST_GREP = "/bin/true";
    const wrong = await failure(resolveAstGrep({ binDir: freshBin() }));
    expect(wrong.message).toContain("CORTEX_AST_GREP=/bin/true does not run as ast-grep");
  });
});
