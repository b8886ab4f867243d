/* pgs-physmap.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two packed arrays indexed by frame number: never an object per frame. Counts are kept
 * as u32 (a map count over 4 billion saturates), flags as the kernel's u64.
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

PgsPhysMap *
pgs_physmap_new_full (guint32    *counts,
                      guint64    *flags,
                      guint64     n_frames,
                      const char *meminfo_text,
                      const char *zoneinfo_text)
{
  PgsPhysMap *self = g_new0 (PgsPhysMap, 1);
  g_autoptr(GError) error = NULL;
  GString *why = g_string_new (NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->counts = counts;
  self->flags = flags;
  self->n_frames = n_frames;
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
                                        flags, counts, n_frames, page_size ());
  self->counters_error = why->len > 0 ? g_string_free (why, FALSE) : (g_string_free (why, TRUE), NULL);
  return self;
}

PgsPhysMap *
pgs_physmap_new_take (guint32 *counts,
                      guint64 *flags,
                      guint64  n_frames)
{
  return pgs_physmap_new_full (counts, flags, n_frames, NULL, NULL);
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

const guint32 *
pgs_physmap_get_counts (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->counts;
}

const guint64 *
pgs_physmap_get_flags (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
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
  g_return_if_fail (self != NULL);

  pgs_category_classify (self->flags, self->n_frames, out, counts);
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
  guint64 head = pfn;
  g_autofree guint8 *cats = NULL;
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

  /* The largest folio is a 1 GiB hugetlb page, 2^18 frames. */
  while (head > 0 && pfn - head < (1u << 18) &&
         (self->flags[head] & PGS_KPF_BIT (PGS_KPF_COMPOUND_TAIL)))
    head--;
  if (head == pfn)
    return pgs_category_from_flags (self->flags[pfn]);
  cats = g_malloc (pfn - head + 1);
  pgs_category_classify (self->flags + head, pfn - head + 1, cats, NULL);
  return cats[pfn - head];
}

/* Reads one kpage file whole through one reused chunk buffer; the size is not known in
 * advance (procfs says 0), so the arrays grow geometrically. */
static gboolean
read_whole (int            fd,
            gboolean       as_u32,
            gpointer      *out,
            guint64       *n_out,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autofree guint64 *buf = g_new (guint64, PGS_KPAGE_CHUNK_FRAMES);
  g_autofree gpointer data = NULL;
  gsize elem = as_u32 ? 4 : 8;
  guint64 cap = 0, n = 0;

  for (;;)
    {
      gssize got;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      got = pgs_pread_full (fd, buf, PGS_KPAGE_CHUNK_FRAMES * 8, n * 8);
      if (got < 0)
        {
          pgs_set_error_from_errno (error, errno, "kpage read at frame %" G_GUINT64_FORMAT, n);
          return FALSE;
        }
      if (n + got / 8 > cap)
        {
          cap = MAX (cap * 2, 1u << 18);
          data = g_realloc (data, cap * elem);
        }
      /* Whole entries only: a file whose size is not a multiple of 8 (a damaged fixture)
       * left up to 7 bytes to copy into an array with no room for them. */
      if (as_u32)
        for (gssize i = 0; i < got / 8; i++)
          ((guint32 *) data)[n + i] = (guint32) MIN (buf[i], G_MAXUINT32);
      else if (got >= 8)
        memcpy ((guint64 *) data + n, buf, (gsize) (got / 8) * 8);
      n += got / 8;
      if (got < PGS_KPAGE_CHUNK_FRAMES * 8)
        break;
    }

  *out = g_steal_pointer (&data);
  *n_out = n;
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
  g_autofree guint32 *counts = NULL;
  g_autofree guint64 *flags = NULL;
  guint64 n_counts = 0, n_flags = 0;

  if (!read_whole (count_fd, TRUE, (gpointer *) &counts, &n_counts, cancellable, error) ||
      !read_whole (flags_fd, FALSE, (gpointer *) &flags, &n_flags, cancellable, error))
    return NULL;

  /* Both files cover every frame up to max_pfn; a difference means one was cut short. */
  if (n_counts != n_flags)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "kpagecount has %" G_GUINT64_FORMAT " frames but kpageflags %" G_GUINT64_FORMAT,
                   n_counts, n_flags);
      return NULL;
    }

  /* Right after the frames, so that the counters describe the same moment as closely as
   * they can; missing files (a fixture tree) only leave them unavailable. */
  if (root_fd >= 0)
    {
      meminfo = pgs_read_file_at (root_fd, "meminfo", NULL, NULL);
      zoneinfo = pgs_read_file_at (root_fd, "zoneinfo", NULL, NULL);
    }

  return pgs_physmap_new_full (g_steal_pointer (&counts), g_steal_pointer (&flags), n_counts,
                               meminfo, zoneinfo);
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
