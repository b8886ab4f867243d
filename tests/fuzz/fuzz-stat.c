/* fuzz-stat.c: /proc/PID/stat
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdint.h>

#include "pgs-parse.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  PgsStatFields st;

  if (pgs_stat_parse ((const char *) data, size, &st, &error))
    g_assert (g_ascii_isalpha (st.state));
  else
    g_assert (error != NULL && error->message != NULL);
  return 0;
}
