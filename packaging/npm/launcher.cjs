#!/usr/bin/env node
// The `cortex` command of the npm package: finds the compiled executable for this machine in the
// per-platform package npm installed as an optional dependency (chosen by its os, cpu and libc fields)
// and runs it with this process's arguments, standard streams, signals and exit code. Plain Node with
// no dependencies, CommonJS so that any Node from 18 on runs it. scripts/npm-packages.ts copies it
// unchanged and writes the table of platform packages beside it (platforms.json).
"use strict";

const { spawn } = require("node:child_process");
const { existsSync } = require("node:fs");
const { dirname, join } = require("node:path");

/** { main: package name, packages: { "linux-x64": { package, executable }, ... } } */
const { main: MAIN, packages: PACKAGES } = require("./platforms.json");

/** "glibc" or "musl" on Linux (Node's report names the glibc it runs on; musl has none), else undefined. */
function linuxLibc() {
  if (process.platform !== "linux") return undefined;
  try {
    // the report would otherwise list network interfaces, which can take a while (Node 18+)
    if (process.report) process.report.excludeNetwork = true;
    const header = process.report && process.report.getReport().header;
    return header && header.glibcVersionRuntime ? "glibc" : "musl";
  } catch {
    return "glibc";
  }
}

function platformKey() {
  const libc = linuxLibc();
  return `${process.platform}-${process.arch}${libc === "musl" ? "-musl" : ""}`;
}

function fail(message) {
  process.stderr.write(`${MAIN}: ${message}\n`);
  process.exit(1);
}

/** The executable to run: CORTEX_EXECUTABLE if set, else the platform package's. */
function executable() {
  const override = process.env.CORTEX_EXECUTABLE;
  if (override) {
    if (!existsSync(override)) fail(`CORTEX_EXECUTABLE names a file that does not exist: ${override}`);
    return override;
  }
  const key = platformKey();
  const entry = PACKAGES[key];
  const supported = Object.keys(PACKAGES).join(", ");
  if (!entry) fail(`no executable for this platform (${key}); ${MAIN} ships for ${supported}`);
  let dir;
  try {
    dir = dirname(require.resolve(`${entry.package}/package.json`));
  } catch {
    fail(
      `the package ${entry.package} holding the executable for ${key} is not installed. It is an optional ` +
        `dependency of ${MAIN}: reinstall without --omit=optional / --no-optional (or install ${entry.package} ` +
        `yourself), or point CORTEX_EXECUTABLE at a cortex executable.`,
    );
  }
  const file = join(dir, entry.executable);
  if (!existsSync(file)) fail(`${entry.package} is installed but holds no ${entry.executable}; reinstall it`);
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
