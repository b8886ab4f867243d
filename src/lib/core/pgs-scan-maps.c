/* pgs-scan-maps.c: a process's maps into its mappings, checked line by line
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-parse.h"
#include "pgs-scan-job.h"

gboolean
_pgs_scan_parse_maps (ScanJob     *job,
                      PgsProcess  *proc,
                      const char  *buf,
                      gsize        len,
                      GError     **error)
{
  PgsLineReader reader;
  const char *line;
  gsize line_len;
  gboolean complete;

  pgs_line_reader_init (&reader, buf, len);
  while (pgs_line_reader_next (&reader, &line, &line_len, &complete))
    {
      PgsMapsEntry entry;
      PgsMappingData m = { 0 };
      g_autofree char *path = NULL;

      if (!complete || !pgs_maps_parse_line (line, line_len, &entry))
        {
          g_set_error (error, PGS_ERROR, complete ? PGS_ERROR_MALFORMED : PGS_ERROR_TRUNCATED,
                       "maps line %u %s: “%.*s”", reader.line_no,
                       complete ? "does not parse" : "is cut short",
                       (int) MIN (line_len, 80), line);
          return FALSE;
        }

      path = g_strndup (entry.path, entry.path_len);

      /* The vsyscall page lies above the user address space: it has no pagemap entries
       * and is not in VmSize or smaps_rollup. */
      if (g_str_equal (path, "[vsyscall]"))
        continue;

      if (entry.start % job->page_size != 0 || entry.end % job->page_size != 0 ||
          entry.end == entry.start)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                       "maps line %u has an empty or unaligned range", reader.line_no);
          return FALSE;
        }

      if (proc->mappings->len > 0)
        {
          const PgsMappingData *prev =
            &g_array_index (proc->mappings, PgsMappingData, proc->mappings->len - 1);

          if (entry.start < prev->end)
            {
              g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                           "maps line %u overlaps or precedes the line before", reader.line_no);
              return FALSE;
            }
        }

      m.start = entry.start;
      m.end = entry.end;
      m.offset = entry.offset;
      m.inode = entry.inode;
      m.dev_major = entry.dev_major;
      m.dev_minor = entry.dev_minor;
      memcpy (m.perms, entry.perms, sizeof m.perms);
      m.path = g_ref_string_new_intern (path);
      m.known = PGS_METRIC_VSS;
      g_array_append_val (proc->mappings, m);
      proc->vss += entry.end - entry.start;
    }

  proc->known |= PGS_METRIC_VSS;
  return TRUE;
}
