#!/bin/sh
# count-growth.sh: how much a set of commits grew the code (issue 17's 3 % budget)
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/count-growth.sh BASE COMMIT...
# Counts the non-blank lines of src/'s C and header files and of every .ui file at BASE,
# then adds up, over each COMMIT (its diff against its first parent), the non-blank lines
# it added less those it removed in the same files, and prints both and their ratio.
set -eu
base=$1
shift
count() {
  git ls-tree -r --name-only "$1" -- src ui | grep -E '\.(c|h|ui)$' |
    while read -r f; do git show "$1:$f"; done | grep -cv '^[[:space:]]*$'
}
before=$(count "$base")
net=0
for c in "$@"; do
  n=$(git diff -U0 "$c~1" "$c" -- 'src/*.c' 'src/*.h' 'ui/*.ui' |
      grep -E '^[+-]' | grep -vE '^(\+\+\+|---) ' | grep -vE '^[+-][[:space:]]*$' |
      awk '/^\+/ { a++ } /^-/ { d++ } END { print a - d + 0 }')
  printf '%s %+d\n' "$c" "$n"
  net=$((net + n))
done
echo "before: $before non-blank lines at $base; the commits: $net net; growth $(awk "BEGIN { printf \"%.2f\", 100 * $net / $before }") %"
