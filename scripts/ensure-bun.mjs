// Makes the Bun that npm installed runnable. The project's .npmrc sets ignore-scripts (no dependency
// needs an install script, and skipping them keeps installs offline-safe and free of native builds), but
// the `bun` package links its platform binary in a postinstall step: this runs that one step, once.
// Plain Node, no dependencies: it runs before Bun can.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "node_modules", "bun");
const bin = join(pkg, "bin", process.platform === "win32" ? "bun.exe" : "bun.exe");

const works = () => spawnSync(bin, ["--version"], { stdio: "ignore" }).status === 0;

if (!works()) {
  const r = spawnSync(process.execPath, ["install.js"], { cwd: pkg, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0 || !works()) {
    console.error("cortex: could not set up Bun from node_modules/bun; run: cd node_modules/bun && node install.js");
    process.exit(1);
  }
}
