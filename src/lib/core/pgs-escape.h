/* pgs-escape.h: text from processes, made safe to print
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Names, command lines, paths and user names are bytes chosen by whoever started the
 * process: not always UTF-8, and free to hold terminal escape sequences. Everything that
 * shows them goes through here.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* For a terminal, the rule ps(1) follows: valid, printable UTF-8 is kept; every byte that is
 * not part of valid UTF-8, every control character (C0, DEL, C1), every format character
 * (Unicode Cf: bidi overrides, zero-width joiners, soft hyphen), line and paragraph
 * separators and unassigned code points become one "?" each. The result is valid UTF-8
 * and holds nothing a terminal interprets. @len -1: up to the NUL. */
char     *pgs_escape_for_terminal (const char *bytes,
                                   gssize      len);

/* Columns the output of pgs_escape_for_terminal() takes: East Asian wide characters 2,
 * combining and zero-width characters 0, everything else 1. */
guint     pgs_escape_width        (const char *text);

/* For JSON and CSV: valid UTF-8, each byte that is not part of valid UTF-8 replaced by
 * U+FFFD. Returns NULL when @bytes is valid already (nothing was lost). */
char     *pgs_escape_make_valid   (const char *bytes);

/* For a CSV cell (text, never a number): pgs_escape_for_terminal(), so `cat file.csv` runs
 * nothing, with a leading "'" when the text starts with a character a spreadsheet takes
 * for the start of a formula (=, +, -, @, TAB, CR, or their fullwidth forms), so
 * =HYPERLINK(…) stays text. The result still needs RFC 4180 quoting. *@exact, when not
 * NULL, says the cell holds @bytes unchanged; when it does not, the exact bytes belong in
 * a *_bytes column. NULL gives "" (exact). */
char     *pgs_escape_for_csv      (const char *bytes,
                                   gboolean   *exact);

G_END_DECLS
