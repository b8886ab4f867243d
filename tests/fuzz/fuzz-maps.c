/* fuzz-maps.c: /proc/PID/maps lines
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
  PgsLineReader reader;
  const char *line;
  gsize len;
  gboolean complete;

  pgs_line_reader_init (&reader, (const char *) data, size);
  while (pgs_line_reader_next (&reader, &line, &len, &complete))
    {
      PgsMapsEntry entry;

      if (pgs_maps_parse_line (line, len, &entry))
        {
          g_assert (entry.start <= entry.end);
          g_assert (entry.path >= line && entry.path + entry.path_len == line + len);
        }
    }
  return 0;
}
