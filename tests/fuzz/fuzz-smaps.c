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

  PgsSmapsReader reader;
  PgsMapsEntry entry;
  PgsSmapsFields fields;

  pgs_smaps_reader_init (&reader, (const char *) data, size);
  while (pgs_smaps_reader_next (&reader, &entry, &fields, &error))
    check_mapping (&entry, &fields, &n);
  g_assert (error == NULL || error->message != NULL);
  g_assert (!pgs_smaps_reader_next (&reader, &entry, &fields, NULL));
  return 0;
}
