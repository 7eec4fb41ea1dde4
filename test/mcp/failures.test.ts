/**
 * What an agent is told when the machine, not the call, is the problem: the project folder deleted under
 * the server, an index run that failed because CORTEX_HOME cannot be written. Each is said as it is, in
 * every tool, rather than as "no matches" or "run cortex index first". The CLI says the same in one line.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../src/mcp/server.ts";
import { Session } from "../../src/tools/session.ts";
import { TOOLS } from "../../src/tools/index.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";

const text = (r: unknown) => (r as { content: Array<{ type: string; text: string }> }).content[0]!.text;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function serve(session: Session): Promise<Client> {
  const server = createMcpServer({ session, tools: TOOLS });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(b);
  cleanups.push(() => void client.close());
  return client;
}

describe("failures of the machine, told as they are", () => {
  test("a project folder deleted under the server: every tool says so", async () => {
    const p: TmpProject = copyFixture("polyglot/go");
    const session = new Session(p.root);
    cleanups.push(() => session.close());
    await session.index();
    const client = await serve(session);
    expect((await client.callTool({ name: "search_text_pattern", arguments: { query: "func" } })).isError).toBeFalsy();
    p.cleanup();
    for (const [name, args] of [
      ["search_text_pattern", { query: "func" }],
      ["find_symbol_occurrences", { symbol_name: "Login" }],
      ["cortex_files", { query: { from: "files" } }],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError).toBe(true);
      expect(text(r)).toContain(`the project folder ${session.root} no longer exists`);
    }
  });

  test("an index run that failed: the tools give its cause, not 'run cortex index first'", async () => {
    const p: TmpProject = copyFixture("polyglot/go");
    cleanups.push(() => p.cleanup());
    const dir = mkdtempSync(join(tmpdir(), "cortex-home-file-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const homeFile = join(dir, "home");
    writeFileSync(homeFile, "not a folder");
    const before = process.env.CORTEX_HOME;
    process.env.CORTEX_HOME = homeFile;
    cleanups.push(() => {
      if (before === undefined) delete process.env.CORTEX_HOME;
      else process.env.CORTEX_HOME = before;
    });
    const session = new Session(p.root);
    cleanups.push(() => session.close());
    await expect(session.index()).rejects.toThrow();
    const client = await serve(session);
    const r = await client.callTool({ name: "cortex_files", arguments: { query: { from: "files" } } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("building it failed: cannot mkdir");
    expect(text(r)).toContain(`CORTEX_HOME (${homeFile})`);
    expect(text(r)).not.toContain("run 'cortex index' first");
  });

  test("the CLI says a file system problem in one line, without a stack trace", () => {
    const p: TmpProject = copyFixture("polyglot/go");
    cleanups.push(() => p.cleanup());
    const dir = mkdtempSync(join(tmpdir(), "cortex-home-file-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "home"), "not a folder");
    const r = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/cli/main.ts"), "search", "login"], {
      cwd: p.root,
      env: { ...process.env, CORTEX_HOME: join(dir, "home") },
      stderr: "pipe",
    });
    expect(r.exitCode).toBe(2);
    const err = r.stderr.toString();
    expect(err).toStartWith("cortex: cannot mkdir ");
    expect(err).toContain("a part of the path is a file, not a folder (ENOTDIR)");
    expect(err.trim().split("\n")).toHaveLength(1);
  });
});

describe("the whole machine is no project", () => {
  test("/ and the home folder are refused unless they hold .git or .cortex/; a query does not start an index of them", async () => {
    const { checkProjectRoot } = await import("../../src/core/paths.ts");
    expect(() => checkProjectRoot("/")).toThrow("/ is the root of the file system, not a project");
    const dir = mkdtempSync(join(tmpdir(), "cortex-home-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const before = process.env.HOME;
    process.env.HOME = dir;
    cleanups.push(() => {
      process.env.HOME = before;
    });
    expect(() => checkProjectRoot(dir)).toThrow("is your home folder, not a project");
    const session = new Session(dir, { autoIndex: true });
    cleanups.push(() => session.close());
    await expect(session.index()).rejects.toThrow("is your home folder, not a project");
    // a home folder that is a project (dotfiles under git) is indexed
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, ".git"));
    expect(() => checkProjectRoot(dir)).not.toThrow();
  });
});
