/**
 * Preloaded by bun test (bunfig.toml): every test process gets its own empty CORTEX_HOME and git user
 * configuration, so nothing a test writes reaches the user's ~/.cortex, tests never share state through
 * it, and the user's own git settings do not change what a test indexes.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, setDefaultTimeout } from "bun:test";

// Tests that start workers, build the executable or index a project need more than the 5 s default on a
// busy 2-core machine. bunfig.toml's [test] timeout is not applied by this Bun version and this call does
// not reach every file of a multi-file run, so `npm test` also passes `bun test --timeout 60000`.
setDefaultTimeout(60_000);

const home = mkdtempSync(join(tmpdir(), "cortex-test-home-"));
process.env.CORTEX_HOME = join(home, ".cortex");
// Every temporary folder a test makes (tmpdir() reads TMPDIR) lands here and goes with it: the e2e builds
// and ast-grep downloads are 50-200 MB each, and left behind they filled the disk.
process.env.TMPDIR = join(home, "tmp");
mkdirSync(process.env.TMPDIR);
process.env.CORTEX_OFFLINE = "1";
// the user's git configuration (a global ignore file, core.ignorecase) must not change what a walk keeps:
// git's own system and user files are replaced by empty ones, as on a fresh machine
process.env.GIT_CONFIG_NOSYSTEM = "1";
process.env.GIT_CONFIG_GLOBAL = join(home, ".gitconfig");
process.env.XDG_CONFIG_HOME = join(home, ".config");
process.env.CORTEX_LOG ??= "error";

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});
