#!/bin/sh
# run.sh: set up, build and launch Pagescope from a fresh Debian 12 checkout.
#   build-aux/run.sh            the desktop app (as root, to see every process's pages)
#   build-aux/run.sh memrank    the command-line ranking instead (works without a display)
set -eu
cd "$(dirname "$0")/.."

build-aux/deps.sh
[ -f build/build.ninja ] || meson setup build
meson compile -C build

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

if [ "${1:-}" = "memrank" ] || [ ! -x build/src/app/pagescope ]; then
  shift 2>/dev/null || true
  exec $SUDO build/src/cli/pagescope-cli memrank "$@"
fi
# Uninstalled: point GSettings at the schema compiled in the build tree.
exec $SUDO env GSETTINGS_SCHEMA_DIR="$PWD/build/ui" build/src/app/pagescope "$@"
