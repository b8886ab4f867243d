/* fuzz-cmdline.c: /proc/PID/cmdline
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "pgs-parse.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *cmdline = pgs_cmdline_parse ((const char *) data, size);
  gsize len = strlen (cmdline);

  g_assert (len <= size);
  g_assert (len == 0 || cmdline[len - 1] != ' ');
  return 0;
}
