/**
 * Cross-repository answers through the command line, against a real PostgreSQL server the test starts
 * (skipped, with the reason printed, only where the machine has no server binaries): a Go library and a
 * service importing it, each published with `cortex index --repo`, then `refs` and `graph` over both.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { serverSkipReason, startServer, type TestServer } from "../store/postgres/server.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

// builds local indexes, starts a database and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

const skip = serverSkipReason();
if (skip !== undefined) console.warn(`skipping the PostgreSQL server tests: ${skip}`);
const MAIN = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");

let server: TestServer;
const projects: TmpProject[] = [];
beforeAll(() => {
  if (skip === undefined) server = startServer();
});
afterAll(() => {
  for (const p of projects) p.cleanup();
  server?.stop();
});

function cortex(args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", env: { ...process.env, CORTEX_DATABASE_URL: server.url() }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test.skipIf(skip !== undefined)("refs and graph callers of a library function list the calls of another repository", () => {
  const lib = tmpProject({
    "go.mod": "module example.com/lib\n\ngo 1.21\n",
    "strs/strs.go": 'package strs\n\n// Shout upper-cases.\nfunc Shout(s string) string { return s + "!" }\n',
  });
  const svc = tmpProject({
    "go.mod": "module example.com/svc\n\ngo 1.21\n",
    "cmd/main.go": 'package main\n\nimport "example.com/lib/strs"\n\nfunc greet() string {\n\treturn strs.Shout("hi")\n}\n\nfunc main() { greet() }\n',
  });
  projects.push(lib, svc);
  expect(cortex(["index", "--repo", "lib", lib.root]).code).toBe(0);
  expect(cortex(["index", "--repo", "svc", svc.root]).code).toBe(0);

  const refs = cortex(["refs", "Shout", "--repo", "all", "--json"]);
  expect(refs.code).toBe(0);
  const out = JSON.parse(refs.stdout);
  expect(out.definitions.map((d: { file: string }) => d.file)).toEqual(["lib/strs/strs.go"]);
  expect(out.usages.map((u: { file: string; line: number; resolution: string }) => [u.file, u.line, u.resolution])).toEqual([
    ["svc/cmd/main.go", 6, "cross-repo"],
  ]);

  const callers = cortex(["graph", "callers", "Shout", "--repo", "lib,svc", "--json"]);
  expect(callers.code).toBe(0);
  expect(JSON.parse(callers.stdout).edges.map((e: { from: { name: string }; to: { name: string } }) => [e.from.name, e.to.name])).toEqual([
    ["main.greet", "strs.Shout"],
  ]);
  // the service alone cannot see the library: the call stays unresolved
  const alone = JSON.parse(cortex(["refs", "Shout", "--repo", "svc", "--json"]).stdout);
  expect(alone.usages.map((u: { resolution: string }) => u.resolution)).toEqual(["unresolved"]);
});
