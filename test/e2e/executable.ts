/**
 * The built executable for end-to-end tests (this machine's platform): built once per test run into a temporary folder, then
 * copied into an empty folder so nothing but the executable itself (no node_modules, no sources) is at
 * hand, run with its own temporary HOME and CORTEX_HOME.
 */
import { copyFileSync, mkdtempSync, chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, currentPlatform } from "../../scripts/build.ts";
import { writeTinyModel } from "../../scripts/make-tiny-model.ts";
import { AST_GREP_BIN } from "../helpers/ast-grep.ts";

let built: Promise<string> | undefined;

export function builtExecutable(): Promise<string> {
  built ??= build(currentPlatform(), mkdtempSync(join(tmpdir(), "cortex-e2e-build-")));
  return built;
}

export interface Sandbox {
  exe: string;
  home: string;
  env: Record<string, string>;
  /** The tiny embedding model, written into the sandbox. */
  tinyModel: string;
}

/** A fresh folder holding only the executable, with HOME and CORTEX_HOME inside it. */
export async function sandbox(): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), "cortex-e2e-"));
  const exe = join(dir, "cortex");
  copyFileSync(await builtExecutable(), exe);
  chmodSync(exe, 0o755);
  const home = join(dir, "home");
  const tinyModel = join(dir, "tiny-model");
  writeTinyModel(tinyModel);
  // ast-grep where a first structural search installs it (that download is tested in test/engines/structural-install.test.ts)
  mkdirSync(join(home, ".cortex", "bin"), { recursive: true });
  copyFileSync(AST_GREP_BIN, join(home, ".cortex", "bin", "ast-grep"));
  chmodSync(join(home, ".cortex", "bin", "ast-grep"), 0o755);
  return { exe, home, tinyModel, env: { HOME: home, CORTEX_HOME: join(home, ".cortex"), PATH: "/usr/bin:/bin", CORTEX_OFFLINE: "1" } };
}

/** Points a project at the sandbox's tiny model (the config a user would write). */
export function useTinyModel(projectRoot: string, sb: Sandbox): void {
  mkdirSync(join(projectRoot, ".cortex"), { recursive: true });
  writeFileSync(join(projectRoot, ".cortex", "config.yml"), `embeddings:\n  model: tiny\n  model_path: ${sb.tinyModel}\n`);
}
