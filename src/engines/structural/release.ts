/**
 * The ast-grep release cortex runs: one pinned version and, for each platform, where to fetch it and the
 * hashes that prove a download is that release. Two sources carry the same executable (ast-grep's release
 * workflow unzips the GitHub archives `app-<target>.zip` into the npm packages), so one sha256 of the
 * executable verifies either source; the npm tarball is also checked against the sha512 integrity the
 * registry published for it. The hashes were read with `npm view` / `npm pack` from registry.npmjs.org.
 */
import { CortexError } from "../../core/errors.ts";

export const AST_GREP_VERSION = "0.51.1";

export interface PlatformRelease {
  /** Our key and the npm package suffix: "linux-x64-gnu". */
  id: string;
  npmPackage: string;
  /** The registry's `dist.integrity` of the package tarball. */
  integrity: string;
  /** Rust target triple naming the GitHub release archive `app-<target>.zip`. */
  githubTarget: string;
  /** The executable's file name inside either archive (and in $CORTEX_HOME/bin). */
  executable: string;
  /** sha256 (hex) of that executable. */
  executableSha256: string;
}

const release = (id: string, githubTarget: string, integrity: string, executableSha256: string, exe = "ast-grep"): PlatformRelease => ({
  id,
  npmPackage: `@ast-grep/cli-${id}`,
  integrity,
  githubTarget,
  executable: exe,
  executableSha256,
});

export const RELEASES: Readonly<Record<string, PlatformRelease>> = {
  "linux-x64-gnu": release(
    "linux-x64-gnu",
    "x86_64-unknown-linux-gnu",
    "sha512-FlaaRLyopXet+zFrWOdlTbyJb+QqZzgV9jxIbgz0FoVsJSaJ6jsenO/6bgYJk4zPOCUODuvoQ1/XFlB4r6BdcQ==",
    "c4c1970bf0da5a4a81b37b682b7feb1f00d623e23ec40bbf1546fe9bf65c7306",
  ),
  "linux-arm64-gnu": release(
    "linux-arm64-gnu",
    "aarch64-unknown-linux-gnu",
    "sha512-ix/97iBUPGvf9KrhKRcooSJLmwBgAo7GhKHm7VH30kpxOMUrNLqiTXJj2eZVLiO2xQdUFnbwhVn+A7blSlYLJQ==",
    "bf31aeda9584b14dedff1e3c9a501fed449b48635da2f40f676851a3b3e9982f",
  ),
  "darwin-x64": release(
    "darwin-x64",
    "x86_64-apple-darwin",
    "sha512-i8wJd4amxXCvEgZDcU8QDnVE92oqJyDFPyTjaT1PVtBQ0Vb7Y55iTu1dwBwXVi0inFM2OJ4Ze57yCz1uNuXTbg==",
    "70e2e16c2ffd0ecf6d27c2e3a85e001748dc1155dd351c927812e6158e4e1bcf",
  ),
  "darwin-arm64": release(
    "darwin-arm64",
    "aarch64-apple-darwin",
    "sha512-C279HR4eytYkHrmqudMi+eUG3ZvuAqWc0zp9i5aPugFF389AE6N6SbiSFdKeVZXMaUVpwRbmBQbBTr5cA0Tugw==",
    "094391a222233faed3be5170b4abf7098162cc3322ce7dd6b83a1e113a6ce550",
  ),
  "win32-x64-msvc": release(
    "win32-x64-msvc",
    "x86_64-pc-windows-msvc",
    "sha512-98fN1gUWJ6AMcwfFdUAQV+4haq5HAzDZWyu3W5zCZXkhhvcT3GLY9oRcACrr7yefIQohHpj5GG0rUZNlwukrMQ==",
    "910dbbfcf09ed7873296a66fce5934f0069cf55726eff947f92649194ce833df",
    "ast-grep.exe",
  ),
  "win32-arm64-msvc": release(
    "win32-arm64-msvc",
    "aarch64-pc-windows-msvc",
    "sha512-WRgt7DX/APxJ6KwGopM0jiC1SN4okxXh2kXY5/YliNy0oPc7ayE5FdG7Dqz40iyOE3EpQN6SZVRquvkpJEagnQ==",
    "da2d5c5b00a31d27f8a0031151fcb6464f119ce7065c7ddc9b17a6b3fd6b93c6",
    "ast-grep.exe",
  ),
};

export type DownloadSource = "npm" | "github";

export const DEFAULT_BASE_URL: Readonly<Record<DownloadSource, string>> = {
  npm: "https://registry.npmjs.org",
  github: "https://github.com/ast-grep/ast-grep/releases/download",
};

/** Whether this Linux runs glibc (the only libc ast-grep publishes Linux builds for). */
function isGlibc(): boolean {
  const header = (process.report?.getReport?.() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return typeof header?.glibcVersionRuntime === "string";
}

/** The release key for a platform, or undefined where ast-grep publishes no build. */
export function platformKey(platform: string = process.platform, arch: string = process.arch, glibc: () => boolean = isGlibc): string | undefined {
  if (platform === "linux" && (arch === "x64" || arch === "arm64")) return glibc() ? `linux-${arch}-gnu` : undefined;
  if (platform === "darwin" && (arch === "x64" || arch === "arm64")) return `darwin-${arch}`;
  if (platform === "win32" && (arch === "x64" || arch === "arm64")) return `win32-${arch}-msvc`;
  return undefined;
}

/** How to install the pinned ast-grep by hand, for every error that ends the automatic way. */
export function manualInstallHint(rel?: PlatformRelease): string {
  const archive = rel ? ` (or unzip app-${rel.githubTarget}.zip from https://github.com/ast-grep/ast-grep/releases/tag/${AST_GREP_VERSION})` : "";
  const exe = rel?.executable ?? "ast-grep";
  return (
    `Install ast-grep ${AST_GREP_VERSION} by hand: npm install -g @ast-grep/cli@${AST_GREP_VERSION}${archive}, ` +
    `then set CORTEX_AST_GREP to the path of its '${exe}' executable.`
  );
}

/** The release for this machine; refuses platforms ast-grep publishes no build for. */
export function currentRelease(): PlatformRelease {
  const key = platformKey();
  const rel = key ? RELEASES[key] : undefined;
  if (!rel) {
    const what =
      process.platform === "linux" && !isGlibc() ? `${process.platform}-${process.arch} without glibc (e.g. musl)` : `${process.platform}-${process.arch}`;
    throw new CortexError("AST_GREP_MISSING", `ast-grep publishes no build for ${what}. ${manualInstallHint()}`, { data: { platform: what } });
  }
  return rel;
}

/** Where one source publishes the archive of a platform's release. */
export function archiveUrl(rel: PlatformRelease, source: DownloadSource, baseUrl: string = DEFAULT_BASE_URL[source]): string {
  const base = baseUrl.replace(/\/+$/, "");
  if (source === "github") return `${base}/${AST_GREP_VERSION}/app-${rel.githubTarget}.zip`;
  const bare = rel.npmPackage.slice(rel.npmPackage.indexOf("/") + 1);
  return `${base}/${rel.npmPackage}/-/${bare}-${AST_GREP_VERSION}.tgz`;
}
