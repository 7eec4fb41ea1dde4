/**
 * `cortex index` and `cortex mcp` start themselves again with Bun's allocator told not to purge free
 * holes (src/cli/allocator-restart.ts): the child gets the option, its output and exit code are the
 * command's, signals reach it, and it dies with its parent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let scratch: string;
let project: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "cortex-allocator-"));
  project = join(scratch, "project");
  mkdirSync(project);
  writeFileSync(join(project, "a.go"), "package a\n\n// Area computes a rectangle's area.\nfunc Area(w, h int) int { return w * h }\n");
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function env(extra: Record<string, string> = {}): Record<string, string> {
  const e: Record<string, string> = {
    ...(process.env as Record<string, string>),
    CORTEX_HOME: join(scratch, "home"),
    CORTEX_TRACE: "1",
    CORTEX_LOG: "warning",
    ...extra,
  };
  delete e.MIMALLOC_PURGE_HOLES;
  delete e.CORTEX_ALLOCATOR_RESTART;
  return { ...e, ...extra };
}

function run(args: string[], extra: Record<string, string> = {}) {
  const r = Bun.spawnSync([process.execPath, CLI, ...args], { cwd: project, env: env(extra), stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

/** Process ids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "latin1");
      // the fields after the command's closing parenthesis: state, ppid, …
      const [, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) === pid) out.push(Number(d));
    } catch {}
  }
  return out;
}

/** Whether a process is gone or a zombie (dead, not yet reaped). */
function dead(pid: number): boolean {
  const path = `/proc/${pid}/stat`;
  if (!existsSync(path)) return true;
  try {
    const stat = readFileSync(path, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await Bun.sleep(25);
  }
  return check();
}

describe.if(process.platform === "linux")("an index run in a child with the allocator's option", () => {
  test("cortex index runs in a child that has MIMALLOC_PURGE_HOLES=0, and its index answers", () => {
    const r = run(["index", project, "--json"]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/allocator: MIMALLOC_PURGE_HOLES=0, in a child of process \d+/);
    expect(JSON.parse(r.out).files).toBe(1);
    const found = run(["occurrences", "Area", "--json"]);
    expect(found.code).toBe(0);
    expect(found.out).toContain("a.go");
  }, 60_000);

  test("the child's error and exit code are the command's", () => {
    const r = run(["index", join(scratch, "no-such-folder")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("project root does not exist");
    expect(r.err).toContain("no-such-folder");
  }, 60_000);

  test("CORTEX_ALLOCATOR_RESTART=0, an option the user set, help and dry runs stay in the process", () => {
    for (const [args, extra] of [
      [["index", project], { CORTEX_ALLOCATOR_RESTART: "0" }],
      [["index", project], { MIMALLOC_PURGE_HOLES: "1" }],
      [["index", project, "--dry-run"], {}],
      [["index", "--help"], {}],
    ] as [string[], Record<string, string>][]) {
      const r = run(args, extra);
      expect(r.code).toBe(0);
      expect(r.err).not.toContain("allocator:");
    }
  }, 60_000);

  test("a parent killed outright takes the running child with it; SIGTERM reaches the MCP server through the parent", async () => {
    // started and answering: the child has bound itself to its parent by then
    let fifos = 0;
    const start = async () => {
      // the server's stdin is a FIFO this test holds open: a pipe of the parent's would close with it
      const fifo = join(scratch, `stdin-${++fifos}`);
      expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
      const stdin = openSync(fifo, "r+");
      const p = Bun.spawn([process.execPath, CLI, "mcp", "--root", project], { env: env(), stdin, stdout: "pipe", stderr: "pipe" });
      writeSync(
        stdin,
        `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`,
      );
      const reader = p.stdout.getReader();
      let seen = "";
      while (!seen.includes('"id":1')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      reader.releaseLock();
      expect(seen).toContain('"serverInfo"');
      const children = childrenOf(p.pid);
      expect(children.length).toBe(1);
      return { p, child: children[0]!, stdin };
    };
    const killed = await start();
    killed.p.kill(9);
    await killed.p.exited;
    // its stdin still open, only the parent's death can stop the server
    expect(await waitFor(() => dead(killed.child))).toBe(true);
    closeSync(killed.stdin);

    const stopped = await start();
    stopped.p.kill("SIGTERM");
    expect(await stopped.p.exited).toBe(0);
    expect(await waitFor(() => dead(stopped.child))).toBe(true);
    closeSync(stopped.stdin);
  }, 60_000);
});
