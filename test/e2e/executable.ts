/**
 * The built executable for end-to-end tests: built once per test run into a temporary folder, then
 * copied into an empty folder so nothing but the executable itself (no node_modules, no sources) is at
 * hand, run with its own temporary HOME and CORTEX_HOME.
 */
import { copyFileSync, mkdtempSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "../../scripts/build.ts";

let built: Promise<string> | undefined;

export function builtExecutable(): Promise<string> {
  built ??= build("linux-x64", mkdtempSync(join(tmpdir(), "cortex-e2e-build-")));
  return built;
}

export interface Sandbox {
  exe: string;
  home: string;
  env: Record<string, string>;
}

/** A fresh folder holding only the executable, with HOME and CORTEX_HOME inside it. */
export async function sandbox(): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), "cortex-e2e-"));
  const exe = join(dir, "cortex");
  copyFileSync(await builtExecutable(), exe);
  chmodSync(exe, 0o755);
  const home = join(dir, "home");
  return { exe, home, env: { HOME: home, CORTEX_HOME: join(home, ".cortex"), PATH: "/usr/bin:/bin", CORTEX_OFFLINE: "1" } };
}
