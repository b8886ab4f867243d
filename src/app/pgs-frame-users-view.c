/* pgs-frame-users-view.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Who maps a frame is found when a frame is clicked (pgs-frame-users.c): that may need a
 * scan of every process's pages, which is kept to answer the next clicks until another
 * snapshot comes, and which names the processes found. The columns and their sorters are
 * declared in the template; the code only fills the store.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-frame-user-item.h"
#include "pgs-frame-users.h"
#include "pgs-frame-users-view.h"
#include "pgs-pagemap.h"
#include "pgs-release.h"
#include "pgs-units.h"

struct _PgsFrameUsersView
{
  GtkWidget       parent_instance;

  PgsSnapshot    *snapshot;
  PgsSnapshot    *users_snapshot; /* the scan they were found in, until the next snapshot */
  GCancellable   *lookup;         /* the search running, if any */
  guint64         pfn;            /* the frame found or being looked up */
  GArray         *users;          /* PgsFrameUser, once found */
  GListStore     *store;          /* PgsFrameUserItem */
  GtkNoSelection *selection;

  /* template children */
  GtkLabel       *title;
  GtkColumnView  *column_view;
};

enum {
  PROP_0,
  PROP_SNAPSHOT,
  N_PROPS
};

enum {
  PROCESS_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsFrameUsersView, pgs_frame_users_view, GTK_TYPE_WIDGET)

/* Template closure: an address column's text. */
static char *
hex (gpointer this,
     guint64  address)
{
  return pgs_units_format_hex (address);
}

static void
show_users (PgsFrameUsersView *self,
            PgsSnapshot       *names)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *text = NULL;
  guint n = self->users->len;

  if (n == 0)
    text = g_strdup (_("No process maps this frame"));
  else
    text = g_strdup_printf (ngettext ("Mapped by %'u process", "Mapped by %'u processes", n), n);
  gtk_label_set_text (self->title, text);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, pgs_frame_user_item_new (names, &g_array_index (self->users,
                                                                             PgsFrameUser, i)));
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
}

static void
show_progress (double   fraction,
               gpointer user_data)
{
  PgsFrameUsersView *self = user_data;
  g_autofree char *text = NULL;

  /* Translators: while every process's pages are read to find who maps a frame: "… 40 %" */
  text = g_strdup_printf (_("Looking for the processes that map this frame… %d %%"),
                          (int) (fraction * 100));
  gtk_label_set_text (self->title, text);
}

static void
show_error (PgsFrameUsersView *self,
            const GError      *error)
{
  g_autofree char *text = NULL;

  /* Translators: %s says why the scan of every process's pages failed */
  text = g_strdup_printf (_("The processes that map this frame could not be found: %s"),
                          error->message);
  gtk_label_set_text (self->title, text);
}

void
pgs_frame_users_view_clear (PgsFrameUsersView *self)
{
  g_return_if_fail (PGS_IS_FRAME_USERS_VIEW (self));

  if (self->lookup != NULL)
    g_cancellable_cancel (self->lookup);
  g_clear_object (&self->lookup);
  g_list_store_remove_all (self->store);
  g_clear_pointer (&self->users, g_array_unref);
}

static void
lookup_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  PgsFrameUsersView *self = PGS_FRAME_USERS_VIEW (object);
  g_autoptr(GArray) users = NULL;
  g_autoptr(PgsSnapshot) scanned = NULL;
  g_autoptr(GError) error = NULL;

  users = pgs_frame_users_find_finish (result, &scanned, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* a newer click or snapshot took over */
  g_clear_object (&self->lookup);
  if (users == NULL)
    {
      show_error (self, error);
      return;
    }

  pgs_frame_users_view_clear (self);
  g_set_object (&self->users_snapshot, scanned);
  self->users = g_array_ref (users);
  show_users (self, scanned);
}

void
pgs_frame_users_view_find (PgsFrameUsersView *self,
                           const PgsHit      *hit)
{
  g_return_if_fail (PGS_IS_FRAME_USERS_VIEW (self));
  g_return_if_fail (hit != NULL);

  pgs_frame_users_view_clear (self);
  self->pfn = hit->is_frame ? hit->pfn : pgs_pm_pfn (hit->entry);
  if (!hit->is_frame && !pgs_pm_is_present (hit->entry))
    {
      gtk_label_set_text (self->title, _("Not in memory: no frame to share"));
      return;
    }
  if (self->pfn == 0)
    {
      gtk_label_set_text (self->title,
                          _("Frame numbers are hidden without root, so the processes "
                            "sharing this page cannot be found"));
      return;
    }
  if (self->snapshot == NULL)
    return;

  gtk_label_set_text (self->title, _("Looking for the processes that map this frame…"));
  self->lookup = g_cancellable_new ();
  /* The last click's scan serves the next until a new snapshot comes. */
  pgs_frame_users_find_async (GTK_WIDGET (self),
                              self->users_snapshot != NULL ? self->users_snapshot : self->snapshot,
                              self->pfn, self->lookup, show_progress, self, lookup_done, NULL);
}

void
pgs_frame_users_view_update (PgsFrameUsersView *self,
                             const PgsHit      *hit)
{
  guint64 pfn;

  g_return_if_fail (PGS_IS_FRAME_USERS_VIEW (self));
  g_return_if_fail (hit != NULL);

  /* Who maps it was found at the user's click, by a scan of every process: not again at
   * every refresh while the same frame is shown. */
  pfn = hit->is_frame ? hit->pfn : pgs_pm_pfn (hit->entry);
  if (pfn == self->pfn && (self->users != NULL || self->lookup != NULL))
    return;
  pgs_frame_users_view_find (self, hit);
}

GArray *
pgs_frame_users_view_get_users (PgsFrameUsersView *self)
{
  g_return_val_if_fail (PGS_IS_FRAME_USERS_VIEW (self), NULL);
  return self->users;
}

GtkColumnView *
pgs_frame_users_view_get_column_view (PgsFrameUsersView *self)
{
  g_return_val_if_fail (PGS_IS_FRAME_USERS_VIEW (self), NULL);
  return self->column_view;
}

const char *
pgs_frame_users_view_get_title (PgsFrameUsersView *self)
{
  g_return_val_if_fail (PGS_IS_FRAME_USERS_VIEW (self), NULL);
  return gtk_label_get_text (self->title);
}

PgsSnapshot *
pgs_frame_users_view_get_snapshot (PgsFrameUsersView *self)
{
  g_return_val_if_fail (PGS_IS_FRAME_USERS_VIEW (self), NULL);
  return self->snapshot;
}

void
pgs_frame_users_view_set_snapshot (PgsFrameUsersView *self,
                                   PgsSnapshot       *snapshot)
{
  g_return_if_fail (PGS_IS_FRAME_USERS_VIEW (self));
  g_return_if_fail (snapshot == NULL || PGS_IS_SNAPSHOT (snapshot));

  /* Both may be the last reference to a whole scan: let go of them off the main thread. */
  if (!pgs_set_object_release (&self->snapshot, snapshot))
    return;
  pgs_clear_release (&self->users_snapshot);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
}

/* A row activated (a click, Enter): the window shows that process. */
static void
on_activate (PgsFrameUsersView *self,
             guint              position)
{
  g_autoptr(PgsFrameUserItem) item = g_list_model_get_item (G_LIST_MODEL (self->selection),
                                                           position);

  if (item != NULL)
    g_signal_emit (self, signals[PROCESS_ACTIVATED], 0, pgs_frame_user_item_get_pid (item));
}

static void
pgs_frame_users_view_dispose (GObject *object)
{
  PgsFrameUsersView *self = PGS_FRAME_USERS_VIEW (object);
  GtkWidget *child;

  if (self->lookup != NULL)
    g_cancellable_cancel (self->lookup);
  g_clear_object (&self->lookup);
  g_clear_pointer (&self->users, g_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_FRAME_USERS_VIEW);
  /* The scrolled window has no name to be disposed of by the template. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  pgs_clear_release (&self->users_snapshot);
  pgs_clear_release (&self->snapshot);

  G_OBJECT_CLASS (pgs_frame_users_view_parent_class)->dispose (object);
}

static void
pgs_frame_users_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PgsFrameUsersView *self = PGS_FRAME_USERS_VIEW (object);

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
pgs_frame_users_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  PgsFrameUsersView *self = PGS_FRAME_USERS_VIEW (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      pgs_frame_users_view_set_snapshot (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_frame_users_view_class_init (PgsFrameUsersViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_frame_users_view_dispose;
  object_class->get_property = pgs_frame_users_view_get_property;
  object_class->set_property = pgs_frame_users_view_set_property;

  /* The snapshot the frames are of. */
  properties[PROP_SNAPSHOT] =
    g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A process of the table activated: its PID. */
  signals[PROCESS_ACTIVATED] = g_signal_new ("process-activated", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-frame-users-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsFrameUsersView, title);
  gtk_widget_class_bind_template_child (widget_class, PgsFrameUsersView, column_view);
  gtk_widget_class_bind_template_callback (widget_class, hex);
  pgs_cell_class_add_callbacks (widget_class);
  g_type_ensure (PGS_TYPE_FRAME_USER_ITEM);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "frameusersview");
}

static void
pgs_frame_users_view_init (PgsFrameUsersView *self)
{
  GtkLayoutManager *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 4);

  /* In the order found (PID, then address) until a column is sorted. */
  self->store = g_list_store_new (PGS_TYPE_FRAME_USER_ITEM);
  self->selection = gtk_no_selection_new (G_LIST_MODEL (gtk_sort_list_model_new (
    G_LIST_MODEL (g_object_ref (self->store)),
    g_object_ref (gtk_column_view_get_sorter (self->column_view)))));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (on_activate), self);
}
