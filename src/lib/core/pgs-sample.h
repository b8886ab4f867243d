/* pgs-sample.h: the machine's memory figures at one instant, as a recording keeps them
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A sample is what the recorder reads every --interval: each process's totals from the
 * kernel's smaps_rollup (with its start time: a PID used again is another process), and
 * the machine's counters (/proc/meminfo, zram mm_stat, /proc/pressure/memory, each
 * cgroup's memory) as named 64-bit values. A PgsRecording hands samples out
 * (pgs_recording_get_sample); a PgsSampler takes them from the live machine.
 */

#pragma once

#include <glib.h>

#include "pgs-types.h"

G_BEGIN_DECLS

/* The figures a sample holds per process, in this order in the file too. */
typedef enum
{
  PGS_SAMPLE_VSS,
  PGS_SAMPLE_RSS,
  PGS_SAMPLE_PSS,
  PGS_SAMPLE_USS,
  PGS_SAMPLE_SWAP,
  PGS_SAMPLE_SWAP_PSS,
  PGS_SAMPLE_N_FIGURES,
} PgsSampleFigure;

typedef struct
{
  int      pid;
  guint    uid;
  guint64  start_time;   /* /proc/PID/stat field 22: clock ticks after boot */
  char    *name;         /* the kernel's comm; a GRefString shared between samples */
  guint    known;        /* PgsMetric bits (VSS, RSS, PSS, USS, SWAP, SWAP_PSS) */
  guint64  figures[PGS_SAMPLE_N_FIGURES];  /* bytes; meaningless where not known */
} PgsSampleProcess;

/* A value absent from a sample (a cgroup that went away, a file that was unreadable). */
#define PGS_SAMPLE_ABSENT G_MAXUINT64

typedef struct
{
  gint64      time;        /* microseconds since the epoch */
  GArray     *processes;   /* PgsSampleProcess, in (pid, start_time) order */
  GPtrArray  *names;       /* counter names (char *): "meminfo/MemFree", "zram/zram0/orig_data_size",
                            * "psi/some", "cgroup/v1/user.slice/usage_in_bytes"… Shared with
                            * the samples before (append only) */
  GArray     *values;      /* guint64 per name, PGS_SAMPLE_ABSENT where not read */
} PgsSample;

PgsSample  *pgs_sample_new           (void);
/* Drops a reference: the sample goes with the last one. */
void        pgs_sample_free          (PgsSample        *sample);
PgsSample  *pgs_sample_ref           (PgsSample        *sample);
/* The totals of @snapshot's processes as a sample at its time, without counters. */
PgsSample  *pgs_sample_new_for_snapshot (PgsSnapshot   *snapshot);
/* A copy that shares the names (and the process names) with @sample. */
PgsSample  *pgs_sample_copy          (const PgsSample  *sample);
/* The process (@pid, @start_time) of @sample, or NULL; @start_time 0 takes any start. */
const PgsSampleProcess *pgs_sample_lookup (const PgsSample *sample,
                                           int              pid,
                                           guint64          start_time);
/* The value of counter @name, or PGS_SAMPLE_ABSENT. */
guint64     pgs_sample_get_value     (const PgsSample  *sample,
                                      const char       *name);
/* PgsMetric → figure (VSS, RSS, PSS, USS, SWAP, SWAP_PSS); -1 for any other. */
int         pgs_sample_figure_for_metric (PgsMetric metric);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsSample, pgs_sample_free)

G_END_DECLS
