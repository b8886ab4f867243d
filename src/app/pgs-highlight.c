/* pgs-highlight.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The frame set comes from the library (pgs_librank_file_frames()), so it can be built
 * again whenever the snapshot's page data changes; this file only adds the words.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-highlight.h"
#include "pgs-units.h"

struct _PgsHighlight
{
  gatomicrefcount  ref;
  char            *path;
  char            *name;
  GBytes          *frames;
  char            *caption;
  char            *problem;
  gboolean         needs_pages;
};

G_DEFINE_BOXED_TYPE (PgsHighlight, pgs_highlight, pgs_highlight_ref, pgs_highlight_unref)

/* The last component of the path, " (deleted)" kept: what a person calls the file. */
static char *
display_name (const char *path)
{
  g_autofree char *safe = pgs_escape_for_terminal (path, -1);
  const char *slash = strrchr (safe, '/');

  return g_strdup (slash != NULL && slash[1] != '\0' ? slash + 1 : safe);
}

static char *
describe_problem (const PgsFileFrames *frames)
{
  if (frames->n_processes == 0)
    return g_strdup (_("No process maps this file in this scan"));
  if (frames->n_pfn_hidden > 0)
    return g_strdup_printf (ngettext ("Frame numbers are hidden without root: unlock to "
                                      "see the frames of %u process",
                                      "Frame numbers are hidden without root: unlock to "
                                      "see the frames of %u processes", frames->n_pfn_hidden),
                            frames->n_pfn_hidden);
  if (frames->n_without_pages > 0)
    return g_strdup_printf (ngettext ("The pages of %u process mapping it were not read",
                                      "The pages of %u processes mapping it were not read",
                                      frames->n_without_pages),
                            frames->n_without_pages);
  if (frames->n_pfns == 0)
    return g_strdup (_("None of its pages is in memory"));
  return NULL;
}

PgsHighlight *
pgs_highlight_new_for_file (PgsSnapshot *snapshot,
                            const char  *path)
{
  g_autoptr(PgsFileFrames) frames = NULL;
  PgsHighlight *self;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  frames = pgs_librank_file_frames (snapshot, path);
  self = g_new0 (PgsHighlight, 1);
  g_atomic_ref_count_init (&self->ref);
  self->path = g_strdup (path);
  self->name = display_name (path);
  self->problem = describe_problem (frames);
  self->needs_pages = frames->n_without_pages > 0;
  self->frames = g_bytes_new_take (g_steal_pointer (&frames->pfns),
                                   frames->n_pfns * sizeof (guint64));
  if (frames->n_pfns > 0)
    {
      g_autofree char *count = pgs_units_format_count (frames->n_pfns);

      /* Translators: after a map's title: "frames of libc.so.6 highlighted (1,234)" */
      self->caption = g_strdup_printf (_("frames of %s highlighted (%s)"), self->name, count);
    }
  else
    /* Translators: after a map's title: "no frames of libc.so.6 to highlight: <why>" */
    self->caption = g_strdup_printf (_("no frames of %s to highlight: %s"), self->name,
                                     self->problem);
  return self;
}

PgsHighlight *
pgs_highlight_ref (PgsHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
pgs_highlight_unref (PgsHighlight *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref))
    return;
  g_free (self->path);
  g_free (self->name);
  g_bytes_unref (self->frames);
  g_free (self->caption);
  g_free (self->problem);
  g_free (self);
}

const char *
pgs_highlight_get_path (PgsHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

const char *
pgs_highlight_get_name (PgsHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

GBytes *
pgs_highlight_get_frames (PgsHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->frames;
}

gsize
pgs_highlight_get_n_frames (PgsHighlight *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return g_bytes_get_size (self->frames) / sizeof (guint64);
}

const char *
pgs_highlight_get_caption (PgsHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->caption;
}

gboolean
pgs_highlight_needs_pages (PgsHighlight *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->needs_pages;
}

const char *
pgs_highlight_get_problem (PgsHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->problem;
}
