#!/bin/sh
# run-unprivileged.sh: runs a ui test as nobody, the way a user without root sees the app
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: run-unprivileged.sh TEST-EXECUTABLE
# Skips (77) unless run as root with setpriv, xvfb-run and dbus-run-session at hand. Where
# nobody cannot enter the build tree (a private home directory, say) it runs copies.
set -u
exe=$1

[ "$(id -u)" = 0 ] || { echo "not root: the plain ui tests already run unprivileged"; exit 77; }
for tool in setpriv xvfb-run dbus-run-session; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: skipped"; exit 77; }
done
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"

# nobody's home for the run, in /tmp even when TMPDIR is a private folder.
home=$(mktemp -d -p /tmp pgs-ui-nobody.XXXXXX)
trap 'rm -rf "$home"' EXIT
chmod 0755 "$home"

# A checkout nobody cannot enter (root's home, a 0700 folder): run copies of what the test
# runs (the test, its child programs, the compiled schemas) from a folder nobody can enter.
if ! $as_nobody test -x "$exe" -a -r "$GSETTINGS_SCHEMA_DIR/gschemas.compiled"; then
  mkdir "$home/bin" "$home/schemas"
  cp "$exe" "$home/bin/" && cp "$GSETTINGS_SCHEMA_DIR/gschemas.compiled" "$home/schemas/" ||
    { echo "cannot copy the test where nobody can reach it: skipped"; exit 77; }
  exe="$home/bin/$(basename "$exe")"
  GSETTINGS_SCHEMA_DIR="$home/schemas"; export GSETTINGS_SCHEMA_DIR
  for var in PGS_UI_CHILD PGS_WSS_CHILD; do
    eval "path=\${$var:-}"
    [ -n "$path" ] && [ -x "$path" ] || continue
    cp "$path" "$home/bin/" || exit 1
    eval "$var=\"$home/bin/$(basename "$path")\"; export $var"
  done
  echo "nobody cannot enter the build tree: running copies from $home/bin"
fi
$as_nobody test -x "$exe" || { echo "nobody cannot run $exe: skipped"; exit 77; }

chown -R 65534 "$home"
cd "$home"
$as_nobody env HOME="$home" TMPDIR="$home" XDG_RUNTIME_DIR="$home" \
  xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- "$exe"
