#!/bin/sh
# Installs the cortex executable for this machine from a cortex release: picks the platform, downloads its
# archive and the SHA256SUMS file, refuses on a checksum mismatch (nothing is installed then), installs
# into a user folder and says how to put that folder on PATH. POSIX sh; needs curl or wget, tar, and
# sha256sum, shasum or openssl.
#
#   curl -fsSL <release>/install.sh | sh
#
# Settings (environment):
#   CORTEX_INSTALL_BASE_URL   where the release's files are (default: the release this script came with)
#   CORTEX_INSTALL_DIR        where to install (default: $HOME/.local/bin)
#   CORTEX_INSTALL_PLATFORM   the platform to install, instead of this machine's (linux-x64, darwin-arm64...)
#
# scripts/release.ts writes this file into each release with its version and download address filled in.
set -eu

VERSION="__CORTEX_VERSION__"
DEFAULT_BASE_URL="__CORTEX_BASE_URL__"
PLATFORMS="__CORTEX_PLATFORMS__"

say() { printf 'cortex install: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

detect_platform() {
  os=$(uname -s 2>/dev/null || echo unknown)
  arch=$(uname -m 2>/dev/null || echo unknown)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) die "on Windows, run install.ps1 in PowerShell instead" ;;
    *) os=$(printf '%s' "$os" | tr '[:upper:]' '[:lower:]') ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
  esac
  # an x64 shell under Rosetta on Apple silicon: the native build is the better one
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  # the Linux builds link against glibc; on musl (Alpine) they cannot start
  if [ "$os" = linux ] && ldd --version 2>&1 | grep -qi musl; then
    printf '%s-%s-musl' "$os" "$arch"
    return
  fi
  printf '%s-%s' "$os" "$arch"
}

download() { # url dest
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || die "download failed: $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || die "download failed: $1"
  else
    die "neither curl nor wget is installed; install one of them and run this again"
  fi
}

sha256_of() { # file
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 "$1" | sed 's/^.*= *//'
  else
    die "no sha256sum, shasum or openssl to check the download with"
  fi
}

platform=${CORTEX_INSTALL_PLATFORM:-$(detect_platform)}
case " $PLATFORMS " in
  *" $platform "*) ;;
  *) die "no cortex executable for this platform ($platform); releases have: $PLATFORMS" ;;
esac

base_url=${CORTEX_INSTALL_BASE_URL:-$DEFAULT_BASE_URL}
[ -n "$base_url" ] || die "no download address: set CORTEX_INSTALL_BASE_URL to the folder holding the release files"
base_url=${base_url%/}
install_dir=${CORTEX_INSTALL_DIR:-${HOME:?HOME is not set}/.local/bin}
archive="cortex-$VERSION-$platform.tar.gz"

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t cortex-install)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

say "downloading cortex $VERSION for $platform from $base_url"
download "$base_url/SHA256SUMS" "$tmp/SHA256SUMS"
download "$base_url/$archive" "$tmp/$archive"

expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")
[ -n "$expected" ] || die "SHA256SUMS lists no $archive; nothing installed"
actual=$(sha256_of "$tmp/$archive")
if [ "$actual" != "$expected" ]; then
  die "checksum mismatch for $archive (expected $expected, got $actual): the download is damaged or altered; nothing installed"
fi

mkdir -p "$tmp/unpacked"
tar -xzf "$tmp/$archive" -C "$tmp/unpacked" || die "could not unpack $archive; nothing installed"
[ -f "$tmp/unpacked/cortex" ] || die "$archive holds no cortex executable; nothing installed"

mkdir -p "$install_dir" || die "cannot create $install_dir (set CORTEX_INSTALL_DIR to a folder you can write)"
# copy beside the target, then rename: a running cortex keeps its file, and no half-written one is left
cp "$tmp/unpacked/cortex" "$install_dir/.cortex.$$.part" || die "cannot write into $install_dir"
chmod 755 "$install_dir/.cortex.$$.part"
mv -f "$install_dir/.cortex.$$.part" "$install_dir/cortex"

installed_version=$("$install_dir/cortex" --version 2>/dev/null || true)
say "installed $install_dir/cortex${installed_version:+ ($installed_version)}"

case ":${PATH:-}:" in
  *":$install_dir:"*) ;;
  *)
    say "$install_dir is not on your PATH. Add it with:"
    say "  echo 'export PATH=\"$install_dir:\$PATH\"' >> ~/.profile   (or ~/.bashrc, ~/.zshrc), then open a new shell"
    ;;
esac
