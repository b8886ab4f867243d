/* pgs-library-view.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * librank in the app: one row per mapped file (libraries, executables, fonts, data files,
 * memfd), the number of processes mapping it and the sums of their figures for it, largest
 * PSS first. The rows (PgsLibraryItem) are listed in a worker (pgs-model-build.h); the
 * columns are declared in the template.
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
#include "pgs-library-item.h"
#include "pgs-library-user.h"
#include "pgs-library-view.h"
#include "pgs-model-build.h"
#include "pgs-units.h"

struct _PgsLibraryView
{
  PgsPage             parent_instance;

  PgsSnapshot        *snapshot;
  gboolean            stale;       /* the files are not the snapshot's: refill when shown */
  gboolean            refilling;   /* the store is being refilled: keep the selected path */
  GCancellable       *cancellable; /* the files being listed or put in the table, if any */
  GListStore         *store;       /* PgsLibraryItem, largest PSS first */
  GtkSingleSelection *selection;

  char               *selected_path;  /* the file chosen, kept across refreshes; or NULL */
  PgsHighlight       *highlight;      /* its frames in the snapshot */
  GListStore         *users;          /* PgsLibraryUser of the selected file */
  GtkNoSelection     *users_selection;

  /* template children */
  GtkSearchEntry     *search_entry;
  GtkStringFilter    *filter;         /* on the path, what the search entry holds */
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

/* The pane beside the table: the selected file's processes, from the files' snapshot. */
static void
update_users (PgsLibraryView *self)
{
  g_autoptr(GListModel) users = NULL;
  g_autofree char *safe = NULL;
  const char *slash;

  gtk_widget_set_visible (self->file_pane, self->selected_path != NULL);
  users = pgs_library_users_build (self->snapshot, self->selected_path);
  g_list_store_remove_all (self->users);
  for (guint i = 0; i < g_list_model_get_n_items (users); i++)
    {
      g_autoptr(GObject) user = g_list_model_get_item (users, i);

      g_list_store_append (self->users, user);
    }
  if (self->selected_path == NULL || self->snapshot == NULL)
    return;

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
  PgsLibraryItem *item;

  if (self->refilling)
    return;
  item = gtk_single_selection_get_selected_item (self->selection);
  select_path (self, item ? pgs_library_item_get_file (item)->path : NULL);
}

/* A process of the file activated (double-click, Enter): the window shows its pages. */
static void
on_user_activated (PgsLibraryView *self,
                   guint           position)
{
  g_autoptr(PgsLibraryUser) user = g_list_model_get_item (G_LIST_MODEL (self->users_selection),
                                                         position);

  if (user != NULL)
    g_signal_emit (self, signals[PROCESS_ACTIVATED], 0, pgs_library_user_get_share (user)->pid);
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
files_filled (GObject      *source_object,
              GAsyncResult *result,
              gpointer      user_data)
{
  PgsLibraryView *self = user_data;
  GListModel *files = G_LIST_MODEL (source_object);
  guint selected = GTK_INVALID_LIST_POSITION;

  /* Cancelled: a newer listing (or dispose) took over. */
  if (!pgs_model_fill_finish (result, NULL))
    return;
  g_clear_object (&self->cancellable);
  for (guint i = 0; self->selected_path != NULL && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(PgsLibraryItem) item = g_list_model_get_item (files, i);

      if (strcmp (pgs_library_item_get_file (item)->path, self->selected_path) == 0)
        selected = i;
    }
  pgs_library_view_select_file (self, selected);
  self->refilling = FALSE;
  /* Gone from this scan: nothing is selected any more. */
  if (selected == GTK_INVALID_LIST_POSITION && self->selected_path != NULL)
    select_path (self, NULL);
  else
    update_users (self);
}

static void
show_files (PgsLibraryView *self,
            GListModel     *files,
            guint           unmapped)
{
  self->refilling = TRUE;
  pgs_model_fill_async (self->store, files, self->cancellable, files_filled, self);

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

typedef struct
{
  PgsSnapshot *snapshot;
  guint        n_unmapped;
} FilesJob;

static void
files_job_free (FilesJob *job)
{
  g_clear_object (&job->snapshot);
  g_free (job);
}

static GListModel *
build_files (PgsModelBuild *build,
             gpointer       data)
{
  FilesJob *job = data;

  return pgs_library_items_build (job->snapshot, &job->n_unmapped);
}

static void
on_files_built (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  PgsLibraryView *self = PGS_LIBRARY_VIEW (source_object);
  FilesJob *job = pgs_model_build_get_data (result);
  g_autoptr(GListModel) files = pgs_model_build_finish (result, NULL);

  /* NULL: cancelled, a newer listing (or dispose) took over. */
  if (files == NULL)
    return;
  show_files (self, files, job->n_unmapped);
}

/* librank reads every mapping of every process: in a worker, off the main loop. */
static void
refill (PgsLibraryView *self)
{
  FilesJob *job = g_new0 (FilesJob, 1);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  job->snapshot = self->snapshot ? g_object_ref (self->snapshot) : NULL;
  pgs_model_build_async (self, build_files, job, (GDestroyNotify) files_job_free, NULL,
                         self->cancellable, on_files_built, NULL);
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
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
      g_list_store_remove_all (self->store);
      self->refilling = FALSE;
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

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  if (self->users != NULL)
    g_list_store_remove_all (self->users);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_LIBRARY_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_object (&self->users_selection);
  g_clear_object (&self->users);
  g_clear_pointer (&self->highlight, pgs_highlight_unref);
  g_clear_pointer (&self->selected_path, g_free);
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

/* The File column shows the file's name whole and the Folder column where it is: one path
 * cut at its start showed fragments ("… x-gnu/libgtk-4.so.1"). */
static char *
file_name (gpointer    this,
           const char *path)
{
  return path != NULL ? g_path_get_basename (path) : NULL;
}

static char *
folder (gpointer    this,
        const char *path)
{
  g_autofree char *dir = path != NULL ? g_path_get_dirname (path) : NULL;

  return dir != NULL && !g_str_equal (dir, ".") ? g_steal_pointer (&dir) : g_strdup ("");
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
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, filter);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, column_view);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, note_label);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, file_pane);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, file_title);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, file_path);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, highlight_label);
  gtk_widget_class_bind_template_child (widget_class, PgsLibraryView, users_view);

  pgs_cell_class_add_callbacks (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, file_name);
  gtk_widget_class_bind_template_callback (widget_class, folder);
  g_type_ensure (PGS_TYPE_LIBRARY_ITEM);
  g_type_ensure (PGS_TYPE_LIBRARY_USER);

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

  self->store = g_list_store_new (PGS_TYPE_LIBRARY_ITEM);
  /* The files whose path holds the search entry's text, in the order the table sorts. */
  self->selection = gtk_single_selection_new (G_LIST_MODEL (gtk_sort_list_model_new (
    G_LIST_MODEL (gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                             GTK_FILTER (g_object_ref (self->filter)))),
    g_object_ref (gtk_column_view_get_sorter (self->column_view)))));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected",
                            G_CALLBACK (on_selection_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  self->users = g_list_store_new (PGS_TYPE_LIBRARY_USER);
  self->users_selection = gtk_no_selection_new (G_LIST_MODEL (gtk_sort_list_model_new (
    G_LIST_MODEL (g_object_ref (self->users)),
    g_object_ref (gtk_column_view_get_sorter (self->users_view)))));
  gtk_column_view_set_model (self->users_view, GTK_SELECTION_MODEL (self->users_selection));
  g_signal_connect_swapped (self->users_view, "activate", G_CALLBACK (on_user_activated), self);
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

gboolean
pgs_library_view_is_busy (PgsLibraryView *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), FALSE);
  return self->stale || self->cancellable != NULL;
}

guint
pgs_library_view_get_n_files (PgsLibraryView *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->store));
}

const PgsLibFile *
pgs_library_view_get_file (PgsLibraryView *self,
                           guint           index)
{
  g_autoptr(PgsLibraryItem) item = NULL;

  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), NULL);
  item = g_list_model_get_item (G_LIST_MODEL (self->store), index);
  g_return_val_if_fail (item != NULL, NULL);
  /* The store holds the item, and the item its file. */
  return pgs_library_item_get_file (item);
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
  return g_list_model_get_n_items (G_LIST_MODEL (self->users));
}

const PgsLibUser *
pgs_library_view_get_user (PgsLibraryView *self,
                           guint           index)
{
  g_autoptr(PgsLibraryUser) user = NULL;

  g_return_val_if_fail (PGS_IS_LIBRARY_VIEW (self), NULL);
  user = g_list_model_get_item (G_LIST_MODEL (self->users), index);
  g_return_val_if_fail (user != NULL, NULL);
  return pgs_library_user_get_share (user);
}

/* @index into the files in librank's order, whatever column the table is sorted by. */
void
pgs_library_view_select_file (PgsLibraryView *self,
                              guint           index)
{
  g_autoptr(GObject) item = NULL;
  GListModel *shown;
  guint position = GTK_INVALID_LIST_POSITION;

  g_return_if_fail (PGS_IS_LIBRARY_VIEW (self));
  item = g_list_model_get_item (G_LIST_MODEL (self->store), index);
  shown = G_LIST_MODEL (self->selection);
  for (guint i = 0; item != NULL && i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GObject) other = g_list_model_get_item (shown, i);

      if (other == item)
        position = i;
    }
  gtk_single_selection_set_selected (self->selection, position);
}

void
pgs_library_view_unselect (PgsLibraryView *self)
{
  g_return_if_fail (PGS_IS_LIBRARY_VIEW (self));
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  /* Not refilled since (not shown): the path goes all the same. */
  select_path (self, NULL);
}
