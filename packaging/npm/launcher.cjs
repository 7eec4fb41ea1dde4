#!/usr/bin/env node
// The `cortex` command of the npm package: finds the compiled executable for this machine in the
// per-platform package npm installed as an optional dependency (chosen by its os, cpu and libc fields)
// and runs it with this process's arguments, standard streams, signals and exit code. Plain Node with
// no dependencies, CommonJS so that any Node from 18 on runs it. scripts/npm-packages.ts copies it
// unchanged and writes the table of platform packages beside it (platforms.json).
"use strict";

const { spawn } = require("node:child_process");
const { accessSync, constants, readFileSync, readdirSync, statSync } = require("node:fs");
const { dirname, join, resolve } = require("node:path");

/** { main: package name, version, packages: { "linux-x64": { package, executable }, ... } } */
const { main: MAIN, version: VERSION, packages: PACKAGES } = require("./platforms.json");

/** The text of a file, or undefined if it cannot be read. */
function readText(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * "glibc" or "musl" on Linux, else undefined: the libc npm chose the platform package by, decided as npm
 * does (npm-install-checks reads /usr/bin/ldd first). process.report, which npm falls back to, is not
 * used: building a report took 0.4-0.5 s per call on a tester's machine (14 ms median on another), paid
 * by every command an agent runs. Instead, when ldd says nothing: the libc this process has mapped, then
 * whether musl's loader is installed. Each step is a small file read.
 */
function linuxLibc() {
  if (process.platform !== "linux") return undefined;
  const ldd = readText("/usr/bin/ldd");
  if (ldd !== undefined) {
    if (ldd.includes("musl")) return "musl";
    if (ldd.includes("GNU C Library")) return "glibc";
  }
  const maps = readText("/proc/self/maps");
  if (maps !== undefined) {
    if (maps.includes("ld-musl-") || maps.includes("libc.musl-")) return "musl";
    if (maps.includes("libc.so.6")) return "glibc";
  }
  try {
    if (readdirSync("/lib").some((f) => /^ld-musl-.*\.so\.1$/.test(f))) return "musl";
  } catch {}
  return "glibc";
}

function platformKey() {
  const libc = linuxLibc();
  return `${process.platform}-${process.arch}${libc === "musl" ? "-musl" : ""}`;
}

function fail(message) {
  process.stderr.write(`${MAIN}: ${message}\n`);
  process.exit(1);
}

/**
 * CORTEX_EXECUTABLE as a full path, a relative one taken from the current folder. The file checks look
 * there, but spawn() would look a name without a slash up on PATH, where `cortex` may be this launcher.
 */
function overrideExecutable(override) {
  const file = resolve(override);
  const named = file === override ? override : `${override} (${file})`;
  let stat;
  try {
    stat = statSync(file);
  } catch {
    fail(`CORTEX_EXECUTABLE names a file that does not exist: ${named}; give the path of a cortex executable`);
  }
  if (stat.isDirectory()) fail(`CORTEX_EXECUTABLE names ${named}, which is a directory, not a cortex executable`);
  if (process.platform !== "win32") {
    try {
      accessSync(file, constants.X_OK);
    } catch {
      fail(`CORTEX_EXECUTABLE names ${named}, which is not executable (chmod +x it)`);
    }
  }
  return file;
}

/** The executable to run: CORTEX_EXECUTABLE if set, else the platform package's. */
function executable() {
  const override = process.env.CORTEX_EXECUTABLE;
  if (override) return overrideExecutable(override);
  const key = platformKey();
  const entry = PACKAGES[key];
  const supported = Object.keys(PACKAGES).join(", ");
  if (!entry) fail(`no executable for this platform (${key}); ${MAIN} ships for ${supported}`);
  let dir;
  try {
    dir = dirname(require.resolve(`${entry.package}/package.json`));
  } catch {
    // npm leaves an optional dependency out without failing the install, and without the user having
    // asked for it; which cause it was cannot be told from here, so the message names the likely ones
    const wanted = VERSION ? `${entry.package}@${VERSION}` : entry.package;
    fail(
      `the package ${entry.package} holding the executable for ${key} is not installed.\n` +
        `  npm installs it as an optional dependency of ${MAIN} and skips it, without failing the install,\n` +
        `  when optional dependencies are omitted (--omit=optional, --no-optional, omit=optional in an .npmrc\n` +
        `  or NPM_CONFIG_OMIT), or when it could not fetch it (a registry or network error). A\n` +
        `  package-lock.json written on another platform can leave it out too.\n` +
        `  Add it with:  npm install ${wanted}   (npm install -g ${wanted} if ${MAIN} is installed globally)\n` +
        `  or point CORTEX_EXECUTABLE at a cortex executable.`,
    );
  }
  const file = join(dir, entry.executable);
  if (!statSync(file, { throwIfNoEntry: false })) fail(`${entry.package} is installed but holds no ${entry.executable}; reinstall it`);
  return file;
}

function run() {
  const file = executable();
  // Forward the signals a terminal or a supervising agent sends; the child decides how to end. The
  // handlers go in before the child starts: a signal arriving in between must not end the launcher (the
  // default action) and orphan the child. Node runs them from the event loop, so `child` is set by then.
  const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"].filter((s) => !(process.platform === "win32" && s !== "SIGINT"));
  let child;
  for (const signal of forwarded) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child = spawn(file, process.argv.slice(2), { stdio: "inherit" });
  child.on("error", (err) => fail(`could not start ${file}: ${err.message}`));
  child.on("exit", (code, signal) => {
    if (signal) {
      // end the same way the child did, so a caller sees the signal, not a made-up exit code
      for (const s of forwarded) process.removeAllListeners(s);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

run();
