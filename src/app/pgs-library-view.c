/* pgs-library-view.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * librank in the app: one row per mapped file (libraries, executables, fonts, data files,
 * memfd), the number of processes mapping it and the sums of their figures for it, largest
 * PSS first. A row's item is the index of its file in the PgsLibFile array of the current
 * snapshot.
 *
 * Selecting a file lists the processes that map it beside the table, each with its own
 * share, and makes the file's frames the highlight of the physical maps (the "highlight"
 * property, which the window hands to the map pages). The selection is kept by path across
 * refreshes; the frame set is rebuilt from every new snapshot.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-escape.h"
#include "pgs-highlight.h"
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

/* The columns of the selected file's processes. */
typedef enum
{
  USER_PID,
  USER_NAME,
  USER_RSS,
  USER_PSS,
  USER_USS,
  USER_SWAP,
  N_USER_COLUMNS
} UserColumnId;

static const struct
{
  const char *title;
  PgsMetric   metric;
} user_columns[N_USER_COLUMNS] = {
  [USER_PID]  = { N_("PID"), 0 },
  [USER_NAME] = { N_("Process"), 0 },
  [USER_RSS]  = { N_("RSS"), PGS_METRIC_RSS },
  [USER_PSS]  = { N_("PSS"), PGS_METRIC_PSS },
  [USER_USS]  = { N_("USS"), PGS_METRIC_USS },
  [USER_SWAP] = { N_("Swap"), PGS_METRIC_SWAP },
};

struct _PgsLibraryView
{
  PgsPage             parent_instance;

  PgsSnapshot        *snapshot;
  gboolean            stale;       /* the files are not the snapshot's: refill when shown */
  gboolean            refilling;   /* the store is being refilled: keep the selected path */
  GPtrArray          *files;       /* PgsLibFile */
  GListStore         *store;       /* PgsLibraryRow */
  GtkSingleSelection *selection;

  char               *selected_path;  /* the file chosen, kept across refreshes; or NULL */
  PgsHighlight       *highlight;      /* its frames in the snapshot */
  GArray             *users;          /* PgsLibUser of the selected file, in the table's snapshot */
  GListStore         *users_store;    /* PgsLibraryRow: index into users */
  GtkNoSelection     *users_selection;

  /* template children */
  GtkColumnView      *column_view;
  GtkLabel           *note_label;
  GtkWidget          *file_pane;
  GtkLabel           *file_title;
  GtkLabel           *file_path;
  GtkLabel           *highlight_label;
  GtkColumnView      *users_view;
};

enum {
  PROP_0,
  PROP_SNAPSHOT,
  PROP_HIGHLIGHT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  PROCESS_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsLibraryView, pgs_library_view, PGS_TYPE_PAGE)

static void select_path  (PgsLibraryView *self,
                          const char     *path);
static void update_users (PgsLibraryView *self);

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

/* ---- the selected file's processes ---- */

static void
setup_user_cell (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  data)
{
  GtkWidget *label;

  if (GPOINTER_TO_UINT (data) == USER_NAME)
    label = pgs_cell_new_text (PANGO_ELLIPSIZE_END);
  else
    label = pgs_cell_new_numeric ();
  gtk_list_item_set_child (item, label);
}

static void
bind_user_cell (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                PgsLibraryView           *self)
{
  UserColumnId column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));
  PgsLibraryRow *row = gtk_list_item_get_item (item);
  const PgsLibUser *u = &g_array_index (self->users, PgsLibUser, row->index);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;

  switch (column)
    {
    case USER_PID:
      text = g_strdup_printf ("%d", u->pid);
      break;
    case USER_NAME:
      {
        PgsProcess *p = self->snapshot ? pgs_snapshot_lookup_pid (self->snapshot, u->pid) : NULL;

        text = g_strdup (p ? pgs_process_get_display_name (p) : "?");
        if (p != NULL)
          tooltip = g_strdup (pgs_process_get_display_cmdline (p));
      }
      break;
    case USER_RSS:
    case USER_PSS:
    case USER_USS:
    case USER_SWAP:
      {
        const guint64 values[] = { 0, 0, u->rss, u->pss_fp >> PGS_PSS_SHIFT, u->uss, u->swap };

        if (u->known & user_columns[column].metric)
          {
            g_autofree char *bytes = pgs_units_format_count (values[column]);

            text = pgs_units_format (PGS_UNITS_IEC, values[column]);
            /* Translators: a size's tooltip: "1,234,567 bytes" */
            tooltip = g_strdup_printf (_("%s bytes"), bytes);
          }
        else
          {
            text = g_strdup (PGS_UNKNOWN_TEXT);
            tooltip = g_strdup (_("Unknown: the kernel’s smaps of the process could not be read"));
          }
      }
      break;
    case N_USER_COLUMNS:
    default:
      g_assert_not_reached ();
    }
  pgs_cell_set_text (label, text);
  pgs_cell_set_tooltip (GTK_WIDGET (label), tooltip);
}

static void
update_highlight_label (PgsLibraryView *self)
{
  g_autofree char *text = NULL;

  if (self->highlight == NULL)
    return;
  if (pgs_highlight_needs_pages (self->highlight) &&
      pgs_highlight_get_n_frames (self->highlight) == 0)
    /* The list was scanned without pages: the physical maps scan them when shown. */
    text = g_strdup (_("Its frames are highlighted on the Sharing and Page Flags maps: "
                       "every process’s pages are read when one of them is shown."));
  else if (pgs_highlight_get_n_frames (self->highlight) > 0)
    {
      g_autofree char *count = pgs_units_format_count (pgs_highlight_get_n_frames (self->highlight));
      const char *problem = pgs_highlight_get_problem (self->highlight);

      /* Translators: %s is a count of frames, "1,234" */
      text = g_strdup_printf (_("Its %s frames are highlighted on the Sharing and Page Flags "
                                "maps."), count);
      if (problem != NULL)
        {
          g_autofree char *more = g_strdup_printf ("%s %s.", text, problem);

          g_free (text);
          text = g_steal_pointer (&more);
        }
    }
  else
    /* Translators: %s says why, e.g. "Frame numbers are hidden without root: …" */
    text = g_strdup_printf (_("No frames to highlight on the maps: %s."),
                            pgs_highlight_get_problem (self->highlight));
  gtk_label_set_text (self->highlight_label, text);
}

/* Largest share first, as the files are; then by PID. */
static int
compare_users (gconstpointer a,
               gconstpointer b)
{
  const PgsLibUser *ua = a;
  const PgsLibUser *ub = b;

  if (ua->pss_fp != ub->pss_fp)
    return ua->pss_fp > ub->pss_fp ? -1 : 1;
  return (ua->pid > ub->pid) - (ua->pid < ub->pid);
}

/* The pane beside the table: the selected file's processes, from the files' snapshot. */
static void
update_users (PgsLibraryView *self)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autofree char *safe = NULL;
  const char *slash;

  g_list_store_remove_all (self->users_store);
  g_clear_pointer (&self->users, g_array_unref);
  gtk_widget_set_visible (self->file_pane, self->selected_path != NULL);
  if (self->selected_path == NULL || self->snapshot == NULL)
    return;

  for (guint i = 0; i < pgs_snapshot_get_n_processes (self->snapshot); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (self->snapshot, i));
  self->users = pgs_librank_file_users (all, self->selected_path);
  g_array_sort (self->users, compare_users);
  for (guint i = 0; i < self->users->len; i++)
    {
      g_autoptr(PgsLibraryRow) row = g_object_new (PGS_TYPE_LIBRARY_ROW, NULL);

      row->index = i;
      g_list_store_append (self->users_store, row);
    }

  safe = pgs_escape_for_terminal (self->selected_path, -1);
  slash = strrchr (safe, '/');
  gtk_label_set_text (self->file_title, slash && slash[1] ? slash + 1 : safe);
  gtk_label_set_text (self->file_path, safe);
  update_highlight_label (self);
}

/* The file's frames in the current snapshot, for the maps. */
static void
update_highlight (PgsLibraryView *self)
{
  g_clear_pointer (&self->highlight, pgs_highlight_unref);
  if (self->selected_path != NULL && self->snapshot != NULL)
    self->highlight = pgs_highlight_new_for_file (self->snapshot, self->selected_path);
  update_highlight_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT]);
}

static void
select_path (PgsLibraryView *self,
             const char     *path)
{
  if (g_strcmp0 (self->selected_path, path) == 0)
    return;
  g_free (self->selected_path);
  self->selected_path = g_strdup (path);
  update_highlight (self);
  update_users (self);
}

static void
on_selection_changed (PgsLibraryView *self)
{
  PgsLibraryRow *row;

  if (self->refilling)
    return;
  row = gtk_single_selection_get_selected_item (self->selection);
  select_path (self, row ? ((PgsLibFile *) g_ptr_array_index (self->files, row->index))->path
                         : NULL);
}

/* A process of the file activated (double-click, Enter): the window shows its pages. */
static void
on_user_activated (PgsLibraryView *self,
                   guint           position)
{
  g_autoptr(PgsLibraryRow) row = g_list_model_get_item (G_LIST_MODEL (self->users_store), position);

  if (row != NULL && self->users != NULL && row->index < self->users->len)
    g_signal_emit (self, signals[PROCESS_ACTIVATED], 0,
                   g_array_index (self->users, PgsLibUser, row->index).pid);
}

static gboolean
unselect_shortcut (GtkWidget *widget,
                   GVariant  *args,
                   gpointer   data)
{
  PgsLibraryView *self = PGS_LIBRARY_VIEW (widget);

  if (self->selected_path == NULL)
    return FALSE;
  pgs_library_view_unselect (self);
  return TRUE;
}

static void
refill (PgsLibraryView *self)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  guint unmapped = 0;
  guint selected = GTK_INVALID_LIST_POSITION;

  self->refilling = TRUE;
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
      if (self->selected_path != NULL &&
          strcmp (((PgsLibFile *) g_ptr_array_index (self->files, i))->path,
                  self->selected_path) == 0)
        selected = i;
    }
  gtk_single_selection_set_selected (self->selection, selected);
  self->refilling = FALSE;
  /* Gone from this scan: nothing is selected any more. */
  if (selected == GTK_INVALID_LIST_POSITION && self->selected_path != NULL)
    select_path (self, NULL);
  else
    update_users (self);

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
      /* The selected file stays chosen: its frames stay the maps' highlight. */
      self->refilling = TRUE;
      g_list_store_remove_all (self->store);
      self->refilling = FALSE;
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
  if (self->users_store != NULL)
    g_list_store_remove_all (self->users_store);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_LIBRARY_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_object (&self->users_selection);
  g_clear_object (&self->users_store);
  g_clear_pointer (&self->users, g_array_unref);
  g_clear_pointer (&self->highlight, pgs_highlight_unref);
  g_clear_pointer (&self->selected_path, g_free);
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
    case PROP_HIGHLIGHT:
      g_value_set_boxed (value, self->highlight);
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
  /* The selected file's frames, for the physical maps; NULL when none is selected. */
  properties[PROP_HIGHLIGHT] =
    g_param_spec_boxed ("highlight", NULL, NULL, PGS_TYPE_HIGHLIGHT,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A process of the selected file activated in the pane beside the table: its PID. */
  signals[PROCESS_ACTIVATED] = g_signal_new ("process-activated", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 1, G_TYPE_INT);
  /* Escape drops the file: the maps highlight the selected process again. */
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, unselect_shortcut, NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-library-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, column_view);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, note_label);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, file_pane);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, file_title);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, file_path);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, highlight_label);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, users_view);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "libraryview");
}

static void
pgs_library_view_init (PgsLibraryView *self)
{
  GtkLayoutManager *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* The session's snapshot (pgs-page.h). */
  pgs_page_bind (PGS_PAGE (self), "snapshot", self, "snapshot", G_BINDING_SYNC_CREATE);
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->store = g_list_store_new (PGS_TYPE_LIBRARY_ROW);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->store)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected",
                            G_CALLBACK (on_selection_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  self->users_store = g_list_store_new (PGS_TYPE_LIBRARY_ROW);
  self->users_selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->users_store)));
  gtk_column_view_set_model (self->users_view, GTK_SELECTION_MODEL (self->users_selection));
  g_signal_connect_swapped (self->users_view, "activate", G_CALLBACK (on_user_activated), self);
  for (guint c = 0; c < N_USER_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

      g_object_set_data (G_OBJECT (factory), "column", GUINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_user_cell), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_user_cell), self);
      pgs_cell_append_column (self->users_view, _(user_columns[c].title), factory,
                              c == USER_NAME);
    }

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
  /* The maps show the file's frames of every scan, whether this view is shown or not. */
  if (self->selected_path != NULL)
    update_highlight (self);
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

PgsHighlight *
pgs_library_view_get_highlight (PgsLibraryView *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), NULL);
  return self->highlight;
}

const char *
pgs_library_view_get_selected_path (PgsLibraryView *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), NULL);
  return self->selected_path;
}

guint
pgs_library_view_get_n_users (PgsLibraryView *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), 0);
  return self->users ? self->users->len : 0;
}

const PgsLibUser *
pgs_library_view_get_user (PgsLibraryView *self,
                           guint           index)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), NULL);
  g_return_val_if_fail (self->users != NULL && index < self->users->len, NULL);
  return &g_array_index (self->users, PgsLibUser, index);
}

void
pgs_library_view_select_file (PgsLibraryView *self,
                              guint           index)
{
  g_return_if_fail (PGS_IS_LIBRARY_VIEW (self));
  if (self->stale)
    {
      self->stale = FALSE;
      refill (self);
    }
  gtk_single_selection_set_selected (self->selection, index);
}

void
pgs_library_view_unselect (PgsLibraryView *self)
{
  g_return_if_fail (PGS_IS_LIBRARY_VIEW (self));
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  /* Not refilled since (not shown): the path goes all the same. */
  select_path (self, NULL);
}
