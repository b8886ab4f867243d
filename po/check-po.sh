#!/bin/sh
# check-po.sh MSGFMT FILE.po: the catalogue compiles with its formats checked, and has no
# fuzzy or untranslated message.
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later

set -eu
msgfmt=$1
po=$2

"$msgfmt" -c --check-format -o /dev/null "$po"

# msgfmt prints "N translated messages[, M fuzzy translations][, K untranslated messages]."
# to stderr, translated in the current locale: force English.
stats=$(LC_ALL=C "$msgfmt" --statistics -o /dev/null "$po" 2>&1)
echo "$po: $stats"
case $stats in
  *fuzzy* | *untranslated*)
    echo "$po is incomplete" >&2
    exit 1
    ;;
esac
