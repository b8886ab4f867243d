#!/bin/sh
# run-unprivileged.sh: runs a ui test as nobody, the way a user without root sees the app
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: run-unprivileged.sh TEST-EXECUTABLE
# Skips (77) unless run as root with setpriv, xvfb-run and dbus-run-session at hand, and
# where nobody cannot reach the build tree (a private home directory, say).
set -u
exe=$1

[ "$(id -u)" = 0 ] || { echo "not root: the plain ui tests already run unprivileged"; exit 77; }
for tool in setpriv xvfb-run dbus-run-session; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: skipped"; exit 77; }
done
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
$as_nobody test -x "$exe" -a -r "$GSETTINGS_SCHEMA_DIR/gschemas.compiled" ||
  { echo "nobody cannot reach the build tree: skipped"; exit 77; }

home=$(mktemp -d)
chown 65534 "$home"
trap 'rm -rf "$home"' EXIT
cd "$home"
$as_nobody env HOME="$home" TMPDIR="$home" XDG_RUNTIME_DIR="$home" \
  xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- "$exe"
