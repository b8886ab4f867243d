/* pgs-report.h: processes and mappings as JSON and CSV
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One writer for the CLI and the app's exports, so the field names scripts depend on are
 * spelled in one place. Sizes are integers in bytes; unknown sizes are null (JSON) or empty
 * (CSV), never 0.
 */

#pragma once

#include <glib.h>

#include "pgs-types.h"

G_BEGIN_DECLS

/* A JSON string: always valid UTF-8 (U+FFFD for each byte that is not), control
 * characters escaped. */
void pgs_json_append_string    (GString     *out,
                                const char  *str);
void pgs_json_append_bytes     (GString     *out,
                                const char  *str);
/* "KEY":"text" for bytes from a process (name, command line, path, user), followed by
 * "KEY_bytes":"BASE64" of the exact bytes when the text could not hold them losslessly
 * (they were not valid UTF-8). */
void pgs_json_append_text_member (GString   *out,
                                  const char *key,
                                  const char *value);
/* A number in decimal. */
void pgs_json_append_uint      (GString     *out,
                                guint64      value);
/* A size in bytes, or null when unknown. */
void pgs_json_append_size      (GString     *out,
                                gboolean     known,
                                guint64      value);

/* One process object; with @mappings, its "mappings" list too. */
void pgs_report_process_json   (GString     *out,
                                PgsProcess  *process,
                                gboolean     mappings);
/* memrank --json: totals over all of @processes (PgsProcess), the first @n_listed of them
 * listed in the order given. */
void pgs_report_memrank_json   (GString     *out,
                                PgsSnapshot *snapshot,
                                GPtrArray   *processes,
                                guint        n_listed);
/* memstats --json */
void pgs_report_memstats_json  (GString     *out,
                                PgsSnapshot *snapshot,
                                GPtrArray   *processes);

/* Quoted as RFC 4180 asks, made valid UTF-8. The process and mapping tables carry
 * USER/NAME/CMDLINE/PATH_bytes columns, base64 of the exact bytes where the text column
 * lost some, empty otherwise. */
void pgs_csv_append_field      (GString     *out,
                                const char  *field);
void pgs_report_processes_csv  (GString     *out,
                                GPtrArray   *processes);
void pgs_report_mappings_csv   (GString     *out,
                                PgsProcess  *process,
                                GPtrArray   *mappings);

/* memrank --group-by: PgsGroup, as {"groups": [{"group", "processes", "vss", "rss", "pss",
 * "uss", "private", "swap", …}]}. */
void pgs_report_groups_json    (GString     *out,
                                PgsSnapshot *snapshot,
                                const char  *group_by,
                                GPtrArray   *groups);
void pgs_report_groups_csv     (GString     *out,
                                GPtrArray   *groups);
/* librank: PgsLibFile, as {"files": [{"path", "processes", "vss", "rss", "pss", "uss",
 * "swap", …}]}. */
void pgs_report_librank_json   (GString     *out,
                                PgsSnapshot *snapshot,
                                GPtrArray   *files,
                                guint        n_unmapped);
void pgs_report_librank_csv    (GString     *out,
                                GPtrArray   *files);

extern const char *const pgs_report_process_columns[];

G_END_DECLS
