#!/bin/sh
# check-man.sh GROFF PAGE: the man page formats with every groff warning on and none raised.
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later

set -eu
groff=$1
page=$2

# -z: format and discard; -ww: all warnings; -rCHECKSTYLE=3: the an macros' own style checks
# (groff 1.23 and later; 1.22 ignores the register).
out=$(LC_ALL=C.UTF-8 "$groff" -man -ww -z -rCHECKSTYLE=3 -K utf8 "$page" 2>&1) || {
  printf '%s\n' "$out"
  exit 1
}
if [ -n "$out" ]; then
  printf '%s\n' "$out"
  exit 1
fi
echo "$page: no warnings"
