#!/bin/sh
# run.sh: set up, build and launch Pagescope from a fresh Debian 12 checkout.
#   build-aux/run.sh            the desktop app, as you (Unlock shows root's view)
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

# The app never runs as root: its Unlock button starts pagescope-helper through pkexec,
# which runs only a helper its polkit action names. Put those two files where pkexec and
# polkit look (the helper's path is the one the build was configured with), nothing else.
helper=$(sed -n 's/^#define PGS_HELPER_PATH "\(.*\)"$/\1/p' build/config.h)
policy=build/src/helper/io.github.pagescope.Pagescope.helper.policy
if ! cmp -s build/src/helper/pagescope-helper "$helper" ||
   ! cmp -s "$policy" /usr/share/polkit-1/actions/io.github.pagescope.Pagescope.helper.policy; then
  echo "run.sh: installing $helper and its polkit action (for Unlock)"
  $SUDO install -D -m 0755 build/src/helper/pagescope-helper "$helper"
  $SUDO install -D -m 0644 "$policy" /usr/share/polkit-1/actions/io.github.pagescope.Pagescope.helper.policy
fi

# Uninstalled: point GSettings at the schema compiled in the build tree. Started with sudo,
# go back to the user who ran it.
if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
  exec runuser -u "$SUDO_USER" -- env GSETTINGS_SCHEMA_DIR="$PWD/build/ui" build/src/app/pagescope "$@"
fi
[ "$(id -u)" -eq 0 ] && echo "run.sh: no user to run the app as (not started with sudo): it runs as root and needs no Unlock"
exec env GSETTINGS_SCHEMA_DIR="$PWD/build/ui" build/src/app/pagescope "$@"
