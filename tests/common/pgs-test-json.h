/* pgs-test-json.h: a strict JSON check for every document the tests read
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * RFC 8259 and nothing more: one value, no NaN or Infinity, no leading zeros or "+",
 * no trailing commas, no raw control characters in strings, escapes that exist, valid
 * UTF-8 (no surrogates, in bytes or as a lone \uD800 escape), and no member twice in one
 * object (RFC 8259 leaves that to the reader; a script would see only one of them).
 * Written here rather than taken from a library so that its strictness does not depend on
 * which JSON library the machine has, and the same rules hold as in tests/kernel's
 * pgskernel.strict_json().
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when @text (of @len bytes, -1 up to the NUL) is one strict JSON document, trailing
 * white space allowed; otherwise FALSE and *@problem (when not NULL) says what and where. */
gboolean pgs_test_json_check  (const char  *text,
                               gssize       len,
                               char       **problem);
/* Fails the test, quoting the problem, when @text is not. */
void     pgs_test_assert_json (const char  *text);

G_END_DECLS
