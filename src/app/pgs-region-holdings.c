/* pgs-region-holdings.c: what a range of physical memory holds, by process, application
 * and file
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 19: a DAMON region on the Access view is a range of physical addresses, and its
 * access rate says nothing of whose memory it is. Clicked, this says: the pages each
 * process maps there, summed by process, by application and by file, from the frame index
 * over every process's pages (pgs-frame-users.c scans them when the shown snapshot lacks
 * them, in a worker, with progress). Frames no process maps (page cache, the kernel's,
 * free) are not in it, and a frame three processes map counts for each, as the text says.
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-frame-users.h"
#include "pgs-region-holdings.h"
#include "pgs-units.h"

#define SHOWN 5   /* processes, applications and files named; the rest summed */

struct _PgsRegionHoldings
{
  GtkWidget     parent_instance;

  GtkWidget    *label;
  GCancellable *reading;
  PgsSnapshot  *scanned;    /* owns the holdings' paths */
  GArray       *holdings;
  guint64       start, end;
};

G_DEFINE_FINAL_TYPE (PgsRegionHoldings, pgs_region_holdings, GTK_TYPE_WIDGET)

typedef struct
{
  const char *name;
  guint64     pages;
} Sum;

static int
compare_sums (gconstpointer a,
              gconstpointer b)
{
  const Sum *x = a, *y = b;

  if (x->pages != y->pages)
    return (x->pages < y->pages) - (x->pages > y->pages);
  return g_strcmp0 (x->name, y->name);
}

/* @sums (name → pages) as "a 12 MiB, b 3 MiB … and 4 more (1 MiB)", largest first. */
static void
append_sums (GString    *text,
             const char *title,
             GHashTable *sums,
             guint       page_size)
{
  g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (Sum));
  GHashTableIter iter;
  gpointer key, value;
  guint64 rest = 0;

  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_array_append_val (sorted, ((Sum) { key, *(guint64 *) value }));
  g_array_sort (sorted, compare_sums);
  g_string_append_printf (text, "\n%s: ", title);
  for (guint i = 0; i < sorted->len; i++)
    {
      const Sum *sum = &g_array_index (sorted, Sum, i);
      g_autofree char *size = g_format_size_full (sum->pages * page_size, G_FORMAT_SIZE_IEC_UNITS);

      if (i >= SHOWN)
        {
          rest += sum->pages;
          continue;
        }
      g_string_append_printf (text, i > 0 ? ", %s %s" : "%s %s", sum->name, size);
    }
  if (sorted->len > SHOWN)
    {
      g_autofree char *size = g_format_size_full (rest * page_size, G_FORMAT_SIZE_IEC_UNITS);

      /* Translators: after the largest five: "… and 12 more (3.0 MiB)" */
      g_string_append_printf (text, _(" and %u more (%s)"), sorted->len - SHOWN, size);
    }
}

static void
add (GHashTable *sums,
     const char *name,
     guint64     pages)
{
  guint64 *sum = g_hash_table_lookup (sums, name);

  if (sum == NULL)
    {
      sum = g_new0 (guint64, 1);
      g_hash_table_insert (sums, g_strdup (name), sum);
    }
  *sum += pages;
}

static char *
describe (PgsRegionHoldings *self)
{
  guint page_size = sysconf (_SC_PAGESIZE);
  g_autoptr(GHashTable) processes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) apps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) app_of = NULL;
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autofree char *lo = pgs_units_format_hex (self->start);
  g_autofree char *hi = pgs_units_format_hex (self->end);
  g_autofree char *size = g_format_size_full (self->end - self->start, G_FORMAT_SIZE_IEC_UNITS);
  GString *text = g_string_new (NULL);
  guint64 total = 0;

  for (guint i = 0; i < pgs_snapshot_get_n_processes (self->scanned); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (self->scanned, i));
  /* The applications' names only: the groups' figures would walk every page. */
  app_of = pgs_group_names (self->scanned, all, PGS_GROUP_BY_APP);

  for (guint i = 0; i < self->holdings->len; i++)
    {
      const PgsFrameHolding *h = &g_array_index (self->holdings, PgsFrameHolding, i);
      PgsProcess *p = pgs_snapshot_lookup_pid (self->scanned, h->pid);
      g_autofree char *process = g_strdup_printf ("%s (%d)", p != NULL ? pgs_process_get_display_name (p) : "?",
                                                  h->pid);
      const char *app = g_hash_table_lookup (app_of, GINT_TO_POINTER (h->pid));
      g_autofree char *file = h->path[0] != '\0' ? g_path_get_basename (h->path) : g_strdup (_("anonymous"));

      add (processes, process, h->pages);
      add (apps, app != NULL ? app : "?", h->pages);
      add (files, file, h->pages);
      total += h->pages;
    }

  /* Translators: "Physical 0x100000–0x300000 (2.0 MiB) holds 1.2 MiB of processes' pages" */
  {
    g_autofree char *held = g_format_size_full (total * page_size, G_FORMAT_SIZE_IEC_UNITS);

    g_string_append_printf (text, _("Physical %s–%s (%s) holds %s of processes’ pages"), lo, hi, size, held);
  }
  if (self->holdings->len == 0)
    {
      g_string_append (text, _(": none of the frames of every process that could be read (the page "
                               "frames of other users’ processes need root, or Unlock)"));
      return g_string_free (text, FALSE);
    }
  append_sums (text, _("By process"), processes, page_size);
  append_sums (text, _("By application"), apps, page_size);
  append_sums (text, _("By file"), files, page_size);
  g_string_append_c (text, '\n');
  g_string_append (text, _("A frame several processes map counts for each; frames no process maps "
                           "(page cache, the kernel’s, free) are not counted."));
  return g_string_free (text, FALSE);
}

static void
on_progress (double   fraction,
             gpointer data)
{
  PgsRegionHoldings *self = data;
  g_autofree char *text = g_strdup_printf (_("Reading every process’s pages… %.0f %%"), fraction * 100);

  gtk_label_set_text (GTK_LABEL (self->label), text);
}

static void
on_summed (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  PgsRegionHoldings *self = PGS_REGION_HOLDINGS (object);
  g_autoptr(GCancellable) reading = user_data;
  g_autoptr(PgsSnapshot) scanned = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) holdings = pgs_frame_users_find_finish (result, &scanned, &error);
  g_autofree char *text = NULL;

  /* Another region was clicked meanwhile, or the page went. */
  if (reading != self->reading)
    return;
  g_clear_object (&self->reading);
  if (holdings == NULL)
    {
      text = g_strdup_printf (_("What the region holds could not be read: %s"), error->message);
      gtk_label_set_text (GTK_LABEL (self->label), text);
      return;
    }
  g_set_object (&self->scanned, scanned);
  self->holdings = g_steal_pointer (&holdings);
  text = describe (self);
  gtk_label_set_text (GTK_LABEL (self->label), text);
}

void
pgs_region_holdings_show (PgsRegionHoldings *self,
                          PgsSnapshot       *snapshot,
                          guint64            start,
                          guint64            end)
{
  guint page_size = sysconf (_SC_PAGESIZE);

  g_return_if_fail (PGS_IS_REGION_HOLDINGS (self));
  g_return_if_fail (end > start);

  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_clear_pointer (&self->holdings, g_array_unref);
  self->start = start;
  self->end = end;
  self->reading = g_cancellable_new ();
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  gtk_label_set_text (GTK_LABEL (self->label), _("Reading every process’s pages…"));
  /* The pages read for the last region serve the next: one scan for the heat shown. */
  if (self->scanned != NULL)
    snapshot = self->scanned;
  pgs_frame_users_sum_async (GTK_WIDGET (self), snapshot, start / page_size,
                             (end + page_size - 1) / page_size, self->reading, on_progress, self,
                             on_summed, g_object_ref (self->reading));
}

void
pgs_region_holdings_clear (PgsRegionHoldings *self)
{
  g_return_if_fail (PGS_IS_REGION_HOLDINGS (self));

  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_clear_pointer (&self->holdings, g_array_unref);
  g_clear_object (&self->scanned);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GArray *
pgs_region_holdings_get_holdings (PgsRegionHoldings *self)
{
  g_return_val_if_fail (PGS_IS_REGION_HOLDINGS (self), NULL);
  return self->holdings;
}

const char *
pgs_region_holdings_get_text (PgsRegionHoldings *self)
{
  g_return_val_if_fail (PGS_IS_REGION_HOLDINGS (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->label));
}

static void
pgs_region_holdings_dispose (GObject *object)
{
  PgsRegionHoldings *self = PGS_REGION_HOLDINGS (object);

  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_clear_pointer (&self->holdings, g_array_unref);
  g_clear_object (&self->scanned);
  g_clear_pointer (&self->label, gtk_widget_unparent);
  G_OBJECT_CLASS (pgs_region_holdings_parent_class)->dispose (object);
}

static void
pgs_region_holdings_class_init (PgsRegionHoldingsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = pgs_region_holdings_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
pgs_region_holdings_init (PgsRegionHoldings *self)
{
  self->label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->label), TRUE);
  gtk_widget_set_parent (self->label, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}
