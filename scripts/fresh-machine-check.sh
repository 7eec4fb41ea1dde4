#!/usr/bin/env bash
# Runs .ci/run as CI does, on a clean clone of this repository's HEAD, with nothing but Node, npm and git:
# an empty HOME, a bare PATH, and stand-ins for the tools a developer's machine may have installed by hand
# (ripgrep, ctags, hyperfine, sqlite3, python) that exit 127, so a test that needs one fails here too.
# With --offline, `npm install` runs first and then `npm test` in a network namespace with only loopback
# (needs unshare, as root), proving the tests reach no network.
#
#   bash scripts/fresh-machine-check.sh [--offline]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/nobin"
for tool in rg ctags hyperfine sqlite3 python3 python ast-grep sg; do
  printf '#!/bin/sh\nexit 127\n' >"$work/nobin/$tool"
  chmod +x "$work/nobin/$tool"
done
git clone -q "$repo" "$work/main"
# ../shared sits beside the clone in CI
if [ -d "$repo/../shared" ]; then cp -r "$repo/../shared" "$work/shared"; fi
home="$(mktemp -d)"
clean=(env -i "PATH=$work/nobin:/usr/local/bin:/usr/bin:/bin" "HOME=$home" CI=true)
cd "$work/main"
if [ "${1:-}" = "--offline" ]; then
  "${clean[@]}" npm install
  unshare -n sh -c 'ip link set lo up && exec "$@"' sh "${clean[@]}" npm test
else
  "${clean[@]}" bash .ci/run
fi
