/* pgs-cli.h: shared pieces of pagescope-cli
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <pagescope-core.h>

G_BEGIN_DECLS

/* Exit codes a script can rely on (also in pagescope-cli(1)). */
enum
{
  PGS_EXIT_OK       = 0,  /* the report is complete (processes that exited mid-scan are
                             * listed on stderr and in "skipped") */
  PGS_EXIT_PARTIAL  = 1,  /* the report came out, but a PID asked for, or a file, could not
                             * be read */
  PGS_EXIT_USAGE    = 2,  /* bad arguments */
  PGS_EXIT_FAILED   = 3,  /* nothing could be reported */
};

typedef enum
{
  PGS_OUTPUT_HUMAN,
  PGS_OUTPUT_JSON,
  PGS_OUTPUT_CSV,
} PgsOutput;

typedef struct
{
  const char *name;
  const char *summary;
  int       (*run) (int argc, char **argv);
} PgsCliCommand;

int  pgs_cli_memrank  (int argc, char **argv);
int  pgs_cli_memstats (int argc, char **argv);
int  pgs_cli_render   (int argc, char **argv);
int  pgs_cli_wss      (int argc, char **argv);
int  pgs_cli_librank  (int argc, char **argv);
int  pgs_cli_system   (int argc, char **argv);
int  pgs_cli_snapshot (int argc, char **argv);
int  pgs_cli_compare  (int argc, char **argv);
int  pgs_cli_ledger   (int argc, char **argv);
int  pgs_cli_access   (int argc, char **argv);
/* What `access` and `render --view access` read: pgs_damon_collect(), with a kdamond of
 * Pagescope's own around it when START_MONITOR (removed before this returns). NULL with
 * the message printed and *EXIT_CODE set when nothing could be read. */
PgsDamonCollection *pgs_cli_access_collect (const char          *sysfs_root,
                                            const char          *procfs_root,
                                            double               seconds,
                                            gboolean             start_monitor,
                                            volatile const int  *stop,
                                            int                 *exit_code);
int  pgs_cli_record   (int argc, char **argv);
int  pgs_cli_series   (int argc, char **argv);

/* Options every command takes. */
typedef struct
{
  char     *procfs_root;
  gboolean  json;
  gboolean  csv;
} PgsCliCommon;

void      pgs_cli_init_locale        (void);
void      pgs_cli_common_clear       (PgsCliCommon    *common);
void      pgs_cli_add_common_options (GOptionContext  *context,
                                      PgsCliCommon    *common);
gboolean  pgs_cli_parse              (GOptionContext  *context,
                                      PgsCliCommon    *common,
                                      int             *argc,
                                      char          ***argv,
                                      PgsOutput       *output);
void      pgs_cli_error              (const char      *format,
                                      ...) G_GNUC_PRINTF (1, 2);
int       pgs_cli_report_skipped     (PgsSnapshot     *snapshot);
gboolean  pgs_cli_parse_metric       (const char      *name,
                                      PgsMetric       *metric);
void      pgs_cli_write              (GString         *out);
gboolean  pgs_cli_parse_number       (const char      *text,
                                      guint64          min,
                                      guint64          max,
                                      guint64         *value);
gboolean  pgs_cli_parse_pid          (const char      *text,
                                      int             *pid);
gboolean  pgs_cli_parse_limit        (const char      *text,
                                      const char      *message,
                                      guint           *limit) __attribute__ ((format (printf, 2, 0)));
gboolean  pgs_cli_parse_user         (const char      *user,
                                      gint64          *uid,
                                      gboolean        *unnamed);
PgsScanner *pgs_cli_scanner_new      (const PgsCliCommon *common);

/* The live scan by @scanner, or the snapshot file @snapshot_path when it is not NULL. */
PgsSnapshot *pgs_cli_scan            (PgsScanner      *scanner,
                                      const char      *snapshot_path,
                                      GError         **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PgsCliCommon, pgs_cli_common_clear)

/* The snapshot file @arg names (pgs_local_file_from_arg ()), or the error GFile gave for a
 * URI with no local file. */
char        *pgs_cli_snapshot_path   (const char      *arg,
                                      GError         **error);
/* The same for a recording (pgs_recording_open ()'s error). */
char        *pgs_cli_recording_path  (const char      *arg,
                                      GError         **error);

/* --recording FILE --at WHEN (and compare's --from/--to): an instant of a recording in
 * place of a snapshot file. */
typedef struct
{
  char *recording;
  char *at;
  char *from;
  char *to;
} PgsCliInstant;

void         pgs_cli_instant_clear       (PgsCliInstant   *instant);
void         pgs_cli_add_instant_options (GOptionContext  *context,
                                          PgsCliInstant   *instant,
                                          gboolean         range);
/* The snapshot at @when of @instant's recording: the nearest sample's totals, or with
 * @pages the nearest page-level picture; says on stderr which and when. Without a
 * recording, pgs_cli_scan(). */
PgsSnapshot *pgs_cli_scan_instant        (PgsScanner      *scanner,
                                          const char      *snapshot_path,
                                          const PgsCliInstant *instant,
                                          const char      *when,
                                          gboolean         pages,
                                          GError         **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PgsCliInstant, pgs_cli_instant_clear)

/* An aligned text table: columns right-aligned unless marked left. */
typedef struct _PgsTable PgsTable;

PgsTable *pgs_table_new        (guint        n_columns,
                                const char  *const *headers,
                                guint64      left_mask);
void      pgs_table_add_row    (PgsTable    *table,
                                char       **cells);
void      pgs_table_add_rule   (PgsTable    *table);
void      pgs_table_print      (PgsTable    *table,
                                GString     *out);
void      pgs_table_free       (PgsTable    *table);
char     *pgs_cli_size_cell    (gboolean     known,
                                guint64      bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsTable, pgs_table_free)

/* memrank --group-by (pgs-cli-groups.c); @group_by already checked. */
void      pgs_cli_print_groups (PgsSnapshot *snapshot,
                                GPtrArray   *processes,
                                const char  *group_by,
                                PgsMetric    sort,
                                PgsOutput    output,
                                guint        limit,
                                GString     *out);

G_END_DECLS
