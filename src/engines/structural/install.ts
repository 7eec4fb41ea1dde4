/**
 * Finding the ast-grep executable, fetching it on first use. Resolution order: CORTEX_AST_GREP (a path)
 * → the cached $CORTEX_HOME/bin/ast-grep[.exe] when it reports the pinned version → a download of the
 * pinned release, verified against the hashes in release.ts before it is installed by an atomic rename.
 *
 * A download happens once however many callers ask at the same moment: callers in one process share one
 * promise, processes share a lock file in bin/ and look at the cache again once they hold it. Everything
 * in flight lives in bin/.partial-* files that are removed on every exit path (and, should a process die
 * mid-download, by the next holder of the lock), so bin/ only ever holds a verified executable.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, chmodSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { CortexError, errorMessage, isCortexError } from "../../core/errors.ts";
import { homePaths } from "../../core/paths.ts";
import { acquireLock } from "../../core/lock.ts";
import { sha256 } from "../../core/hash.ts";
import { log } from "../../core/log.ts";
import { AST_GREP_VERSION, DEFAULT_BASE_URL, archiveUrl, currentRelease, manualInstallHint, type DownloadSource, type PlatformRelease } from "./release.ts";
import { ArchiveError, gunzip, readTar } from "./tar.ts";
import { extractZipEntry, listZip } from "./zip.ts";

export interface AstGrepBinary {
  path: string;
  version: string;
  /** Where it came from: CORTEX_AST_GREP, the cache in $CORTEX_HOME/bin, or a download just now. */
  source: "env" | "cache" | "download";
}

export interface ResolveOptions {
  /** Folder of the cached executable (default $CORTEX_HOME/bin). */
  binDir?: string;
  /** The release to install (default: this machine's). */
  release?: PlatformRelease;
  /** Default CORTEX_AST_GREP_SOURCE, else "npm". */
  source?: DownloadSource;
  /** Default CORTEX_AST_GREP_MIRROR, else the source's public address. */
  baseUrl?: string;
  /** How long to wait for another process's download (default 10 minutes). */
  lockWaitMs?: number;
  /** A download that receives nothing for this long is abandoned (default 30 s). */
  stallTimeoutMs?: number;
  onProgress?(received: number, total: number | undefined): void;
}

const inFlight = new Map<string, Promise<AstGrepBinary>>();

/**
 * The ast-grep to run. Concurrent calls with the same settings share one resolution; a failure is not
 * remembered, so the next call tries again.
 */
export function resolveAstGrep(options: ResolveOptions = {}): Promise<AstGrepBinary> {
  const env = process.env;
  const source = options.source ?? parseSource(env.CORTEX_AST_GREP_SOURCE);
  const settings = {
    envPath: env.CORTEX_AST_GREP && env.CORTEX_AST_GREP.length > 0 ? resolve(env.CORTEX_AST_GREP) : undefined,
    binDir: options.binDir ?? homePaths.bin(),
    source,
    baseUrl: options.baseUrl ?? (env.CORTEX_AST_GREP_MIRROR || DEFAULT_BASE_URL[source]),
  };
  const key = JSON.stringify(settings);
  const known = inFlight.get(key);
  if (known) return known.then((b) => (existsSync(b.path) ? b : retry(key, () => resolveOnce(settings, options))));
  return retry(key, () => resolveOnce(settings, options));
}

function retry(key: string, run: () => Promise<AstGrepBinary>): Promise<AstGrepBinary> {
  const p = run();
  inFlight.set(key, p);
  p.catch(() => {
    if (inFlight.get(key) === p) inFlight.delete(key);
  });
  return p;
}

function parseSource(v: string | undefined): DownloadSource {
  if (v === undefined || v === "" || v === "npm") return "npm";
  if (v === "github") return "github";
  throw new CortexError("INVALID_INPUT", `CORTEX_AST_GREP_SOURCE must be 'npm' or 'github', got '${v}'`);
}

interface Settings {
  envPath: string | undefined;
  binDir: string;
  source: DownloadSource;
  baseUrl: string;
}

async function resolveOnce(s: Settings, o: ResolveOptions): Promise<AstGrepBinary> {
  if (s.envPath) return fromEnvironment(s.envPath);
  const rel = o.release ?? currentRelease();
  const target = join(s.binDir, rel.executable);
  const cached = await cachedVersion(target);
  if (cached === AST_GREP_VERSION) return { path: target, version: cached, source: "cache" };
  if (cached !== undefined) log.warn(`replacing ${target} (${cached}) with ast-grep ${AST_GREP_VERSION}`);
  return install(s, o, rel, target);
}

async function fromEnvironment(path: string): Promise<AstGrepBinary> {
  if (!existsSync(path)) {
    throw new CortexError("AST_GREP_MISSING", `CORTEX_AST_GREP points at ${path}, which does not exist. ${manualInstallHint()}`, { data: { path } });
  }
  let version: string;
  try {
    version = await versionOf(path);
  } catch (e) {
    throw new CortexError("AST_GREP_MISSING", `CORTEX_AST_GREP=${path} does not run as ast-grep: ${errorMessage(e)}. ${manualInstallHint()}`, {
      data: { path },
      cause: e,
    });
  }
  if (version !== AST_GREP_VERSION) log.warn(`CORTEX_AST_GREP is ast-grep ${version}; cortex is built and tested for ${AST_GREP_VERSION}`);
  return { path, version, source: "env" };
}

/** The version a cached executable reports, "not runnable" when it does not run, undefined when absent. */
async function cachedVersion(path: string): Promise<string | undefined> {
  if (!existsSync(path)) return undefined;
  try {
    return await versionOf(path);
  } catch (e) {
    return `not runnable: ${errorMessage(e)}`;
  }
}

/** Runs `<exe> --version` and returns the version ast-grep prints ("ast-grep 0.51.1"). */
export async function versionOf(path: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    let proc: ReturnType<typeof Bun.spawn>;
    try {
      proc = Bun.spawn([path, "--version"], { stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: 15_000 });
    } catch (e) {
      // A file written a moment ago can still be open in a process forked meanwhile: ETXTBSY passes.
      if ((e as NodeJS.ErrnoException).code === "ETXTBSY" && attempt < 10) {
        await Bun.sleep(50);
        continue;
      }
      throw e;
    }
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout as ReadableStream).text(),
      new Response(proc.stderr as ReadableStream).text(),
      proc.exited,
    ]);
    const m = /^ast-grep (\S+)/.exec(out.trim());
    if (code !== 0 || !m)
      throw new Error(
        `'${path} --version' ${code !== 0 ? `exited with ${code}` : "did not print 'ast-grep <version>'"}${err.trim() ? `: ${err.trim().split("\n")[0]}` : ""}`,
      );
    return m[1]!;
  }
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]" || host === "::1";
}

function downloadsDisabled(): boolean {
  const v = process.env.CORTEX_OFFLINE;
  return v !== undefined && v !== "" && v !== "0" && v !== "false";
}

async function install(s: Settings, o: ResolveOptions, rel: PlatformRelease, target: string): Promise<AstGrepBinary> {
  const url = archiveUrl(rel, s.source, s.baseUrl);
  if (downloadsDisabled() && !isLoopback(url)) {
    throw new CortexError(
      "AST_GREP_MISSING",
      `ast-grep ${AST_GREP_VERSION} is not installed and downloads are disabled (CORTEX_OFFLINE=${process.env.CORTEX_OFFLINE}). ${manualInstallHint(rel)}`,
    );
  }
  mkdirSync(s.binDir, { recursive: true });
  let lock: Awaited<ReturnType<typeof acquireLock>>;
  try {
    lock = await acquireLock(join(s.binDir, ".ast-grep.lock"), "the ast-grep download", o.lockWaitMs ?? 600_000);
  } catch (e) {
    if (isCortexError(e) && e.code === "INDEX_LOCKED") throw new CortexError("DOWNLOAD_FAILED", `${e.message}; try again when it finishes`, { cause: e });
    throw e;
  }
  try {
    // Another process may have installed it while this one waited for the lock.
    if ((await cachedVersion(target)) === AST_GREP_VERSION) return { path: target, version: AST_GREP_VERSION, source: "cache" };
    removePartials(s.binDir);
    const stamp = `${process.pid}-${Date.now().toString(36)}`;
    const archivePath = join(s.binDir, `.partial-${stamp}.${s.source === "npm" ? "tgz" : "zip"}`);
    const exePartial = join(s.binDir, `.partial-${stamp}-${rel.executable}`);
    try {
      log.info(`downloading ast-grep ${AST_GREP_VERSION} from ${url}`);
      const digest = await downloadTo(url, archivePath, o);
      if (s.source === "npm" && `sha512-${digest}` !== rel.integrity) {
        throw new InstallFailure(`integrity mismatch: expected ${rel.integrity}, got sha512-${digest}`);
      }
      const exe = extractExecutable(readFileSync(archivePath), s.source, rel);
      const exeHash = sha256(exe);
      if (exeHash !== rel.executableSha256) {
        throw new InstallFailure(
          `the archive's ${rel.executable} is not the ast-grep ${AST_GREP_VERSION} release: sha256 ${exeHash}, expected ${rel.executableSha256}`,
        );
      }
      writeExecutable(exePartial, exe);
      let version: string;
      try {
        version = await versionOf(exePartial);
      } catch (e) {
        throw new InstallFailure(`the verified executable does not run here: ${errorMessage(e)}`);
      }
      if (version !== AST_GREP_VERSION) throw new InstallFailure(`the executable reports version ${version}, expected ${AST_GREP_VERSION}`);
      renameSync(exePartial, target);
      log.info(`installed ast-grep ${AST_GREP_VERSION} at ${target}`);
      return { path: target, version, source: "download" };
    } catch (e) {
      const reason = e instanceof InstallFailure || e instanceof ArchiveError ? e.message : errorMessage(e);
      throw new CortexError("DOWNLOAD_FAILED", `could not install ast-grep ${AST_GREP_VERSION} from ${url}: ${reason}. ${manualInstallHint(rel)}`, {
        data: { url },
        cause: e,
      });
    } finally {
      rmSync(archivePath, { force: true });
      rmSync(exePartial, { force: true });
    }
  } finally {
    lock.release();
  }
}

class InstallFailure extends Error {}

/** Removes what a process that died mid-download left behind (only called while holding the lock). */
function removePartials(binDir: string): void {
  for (const name of readdirSync(binDir)) if (name.startsWith(".partial-")) rmSync(join(binDir, name), { force: true });
}

/** Streams a URL into a file and returns the sha512 (base64) of the bytes received. */
async function downloadTo(url: string, file: string, o: ResolveOptions): Promise<string> {
  const stallMs = o.stallTimeoutMs ?? 30_000;
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), stallMs);
  const stalled = () => new InstallFailure(`the download stalled (nothing received for ${Math.round(stallMs / 1000)} s)`);
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: controller.signal, redirect: "follow" });
    } catch (e) {
      if (controller.signal.aborted) throw stalled();
      throw new InstallFailure(`cannot reach ${new URL(url).host} (${errorMessage(e)})`);
    }
    if (!res.ok || !res.body) throw new InstallFailure(`the server answered HTTP ${res.status}${res.statusText ? " " + res.statusText : ""}`);
    const lengthHeader = res.headers.get("content-length");
    const expected = lengthHeader && !res.headers.get("content-encoding") ? Number(lengthHeader) : undefined;
    const hasher = new Bun.CryptoHasher("sha512");
    const fd = openSync(file, "w");
    let received = 0;
    let reported = 0;
    try {
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          clearTimeout(timer);
          timer = setTimeout(() => controller.abort(), stallMs);
          let off = 0;
          while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
          hasher.update(chunk);
          received += chunk.length;
          // progress goes to clients as notifications: a few per second, not one per chunk
          if (o.onProgress && (performance.now() - reported > 250 || received === expected)) {
            reported = performance.now();
            o.onProgress(received, expected);
          }
        }
      } catch (e) {
        if (controller.signal.aborted) throw stalled();
        throw new InstallFailure(`the connection broke after ${received} bytes (${errorMessage(e)})`);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (expected !== undefined && received !== expected) throw new InstallFailure(`the download is incomplete: received ${received} of ${expected} bytes`);
    return hasher.digest("base64");
  } finally {
    clearTimeout(timer);
  }
}

/** The executable's bytes from a release archive (npm tarball or GitHub zip). */
export function extractExecutable(archive: Uint8Array, source: DownloadSource, rel: PlatformRelease): Uint8Array {
  if (source === "npm") {
    const wanted = `package/${rel.executable}`;
    const entry = readTar(gunzip(archive)).find((e) => e.name === wanted && e.type === "file");
    if (!entry) throw new ArchiveError(`the package has no ${wanted}`);
    return entry.data;
  }
  const entries = listZip(archive);
  const entry = entries.find((e) => e.name === rel.executable) ?? entries.find((e) => e.name.endsWith("/" + rel.executable));
  if (!entry) throw new ArchiveError(`the archive has no ${rel.executable}`);
  return extractZipEntry(archive, entry);
}

function writeExecutable(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, "w", 0o755);
  try {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (process.platform !== "win32") chmodSync(path, 0o755);
}
