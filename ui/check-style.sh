#!/bin/sh
# check-style.sh STYLE.CSS: the app's CSS leaves colours and libadwaita's own style classes
# to libadwaita, so its dark and high-contrast styles apply unopposed. Fails on a literal
# colour (#rgb, rgb()/rgba(), a colour name) or a rule for a class libadwaita defines.
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
css=$1
# Comments out: they may name anything.
body=$(sed -e ':a' -e 's|/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/||g' -e '/\/\*/{N;ba' -e '}' "$css")
status=0
if printf '%s\n' "$body" | grep -nEi '#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(|:[^;]*\b(white|black|red|green|blue|gray|grey)\b'; then
  echo "$css: a literal colour; use libadwaita's named colours (@accent_bg_color, @borders…)" >&2
  status=1
fi
for class in title-1 title-2 title-3 title-4 heading caption caption-heading numeric \
             monospace dim-label toast card boxed-list accent success warning error; do
  if printf '%s\n' "$body" | grep -nE "(^|[ ,>])\.$class([ ,:{.]|$)"; then
    echo "$css: .$class is libadwaita's; restyling it undoes its high-contrast style" >&2
    status=1
  fi
done
exit $status
