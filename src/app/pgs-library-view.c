/* pgs-library-view.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * librank in the app: one row per mapped file (libraries, executables, fonts, data files,
 * memfd), the number of processes mapping it and the sums of their figures for it, largest
 * PSS first. A row's item is the index of its file in the PgsLibFile array of the current
 * snapshot.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-escape.h"
#include "pgs-library-view.h"
#include "pgs-units.h"

/* A row's item: the index of its file. Lives only in this view. */
#define PGS_TYPE_LIBRARY_ROW (pgs_library_row_get_type ())
G_DECLARE_FINAL_TYPE (PgsLibraryRow, pgs_library_row, PGS, LIBRARY_ROW, GObject)

struct _PgsLibraryRow
{
  GObject  parent_instance;
  guint    index;
};

G_DEFINE_FINAL_TYPE (PgsLibraryRow, pgs_library_row, G_TYPE_OBJECT)

static void
pgs_library_row_class_init (PgsLibraryRowClass *klass)
{
}

static void
pgs_library_row_init (PgsLibraryRow *self)
{
}

typedef enum
{
  COLUMN_PATH,
  COLUMN_PROCESSES,
  COLUMN_VSS,
  COLUMN_RSS,
  COLUMN_PSS,
  COLUMN_USS,
  COLUMN_SWAP,
  N_COLUMNS
} ColumnId;

static const struct
{
  const char *title;
  PgsMetric   metric;
} columns[N_COLUMNS] = {
  [COLUMN_PATH]      = { N_("File"), 0 },
  [COLUMN_PROCESSES] = { N_("Processes"), 0 },
  [COLUMN_VSS]       = { N_("VSS"), PGS_METRIC_VSS },
  [COLUMN_RSS]       = { N_("RSS"), PGS_METRIC_RSS },
  [COLUMN_PSS]       = { N_("PSS"), PGS_METRIC_PSS },
  [COLUMN_USS]       = { N_("USS"), PGS_METRIC_USS },
  [COLUMN_SWAP]      = { N_("Swap"), PGS_METRIC_SWAP },
};

struct _PgsLibraryView
{
  GtkWidget       parent_instance;

  PgsSnapshot    *snapshot;
  gboolean        stale;       /* the files are not the snapshot's: refill when shown */
  GPtrArray      *files;       /* PgsLibFile */
  GListStore     *store;       /* PgsLibraryRow */
  GtkNoSelection *selection;

  /* template children */
  GtkColumnView  *column_view;
  GtkLabel       *note_label;
};

enum {
  PROP_0,
  PROP_SNAPSHOT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsLibraryView, pgs_library_view, GTK_TYPE_WIDGET)

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  GtkWidget *label;

  if (GPOINTER_TO_UINT (data) == COLUMN_PATH)
    /* The file name is at the end of the path: keep it. */
    label = pgs_cell_new_text (PANGO_ELLIPSIZE_START);
  else
    label = pgs_cell_new_numeric ();
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           PgsLibraryView           *self)
{
  ColumnId column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));
  PgsLibraryRow *row = gtk_list_item_get_item (item);
  const PgsLibFile *f = g_ptr_array_index (self->files, row->index);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;

  switch (column)
    {
    case COLUMN_PATH:
      {
        GString *pids = g_string_new (NULL);

        text = pgs_escape_for_terminal (f->path, -1);
        for (guint i = 0; i < f->pids->len; i++)
          g_string_append_printf (pids, "%s%d", i ? ", " : "", g_array_index (f->pids, int, i));
        /* Translators: a file's tooltip: its path, then the PIDs that map it */
        tooltip = g_strdup_printf (_("%s\nMapped by %s"), text, pids->str);
        g_string_free (pids, TRUE);
      }
      break;
    case COLUMN_PROCESSES:
      text = g_strdup_printf ("%u", f->pids->len);
      break;
    case COLUMN_VSS:
    case COLUMN_RSS:
    case COLUMN_PSS:
    case COLUMN_USS:
    case COLUMN_SWAP:
      {
        const guint64 values[] = { 0, 0, f->vss, f->rss, f->pss_fp >> PGS_PSS_SHIFT, f->uss, f->swap };

        if (f->known & columns[column].metric)
          text = pgs_units_format (PGS_UNITS_IEC, values[column]);
        else
          {
            text = g_strdup (PGS_UNKNOWN_TEXT);
            tooltip = g_strdup (_("Unknown: the kernel’s smaps of a process could not be read"));
          }
      }
      break;
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
  pgs_cell_set_text (label, text);
  pgs_cell_set_tooltip (GTK_WIDGET (label), tooltip);
}

static void
refill (PgsLibraryView *self)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  guint unmapped = 0;

  g_list_store_remove_all (self->store);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  if (self->snapshot != NULL)
    for (guint i = 0; i < pgs_snapshot_get_n_processes (self->snapshot); i++)
      g_ptr_array_add (all, pgs_snapshot_get_process (self->snapshot, i));
  self->files = pgs_librank (all, &unmapped);
  for (guint i = 0; i < self->files->len; i++)
    {
      g_autoptr(PgsLibraryRow) row = g_object_new (PGS_TYPE_LIBRARY_ROW, NULL);

      row->index = i;
      g_list_store_append (self->store, row);
    }

  if (unmapped > 0)
    {
      g_autofree char *text =
        g_strdup_printf (ngettext ("Each file’s figures are the sums of its mappings in the "
                                   "processes that map it. %u process is left out: its "
                                   "mappings are not readable.",
                                   "Each file’s figures are the sums of its mappings in the "
                                   "processes that map it. %u processes are left out: their "
                                   "mappings are not readable.", unmapped), unmapped);

      gtk_label_set_text (self->note_label, text);
    }
  else
    gtk_label_set_text (self->note_label,
                        _("Each file’s figures are the sums of its mappings in the processes "
                          "that map it: PSS is what the file costs them together."));
}

/* Refilled when in view only: behind another page it would cost the main loop on every
 * refresh for nothing. */
static void
refill_when_shown (PgsLibraryView *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = FALSE;
      refill (self);
    }
  else if (!self->stale)
    {
      /* Nor are the files of an old scan kept behind another page. */
      self->stale = TRUE;
      g_list_store_remove_all (self->store);
      g_clear_pointer (&self->files, g_ptr_array_unref);
    }
}

static void
pgs_library_view_map (GtkWidget *widget)
{
  PgsLibraryView *self = PGS_LIBRARY_VIEW (widget);

  GTK_WIDGET_CLASS (pgs_library_view_parent_class)->map (widget);
  if (self->stale)
    refill_when_shown (self);
}

static void
pgs_library_view_dispose (GObject *object)
{
  PgsLibraryView *self = (PgsLibraryView *) object;
  GtkWidget *child;

  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_LIBRARY_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_object (&self->snapshot);

  G_OBJECT_CLASS (pgs_library_view_parent_class)->dispose (object);
}

static void
pgs_library_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PgsLibraryView *self = PGS_LIBRARY_VIEW (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      g_value_set_object (value, self->snapshot);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_library_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  PgsLibraryView *self = PGS_LIBRARY_VIEW (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      pgs_library_view_set_snapshot (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_library_view_class_init (PgsLibraryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_library_view_dispose;
  object_class->get_property = pgs_library_view_get_property;
  object_class->set_property = pgs_library_view_set_property;
  widget_class->map = pgs_library_view_map;

  properties[PROP_SNAPSHOT] =
    g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-library-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, column_view);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, note_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "libraryview");
}

static void
pgs_library_view_init (PgsLibraryView *self)
{
  GtkLayoutManager *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->store = g_list_store_new (PGS_TYPE_LIBRARY_ROW);
  self->selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->store)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

      g_object_set_data (G_OBJECT (factory), "column", GUINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
      pgs_cell_append_column (self->column_view, _(columns[c].title), factory, c == COLUMN_PATH);
    }
  refill (self);
}

PgsSnapshot *
pgs_library_view_get_snapshot (PgsLibraryView *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), NULL);
  return self->snapshot;
}

void
pgs_library_view_set_snapshot (PgsLibraryView *self,
                               PgsSnapshot    *snapshot)
{
  g_return_if_fail (PGS_IS_LIBRARY_VIEW (self));

  if (!g_set_object (&self->snapshot, snapshot))
    return;
  refill_when_shown (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
}

guint
pgs_library_view_get_n_files (PgsLibraryView *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), 0);
  if (self->stale)
    {
      self->stale = FALSE;
      refill (self);
    }
  return self->files->len;
}

const PgsLibFile *
pgs_library_view_get_file (PgsLibraryView *self,
                           guint           index)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), NULL);
  g_return_val_if_fail (index < self->files->len, NULL);
  return g_ptr_array_index (self->files, index);
}
