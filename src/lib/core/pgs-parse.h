/* pgs-parse.h: parsers for the text files of procfs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain structs over a buffer: no I/O here, so tests feed them bytes.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64     start;
  guint64     end;
  guint64     offset;
  guint64     inode;
  guint       dev_major;
  guint       dev_minor;
  char        perms[5];
  const char *path;      /* points into the parsed line; not NUL-terminated */
  gsize       path_len;
} PgsMapsEntry;

gboolean pgs_maps_parse_line (const char   *line,
                              gsize         len,
                              PgsMapsEntry *entry);

/* Walks a NUL-terminated buffer a line at a time. */
typedef struct
{
  const char *pos;
  const char *end;
  guint       line_no;
} PgsLineReader;

void     pgs_line_reader_init (PgsLineReader  *reader,
                               const char     *buf,
                               gsize           len);
gboolean pgs_line_reader_next (PgsLineReader  *reader,
                               const char    **line,
                               gsize          *len,
                               gboolean       *complete);

typedef struct
{
  char    name[64];
  char    state;       /* R, S, D, Z, X… */
  int     ppid;
  guint   uid;
  gboolean has_vm;     /* kernel threads have no Vm* lines, nor have zombies */
  int     kthread;     /* "Kthread:" (Linux 6.8): 1 or 0; -1 where status has no such line */
  guint64 vm_size;     /* bytes */
  guint64 vm_rss;
  guint64 vm_swap;
} PgsStatus;

gboolean pgs_status_parse (const char  *buf,
                           gsize        len,
                           PgsStatus   *status,
                           GError     **error);

/* The fields of one smaps record or of smaps_rollup, in bytes. */
typedef struct
{
  guint64 size;
  guint64 rss;
  guint64 pss;
  guint64 private_clean;
  guint64 private_dirty;
  guint64 swap;
  guint64 referenced;
  guint64 anonymous;
  guint64 swap_pss;
  guint64 shared_clean;
  guint64 shared_dirty;
  guint64 anon_huge;     /* AnonHugePages: anonymous THP mapped by a PMD */
  guint64 shmem_pmd;     /* ShmemPmdMapped */
  guint64 file_pmd;      /* FilePmdMapped (Linux 4.8) */
  guint   seen;          /* a bit per field above, in that order */
} PgsSmapsFields;

#define PGS_SMAPS_REQUIRED_ROLLUP 0x3e  /* rss, pss, private_clean, private_dirty, swap */
#define PGS_SMAPS_SEEN_SWAP_PSS   (1u << 8)
#define PGS_SMAPS_SEEN_SHARED     (3u << 9)  /* Shared_Clean and Shared_Dirty */
#define PGS_SMAPS_SEEN_ANON_HUGE  (1u << 11)
#define PGS_SMAPS_SEEN_SHMEM_PMD  (1u << 12)
#define PGS_SMAPS_SEEN_FILE_PMD   (1u << 13)

gboolean pgs_smaps_parse_field (const char     *line,
                                gsize           len,
                                PgsSmapsFields *fields);
gboolean pgs_smaps_rollup_parse (const char      *buf,
                                 gsize            len,
                                 PgsSmapsFields  *fields,
                                 GError         **error);

/* A full /proc/PID/smaps, one mapping at a time: a plain struct over the buffer, read by
 * the caller in a loop, so that the parser never calls back into its callers' files.
 *
 *   PgsSmapsReader reader;
 *   pgs_smaps_reader_init (&reader, buf, len);
 *   while (pgs_smaps_reader_next (&reader, &entry, &fields, &error))
 *     …
 *   if (error != NULL) …   (cut short or malformed; the mappings before it were given)
 */
typedef struct
{
  PgsLineReader  lines;
  PgsMapsEntry   entry;        /* the mapping being read */
  PgsSmapsFields fields;
  gboolean       have_entry;
  gboolean       done;
} PgsSmapsReader;

void     pgs_smaps_reader_init (PgsSmapsReader  *reader,
                                const char      *buf,
                                gsize            len);
gboolean pgs_smaps_reader_next (PgsSmapsReader  *reader,
                                PgsMapsEntry    *entry,
                                PgsSmapsFields  *fields,
                                GError         **error);

/* /proc/PID/stat: "pid (comm) state ppid … starttime …" (fs/proc/array.c do_task_stat).
 * comm may hold spaces and parentheses: the fields start after the last ')'. */
typedef struct
{
  const char *comm;     /* field 2, inside @buf, not NUL-terminated */
  gsize   comm_len;
  char    state;        /* field 3 */
  guint   flags;        /* field 9: PF_* */
  guint64 minflt;       /* field 10 */
  guint64 majflt;       /* field 12 */
  guint64 utime;        /* field 14: clock ticks */
  guint64 stime;        /* field 15 */
  guint64 start_time;   /* field 22: clock ticks after boot */
  guint64 vsize;        /* field 23: bytes; 0 where the line ends before it */
  guint64 rss;          /* field 24: pages; 0 where the line ends before it */
} PgsStatFields;

gboolean pgs_stat_parse (const char     *buf,
                         gsize           len,
                         PgsStatFields  *out,
                         GError        **error);

/* /proc/stat's "btime N" line: when the system booted, in seconds since the epoch. */
gboolean pgs_stat_btime_parse (const char  *buf,
                               gsize        len,
                               gint64      *btime,
                               GError     **error);

/* /proc/PID/cmdline: the arguments joined by spaces, trailing space dropped. Newly allocated;
 * the bytes are kept as they are (output escaping is the caller's). */
char    *pgs_cmdline_parse (const char *buf,
                            gsize       len);

G_END_DECLS
