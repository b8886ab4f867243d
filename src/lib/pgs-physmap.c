/* pgs-physmap.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs of frames with the same map count and flags, never an array per frame: a machine's
 * frames fall into far fewer runs (145 k runs in 6.5 M frames on a 24 GiB guest). Three
 * packed arrays, one entry a run: its first frame (u64, with a sentinel n_frames at the end,
 * for binary search), its count (u32: a map count over 4 billion saturates) and an index
 * into a table of the distinct flag words (u32), 16 bytes a run. The files are read in
 * step, a chunk of each at a time, straight into the runs.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "pgs-kpage.h"
#include "pgs-palette.h"
#include "pgs-physmap.h"
#include "pgs-procfs.h"

struct _PgsPhysMap
{
  gatomicrefcount  ref_count;
  guint64          n_frames;
  guint64          n_runs;
  guint64         *run_start;   /* n_runs + 1: the last is n_frames */
  guint32         *run_count;
  guint32         *run_word;    /* index into words */
  guint64         *words;       /* the distinct flag words */
  guint32          n_words;
  guint64          cursor;      /* the run last looked up: a hint, read and written relaxed */

  /* pgs_physmap_get_counts/get_flags, made on first use. */
  GMutex           arrays_lock;
  guint32         *counts;
  guint64         *flags;

  /* The kernel's counters, read with the frames. */
  char            *meminfo_text;
  char            *zoneinfo_text;
  PgsMeminfo       meminfo;
  gboolean         has_meminfo;
  GArray          *zones;     /* PgsZone */
  GArray          *spans;     /* PgsFrameSpan */
  char            *counters_error;
};

G_DEFINE_BOXED_TYPE (PgsPhysMap, pgs_physmap, pgs_physmap_ref, pgs_physmap_unref)

/* MemTotal is in bytes, zoneinfo in frames of the kernel's page size: this machine's, as
 * the frames are (a snapshot is read back on the machine type that wrote it). */
static guint
page_size (void)
{
  long size = sysconf (_SC_PAGESIZE);

  return size > 0 ? (guint) size : 4096;
}

/* ---- building runs ---- */

typedef struct
{
  guint64    *start;
  guint32    *count;
  guint32    *word;
  guint64     n, cap;
  guint64     n_frames;
  GHashTable *word_index;   /* flags word → index + 1 */
  GArray     *words;        /* guint64 */
  guint32     last_count;
  guint64     last_flags;
} RunBuilder;

static void
builder_init (RunBuilder *b)
{
  memset (b, 0, sizeof *b);
  b->word_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  b->words = g_array_new (FALSE, FALSE, sizeof (guint64));
}

static guint32
builder_word (RunBuilder *b,
              guint64     flags)
{
  gpointer found;
  guint32 index;

  found = g_hash_table_lookup (b->word_index, &flags);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  index = b->words->len;
  g_array_append_val (b->words, flags);
  g_hash_table_insert (b->word_index, g_memdup2 (&flags, sizeof flags),
                       GUINT_TO_POINTER (index + 1));
  return index;
}

/* Appends @n frames of (@count, @flags), joining the last run when it is the same. */
static inline void
builder_add (RunBuilder *b,
             guint32     count,
             guint64     flags,
             guint64     n)
{
  if (n == 0)
    return;
  if (b->n > 0 && count == b->last_count && flags == b->last_flags)
    {
      b->n_frames += n;
      return;
    }
  if (b->n == b->cap)
    {
      b->cap = MAX (b->cap * 3 / 2, 4096);
      b->start = g_renew (guint64, b->start, b->cap + 1);
      b->count = g_renew (guint32, b->count, b->cap);
      b->word = g_renew (guint32, b->word, b->cap);
    }
  b->start[b->n] = b->n_frames;
  b->count[b->n] = count;
  b->word[b->n] = builder_word (b, flags);
  b->n++;
  b->last_count = count;
  b->last_flags = flags;
  b->n_frames += n;
}

/* Scans frames [0, n) of two arrays into the builder, comparing in place. */
static void
builder_add_frames (RunBuilder    *b,
                    const guint32 *counts,
                    const guint64 *flags,
                    guint64        n)
{
  guint64 i = 0;

  while (i < n)
    {
      guint64 j = i + 1;

      while (j < n && counts[j] == counts[i] && flags[j] == flags[i])
        j++;
      builder_add (b, counts[i], flags[i], j - i);
      i = j;
    }
}

static PgsPhysMap *
builder_finish (RunBuilder *b,
                const char *meminfo_text,
                const char *zoneinfo_text);

PgsPhysMap *
pgs_physmap_new_full (guint32    *counts,
                      guint64    *flags,
                      guint64     n_frames,
                      const char *meminfo_text,
                      const char *zoneinfo_text)
{
  RunBuilder b;

  g_return_val_if_fail ((counts != NULL && flags != NULL) || n_frames == 0, NULL);

  builder_init (&b);
  builder_add_frames (&b, counts, flags, n_frames);
  g_free (counts);
  g_free (flags);
  return builder_finish (&b, meminfo_text, zoneinfo_text);
}

PgsPhysMap *
pgs_physmap_new_take (guint32 *counts,
                      guint64 *flags,
                      guint64  n_frames)
{
  return pgs_physmap_new_full (counts, flags, n_frames, NULL, NULL);
}

PgsPhysMap *
pgs_physmap_new_from_runs (const guint64 *run_lengths,
                           const guint32 *run_counts,
                           const guint64 *run_flags,
                           guint64        n_runs,
                           const char    *meminfo_text,
                           const char    *zoneinfo_text)
{
  RunBuilder b;

  g_return_val_if_fail ((run_lengths != NULL && run_counts != NULL && run_flags != NULL) ||
                        n_runs == 0, NULL);

  builder_init (&b);
  for (guint64 i = 0; i < n_runs; i++)
    {
      if (run_lengths[i] > G_MAXUINT64 - b.n_frames)
        break;
      builder_add (&b, run_counts[i], run_flags[i], run_lengths[i]);
    }
  return builder_finish (&b, meminfo_text, zoneinfo_text);
}

/* ---- lookup ---- */

/* The index of the run holding @pfn (< n_frames): from the last one looked up when @pfn is
 * in it or a few runs on (sequential access), else by bisection. */
static guint64
find_run (PgsPhysMap *self,
          guint64     pfn)
{
  guint64 hint = __atomic_load_n (&self->cursor, __ATOMIC_RELAXED);
  guint64 lo = 0, hi = self->n_runs;

  if (hint < self->n_runs && self->run_start[hint] <= pfn)
    {
      for (guint step = 0; step < 4 && hint < self->n_runs; step++, hint++)
        if (pfn < self->run_start[hint + 1])
          goto found;
      lo = hint;
    }
  else if (hint < self->n_runs)
    hi = hint;

  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (self->run_start[mid] <= pfn)
        lo = mid;
      else
        hi = mid;
    }
  hint = lo;
found:
  __atomic_store_n (&self->cursor, hint, __ATOMIC_RELAXED);
  return hint;
}

guint64
pgs_physmap_find_run (PgsPhysMap *self,
                      guint64     pfn)
{
  g_return_val_if_fail (self != NULL, 0);
  if (pfn >= self->n_frames)
    return self->n_runs;
  return find_run (self, pfn);
}

gboolean
pgs_physmap_get_frame (PgsPhysMap *self,
                       guint64     pfn,
                       guint32    *count,
                       guint64    *flags)
{
  guint64 r;

  g_return_val_if_fail (self != NULL, FALSE);
  if (pfn >= self->n_frames)
    {
      if (count != NULL)
        *count = 0;
      if (flags != NULL)
        *flags = 0;
      return FALSE;
    }
  r = find_run (self, pfn);
  if (count != NULL)
    *count = self->run_count[r];
  if (flags != NULL)
    *flags = self->words[self->run_word[r]];
  return TRUE;
}

guint64
pgs_physmap_get_n_runs (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_runs;
}

void
pgs_physmap_get_run (PgsPhysMap *self,
                     guint64     i,
                     guint64    *start,
                     guint64    *n_frames,
                     guint32    *count,
                     guint64    *flags)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (i < self->n_runs);

  if (start != NULL)
    *start = self->run_start[i];
  if (n_frames != NULL)
    *n_frames = self->run_start[i + 1] - self->run_start[i];
  if (count != NULL)
    *count = self->run_count[i];
  if (flags != NULL)
    *flags = self->words[self->run_word[i]];
}

/* For pgs_meminfo_find_spans(): walks back over the runs that have no flags and no count. */
static guint64
flagless_start (gpointer data,
                guint64  first,
                guint64  end)
{
  PgsPhysMap *self = data;
  guint64 r;

  if (end <= first || end > self->n_frames)
    return end;
  r = find_run (self, end - 1);
  for (;;)
    {
      if (self->run_count[r] != 0 || self->words[self->run_word[r]] != 0)
        return MAX (self->run_start[r + 1], first);
      if (self->run_start[r] <= first || r == 0)
        return MAX (self->run_start[r], first);
      r--;
    }
}

static PgsPhysMap *
builder_finish (RunBuilder *b,
                const char *meminfo_text,
                const char *zoneinfo_text)
{
  PgsPhysMap *self = g_new0 (PgsPhysMap, 1);
  g_autoptr(GError) error = NULL;
  GString *why = g_string_new (NULL);

  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_init (&self->arrays_lock);
  /* Shrunk to fit: what stays is 16 bytes a run. */
  self->n_runs = b->n;
  self->n_frames = b->n_frames;
  self->run_start = g_renew (guint64, b->start, b->n + 1);
  self->run_start[b->n] = b->n_frames;
  self->run_count = b->n > 0 ? g_renew (guint32, b->count, b->n) : (g_free (b->count), NULL);
  self->run_word = b->n > 0 ? g_renew (guint32, b->word, b->n) : (g_free (b->word), NULL);
  self->n_words = b->words->len;
  self->words = (guint64 *) (gpointer) g_array_free (b->words, FALSE);
  g_hash_table_unref (b->word_index);

  self->meminfo_text = g_strdup (meminfo_text);
  self->zoneinfo_text = g_strdup (zoneinfo_text);

  if (meminfo_text == NULL)
    g_string_append (why, "no meminfo");
  else if (!(self->has_meminfo = pgs_meminfo_parse (meminfo_text, strlen (meminfo_text),
                                                    &self->meminfo, &error)))
    {
      g_string_append (why, error->message);
      g_clear_error (&error);
    }

  if (zoneinfo_text != NULL)
    self->zones = pgs_zoneinfo_parse (zoneinfo_text, strlen (zoneinfo_text), &error);
  if (self->zones == NULL)
    {
      g_string_append_printf (why, "%s%s", why->len > 0 ? "; " : "",
                              error != NULL ? error->message : "no zoneinfo");
      self->zones = g_array_new (FALSE, TRUE, sizeof (PgsZone));
    }

  self->spans = pgs_meminfo_find_spans ((const PgsZone *) (gpointer) self->zones->data,
                                        self->zones->len,
                                        self->has_meminfo ? &self->meminfo : NULL,
                                        flagless_start, self, self->n_frames, page_size ());
  self->counters_error = why->len > 0 ? g_string_free (why, FALSE) : (g_string_free (why, TRUE), NULL);
  return self;
}

PgsPhysMap *
pgs_physmap_ref (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
pgs_physmap_unref (PgsPhysMap *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->run_start);
      g_free (self->run_count);
      g_free (self->run_word);
      g_free (self->words);
      g_mutex_clear (&self->arrays_lock);
      g_free (self->counts);
      g_free (self->flags);
      g_free (self->meminfo_text);
      g_free (self->zoneinfo_text);
      g_array_unref (self->zones);
      g_array_unref (self->spans);
      g_free (self->counters_error);
      g_free (self);
    }
}

guint64
pgs_physmap_get_n_frames (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_frames;
}

/* The arrays, expanded from the runs once and kept: 12 bytes a frame. */
static void
ensure_arrays (PgsPhysMap *self)
{
  g_mutex_lock (&self->arrays_lock);
  if (self->counts == NULL)
    {
      guint32 *counts = g_new (guint32, MAX (self->n_frames, 1));
      guint64 *flags = g_new (guint64, MAX (self->n_frames, 1));

      for (guint64 r = 0; r < self->n_runs; r++)
        {
          guint32 c = self->run_count[r];
          guint64 f = self->words[self->run_word[r]];

          for (guint64 i = self->run_start[r]; i < self->run_start[r + 1]; i++)
            {
              counts[i] = c;
              flags[i] = f;
            }
        }
      self->flags = flags;
      g_atomic_pointer_set (&self->counts, counts);
    }
  g_mutex_unlock (&self->arrays_lock);
}

const guint32 *
pgs_physmap_get_counts (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  ensure_arrays (self);
  return self->counts;
}

const guint64 *
pgs_physmap_get_flags (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  ensure_arrays (self);
  return self->flags;
}

const char *
pgs_physmap_get_meminfo_text (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->meminfo_text;
}

const char *
pgs_physmap_get_zoneinfo_text (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->zoneinfo_text;
}

const PgsMeminfo *
pgs_physmap_get_meminfo (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->has_meminfo ? &self->meminfo : NULL;
}

const PgsZone *
pgs_physmap_get_zones (PgsPhysMap *self,
                       guint      *n_zones)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_zones != NULL)
    *n_zones = self->zones->len;
  return (const PgsZone *) (gpointer) self->zones->data;
}

const char *
pgs_physmap_get_counters_error (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->counters_error;
}

const PgsFrameSpan *
pgs_physmap_get_spans (PgsPhysMap *self,
                       guint      *n_spans)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_spans != NULL)
    *n_spans = self->spans->len;
  return (const PgsFrameSpan *) (gpointer) self->spans->data;
}

void
pgs_physmap_classify (PgsPhysMap *self,
                      guint8     *out,
                      guint64    *counts)
{
  guint8 head = PGS_CATEGORY_RESERVED;

  g_return_if_fail (self != NULL);

  for (guint64 r = 0; r < self->n_runs; r++)
    {
      guint8 c = pgs_category_classify_run (self->words[self->run_word[r]], &head);
      guint64 n = self->run_start[r + 1] - self->run_start[r];

      memset (out + self->run_start[r], c, n);
      if (counts != NULL)
        counts[c] += n;
    }
  for (guint i = 0; i < self->spans->len; i++)
    {
      const PgsFrameSpan *s = &g_array_index (self->spans, PgsFrameSpan, i);

      /* Spans hold flagless frames only, which classify as "reserved". */
      for (guint64 pfn = s->start; pfn < s->start + s->n_frames; pfn++)
        {
          if (counts != NULL)
            {
              counts[out[pfn]]--;
              counts[s->category]++;
            }
          out[pfn] = s->category;
        }
    }
}

void
pgs_physmap_override_classes (PgsPhysMap   *self,
                              guint8       *classes,
                              guint64      *counts,
                              const guint8 *class_of)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (class_of != NULL);

  for (guint i = 0; i < self->spans->len; i++)
    {
      const PgsFrameSpan *s = &g_array_index (self->spans, PgsFrameSpan, i);
      guint8 to = class_of[s->category];

      for (guint64 pfn = s->start; pfn < s->start + s->n_frames; pfn++)
        {
          if (counts != NULL)
            {
              counts[classes[pfn]]--;
              counts[to]++;
            }
          classes[pfn] = to;
        }
    }
}

void
pgs_physmap_override_share_classes (PgsPhysMap *self,
                                    guint8     *classes,
                                    guint64    *counts)
{
  static const guint8 share_of[PGS_N_CATEGORIES] = {
    [PGS_CATEGORY_HOLE] = PGS_SHARE_HOLE,
    [PGS_CATEGORY_FREE_UNINIT] = PGS_SHARE_FREE,
  };

  pgs_physmap_override_classes (self, classes, counts, share_of);
}

PgsCategory
pgs_physmap_get_category (PgsPhysMap *self,
                          guint64     pfn)
{
  guint lo = 0, hi;

  g_return_val_if_fail (self != NULL, PGS_CATEGORY_HOLE);
  if (pfn >= self->n_frames)
    return PGS_CATEGORY_HOLE;

  /* Binary search of the spans: the last one starting at or before @pfn. */
  hi = self->spans->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (self->spans, PgsFrameSpan, mid).start <= pfn)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0)
    {
      const PgsFrameSpan *s = &g_array_index (self->spans, PgsFrameSpan, lo - 1);

      if (pfn < s->start + s->n_frames)
        return s->category;
    }

  /* The largest folio is a 1 GiB hugetlb page, 2^18 frames: back to the head over the
   * runs of tail pages, then classified forward from there as a run of frames would be. */
  {
    guint64 r = find_run (self, pfn), h = r;
    guint8 state = PGS_CATEGORY_RESERVED, c = PGS_CATEGORY_RESERVED;

    while ((self->words[self->run_word[h]] & PGS_KPF_BIT (PGS_KPF_COMPOUND_TAIL)) &&
           self->run_start[h] > 0 && pfn - self->run_start[h] < (1u << 18))
      h--;
    for (; h <= r; h++)
      c = pgs_category_classify_run (self->words[self->run_word[h]], &state);
    return c;
  }
}

/* Frames read from each file at a time: 1 MiB of each through two reused buffers. */
#define READ_FRAMES (PGS_KPAGE_CHUNK_FRAMES * 16)

/* The frames of @fd from frame @n on, counted to the end (for the message when the two
 * files differ in length). */
static gboolean
count_rest (int           fd,
            guint64      *buf,
            guint64      *n,
            GError      **error)
{
  for (;;)
    {
      gssize got = pgs_pread_full (fd, buf, READ_FRAMES * 8, *n * 8);

      if (got < 0)
        {
          pgs_set_error_from_errno (error, errno, "kpage read at frame %" G_GUINT64_FORMAT, *n);
          return FALSE;
        }
      *n += got / 8;
      if (got < READ_FRAMES * 8)
        return TRUE;
    }
}

/* Reads both files in step, a chunk of each, into runs: no array of frames. The size is
 * not known in advance (procfs says 0). */
static gboolean
read_runs (int            count_fd,
           int            flags_fd,
           RunBuilder    *b,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autofree guint64 *cbuf = g_new (guint64, READ_FRAMES);
  g_autofree guint64 *fbuf = g_new (guint64, READ_FRAMES);
  guint64 n = 0;

  for (;;)
    {
      gssize got_c, got_f = 0;
      guint64 frames, i;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      got_c = pgs_pread_full (count_fd, cbuf, READ_FRAMES * 8, n * 8);
      if (got_c >= 0)
        got_f = pgs_pread_full (flags_fd, fbuf, READ_FRAMES * 8, n * 8);
      if (got_c < 0 || got_f < 0)
        {
          pgs_set_error_from_errno (error, errno, "kpage read at frame %" G_GUINT64_FORMAT, n);
          return FALSE;
        }

      /* Both files cover every frame up to max_pfn; a difference means one was cut short. */
      if (got_c / 8 != got_f / 8)
        {
          guint64 n_counts = n + got_c / 8, n_flags = n + got_f / 8;

          if ((got_c / 8 > got_f / 8 && got_c == READ_FRAMES * 8 &&
               !count_rest (count_fd, cbuf, &n_counts, error)) ||
              (got_f / 8 > got_c / 8 && got_f == READ_FRAMES * 8 &&
               !count_rest (flags_fd, fbuf, &n_flags, error)))
            return FALSE;
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "kpagecount has %" G_GUINT64_FORMAT " frames but kpageflags %" G_GUINT64_FORMAT,
                       n_counts, n_flags);
          return FALSE;
        }

      frames = got_c / 8;
      i = 0;
      while (i < frames)
        {
          guint64 c = cbuf[i], f = fbuf[i], j = i + 1;

          while (j < frames && cbuf[j] == c && fbuf[j] == f)
            j++;
          builder_add (b, (guint32) MIN (c, G_MAXUINT32), f, j - i);
          i = j;
        }
      n += frames;
      if (got_c < READ_FRAMES * 8)
        break;
    }
  return TRUE;
}

PgsPhysMap *
pgs_physmap_read_fds (int            count_fd,
                      int            flags_fd,
                      GCancellable  *cancellable,
                      GError       **error)
{
  return pgs_physmap_read_fds_at (-1, count_fd, flags_fd, cancellable, error);
}

PgsPhysMap *
pgs_physmap_read_fds_at (int            root_fd,
                         int            count_fd,
                         int            flags_fd,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autofree char *meminfo = NULL;
  g_autofree char *zoneinfo = NULL;
  RunBuilder b;
  PgsPhysMap *self;

  builder_init (&b);
  if (!read_runs (count_fd, flags_fd, &b, cancellable, error))
    {
      g_free (b.start);
      g_free (b.count);
      g_free (b.word);
      g_array_unref (b.words);
      g_hash_table_unref (b.word_index);
      return NULL;
    }

  /* Right after the frames, so that the counters describe the same moment as closely as
   * they can; missing files (a fixture tree) only leave them unavailable. */
  if (root_fd >= 0)
    {
      meminfo = pgs_read_file_at (root_fd, "meminfo", NULL, NULL);
      zoneinfo = pgs_read_file_at (root_fd, "zoneinfo", NULL, NULL);
    }

  self = builder_finish (&b, meminfo, zoneinfo);
  return self;
}

PgsPhysMap *
pgs_physmap_read (const char    *procfs_root,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_auto(PgsFd) root_fd = -1;
  g_auto(PgsFd) count_fd = -1;
  g_auto(PgsFd) flags_fd = -1;

  root_fd = pgs_open_at (AT_FDCWD, procfs_root ? procfs_root : PGS_PROCFS_DEFAULT_ROOT,
                         O_RDONLY | O_DIRECTORY, error);
  if (root_fd < 0)
    return NULL;
  count_fd = pgs_open_at (root_fd, "kpagecount", O_RDONLY, error);
  if (count_fd < 0)
    return NULL;
  flags_fd = pgs_open_at (root_fd, "kpageflags", O_RDONLY, error);
  if (flags_fd < 0)
    return NULL;

  return pgs_physmap_read_fds_at (root_fd, count_fd, flags_fd, cancellable, error);
}
