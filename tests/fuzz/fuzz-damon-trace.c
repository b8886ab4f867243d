/* fuzz-damon-trace.c: damon:damon_aggregated trace lines, one by one and gathered
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "pgs-damon-access.h"
#include "pgs-damon-trace.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  g_autoptr(PgsDamonAccess) access = NULL;
  /* The first byte picks the scale and the RAM end, so both paths are fuzzed. */
  guint64 addr_unit = size > 0 ? (guint64) 1 << (data[0] % 16) : 1;
  guint64 ram_end = size > 0 && (data[0] & 0x80) ? G_GUINT64_CONSTANT (1) << 36 : 0;
  PgsDamonAccessCounts counts;
  gsize start = 0;

  /* Each line alone: an event is a region that makes sense, anything else says why. */
  for (gsize i = 0; i <= size; i++)
    {
      if (i < size && text[i] != '\n')
        continue;
      {
        g_autoptr(GError) error = NULL;
        PgsDamonEvent e;
        guint64 lost = 0;

        switch (pgs_damon_trace_parse_line (text + start, i - start, addr_unit, ram_end, &e,
                                            &lost, &error))
          {
          case PGS_DAMON_LINE_EVENT:
            g_assert_no_error (error);
            g_assert_cmpuint (e.start, <, e.end);
            g_assert_cmpuint (e.start % addr_unit, ==, 0);
            g_assert_true (ram_end == 0 || e.end <= ram_end);
            g_assert_cmpuint (e.nr_regions, >, 0);
            g_assert_cmpuint (strlen (e.timestamp), <, sizeof e.timestamp);
            break;
          case PGS_DAMON_LINE_ERROR:
            g_assert_true (error != NULL && error->message != NULL);
            break;
          case PGS_DAMON_LINE_LOST:
          case PGS_DAMON_LINE_OTHER:
          default:
            g_assert_no_error (error);
            break;
          }
      }
      start = i + 1;
    }

  /* All of it, fed in pieces of uneven size: the picture holds only whole aggregations
   * in address order. */
  access = pgs_damon_access_new (ram_end);
  pgs_damon_access_set_addr_unit (access, 107, addr_unit);
  for (gsize off = 0, step = 1; off < size; off += step, step = step * 3 % 97 + 1)
    pgs_damon_access_feed (access, text + off, MIN (step, size - off));
  pgs_damon_access_finish (access);
  pgs_damon_access_get_counts (access, &counts);
  g_assert_cmpuint (counts.events + counts.errors, <=, counts.lines);
  for (guint i = 0; i < pgs_damon_access_get_aggregations (access)->len; i++)
    {
      const PgsDamonAggregation *a = g_ptr_array_index (pgs_damon_access_get_aggregations (access), i);

      g_assert_cmpuint (a->regions->len, ==, a->nr_regions);
      for (guint j = 1; j < a->regions->len; j++)
        g_assert_cmpuint (g_array_index (a->regions, PgsDamonRegion, j).start, >=,
                          g_array_index (a->regions, PgsDamonRegion, j - 1).end);
    }
  return 0;
}
