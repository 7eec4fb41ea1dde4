/**
 * A server whose client goes away (stdin closed) during a first build exits at once, without waiting for
 * the build: a stopped build leaves the index usable and the next run finishes it.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { tmpProject } from "../helpers/tmp-project.ts";
import { indexLocation } from "../../src/store/location.ts";
import { canonicalRoot } from "../../src/core/paths.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
const files: Record<string, string> = {};
for (let i = 0; i < 3000; i++)
  files[`pkg${i % 30}/f${i}.go`] =
    `package pkg${i % 30}\n\n// F${i} does things.\nfunc F${i}(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n`;
const p = tmpProject(files);
afterAll(() => p.cleanup());

test("stdin closed during a first build: the server exits without finishing the build, and the index stays usable", async () => {
  const server = Bun.spawn([process.execPath, CLI, "mcp"], { cwd: p.root, stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...process.env } });
  const loc = indexLocation(canonicalRoot(p.root));
  // the build has started once its database exists
  const until = Date.now() + 30_000;
  while (Date.now() < until && !loc.current()) await Bun.sleep(50);
  expect(loc.current()).toBeDefined();
  server.stdin.end();
  expect(await server.exited).toBe(0);
  // it did not wait for the build: the parse tier is not complete; a status says so and an index run finishes it
  const status = Bun.spawnSync([process.execPath, CLI, "status", "--json"], { cwd: p.root, env: { ...process.env } });
  const parsed = JSON.parse(status.stdout.toString());
  expect(parsed.tiers.parse.state).not.toBe("complete");
  const index = Bun.spawnSync([process.execPath, CLI, "index", "--json"], { cwd: p.root, env: { ...process.env } });
  expect(index.exitCode).toBe(0);
  const after = JSON.parse(Bun.spawnSync([process.execPath, CLI, "status", "--json"], { cwd: p.root, env: { ...process.env } }).stdout.toString());
  expect(after.tiers.parse.state).toBe("complete");
  expect(after.files).toBe(3000);
});
