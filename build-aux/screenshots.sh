#!/bin/sh
# screenshots.sh: the README's screenshots, taken from the real app under Xvfb
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/screenshots.sh BUILDDIR [OUTDIR]
#
# Builds nothing: BUILDDIR must hold a built src/app/pagescope and the schema compiled in
# BUILDDIR/ui. Writes OUTDIR (default: docs/ next to this script's parent) /
#   screenshot-processes.png  the process list with one process selected
#   screenshot-process.png    that process's residency map along the Hilbert curve, one page
#                             clicked and another under the pointer
#   screenshot-physical.png   the page-flag map of physical memory, zoomed into the frames in
#                             use, one of them clicked and another under the pointer
# and each again in the dark style as screenshot-*-dark.png; then with the window at 800x600,
# the least size it is made for (issue 21), light:
#   screenshot-small-processes.png  the process list, the tabs in a bar at the bottom
#   screenshot-small-process.png    the process's residency map
#   screenshot-small-groups.png     the Groups page
#   screenshot-small-physical.png   the page-flag map of physical memory, nothing clicked
# Run as root for the physical map (kpageflags is root's alone). Needs xvfb-run,
# dbus-run-session, xdotool and ImageMagick's import.
set -eu

if [ "${PGS_SCREENSHOTS_INNER:-}" != 1 ]; then
  [ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [OUTDIR]" >&2; exit 2; }
  builddir=$(cd "$1" && pwd)
  srcdir=$(cd "$(dirname "$0")/.." && pwd)
  outdir=${2:-$srcdir/docs}
  mkdir -p "$outdir"
  outdir=$(cd "$outdir" && pwd)
  for tool in xvfb-run dbus-run-session xdotool import; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is missing" >&2; exit 1; }
  done
  [ -x "$builddir/src/app/pagescope" ] || { echo "$0: no $builddir/src/app/pagescope: build it first" >&2; exit 1; }
  # The screen is the window's size: the picture is the window, nothing around it.
  for size in 1200x720 800x600; do
    PGS_SCREENSHOTS_INNER=1 PGS_SCREENSHOTS_SIZE=$size xvfb-run -a -s "-screen 0 ${size}x24" \
      dbus-run-session -- "$0" "$builddir" "$outdir"
  done
  exit 0
fi

builddir=$1
outdir=$2
size=${PGS_SCREENSHOTS_SIZE:-1200x720}
export GDK_BACKEND=x11 GTK_A11Y=none NO_AT_BRIDGE=1
export GSETTINGS_SCHEMA_DIR="$builddir/ui"
# Settings from a key file of our own: no automatic refresh (a scan mid-shot would show its
# progress), and whichever layout a shot asks for.
confdir=$(mktemp -d)
export GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$confdir"
mkdir -p "$confdir/glib-2.0/settings"
settings () {
  printf '[io/github/pagescope/Pagescope]\nrefresh-interval=uint32 0\nlayout=%s\ncolor-scheme=%s\nwindow-width=%s\nwindow-height=%s\n' \
    "'$1'" "'$2'" "${size%x*}" "${size#*x}" > "$confdir/glib-2.0/settings/keyfile"
}
# A fixed, readable look whatever the host's settings: libadwaita's own style, light or dark
# as each shot asks (the color-scheme setting), never the host's GTK theme.
unset GTK_THEME
export LANG=C.UTF-8 LC_ALL=C.UTF-8

# The subject: the X server itself, a real process with shared libraries, file pages and a
# heap, present on every machine that runs this script.
subject=$(pgrep -n Xvfb || pgrep -n Xorg || echo 1)

app_pid=
stop_app () {
  if [ -n "$app_pid" ]; then
    kill "$app_pid" 2>/dev/null || true
    wait "$app_pid" 2>/dev/null || true
    app_pid=
  fi
}
trap 'stop_app; rm -rf "$confdir"' EXIT

# shot VIEW OUTPUT light|dark [physical|physical-plain|hilbert]: starts the app on VIEW with the subject selected, waits
# for the scan and the render, drives it a little, and grabs the screen. The coordinates are
# the window's own, fixed by the screen size above.
shot () {
  scheme=$3
  if [ "${4:-}" = hilbert ]; then settings hilbert "$scheme"; else settings linear "$scheme"; fi
  if [ "${4:-}" = physical ] || [ "${4:-}" = physical-plain ]; then
    # No process selected: the map as it is, no frames outlined.
    "$builddir/src/app/pagescope" --view "$1" &
  else
    "$builddir/src/app/pagescope" --view "$1" --pid "$subject" &
  fi
  app_pid=$!
  window=
  for _ in $(seq 1 100); do
    window=$(xdotool search --sync --onlyvisible --name '^Pagescope$' 2>/dev/null | head -n1) && break
    sleep 0.1
  done
  [ -n "$window" ] || { echo "$0: the window did not appear" >&2; exit 1; }
  # The first scan of the whole machine and the map render, with room to spare.
  sleep "${PGS_SCREENSHOT_WAIT:-6}"
  if [ "${4:-}" = hilbert ]; then
    # A page clicked (its details and the processes sharing its frame slide in), another
    # under the pointer.
    xdotool mousemove --window "$window" 262 556 click 1
    sleep 2
    xdotool mousemove --window "$window" 560 330
    sleep 2
  fi
  if [ "${4:-}" = physical ]; then
    # The frames in use sit low in physical memory: zoom in on them (Ctrl+scroll keeps the
    # point under the pointer), click one (its details and the processes that map it
    # slide in at the bottom) and hover another for its tooltip.
    xdotool mousemove --window "$window" 300 230
    for _ in 1 2 3 4; do
      xdotool keydown ctrl click 4 keyup ctrl
      sleep 0.5
    done
    sleep 2
    xdotool mousemove --window "$window" 300 232 click 1
    sleep 2
    xdotool mousemove --window "$window" 420 300
    sleep 2
  fi
  import -window root "$outdir/$2"
  stop_app
}

if [ "$size" = 800x600 ]; then
  # Nothing clicked: the clicks' coordinates are the large window's.
  shot processes screenshot-small-processes.png light
  shot residency screenshot-small-process.png light
  shot groups screenshot-small-groups.png light
  shot flags screenshot-small-physical.png light physical-plain
  files="screenshot-small-processes.png screenshot-small-process.png screenshot-small-groups.png
         screenshot-small-physical.png"
else
  for scheme in light dark; do
    suffix=
    [ "$scheme" = dark ] && suffix=-dark
    shot processes "screenshot-processes$suffix.png" "$scheme"
    shot residency "screenshot-process$suffix.png" "$scheme" hilbert
    shot flags "screenshot-physical$suffix.png" "$scheme" physical
  done
  files="screenshot-processes.png screenshot-process.png screenshot-physical.png
         screenshot-processes-dark.png screenshot-process-dark.png screenshot-physical-dark.png"
fi

for f in $files; do
  echo "wrote $outdir/$f ($(wc -c < "$outdir/$f") bytes)"
done
