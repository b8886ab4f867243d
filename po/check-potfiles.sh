#!/bin/sh
# check-potfiles.sh SRCDIR: po/POTFILES.in lists exactly the files with translatable strings.
# A source file missing from it has strings that never reach the translators; a listed file
# that is gone breaks the pot target.
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later

set -eu
cd "$1"

listed=$(mktemp)
found=$(mktemp)
trap 'rm -f "$listed" "$found"' EXIT

grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES.in | sort -u > "$listed"

{
  # C: a string literal handed to a gettext marker.
  find src -name '*.c' -print0 | xargs -0 grep -l -E \
    '(^|[^A-Za-z0-9_])(_|N_|C_|NC_|ngettext|g_dngettext)[[:space:]]*\(([^,()]*,[[:space:]]*)?"' || true
  # GtkBuilder templates and menus.
  find ui -name '*.ui' -print0 | xargs -0 grep -l 'translatable="yes"' || true
  # Data files merged with translations (the helper's polkit action lives in src/helper).
  find ui src -name '*.desktop.in' -o -name '*.metainfo.xml.in' -o -name '*.policy.in' \
         -o -name '*.gschema.xml'
} | sort -u > "$found"

missing=$(comm -13 "$listed" "$found")
stale=$(for f in $(cat "$listed"); do [ -e "$f" ] || echo "$f"; done)

status=0
if [ -n "$missing" ]; then
  echo "These files have translatable strings; add them to po/POTFILES.in:"
  echo "$missing" | sed 's/^/  /'
  status=1
fi
if [ -n "$stale" ]; then
  echo "po/POTFILES.in lists files that do not exist:"
  echo "$stale" | sed 's/^/  /'
  status=1
fi
[ $status -eq 0 ] && echo "po/POTFILES.in lists all $(wc -l < "$listed") files with translatable strings"
exit $status
