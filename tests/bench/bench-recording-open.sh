#!/bin/sh
# bench-recording-open.sh: the app's memory with a recording open, against without it
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/bench/bench-recording-open.sh BUILDDIR FILE.pgrec [ROUNDS]
#
# Issue 18: "the app's memory with such a recording open at most 64 MiB of anonymous memory
# more than without". Starts BUILDDIR's pagescope under Xvfb with GTK's default renderer,
# without a file and with FILE, in interleaved rounds (3 by default): 20 s after start it
# visits Pages (Alt+4) and comes back (Alt+1), and 6 s later prints the process's Anonymous
# and Pss from its smaps_rollup, in kB. Needs xvfb-run, dbus-run-session and xdotool.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BUILDDIR FILE.pgrec [ROUNDS]" >&2; exit 2; }
build=$(cd "$1" && pwd)
file=$2
rounds=${3:-3}
for round in $(seq "$rounds"); do
  for mode in without with; do
    arg=""
    [ "$mode" = with ] && arg=$file
    xvfb-run -a -s "-screen 0 1200x800x24" dbus-run-session -- sh -c '
      GSETTINGS_SCHEMA_DIR="$1/ui" GSETTINGS_BACKEND=memory "$1/src/app/pagescope" $2 >/dev/null 2>&1 &
      p=$!
      sleep 20
      w=$(xdotool search --onlyvisible --name Pagescope | head -1)
      xdotool key --window "$w" alt+4; sleep 4; xdotool key --window "$w" alt+1; sleep 6
      echo "round $3 $4: anonymous $(awk "/^Anonymous/ {print \$2}" /proc/$p/smaps_rollup) kB," \
           "pss $(awk "/^Pss:/ {print \$2}" /proc/$p/smaps_rollup) kB"
      kill $p' sh "$build" "$arg" "$round" "$mode" 2>/dev/null | grep '^round'
  done
done
