#!/bin/sh
# screenshot-wss.sh: docs/screenshot-wss.png, a working-set measurement in the real app
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/screenshot-wss.sh BUILDDIR [OUTDIR]
#
# Like screenshots.sh: the app under Xvfb, driven with xdotool. The subject is
# tests/kernel/pgs-wss-child (16 MiB of a 64 MiB mapping written in a loop, 2 MiB of an
# 8 MiB file read), measured 4 times at 2 s; the mappings sorted by Referenced. Needs root
# (clear_refs), xvfb-run, dbus-run-session, xdotool and ImageMagick's import. Also writes
# wss-dialog.png, wss-running.png and wss-residency.png to OUTDIR for a look.
set -eu
if [ "${INNER:-}" != 1 ]; then
  [ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [OUTDIR]" >&2; exit 2; }
  set -- "$(cd "$1" && pwd)" "$(cd "${2:-$(dirname "$0")/../docs}" && pwd)"
  INNER=1 exec xvfb-run -a -s "-screen 0 1100x720x24" dbus-run-session -- "$0" "$@"
fi
builddir=$1
out=$2
export GDK_BACKEND=x11 GTK_A11Y=none NO_AT_BRIDGE=1 GSETTINGS_SCHEMA_DIR="$builddir/ui"
confdir=$(mktemp -d)
export GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$confdir"
mkdir -p "$confdir/glib-2.0/settings"
printf '[io/github/pagescope/Pagescope]\nrefresh-interval=uint32 0\nwss-interval=uint32 2\n' > "$confdir/glib-2.0/settings/keyfile"
export GTK_THEME=Adwaita LANG=C.UTF-8 LC_ALL=C.UTF-8
"$builddir/tests/kernel/pgs-wss-child" "$confdir/file" > "$confdir/ready" &
child=$!
sleep 1
"$builddir/src/app/pagescope" --view processes --pid "$child" &
app=$!
trap 'kill $app $child 2>/dev/null; rm -rf "$confdir"' EXIT
window=
for _ in $(seq 1 100); do
  window=$(xdotool search --sync --onlyvisible --name '^Pagescope$' 2>/dev/null | head -n1) && break
  sleep 0.1
done
sleep 6
xdotool key --window "$window" ctrl+shift+w
sleep 1.5
import -window root "$out/wss-dialog.png"
xdotool mousemove 110 252 click 1
sleep 0.3
xdotool key ctrl+a BackSpace
xdotool type 4
xdotool key Tab
sleep 0.3
xdotool mousemove 417 304 click 1
sleep 3
import -window root "$out/wss-running.png"
sleep 8
# Drag the list/detail divider up so the mappings have room.
xdotool mousemove 550 352 mousedown 1
sleep 0.3
xdotool mousemove 550 300
sleep 0.3
xdotool mousemove 550 190
sleep 0.3
xdotool mouseup 1
sleep 1
# The Referenced header, clicked twice: largest first.
xdotool mousemove 820 472 click 1
sleep 0.5
xdotool click 1
sleep 1
xdotool mousemove 500 600 click --repeat 15 4
sleep 1
xdotool mousemove 1090 700
sleep 1
import -window root "$out/screenshot-wss.png"
xdotool mousemove 483 27 click 1
sleep 3
import -window root "$out/wss-residency.png"
