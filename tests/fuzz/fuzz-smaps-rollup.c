/* fuzz-smaps-rollup.c: /proc/PID/smaps_rollup
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
  PgsSmapsFields fields;

  if (pgs_smaps_rollup_parse ((const char *) data, size, &fields, &error))
    g_assert ((fields.seen & PGS_SMAPS_REQUIRED_ROLLUP) == PGS_SMAPS_REQUIRED_ROLLUP);
  else
    g_assert (error != NULL && error->message != NULL);
  return 0;
}
