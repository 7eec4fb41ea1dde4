/**
 * Test helpers around the real ast-grep: the executable of the npm package installed as a dev dependency,
 * that package packed again with `npm pack` (byte for byte the registry's tarball, so its published
 * integrity holds), archive writers for tar and zip fixtures, and a local HTTP server that serves
 * release archives the way the npm registry and GitHub do, or breaks them on purpose.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { RELEASES, AST_GREP_VERSION, archiveUrl, type PlatformRelease } from "../../src/engines/structural/release.ts";
import { platformKey } from "../../src/engines/structural/release.ts";
import type { AstGrepBinary } from "../../src/engines/structural/install.ts";

/** This machine's release entry (the tests run where the dev dependency installed). */
export function testRelease(): PlatformRelease {
  const key = platformKey();
  const rel = key ? RELEASES[key] : undefined;
  if (!rel) throw new Error(`no ast-grep release for ${process.platform}-${process.arch}`);
  return rel;
}

/** Folder of the installed npm package @ast-grep/cli-<platform>. */
export function packageDir(): string {
  return dirname(require.resolve(`${testRelease().npmPackage}/package.json`));
}

/** The real ast-grep executable from node_modules. */
export const AST_GREP_BIN = join(packageDir(), testRelease().executable);

/** A resolver for engines that must not download: the dev dependency's executable. */
export const devBinary = (): Promise<AstGrepBinary> => Promise.resolve({ path: AST_GREP_BIN, version: AST_GREP_VERSION, source: "env" });

let packed: Promise<Uint8Array> | undefined;

/**
 * The dev dependency packed with `npm pack`: the same bytes the registry serves. Packing 55 MB takes
 * seconds, so the result is kept in the temporary folder and reused while its sha512 is the pinned one.
 */
export function packedTarball(): Promise<Uint8Array> {
  packed ??= (async () => {
    const rel = testRelease();
    const cache = join(tmpdir(), `cortex-test-${rel.npmPackage.replace("/", "+")}-${AST_GREP_VERSION}.tgz`);
    const hit = existsSync(cache) ? readFileSync(cache) : undefined;
    if (hit && integrityOf(hit) === rel.integrity) return hit;
    const dir = mkdtempSync(join(tmpdir(), "cortex-npm-pack-"));
    const proc = Bun.spawn(["npm", "pack", packageDir(), "--pack-destination", dir, "--silent", "--ignore-scripts"], { stdout: "pipe", stderr: "pipe" });
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`npm pack failed (${code}): ${err}`);
    const file = readdirSync(dir).find((f) => f.endsWith(".tgz"));
    if (!file) throw new Error("npm pack wrote no tarball");
    const bytes = readFileSync(join(dir, file));
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(cache, bytes);
    return bytes;
  })();
  return packed;
}

/** The npm-style integrity string of some bytes. */
export function integrityOf(bytes: Uint8Array): string {
  const h = new Bun.CryptoHasher("sha512");
  h.update(bytes);
  return "sha512-" + h.digest("base64");
}

/** A minimal zip writer (stored or deflated entries with CRC-32), for GitHub-style release archives. */
export function buildZip(entries: Array<{ name: string; data: Uint8Array; deflate?: boolean }>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const body = e.deflate ? deflateRawSync(e.data, { level: 1 }) : Buffer.from(e.data);
    const crc = Bun.hash.crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** One ustar header block for the tar writer. */
function tarHeader(name: string, size: number, type: string, mode = 0o644, prefix = ""): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, "utf8");
  h.write(mode.toString(8).padStart(7, "0") + "\0", 100, "latin1");
  h.write("0000000\0", 108, "latin1");
  h.write("0000000\0", 116, "latin1");
  h.write(size.toString(8).padStart(11, "0") + "\0", 124, "latin1");
  h.write("00000000000\0", 136, "latin1");
  h.write("        ", 148, "latin1");
  h.write(type, 156, "latin1");
  h.write("ustar\0", 257, "latin1");
  h.write("00", 263, "latin1");
  if (prefix) h.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "latin1");
  return h;
}

const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)]);

export type TarFixtureEntry =
  | { kind: "file"; name: string; data: string | Uint8Array; mode?: number; prefix?: string }
  | { kind: "dir"; name: string }
  | { kind: "pax"; records: Record<string, string> }
  | { kind: "gnu-long-name"; name: string };

/** A tar writer for reader tests: plain ustar entries, pax headers and GNU long names. */
export function buildTar(entries: TarFixtureEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    if (e.kind === "file") {
      const data = Buffer.from(e.data);
      parts.push(tarHeader(e.name, data.length, "0", e.mode, e.prefix), pad(data));
    } else if (e.kind === "dir") {
      parts.push(tarHeader(e.name, 0, "5", 0o755));
    } else if (e.kind === "pax") {
      let body = "";
      for (const [k, v] of Object.entries(e.records)) {
        const rest = ` ${k}=${v}\n`;
        let len = Buffer.byteLength(rest) + 1;
        while (String(len).length + Buffer.byteLength(rest) !== len) len++;
        body += `${len}${rest}`;
      }
      const data = Buffer.from(body);
      parts.push(tarHeader("PaxHeader", data.length, "x"), pad(data));
    } else {
      const data = Buffer.from(e.name + "\0");
      parts.push(tarHeader("././@LongLink", data.length, "L"), pad(data));
    }
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export type ServeMode = "ok" | "corrupt" | "truncated-length" | "short-body" | "error" | "not-found";

/**
 * A local release server on 127.0.0.1. Routes are the npm registry's and GitHub's paths for the pinned
 * version; `mode` breaks the next responses on purpose; `delayMs` holds each response back.
 */
export class ReleaseServer {
  mode: ServeMode = "ok";
  delayMs = 0;
  readonly requests: string[] = [];
  private readonly routes = new Map<string, Uint8Array>();
  private readonly server: ReturnType<typeof Bun.serve>;

  constructor() {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        const path = new URL(req.url).pathname;
        this.requests.push(path);
        if (this.delayMs > 0) await Bun.sleep(this.delayMs);
        const body = this.routes.get(path);
        if (!body || this.mode === "not-found") return new Response("not found", { status: 404 });
        switch (this.mode) {
          case "error":
            return new Response("registry on fire", { status: 500, statusText: "Internal Server Error" });
          case "corrupt": {
            const copy = new Uint8Array(body);
            copy[Math.floor(copy.length / 2)]! ^= 0xff;
            return new Response(copy);
          }
          case "short-body":
            return new Response(body.subarray(0, Math.floor(body.length / 2)));
          case "truncated-length":
            // Promise the whole archive, send half, close: served raw, as only a socket can break that way.
            return Response.redirect(`${this.truncating(body)}${path}`, 302);
          default:
            return new Response(body);
        }
      },
    });
  }

  private raw?: { port: number; stop(): void };

  /** A bare HTTP/1.1 server that announces `body`'s full length, sends half of it and hangs up. */
  private truncating(body: Uint8Array): string {
    this.raw?.stop();
    const half = Buffer.concat([
      Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
      body.subarray(0, body.length >> 1),
    ]);
    const sent = new WeakMap<object, number>();
    const pump = (socket: { write(b: Uint8Array): number; end(): void }) => {
      let at = sent.get(socket) ?? 0;
      while (at < half.length) {
        const n = socket.write(half.subarray(at));
        if (n <= 0) break;
        at += n;
      }
      sent.set(socket, at);
      if (at >= half.length) socket.end();
    };
    const listener = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: { data: (socket) => pump(socket), drain: (socket) => pump(socket) },
    });
    this.raw = listener;
    return `http://127.0.0.1:${listener.port}`;
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Serves `bytes` where the npm registry (or GitHub) publishes the release archive. */
  publish(rel: PlatformRelease, source: "npm" | "github", bytes: Uint8Array): string {
    const path = new URL(archiveUrl(rel, source, this.url)).pathname;
    this.routes.set(path, bytes);
    return path;
  }

  count(path: string): number {
    return this.requests.filter((p) => p === path).length;
  }

  stop(): void {
    this.raw?.stop();
    this.server.stop(true);
  }
}
