#!/bin/sh
# Installs the cortex executable for this machine from a cortex release: picks the platform, downloads its
# archive and the SHA256SUMS file, refuses on a checksum mismatch (nothing is installed then), checks that
# the new executable runs here before it replaces anything, installs into a user folder and says how to put
# that folder on PATH (or which other cortex comes before it there). POSIX sh; needs curl or wget, tar, and
# sha256sum, shasum or openssl.
#
#   curl -fsSL <release>/install.sh | sh
#
# Settings (environment):
#   CORTEX_INSTALL_BASE_URL   where the release's files are (default: the release this script came with)
#   CORTEX_INSTALL_DIR        where to install (default: $HOME/.local/bin; a leading ~ means $HOME, a
#                             relative path is taken from the current folder)
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
  # a failure to write (a full or read-only temporary folder) is not the server's fault: say which it was
  status=0
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || status=$?
    [ "$status" != 23 ] || write_failed "$1" "$2" # curl's "failure writing output to destination"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || status=$?
    [ "$status" != 3 ] || write_failed "$1" "$2" # wget's "file I/O error"
  else
    die "neither curl nor wget is installed; install one of them and run this again"
  fi
  [ "$status" = 0 ] || die "download failed: $1"
}

write_failed() { # url dest
  die "could not save $1 to $(dirname "$2"): writing failed (is the disk full?). Set TMPDIR to a folder with a few hundred MB free; nothing installed"
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

# The folder to install into, absolute: the PATH advice below and a shell's PATH lookup need a full path,
# and a quoted '~/bin' reaches this script with its ~ unexpanded.
resolve_install_dir() {
  if [ -n "${CORTEX_INSTALL_DIR:-}" ]; then
    dir=$CORTEX_INSTALL_DIR
  else
    [ -n "${HOME:-}" ] || die "HOME is not set: set HOME, or CORTEX_INSTALL_DIR to the folder to install into"
    dir=$HOME/.local/bin
  fi
  case "$dir" in
    "~" | "~/"*)
      [ -n "${HOME:-}" ] || die "CORTEX_INSTALL_DIR=$dir starts with ~ but HOME is not set: give the full path"
      dir=$HOME${dir#"~"}
      ;;
    "~"*) die "CORTEX_INSTALL_DIR=$dir: give the full path (only a leading ~ or ~/ is expanded, to \$HOME)" ;;
    /*) ;;
    *)
      cwd=$(pwd)
      dir=${cwd%/}/${dir#./}
      relative=yes
      ;;
  esac
  while :; do
    case "$dir" in
      ?*/) dir=${dir%/} ;;
      *) break ;;
    esac
  done
  [ -z "${relative:-}" ] || say "CORTEX_INSTALL_DIR is relative: installing into $dir"
  install_dir=$dir
}

# Refuses a folder that cannot take the install before 75 MB are downloaded: the folder (or the first of
# its parents that exists, which mkdir -p would extend) must be a writable folder, and <dir>/cortex must
# not be a folder (mv would put the new file inside it and the install would seem to succeed). Nothing is
# created here, so a refused download leaves no empty folder behind.
check_install_dir() {
  if [ -d "$install_dir/cortex" ]; then
    die "$install_dir/cortex is a folder, not a file: move it away or set CORTEX_INSTALL_DIR to another folder; nothing installed"
  fi
  existing=$install_dir
  while [ ! -e "$existing" ] && [ ! -L "$existing" ]; do existing=$(dirname "$existing"); done
  [ -d "$existing" ] || die "cannot install into $install_dir: $existing is not a folder (set CORTEX_INSTALL_DIR to a folder you can write)"
  [ -w "$existing" ] && [ -x "$existing" ] || die "cannot write into $existing (set CORTEX_INSTALL_DIR to a folder you can write); nothing installed"
}

platform=${CORTEX_INSTALL_PLATFORM:-$(detect_platform)}
case " $PLATFORMS " in
  *" $platform "*) ;;
  *) die "no cortex executable for this platform ($platform); releases have: $PLATFORMS" ;;
esac

base_url=${CORTEX_INSTALL_BASE_URL:-$DEFAULT_BASE_URL}
[ -n "$base_url" ] || die "no download address: set CORTEX_INSTALL_BASE_URL to the folder holding the release files"
base_url=${base_url%/}
resolve_install_dir
check_install_dir
archive="cortex-$VERSION-$platform.tar.gz"

# Both the temporary folder and the partly copied file beside the target go on any exit: an error, a
# full disk during the copy, an interrupt (the signal traps exit, which runs the EXIT trap).
tmp=
part=
cleanup() {
  [ -z "$part" ] || rm -f "$part"
  [ -z "$tmp" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t cortex-install 2>/dev/null) ||
  die "cannot create a temporary folder in ${TMPDIR:-/tmp} (full, or not writable?): set TMPDIR to another folder; nothing installed"

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
# the checksum matched, so a failure here is most likely the temporary folder (tar says why above)
tar -xzf "$tmp/$archive" -C "$tmp/unpacked" || die "could not unpack $archive in $tmp (is the disk full?); nothing installed"
[ -f "$tmp/unpacked/cortex" ] || die "$archive holds no cortex executable; nothing installed"

kept="nothing installed"
[ ! -e "$install_dir/cortex" ] || kept="nothing installed, $install_dir/cortex unchanged"
mkdir -p "$install_dir" || die "cannot create $install_dir (set CORTEX_INSTALL_DIR to a folder you can write)"
# copy beside the target, then rename: a running cortex keeps its file, and no half-written one is left
part=$install_dir/.cortex.$$.part
cp "$tmp/unpacked/cortex" "$part" || die "cannot write $part (is the disk full?); $kept"
chmod 755 "$part" || die "cannot make $part executable; $kept"

# Run the new file before it replaces anything: an archive for another platform (a wrong
# CORTEX_INSTALL_PLATFORM) or a broken build would otherwise replace a working cortex and still report
# success. It runs from the install folder, where it will run from (a temporary folder may be noexec).
# The output is checked too: a file the kernel cannot execute is run by sh as a script, and an empty
# one "succeeds" that way.
status=0
new_version=$("$part" --version 2>"$tmp/version-errors") || status=$?
case "$status:$new_version" in
  "0:cortex "*) ;;
  *)
    reason=$(head -n 1 "$tmp/version-errors" | tr -cd '[:print:]' | cut -c 1-200)
    if [ "$status" != 0 ]; then
      reason="it exited with status $status${reason:+: $reason}"
    else
      reason="it printed '$(printf '%s' "$new_version" | head -n 1 | tr -cd '[:print:]' | cut -c 1-80)' instead of a version"
    fi
    hint="is $platform this machine's platform?"
    if [ -n "${CORTEX_INSTALL_PLATFORM:-}" ]; then
      detected=$(detect_platform 2>/dev/null || true)
      [ "$detected" = "$platform" ] || hint="CORTEX_INSTALL_PLATFORM is $platform, but this machine looks like ${detected:-an unknown platform}."
    fi
    die "the downloaded cortex does not run on this machine ($reason); $hint $kept"
    ;;
esac
[ "$new_version" = "cortex $VERSION" ] || say "note: the new executable reports '$new_version', not 'cortex $VERSION'"

# checked before the download too; a folder may have appeared since
if [ -d "$install_dir/cortex" ]; then
  die "$install_dir/cortex is a folder, not a file: move it away or set CORTEX_INSTALL_DIR to another folder; nothing installed"
fi
mv -f "$part" "$install_dir/cortex" || die "cannot move the new cortex into place as $install_dir/cortex; $kept"
part=
say "installed $install_dir/cortex ($new_version)"

# Where the install folder is on PATH, and the first other cortex a shell would find before it (or at
# all, when the folder is not on PATH): an older cortex earlier on PATH would keep answering `cortex`.
same_dir() { [ "${1%/}" = "$2" ] || [ "$1" -ef "$2" ] 2>/dev/null; }
on_path=no
shadow=
saved_ifs=$IFS
IFS=:
set -f
for d in ${PATH:-}; do
  [ -n "$d" ] || continue
  if same_dir "$d" "$install_dir"; then
    on_path=yes
    break
  fi
  # (a link to the new file is no other cortex)
  if [ -z "$shadow" ] && [ -f "$d/cortex" ] && [ -x "$d/cortex" ] && ! [ "$d/cortex" -ef "$install_dir/cortex" ] 2>/dev/null; then
    shadow=$d/cortex
  fi
done
set +f
IFS=$saved_ifs

if [ "$on_path" = yes ]; then
  if [ -n "$shadow" ]; then
    say "warning: $shadow comes earlier on your PATH, so \`cortex\` still runs that one. Remove it, or put $install_dir before $(dirname "$shadow") in PATH"
  fi
else
  say "$install_dir is not on your PATH. Add it with:"
  say "  echo 'export PATH=\"$install_dir:\$PATH\"' >> ~/.profile   (or ~/.bashrc, ~/.zshrc), then open a new shell"
  [ -z "$shadow" ] || say "until then, \`cortex\` runs $shadow"
fi
