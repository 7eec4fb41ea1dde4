#!/usr/bin/env bun
/**
 * Generates the publishable npm packages from built executables, the way esbuild, biome and ast-grep ship:
 *   - `cortex-code`: a launcher (packaging/npm/launcher.cjs, plain Node) as the `cortex` and `cortex-code`
 *     commands, with the platform packages generated with it as optional dependencies;
 *   - `cortex-code-<os>-<cpu>`: one executable each, with `os`, `cpu` (and `libc` on Linux) fields, so npm
 *     installs only the one that fits the machine.
 * `npx -y cortex-code mcp` then needs nothing but Node. The packages are generated, never kept in the
 * repository: the repository's own package.json is the development package (Bun, sources, test tools)
 * and stays private.
 *
 *   bun scripts/npm-packages.ts                    every platform built in dist/ → dist/npm/
 *   bun scripts/npm-packages.ts linux-x64          the main package and linux-x64's, listing only linux-x64
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { TARGETS } from "./build.ts";

const ROOT = resolve(import.meta.dir, "..");

/** The npm name (checked free with `npm view` on 2026-11-26, as were the platform names below). */
export const NPM_NAME = "cortex-code";

export interface NpmPlatform {
  /** The build target (scripts/build.ts TARGETS). */
  target: string;
  /** process.platform-process.arch[-musl]: the launcher's key. */
  key: string;
  os: string;
  cpu: string;
  libc?: "glibc" | "musl";
  /** The executable's path inside the platform package. */
  executable: string;
}

/** Every platform published. No musl build: onnxruntime-node's Linux libraries need glibc. */
export const NPM_PLATFORMS: NpmPlatform[] = [
  { target: "linux-x64", key: "linux-x64", os: "linux", cpu: "x64", libc: "glibc", executable: "bin/cortex" },
  { target: "linux-arm64", key: "linux-arm64", os: "linux", cpu: "arm64", libc: "glibc", executable: "bin/cortex" },
  { target: "darwin-x64", key: "darwin-x64", os: "darwin", cpu: "x64", executable: "bin/cortex" },
  { target: "darwin-arm64", key: "darwin-arm64", os: "darwin", cpu: "arm64", executable: "bin/cortex" },
  { target: "windows-x64", key: "win32-x64", os: "win32", cpu: "x64", executable: "bin/cortex.exe" },
];

export const platformPackageName = (p: NpmPlatform) => `${NPM_NAME}-${p.key}`;

function devPackage(): { version: string; description: string } {
  return JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
}

export interface GeneratedPackages {
  version: string;
  /** Folder of the main package. */
  main: string;
  /** Folder of each platform package generated, by build target. */
  platforms: Record<string, string>;
}

/**
 * Writes the main package and one platform package per executable given (build target → file) into
 * `outDir`, replacing what was there. The main package lists the platforms given and no other: a listed
 * package that is never published would be skipped by npm as a failed optional dependency, and the user
 * would get "not installed" instead of "no executable for this platform".
 */
export function generateNpmPackages(executables: Record<string, string>, outDir: string, version = devPackage().version): GeneratedPackages {
  for (const target of Object.keys(executables)) {
    if (!NPM_PLATFORMS.some((p) => p.target === target))
      throw new Error(`no npm platform for build target '${target}': ${NPM_PLATFORMS.map((p) => p.target).join(", ")}`);
  }
  const built = NPM_PLATFORMS.filter((p) => p.target in executables);
  if (!built.length) throw new Error("no executables given: the main package would have nothing to run");
  // all checked before anything is written
  for (const [target, file] of Object.entries(executables)) {
    if (!existsSync(file)) throw new Error(`no executable for ${target} at ${file}: run bun scripts/build.ts ${target}`);
  }
  const { description } = devPackage();
  const mainDir = join(outDir, NPM_NAME);
  rmSync(mainDir, { recursive: true, force: true });
  mkdirSync(join(mainDir, "bin"), { recursive: true });
  copyFileSync(join(ROOT, "packaging/npm/launcher.cjs"), join(mainDir, "bin/cortex.cjs"));
  chmodSync(join(mainDir, "bin/cortex.cjs"), 0o755);
  writeJson(join(mainDir, "bin/platforms.json"), {
    main: NPM_NAME,
    // for the launcher's "npm install <package>@<version>" advice
    version,
    packages: Object.fromEntries(built.map((p) => [p.key, { package: platformPackageName(p), executable: p.executable }])),
  });
  writeJson(join(mainDir, "package.json"), {
    name: NPM_NAME,
    version,
    description,
    keywords: ["mcp", "code-search", "coding-agent", "tree-sitter", "ast-grep"],
    bin: { cortex: "bin/cortex.cjs", [NPM_NAME]: "bin/cortex.cjs" },
    files: ["bin"],
    optionalDependencies: Object.fromEntries(built.map((p) => [platformPackageName(p), version])),
    engines: { node: ">=18" },
  });
  writeFileSync(join(mainDir, "README.md"), mainReadme(built));

  const platforms: Record<string, string> = {};
  for (const [target, file] of Object.entries(executables)) {
    const p = NPM_PLATFORMS.find((x) => x.target === target)!;
    const dir = join(outDir, platformPackageName(p));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, "bin"), { recursive: true });
    copyFileSync(file, join(dir, p.executable));
    chmodSync(join(dir, p.executable), 0o755);
    writeJson(join(dir, "package.json"), {
      name: platformPackageName(p),
      version,
      description: `The cortex executable for ${p.key}${p.libc ? ` (${p.libc})` : ""}; installed by ${NPM_NAME}.`,
      os: [p.os],
      cpu: [p.cpu],
      ...(p.libc ? { libc: [p.libc] } : {}),
      files: ["bin"],
      preferUnplugged: true,
    });
    writeFileSync(
      join(dir, "README.md"),
      `# ${platformPackageName(p)}\n\nThe ${p.key} executable of [${NPM_NAME}](https://www.npmjs.com/package/${NPM_NAME}). Install \`${NPM_NAME}\`, not this.\n`,
    );
    platforms[target] = dir;
  }
  return { version, main: mainDir, platforms };
}

function mainReadme(built: NpmPlatform[]): string {
  return `# ${NPM_NAME}

cortex: code context for coding agents. Hybrid, exact and structural search, symbols, call and import
graphs, code statistics and team memory over MCP (stdio) and a CLI that prints JSON. One self-contained
executable; npm installs the one for your platform (${built.map((p) => p.key).join(", ")}).

\`\`\`sh
npx -y ${NPM_NAME} mcp                      # the MCP server over stdio, for the project in the current folder
npx -y ${NPM_NAME} search "where are retries handled"
npm install -g ${NPM_NAME} && cortex --help
\`\`\`

Claude Code: \`claude mcp add cortex -- npx -y ${NPM_NAME} mcp\`.
\`CORTEX_EXECUTABLE=/path/to/cortex\` makes the launcher run that executable instead.
`;
}

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((t) => !TARGETS[t] || !NPM_PLATFORMS.some((p) => p.target === t));
  if (unknown.length) {
    // a usage error: one line and exit 2, not a stack trace
    console.error(`npm-packages: unknown build target ${unknown.map((t) => `'${t}'`).join(", ")}; targets: ${NPM_PLATFORMS.map((p) => p.target).join(", ")}`);
    process.exit(2);
  }
  const dist = (t: string) => join(ROOT, "dist", TARGETS[t]!.file);
  // without arguments, the platforms built in dist/ (the main package lists only those)
  const targets = wanted.length ? wanted : NPM_PLATFORMS.map((p) => p.target).filter((t) => existsSync(dist(t)));
  if (!targets.length) {
    console.error("npm-packages: no executable in dist/: run bun scripts/build.ts [target...] first");
    process.exit(1);
  }
  const missing = wanted.filter((t) => !existsSync(dist(t)));
  if (missing.length) {
    console.error(`npm-packages: not built: ${missing.map(dist).join(", ")}; run bun scripts/build.ts ${missing.join(" ")}`);
    process.exit(1);
  }
  const out = generateNpmPackages(Object.fromEntries(targets.map((t) => [t, dist(t)])), join(ROOT, "dist", "npm"));
  const skipped = NPM_PLATFORMS.map((p) => p.target).filter((t) => !targets.includes(t));
  console.log(`${out.main}\n${Object.values(out.platforms).join("\n")}`);
  if (!wanted.length && skipped.length) console.error(`npm-packages: not built, so not packaged or listed: ${skipped.join(", ")}`);
}
