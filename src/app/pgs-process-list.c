/* pgs-process-list.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model chain is GtkColumnView ← GtkSingleSelection ← GtkSortListModel (its sorter is
 * the column view's, through a GtkTreeListRowSorter, so clicking a header sorts, within
 * siblings in the tree) ← GtkTreeListModel (no children in the flat list; in the tree, a
 * process's children by PPID) ← GtkFilterListModel (the roots: in the tree, the shown
 * processes whose parent is not shown) ← GtkFilterListModel (the search and "my
 * processes") ← a store of PgsRow fed from the snapshot, one row per PID. A refresh updates
 * the rows in place (see pgs-row.c for why and what it saves) and re-sorts; the selection
 * and the scroll position stay with their rows, and expanded processes stay expanded.
 * Columns are declared in the template (their closures in pgs-process-columns.c), the context
 * menu in pgs-process-menu.c, the totals under the rows in pgs-process-list-totals.c.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "pgs-process-columns.h"
#include "pgs-process-list-private.h"
#include "pgs-process-menu.h"
#include "pgs-process-tree.h"
#include "pgs-release.h"
#include "pgs-row.h"
#include "pgs-tooltip.h"


enum {
  PROP_0,
  PROP_SNAPSHOT,
  PROP_SELECTED_PROCESS,
  PROP_BOOT_TIME,
  PROP_GROWTH,
  N_PROPS
};

enum {
  ACTIVATE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsProcessList, pgs_process_list, PGS_TYPE_PAGE)

static gboolean
filter_process (gpointer item,
                gpointer user_data)
{
  PgsProcessList *self = user_data;
  PgsProcess *process = pgs_row_get_item (item);
  g_autofree char *name = NULL;
  g_autofree char *pid = NULL;
  const char *user;

  /* Live data only: a file shows every process it holds (a root snapshot opened as a
   * user has none of the user's). */
  if (self->mine && self->snapshot != NULL && pgs_snapshot_get_file (self->snapshot) == NULL &&
      pgs_process_get_uid (process) != getuid ())
    return FALSE;
  if (self->search == NULL || *self->search == '\0')
    return TRUE;

  pid = g_strdup_printf ("%d", pgs_process_get_pid (process));
  if (g_str_has_prefix (pid, self->search))
    return TRUE;

  name = g_utf8_casefold (pgs_process_get_display_name (process), -1);
  if (strstr (name, self->search) != NULL)
    return TRUE;

  user = pgs_process_get_user (process) != NULL ? pgs_process_get_display_user (process) : NULL;
  if (user != NULL)
    {
      g_autofree char *folded = g_utf8_casefold (user, -1);

      if (strstr (folded, self->search) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
on_items_changed (PgsProcessList *self)
{
  _pgs_process_list_update_count (self);
  /* A refresh sets the totals once it has swapped every row (see set_snapshot). */
  if (!self->swapping)
    _pgs_process_list_update_totals (self);
}

static void
on_selected_item_changed (PgsProcessList *self)
{
  /* During a refresh the selection passes through "nothing" on its way to the same PID in
   * the new snapshot; listeners hear only the end result. */
  if (self->swapping)
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_PROCESS]);
}

static void
refilter (PgsProcessList *self)
{
  PgsProcess *selected = pgs_process_list_get_selected_process (self);
  int pid = selected != NULL ? pgs_process_get_pid (selected) : 0;

  pgs_process_tree_remember (self->tree);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  pgs_process_tree_update (self->tree);
  /* In the tree, a process whose parent the filter hid or showed again is a new row. */
  if (pid > 0 && pgs_process_list_get_selected_process (self) == NULL)
    pgs_process_list_select_pid (self, pid);
}

static void
on_search_changed (PgsProcessList *self,
                   GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  g_free (self->search);
  self->search = g_utf8_casefold (stripped, -1);
  refilter (self);
}

static void
apply_tree (PgsProcessList *self,
            gboolean        tree)
{
  PgsProcess *selected = pgs_process_list_get_selected_process (self);
  int pid = selected != NULL ? pgs_process_get_pid (selected) : 0;
  GListModel *model;

  if (pgs_process_tree_get_enabled (self->tree) == tree)
    return;
  model = pgs_process_tree_set_enabled (self->tree, tree);
  /* The tree sorts within siblings through a GtkTreeListRowSorter over the column view's;
   * the flat list sorts by the column view's own, exactly as without a tree. Emptied
   * first: neither sorter can compare the other's items. */
  self->swapping = TRUE;
  gtk_sort_list_model_set_model (self->sort_model, NULL);
  gtk_sort_list_model_set_sorter (self->sort_model, tree ? self->row_sorter : self->view_sorter);
  gtk_sort_list_model_set_model (self->sort_model, model);
  /* Every row is new: the selected process stays selected, in view. */
  if (pid > 0 && pgs_process_list_select_pid (self, pid))
    pgs_process_list_scroll_to_selected (self);
  self->swapping = FALSE;
  if (selected != pgs_process_list_get_selected_process (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_PROCESS]);
}

/* Where the rows' start times count from: this boot for a live scan and for a file saved
 * in this boot, unknown for a file from another boot. */
static void
update_boot_time (PgsProcessList *self)
{
  static gint64 boot_time = -1;
  static char *boot_id = NULL;
  const char *snapshot_boot_id;
  gint64 before = self->boot_time;

  if (boot_time < 0)
    {
      g_file_get_contents ("/proc/sys/kernel/random/boot_id", &boot_id, NULL, NULL);
      if (boot_id != NULL)
        g_strstrip (boot_id);
      boot_time = pgs_read_boot_time ("/proc", NULL);
    }
  if (self->snapshot == NULL)
    return;
  snapshot_boot_id = pgs_snapshot_get_boot_id (self->snapshot);
  if (pgs_snapshot_get_file (self->snapshot) == NULL ||
      (snapshot_boot_id != NULL && g_strcmp0 (snapshot_boot_id, boot_id) == 0))
    self->boot_time = boot_time;
  else
    self->boot_time = 0;
  if (self->boot_time != before)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOOT_TIME]);
}

/* The "proc" actions changed "my processes" or the tree (pgs-process-list-actions.c). */
static void
on_action_state_changed (PgsProcessList *self,
                         const char     *name,
                         GVariant       *state)
{
  if (g_str_equal (name, "show-processes"))
    refilter (self);
  else if (g_str_equal (name, "tree"))
    apply_tree (self, g_variant_get_boolean (state));
}

static void
show_pages_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PgsProcess *process = pgs_process_list_get_selected_process (PGS_PROCESS_LIST (widget));

  if (process != NULL)
    g_signal_emit (widget, signals[ACTIVATE], 0, process);
}

static void
on_activate (PgsProcessList *self,
             guint           position)
{
  g_autoptr(PgsProcess) process = g_list_model_get_item (self->processes, position);

  if (process != NULL)
    g_signal_emit (self, signals[ACTIVATE], 0, process);
}

static void
pgs_process_list_dispose (GObject *object)
{
  PgsProcessList *self = (PgsProcessList *) object;
  GtkWidget *child;

  /* Empty the chain while the labels its signals update still exist. */
  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_PROCESS_LIST);
  /* The separators and the totals box have no id for the template to let go of. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->processes);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->row_sorter);
  g_clear_pointer (&self->tree, pgs_process_tree_free);
  g_clear_object (&self->settings);
  g_clear_object (&self->actions);
  pgs_clear_release (&self->snapshot);
  g_clear_object (&self->replay_signals);
  g_clear_object (&self->growth);

  G_OBJECT_CLASS (pgs_process_list_parent_class)->dispose (object);
}

static void
pgs_process_list_finalize (GObject *object)
{
  PgsProcessList *self = (PgsProcessList *) object;

  g_free (self->search);
  g_free (self->wss_reason);

  G_OBJECT_CLASS (pgs_process_list_parent_class)->finalize (object);
}

static void
pgs_process_list_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PgsProcessList *self = PGS_PROCESS_LIST (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      g_value_set_object (value, self->snapshot);
      break;
    case PROP_SELECTED_PROCESS:
      g_value_set_object (value, pgs_process_list_get_selected_process (self));
      break;
    case PROP_BOOT_TIME:
      g_value_set_int64 (value, self->boot_time);
      break;
    case PROP_GROWTH:
      g_value_set_object (value, self->growth);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_process_list_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  PgsProcessList *self = PGS_PROCESS_LIST (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      pgs_process_list_set_snapshot (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_process_list_class_init (PgsProcessListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_process_list_dispose;
  object_class->finalize = pgs_process_list_finalize;
  object_class->get_property = pgs_process_list_get_property;
  object_class->set_property = pgs_process_list_set_property;

  properties[PROP_SNAPSHOT] =
    g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_PROCESS] =
    g_param_spec_object ("selected-process", NULL, NULL, PGS_TYPE_PROCESS,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Where the "Started" cells count from (seconds since the epoch); 0 unknown. */
  properties[PROP_BOOT_TIME] =
    g_param_spec_int64 ("boot-time", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The Growth cells' figures: the session's recording's, over its range (pgs-growth.h). */
  properties[PROP_GROWTH] =
    g_param_spec_object ("growth", NULL, NULL, PGS_TYPE_GROWTH,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A row was activated (double click or Enter): the window shows its residency map. */
  signals[ACTIVATE] = g_signal_new ("activate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, PGS_TYPE_PROCESS);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-process-list.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, view_button);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, scroller);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, column_view);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, pss_column);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, growth_sorter);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, count_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, instant_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessList, totals_label);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  pgs_process_columns_class_add_callbacks (widget_class);

  gtk_widget_class_install_action (widget_class, "list.show-pages", NULL, show_pages_action);
  _pgs_process_list_class_init_actions (widget_class);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "processlist");
}

static void
on_units_changed (PgsProcessList *self,
                  GParamSpec     *pspec,
                  PgsSession     *session)
{
  pgs_process_list_set_units (self, pgs_session_get_units (session));
}

/* With a recording shown: which sample the totals are of, and when. */
static void
on_instant_changed (PgsProcessList *self,
                    GParamSpec     *pspec,
                    PgsSession     *session)
{
  /* Live at the history's newest sample (the maps draw the list's snapshot): nothing to say. */
  PgsReplay *replay = pgs_session_get_picture (session) != pgs_session_get_snapshot (session)
                      ? pgs_session_get_replay (session) : NULL;
  g_autofree char *text = replay != NULL ? pgs_replay_describe (replay, FALSE) : NULL;

  gtk_label_set_text (self->instant_label, text != NULL ? text : "");
  pgs_set_tooltip_text (GTK_WIDGET (self->instant_label), text);
  gtk_widget_set_visible (GTK_WIDGET (self->instant_label), text != NULL);
}

/* New Growth figures: the cells follow the "growth" property; the sorter, which watches
 * nothing, is told. */
static void
on_growth_changed (PgsProcessList *self)
{
  g_autoptr(PgsReplay) replay = g_signal_group_dup_target (self->replay_signals);
  PgsGrowth *growth = replay != NULL ? pgs_replay_get_growth (replay) : NULL;

  if (!g_set_object (&self->growth, growth))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROWTH]);
  gtk_sorter_changed (self->growth_sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

static void
on_replay_changed (PgsProcessList *self,
                   GParamSpec     *pspec,
                   PgsSession     *session)
{
  g_signal_group_set_target (self->replay_signals, pgs_session_get_replay (session));
  on_growth_changed (self);
}

const char *
pgs_process_list_get_instant_text (PgsProcessList *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->instant_label)) ?
         gtk_label_get_text (self->instant_label) : NULL;
}

static void
pgs_process_list_init (PgsProcessList *self)
{
  GtkSorter *sorter;
  GtkLayoutManager *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* The session's snapshot and units (pgs-page.h). */
  pgs_page_bind (PGS_PAGE (self), "snapshot", self, "snapshot", G_BINDING_SYNC_CREATE);
  g_signal_connect (self, "session-notify::units", G_CALLBACK (on_units_changed), NULL);
  g_signal_connect (self, "session-notify::instant", G_CALLBACK (on_instant_changed), NULL);
  g_signal_connect (self, "session-notify::replay", G_CALLBACK (on_instant_changed), NULL);
  self->replay_signals = g_signal_group_new (PGS_TYPE_REPLAY);
  g_signal_group_connect_swapped (self->replay_signals, "notify::growth",
                                  G_CALLBACK (on_growth_changed), self);
  g_signal_connect (self, "session-notify::replay", G_CALLBACK (on_replay_changed), NULL);
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->store = g_list_store_new (PGS_TYPE_ROW);
  self->filter = gtk_custom_filter_new (filter_process, self, NULL);
  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                                  GTK_FILTER (self->filter));
  self->tree = pgs_process_tree_new (G_LIST_MODEL (self->filter_model));
  sorter = gtk_column_view_get_sorter (self->column_view);
  self->view_sorter = sorter;
  {
    /* Siblings that compare equal would leave GtkTreeListRowSorter (GTK 4.8) an order that
     * is not total ("Comparison method violates its general contract"): PID breaks ties. */
    GtkMultiSorter *total = gtk_multi_sorter_new ();
    GtkExpression *process = gtk_property_expression_new (PGS_TYPE_ROW, NULL, "item");

    gtk_multi_sorter_append (total, g_object_ref (sorter));
    gtk_multi_sorter_append (total, GTK_SORTER (gtk_numeric_sorter_new (
                               gtk_property_expression_new (PGS_TYPE_PROCESS, process, "pid"))));
    self->row_sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (GTK_SORTER (total)));
  }
  self->sort_model = gtk_sort_list_model_new (g_object_ref (pgs_process_tree_get_model (self->tree)),
                                              g_object_ref (sorter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sort_model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  self->processes = pgs_row_items_new (G_LIST_MODEL (self->sort_model));

  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (on_selected_item_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (on_items_changed), self, G_CONNECT_SWAPPED);

  /* Largest PSS first: the question the list answers is "who uses the memory". */
  gtk_column_view_sort_by_column (self->column_view, self->pss_column, GTK_SORT_DESCENDING);

  _pgs_process_list_init_actions (self);
  {
    g_autoptr(GVariant) tree = g_action_group_get_action_state (G_ACTION_GROUP (self->actions), "tree");

    apply_tree (self, g_variant_get_boolean (tree));
  }
  g_signal_connect_object (self->actions, "action-state-changed",
                           G_CALLBACK (on_action_state_changed), self, G_CONNECT_SWAPPED);
  update_boot_time (self);
}

GtkWidget *
pgs_process_list_new (void)
{
  return g_object_new (PGS_TYPE_PROCESS_LIST, NULL);
}

PgsSnapshot *
pgs_process_list_get_snapshot (PgsProcessList *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), NULL);
  return self->snapshot;
}

static guint
find_pid (PgsProcessList *self,
          int             pid)
{
  guint n = g_list_model_get_n_items (self->processes);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (self->processes, i);

      if (pgs_process_get_pid (process) == pid)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

void
pgs_process_list_set_snapshot (PgsProcessList *self,
                               PgsSnapshot    *snapshot)
{
  PgsProcess *before;
  gboolean was_file, is_file, at_top;
  GtkAdjustment *vadjustment;

  g_return_if_fail (PGS_IS_PROCESS_LIST (self));
  g_return_if_fail (!snapshot || PGS_IS_SNAPSHOT (snapshot));

  if (self->snapshot == snapshot)
    return;

  before = pgs_process_list_get_selected_process (self);
  if (before != NULL)
    g_object_ref (before);
  vadjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  at_top = gtk_adjustment_get_value (vadjustment) == 0;

  was_file = self->snapshot != NULL && pgs_snapshot_get_file (self->snapshot) != NULL;
  is_file = snapshot != NULL && pgs_snapshot_get_file (snapshot) != NULL;
  self->swapping = TRUE;
  pgs_set_object_release (&self->snapshot, snapshot);
  update_boot_time (self);
  pgs_process_tree_remember (self->tree);
  /* "My processes" applies to live data only. */
  if (was_file != is_file)
    {
      gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
      _pgs_process_list_update_view_menu (self, is_file);
    }
  pgs_row_store_merge (self->store, G_LIST_MODEL (snapshot), pgs_process_columns_key,
                       pgs_process_columns_equal);
  pgs_process_tree_update (self->tree);
  /* The numbers changed under the sorter: sort again where the order broke. Rows keep
   * their widgets and the selection stays with its row. */
  pgs_row_resort_if_needed (G_LIST_MODEL (self->sort_model),
                            gtk_sort_list_model_get_sorter (self->sort_model));
  /* A row the tree took away and put back (its parent came or went) is a new row: the
   * selection follows the PID. */
  if (before != NULL && pgs_process_list_get_selected_process (self) == NULL)
    pgs_process_list_select_pid (self, pgs_process_get_pid (before));
  /* The list view keeps its first row in place when a bigger process comes above it: a
   * list at its top stays there, the biggest process in sight. */
  if (at_top && g_list_model_get_n_items (G_LIST_MODEL (self->sort_model)) > 0)
    for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
         child != NULL; child = gtk_widget_get_next_sibling (child))
      if (GTK_IS_LIST_VIEW (child))
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", 0);
  self->swapping = FALSE;

  _pgs_process_list_update_count (self);
  _pgs_process_list_update_totals (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
  if (before != pgs_process_list_get_selected_process (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_PROCESS]);
  pgs_clear_release (&before);
}

/* Returns: (transfer none) (nullable) */
PgsProcess *
pgs_process_list_get_selected_process (PgsProcessList *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), NULL);
  return _pgs_process_list_selected (self);
}

gboolean
pgs_process_list_select_pid (PgsProcessList *self,
                             int             pid)
{
  guint position;

  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), FALSE);

  position = find_pid (self, pid);
  if (position == GTK_INVALID_LIST_POSITION)
    {
      /* In the tree, it may be under a collapsed parent. */
      pgs_process_tree_expand_to (self->tree, pid);
      position = find_pid (self, pid);
    }
  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  gtk_single_selection_set_selected (self->selection, position);
  return TRUE;
}

/* GTK 4.8's column view has no scroll_to(): its list view's action does it. */
void
pgs_process_list_scroll_to_selected (PgsProcessList *self)
{
  guint position;

  g_return_if_fail (PGS_IS_PROCESS_LIST (self));

  position = gtk_single_selection_get_selected (self->selection);
  if (position == GTK_INVALID_LIST_POSITION)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

void
pgs_process_list_set_units (PgsProcessList *self,
                            PgsUnits        units)
{
  g_return_if_fail (PGS_IS_PROCESS_LIST (self));

  if (self->units == units)
    return;
  self->units = units;

  _pgs_process_list_update_totals (self);
}

void
pgs_process_list_focus_search (PgsProcessList *self)
{
  g_return_if_fail (PGS_IS_PROCESS_LIST (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
pgs_process_list_set_search_text (PgsProcessList *self,
                                  const char     *text)
{
  g_return_if_fail (PGS_IS_PROCESS_LIST (self));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  /* search-changed is delayed by the entry; apply the filter now for callers that read
   * the model right away. */
  on_search_changed (self, self->search_entry);
}

GListModel *
pgs_process_list_get_model (PgsProcessList *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), NULL);
  return self->processes;
}

GtkWidget *
pgs_process_list_get_column_view (PgsProcessList *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), NULL);
  return GTK_WIDGET (self->column_view);
}
