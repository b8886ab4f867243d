/* pgs-access-page.c: the machine's memory access heat from a running DAMON monitor
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DAMON's sysfs says which state the page is in: no DAMON in the kernel, no kdamond
 * running (and whether Pagescope could start one), not privileged (offering win.unlock,
 * the window's action), or ready. Reading runs the library's collector (a tracefs instance
 * of Pagescope's own, which it removes) off the main thread for two aggregation intervals,
 * at least 5 s: as root itself, else through the session's helper while the app is
 * unlocked (the helper's ACCESS, the same bytes and parser); the page never writes to
 * DAMON's configuration. The heat is drawn by the library's access renderer, the same
 * pixels as `pagescope-render --view access`.
 */

#include "config.h"

#include <unistd.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "pgs-access-page-private.h"
#include "pgs-access-text.h"
#include "pgs-region-holdings.h"
#include "pgs-map-style.h"
#include "pgs-units.h"

struct _PgsAccessPage
{
  PgsPage             parent_instance;

  GtkStack           *stack;
  AdwStatusPage      *status_page;
  GtkButton          *read_button;
  GtkButton          *unlock_button;
  GtkButton          *start_button;
  GtkProgressBar     *progress_bar;
  PgsAccessMap       *map;
  PgsRegionHoldings  *holdings;
  GtkWidget          *again_button;
  GtkLabel           *legend_label;
  GtkDrawingArea     *ramp;
  GtkLabel           *units_label;
  GtkLabel           *messages_label;

  char               *sysfs_root;
  gboolean            privileged;
  const char         *state;
  double              read_seconds;   /* how long the read under way takes */
  gint64              read_started;   /* monotonic µs */
  guint               progress_id;
  GCancellable       *cancellable;
  PgsDamonCollection *collection;     /* shown */
  PgsDamonOwn        *own;            /* a kdamond of ours, removed with the page */
  gboolean            disposed;
  guint64             max_nr_accesses;
};

enum {
  PROP_0,
  PROP_SYSFS_ROOT,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsAccessPage, pgs_access_page, PGS_TYPE_PAGE)

typedef struct
{
  char         *sysfs_root;
  double        seconds;
  volatile int  stop;
  PgsHelper    *helper;    /* reads as root for us; NULL when we are root */
} ReadData;

static void
read_data_free (ReadData *data)
{
  g_free (data->sysfs_root);
  g_clear_object (&data->helper);
  g_free (data);
}

/* The session's helper when the app is unlocked and not root itself, else NULL. */
static PgsHelper *
usable_helper (PgsAccessPage *self)
{
  PgsSession *session = pgs_page_get_session (PGS_PAGE (self));
  PgsHelper *helper = session != NULL ? pgs_session_get_helper (session) : NULL;

  if (self->privileged || helper == NULL || !pgs_helper_is_running (helper))
    return NULL;
  return helper;
}

static void
set_state (PgsAccessPage *self,
           const char    *state)
{
  if (g_strcmp0 (self->state, state) == 0)
    return;
  self->state = state;
  gtk_stack_set_visible_child_name (self->stack,
                                    g_str_equal (state, "reading") || g_str_equal (state, "heat")
                                      ? state : "status");
  /* The button that had the focus (Read, Cancel) goes: the focus goes to Read Again, not to
   * the legend, a selectable label, whose text a focus would select whole. */
  if (g_str_equal (state, "heat"))
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
      GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

      if (focus == NULL || gtk_widget_is_ancestor (focus, GTK_WIDGET (self)))
        gtk_widget_grab_focus (self->again_button);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
show_status (PgsAccessPage *self,
             const char    *state,
             const char    *icon,
             const char    *title,
             const char    *description,
             const char    *button)
{
  adw_status_page_set_icon_name (self->status_page, icon);
  adw_status_page_set_title (self->status_page, title);
  adw_status_page_set_description (self->status_page, description);
  gtk_widget_set_visible (GTK_WIDGET (self->read_button), button != NULL);
  if (button != NULL)
    gtk_button_set_label (self->read_button, button);
  gtk_widget_set_visible (GTK_WIDGET (self->unlock_button), g_str_equal (state, "unprivileged"));
  gtk_widget_set_visible (GTK_WIDGET (self->start_button), FALSE);
  set_state (self, state);
}

/* DAMON's sysfs is root's (its files are 0600, as on most kernels): which monitor runs is
 * unknown, but the helper reads the events of whichever does. */
static void
show_unreadable (PgsAccessPage *self)
{
  if (usable_helper (self) == NULL)
    {
      show_status (self, "unprivileged", "dialog-password-symbolic",
                   _("Reading Access Heat Needs Root"),
                   _("DAMON’s configuration (/sys/kernel/mm/damon/admin) and its events are "
                     "root’s to read: its events come from a tracefs instance of Pagescope’s "
                     "own, which only root can make. Unlocking lets Pagescope’s helper do it "
                     "for you: it makes the instance, reads the events of whichever monitor "
                     "runs and removes it again (your password may be asked once more). Or "
                     "run `sudo pagescope-cli access`."), NULL);
      return;
    }
  self->read_seconds = 10;
  show_status (self, "ready", "io.github.pagescope.Pagescope-symbolic", _("Memory Access Heat"),
               _("DAMON’s configuration is root’s to read, so which monitor runs, and how "
                 "often it aggregates, is not known here. Reading its events takes 10 s, "
                 "through Pagescope’s helper, which may ask for your password; DAMON’s "
                 "configuration is not changed. Where no monitor runs, Pagescope may start "
                 "one of its own, removed when Pagescope closes."), _("_Read Access Heat"));
  gtk_widget_set_visible (GTK_WIDGET (self->start_button), TRUE);
}

void
_pgs_access_page_update_state (PgsAccessPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsDamonSysfs) sysfs = NULL;
  g_autoptr(GPtrArray) running = NULL;

  g_return_if_fail (PGS_IS_ACCESS_PAGE (self));
  if (self->cancellable != NULL)
    return;

  sysfs = pgs_damon_sysfs_read (self->sysfs_root, &error);
  if (sysfs == NULL && !self->privileged &&
      g_error_matches (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
    {
      show_unreadable (self);
      return;
    }
  if (sysfs == NULL)
    {
      show_status (self, "failed", "dialog-error-symbolic",
                   _("Cannot Read DAMON’s Configuration"), error->message, NULL);
      return;
    }
  if (!sysfs->present)
    {
      show_status (self, "no-damon", "computer-symbolic", _("No DAMON in This Kernel"),
                   _("This kernel has no DAMON sysfs interface (/sys/kernel/mm/damon/admin): "
                     "it was built without CONFIG_DAMON_SYSFS. The access heat needs a kernel "
                     "with DAMON."), NULL);
      return;
    }
  running = pgs_damon_sysfs_running (sysfs);
  if (running->len == 0)
    {
      g_autofree char *reason = NULL;
      g_autofree char *description = NULL;
      gboolean can_start = pgs_damon_own_can_start (self->sysfs_root, &reason);
      gboolean may = self->privileged || usable_helper (self) != NULL;

      description = g_strconcat (
        _("DAMON is in this kernel, but no kdamond runs, so there is no access monitor to "
          "read. Root can start one, for example with `damo start` or through "
          "/sys/kernel/mm/damon/admin; Pagescope then shows its heat."),
        "\n\n",
        !can_start ? _("Pagescope may not start a monitor of its own:")
        : may ? _("DAMON’s sysfs is free, so Pagescope may start a monitor of its own for "
                  "this session: one kdamond over physical memory, sampling every 5 ms and "
                  "aggregating every 100 ms, removed when Pagescope closes.")
              : _("DAMON’s sysfs is free, so Pagescope may start a monitor of its own; "
                  "unlock first, to let Pagescope’s helper start it."),
        can_start ? "" : " ", can_start ? "" : reason, NULL);
      show_status (self, "no-kdamond", "media-playback-stop-symbolic",
                   _("No Access Monitor Running"), description, NULL);
      gtk_widget_set_visible (GTK_WIDGET (self->start_button), can_start && may);
      gtk_widget_set_visible (GTK_WIDGET (self->unlock_button), can_start && !may);
      return;
    }
  {
    g_autofree char *monitor = pgs_access_text_describe_monitor (g_ptr_array_index (running, 0));
    g_autofree char *description = NULL;
    gboolean through_helper = usable_helper (self) != NULL;

    if (!self->privileged && !through_helper)
      {
        description = g_strdup_printf (
          _("%s. Its events are read from a tracefs instance of Pagescope’s own, which only "
            "root can make. Unlocking lets Pagescope’s helper do it for you: it makes the "
            "instance, reads the events and removes it again (your password may be asked "
            "once more). Or run `sudo pagescope-cli access`."), monitor);
        show_status (self, "unprivileged", "dialog-password-symbolic",
                     _("Reading Access Heat Needs Root"), description, NULL);
        return;
      }
    self->read_seconds = pgs_access_text_read_seconds (sysfs);
    {
      g_autofree char *secs = g_strdup_printf ("%.0f", self->read_seconds);

      if (through_helper)
        description = g_strdup_printf (
          _("%s. Reading its events takes %s s (two aggregations), through Pagescope’s "
            "helper, which may ask for your password; DAMON’s configuration is not "
            "changed."), monitor, secs);
      else
        description = g_strdup_printf (
          _("%s. Reading its events takes %s s (two aggregations); DAMON’s configuration is "
            "not changed."), monitor, secs);
    }
    show_status (self, "ready", "io.github.pagescope.Pagescope-symbolic", _("Memory Access Heat"),
                 description, _("_Read Access Heat"));
  }
}

static void
draw_ramp (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        user_data)
{
  PgsRenderStyle style = pgs_map_style_detect (GTK_WIDGET (area));

  for (int x = 0; x < width; x++)
    {
      guint32 c = pgs_palette_heat_for_style (style, (double) x / MAX (width - 1, 1));

      cairo_set_source_rgb (cr, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
                            (c & 0xff) / 255.0);
      cairo_rectangle (cr, x, 0, 1, height);
      cairo_fill (cr);
    }
}

void
_pgs_access_page_show_collection (PgsAccessPage      *self,
                                  PgsDamonCollection *collection)
{
  const PgsDamonContext *c;
  GPtrArray *aggs;
  g_autofree char *legend = NULL;
  g_autofree char *units = NULL;
  g_autofree char *max_s = NULL;
  g_autoptr(GString) messages = g_string_new (NULL);
  GPtrArray *access_messages;
  PgsDamonAccessCounts counts;
  double aggr_seconds = 0;

  g_return_if_fail (PGS_IS_ACCESS_PAGE (self));
  g_return_if_fail (collection != NULL);

  g_clear_pointer (&self->collection, pgs_damon_collection_free);
  self->collection = collection;
  aggs = pgs_damon_access_get_aggregations (collection->access);
  c = pgs_access_text_shown_context (self->collection);
  self->max_nr_accesses = 0;
  if (c != NULL && c->intervals_known && c->sample_us > 0)
    {
      self->max_nr_accesses = c->aggr_us / c->sample_us;
      aggr_seconds = c->aggr_us / 1e6;
    }
  pgs_access_map_set_aggregations (self->map, aggs, self->max_nr_accesses, aggr_seconds);

  legend = pgs_access_text_legend (self->collection, pgs_page_get_session (PGS_PAGE (self)));
  gtk_label_set_text (self->legend_label, legend);
  if (self->max_nr_accesses > 0)
    {
      g_autofree char *per_s = g_strdup_printf ("%.2f", self->max_nr_accesses / aggr_seconds);

      max_s = pgs_units_format_count (self->max_nr_accesses);
      units = g_strdup_printf (_("Left to right: accessed in 0 to %s samples of an aggregation "
                                 "(0 to %s per second)"), max_s, per_s);
    }
  else
    units = g_strdup (_("Left to right: accessed in 0 samples to the most any region had "
                        "(the monitor’s intervals are unknown)"));
  gtk_label_set_text (self->units_label, units);

  pgs_damon_access_get_counts (collection->access, &counts);
  access_messages = pgs_damon_access_get_messages (collection->access);
  for (guint i = 0; i < collection->messages->len; i++)
    g_string_append_printf (messages, "%s%s", messages->len ? "\n" : "",
                            (char *) g_ptr_array_index (collection->messages, i));
  for (guint i = 0; i < access_messages->len; i++)
    g_string_append_printf (messages, "%s%s", messages->len ? "\n" : "",
                            (char *) g_ptr_array_index (access_messages, i));
  if (counts.lost > 0)
    {
      g_autofree char *lost = pgs_units_format_count (counts.lost);

      g_string_append (messages, messages->len ? "\n" : "");
      g_string_append_printf (messages, _("The trace buffer lost %s events"), lost);
    }
  if (collection->interrupted)
    {
      g_string_append (messages, messages->len ? "\n" : "");
      g_string_append (messages, _("The read was cancelled: this is what came until then"));
    }
  gtk_label_set_text (self->messages_label, messages->str);
  gtk_widget_set_visible (GTK_WIDGET (self->messages_label), messages->len > 0);
  pgs_region_holdings_clear (self->holdings);
  set_state (self, "heat");
}

static void
stop_progress (PgsAccessPage *self)
{
  if (self->progress_id != 0)
    {
      g_source_remove (self->progress_id);
      self->progress_id = 0;
    }
}

static gboolean
on_progress_tick (gpointer user_data)
{
  PgsAccessPage *self = user_data;
  double elapsed = (g_get_monotonic_time () - self->read_started) / (double) G_USEC_PER_SEC;

  gtk_progress_bar_set_fraction (self->progress_bar,
                                 CLAMP (elapsed / MAX (self->read_seconds, 1), 0, 1));
  return G_SOURCE_CONTINUE;
}

static void
on_cancelled (GCancellable *cancellable,
              ReadData     *data)
{
  data->stop = 1;
}

static void
read_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ReadData *data = task_data;
  GError *error = NULL;
  PgsDamonCollection *collection;

  if (data->helper != NULL)
    collection = pgs_damon_collect_through_helper (data->helper, data->sysfs_root, NULL,
                                                   data->seconds, cancellable, &error);
  else
    {
      gulong id = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), data, NULL);

      collection = pgs_damon_collect (data->sysfs_root, NULL, data->seconds, &data->stop,
                                      &error);
      g_cancellable_disconnect (cancellable, id);
    }
  if (collection == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, collection, (GDestroyNotify) pgs_damon_collection_free);
}

static void
on_read_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  PgsAccessPage *self = PGS_ACCESS_PAGE (source);
  g_autoptr(GError) error = NULL;
  PgsDamonCollection *collection = g_task_propagate_pointer (G_TASK (result), &error);

  stop_progress (self);
  g_clear_object (&self->cancellable);
  if (collection == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Cancelled through the helper (or its password dialog dismissed): nothing came. */
      self->state = NULL;
      _pgs_access_page_update_state (self);
      return;
    }
  if (collection == NULL)
    {
      show_status (self, "failed", "dialog-error-symbolic", _("Could Not Read the Access Heat"),
                   error->message, _("_Try Again"));
      return;
    }
  if (collection->interrupted &&
      pgs_damon_access_get_aggregations (collection->access)->len == 0)
    {
      pgs_damon_collection_free (collection);
      self->state = NULL;
      _pgs_access_page_update_state (self);
      return;
    }
  _pgs_access_page_show_collection (self, collection);
}

static void
on_read_clicked (PgsAccessPage *self)
{
  g_autoptr(GTask) task = NULL;
  ReadData *data;

  if (self->cancellable != NULL)
    return;
  /* The state may have changed since the page was shown (a kdamond stopped). */
  _pgs_access_page_update_state (self);
  if (g_strcmp0 (self->state, "ready") != 0 && g_strcmp0 (self->state, "heat") != 0 &&
      g_strcmp0 (self->state, "failed") != 0)
    return;

  data = g_new0 (ReadData, 1);
  data->sysfs_root = g_strdup (self->sysfs_root);
  data->seconds = self->read_seconds;
  if (usable_helper (self) != NULL)
    data->helper = g_object_ref (usable_helper (self));
  self->cancellable = g_cancellable_new ();
  self->read_started = g_get_monotonic_time ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  self->progress_id = g_timeout_add (100, on_progress_tick, self);
  set_state (self, "reading");

  task = g_task_new (self, self->cancellable, on_read_done, NULL);
  g_task_set_source_tag (task, on_read_clicked);
  g_task_set_task_data (task, data, (GDestroyNotify) read_data_free);
  g_task_run_in_thread (task, read_thread);
}

static void
on_start_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PgsAccessPage) self = user_data;
  g_autoptr(GError) error = NULL;
  PgsDamonOwn *own = pgs_damon_own_start_finish (result, &error);
  gboolean cancelled = g_cancellable_is_cancelled (self->cancellable);

  g_clear_object (&self->cancellable);
  /* Cancelled, or the page left its window meanwhile: nobody will read it. */
  if (cancelled || self->disposed || gtk_widget_get_root (GTK_WIDGET (self)) == NULL)
    {
      g_clear_pointer (&own, pgs_damon_own_free);
      if (!self->disposed)
        {
          self->state = NULL;
          _pgs_access_page_update_state (self);
        }
      return;
    }
  if (own == NULL)
    {
      show_status (self, "failed", "dialog-error-symbolic",
                   _("Could Not Start a Memory Access Monitor"), error->message, _("_Try Again"));
      return;
    }
  self->own = own;
  self->state = NULL;
  on_read_clicked (self);
}

/* Starts a kdamond of Pagescope's own (as root, else through the helper, which may ask for
 * a password), then reads it as any other. */
static void
on_start_clicked (PgsAccessPage *self)
{
  if (self->cancellable != NULL || self->own != NULL)
    return;
  self->cancellable = g_cancellable_new ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  set_state (self, "reading");
  pgs_damon_own_start_async (self->sysfs_root, NULL, usable_helper (self), self->cancellable,
                             on_start_done, g_object_ref (self));
}

/* A region clicked: what its frames hold, from the shown snapshot's pages or a scan. */
static void
on_region_activated (PgsAccessPage *self,
                     guint64        start,
                     guint64        end,
                     PgsAccessMap  *map)
{
  PgsSession *session = pgs_page_get_session (PGS_PAGE (self));

  pgs_region_holdings_show (self->holdings, session != NULL ? pgs_session_get_snapshot (session) : NULL,
                            start, end);
}

PgsRegionHoldings *
_pgs_access_page_get_holdings (PgsAccessPage *self)
{
  return self->holdings;
}

static void
on_cancel_clicked (PgsAccessPage *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
on_map (PgsAccessPage *self)
{
  /* Heat already shown stays until the user reads again. */
  if (self->cancellable == NULL && g_strcmp0 (self->state, "heat") != 0)
    _pgs_access_page_update_state (self);
}

static void
on_helper_changed (PgsAccessPage *self)
{
  /* Unlocked or locked again: ready through the helper, or the unprivileged state. */
  if (self->cancellable == NULL && g_strcmp0 (self->state, "heat") != 0 &&
      gtk_widget_get_mapped (GTK_WIDGET (self)))
    _pgs_access_page_update_state (self);
}

static void
on_units_changed (PgsAccessPage *self)
{
  if (self->collection != NULL)
    {
      g_autofree char *legend = pgs_access_text_legend (self->collection, pgs_page_get_session (PGS_PAGE (self)));

      gtk_label_set_text (self->legend_label, legend);
    }
}

const char *
pgs_access_page_get_state (PgsAccessPage *self)
{
  g_return_val_if_fail (PGS_IS_ACCESS_PAGE (self), NULL);
  return self->state;
}

void
_pgs_access_page_set_privileged (PgsAccessPage *self,
                                 gboolean       privileged)
{
  g_return_if_fail (PGS_IS_ACCESS_PAGE (self));
  self->privileged = !!privileged;
}

const char *
_pgs_access_page_get_title (PgsAccessPage *self)
{
  return adw_status_page_get_title (self->status_page);
}

const char *
_pgs_access_page_get_description (PgsAccessPage *self)
{
  return adw_status_page_get_description (self->status_page);
}

char *
_pgs_access_page_get_legend (PgsAccessPage *self)
{
  return g_strconcat (gtk_label_get_text (self->legend_label), "\n",
                      gtk_label_get_text (self->units_label), NULL);
}

PgsAccessMap *
_pgs_access_page_get_map (PgsAccessPage *self)
{
  return self->map;
}

GtkWidget *
_pgs_access_page_get_read_button (PgsAccessPage *self)
{
  return GTK_WIDGET (self->read_button);
}

GtkWidget *
_pgs_access_page_get_unlock_button (PgsAccessPage *self)
{
  return GTK_WIDGET (self->unlock_button);
}

GtkWidget *
_pgs_access_page_get_start_button (PgsAccessPage *self)
{
  return GTK_WIDGET (self->start_button);
}

gboolean
_pgs_access_page_has_own_monitor (PgsAccessPage *self)
{
  return self->own != NULL;
}

static void
pgs_access_page_unroot (GtkWidget *widget)
{
  PgsAccessPage *self = PGS_ACCESS_PAGE (widget);

  /* The window closes: ours goes now, not when a read under way lets the page go. */
  if (self->own != NULL && self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->own, pgs_damon_own_free);
  GTK_WIDGET_CLASS (pgs_access_page_parent_class)->unroot (widget);
}

static void
pgs_access_page_dispose (GObject *object)
{
  PgsAccessPage *self = PGS_ACCESS_PAGE (object);

  /* A read under way holds the page (its task's source object) until it ends. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  stop_progress (self);
  /* Ours goes with the page (the window closing); a killed app's goes with its watchdog. */
  g_clear_pointer (&self->own, pgs_damon_own_free);
  self->disposed = TRUE;
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_ACCESS_PAGE);
  G_OBJECT_CLASS (pgs_access_page_parent_class)->dispose (object);
}

static void
pgs_access_page_finalize (GObject *object)
{
  PgsAccessPage *self = PGS_ACCESS_PAGE (object);

  g_clear_pointer (&self->collection, pgs_damon_collection_free);
  g_clear_object (&self->cancellable);
  g_free (self->sysfs_root);
  G_OBJECT_CLASS (pgs_access_page_parent_class)->finalize (object);
}

static void
pgs_access_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PgsAccessPage *self = PGS_ACCESS_PAGE (object);

  switch (prop_id)
    {
    case PROP_SYSFS_ROOT:
      g_value_set_string (value, self->sysfs_root);
      break;
    case PROP_STATE:
      g_value_set_string (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_access_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PgsAccessPage *self = PGS_ACCESS_PAGE (object);

  switch (prop_id)
    {
    case PROP_SYSFS_ROOT:
      if (g_strcmp0 (self->sysfs_root, g_value_get_string (value)) != 0)
        {
          g_free (self->sysfs_root);
          self->sysfs_root = g_value_dup_string (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_access_page_class_init (PgsAccessPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_access_page_dispose;
  object_class->finalize = pgs_access_page_finalize;
  object_class->get_property = pgs_access_page_get_property;
  object_class->set_property = pgs_access_page_set_property;
  widget_class->unroot = pgs_access_page_unroot;

  /* Where DAMON's sysfs is read: NULL for /sys, a fixture tree in tests. */
  properties[PROP_SYSFS_ROOT] =
    g_param_spec_string ("sysfs-root", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_string ("state", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PGS_TYPE_ACCESS_MAP);
  g_type_ensure (PGS_TYPE_REGION_HOLDINGS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                               "pgs-access-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, stack);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, status_page);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, read_button);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, unlock_button);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, start_button);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, map);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, holdings);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, again_button);
  gtk_widget_class_bind_template_callback (widget_class, on_region_activated);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, legend_label);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, ramp);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, units_label);
  gtk_widget_class_bind_template_child (widget_class, PgsAccessPage, messages_label);
  gtk_widget_class_bind_template_callback (widget_class, on_read_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_start_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
pgs_access_page_init (PgsAccessPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->privileged = geteuid () == 0;
  gtk_drawing_area_set_draw_func (self->ramp, draw_ramp, NULL, NULL);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
  g_signal_connect (self, "session-notify::units", G_CALLBACK (on_units_changed), NULL);
  g_signal_connect (self, "session-notify::helper", G_CALLBACK (on_helper_changed), NULL);
}
