/* fuzz-smaps.c: /proc/PID/smaps
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdint.h>

#include "pgs-parse.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_mapping (const PgsMapsEntry   *entry,
               const PgsSmapsFields *fields,
               gpointer              user_data)
{
  guint *n = user_data;

  g_assert (entry->start <= entry->end);
  (*n)++;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  guint n = 0;

  if (!pgs_smaps_parse ((const char *) data, size, check_mapping, &n, &error))
    g_assert (error != NULL && error->message != NULL);
  return 0;
}
