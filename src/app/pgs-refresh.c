/* pgs-refresh.c: what a refresh scans, by what is visible
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A refresh pays for what is on screen. The process list needs every process's totals, and
 * the kernel keeps them exactly in smaps_rollup (PGS_SCAN_KERNEL_TOTALS, what `pagescope-cli
 * memrank` reads): no maps, no page walk, no frame counts. Only the selected process has
 * its mappings and pages read, by a second scan of that PID alone, for the detail pane and
 * the map pages. The physical map (every frame's count and flags) is read only while
 * Sharing or Page Flags is shown; Libraries needs every process's mappings and Groups every
 * process's pages (a group's private figure), each only while it is shown. Switching to a
 * page that needs more than the last scan read scans again at once.
 *
 * Who maps a frame needs every process's pages too: that scan runs when asked, in
 * pgs-frame-users.c, not every refresh.
 *
 * A new live snapshot is held back (pgs_refresh_hold()) until the selected process's pages
 * in it are read too, for at most HOLD_MS: the list, the detail pane and the maps then
 * change in one frame, and a map is not rendered once with the old process and again with
 * the new. Under GL on a machine without a GPU each frame of the window is tens of
 * milliseconds of CPU, and a physical map's render a tenth of a second.
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-refresh.h"
#include "pgs-release.h"

#define HOLD_MS 250

/* HOLD_MS, or PGS_REFRESH_HOLD_MS where a test asks for longer: on a loaded machine the
 * detail's scan can take longer than the hold, and the test would see two renders. */
static guint
hold_ms (void)
{
  const char *env = g_getenv ("PGS_REFRESH_HOLD_MS");
  guint64 ms;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 60000, &ms, NULL))
    return ms;
  return HOLD_MS;
}

struct _PgsRefresh
{
  GObject       parent_instance;

  PgsScanFlags  started_flags;       /* of the scan of every process under way */
  PgsScanFlags  list_flags;          /* of the live snapshot shown */
  guint         generation;          /* counts the snapshots shown */
  gboolean      shows_file;          /* the snapshot shown is a file's */

  GCancellable *detail_cancellable;  /* the selected process's scan, while it runs */
  int           detail_pid;          /* whom it scans or scanned */
  guint         detail_generation;   /* the list snapshot it followed */
  PgsSnapshot  *detail;              /* its result: that process with mappings and pages */
  PgsProcess   *given;               /* "process": for the detail pane and the map pages */
  char         *unreadable;          /* "unreadable" */

  /* the last selection asked for, to carry on once the detail scan is done */
  PgsProcess   *chosen;
  char         *view;
  PgsHelper    *helper;

  /* a live snapshot not shown yet, while the detail scan it waits for runs */
  PgsSnapshot  *held;
  GCancellable *held_scan;
  guint         held_timeout;
  gint64        held_since;
};

enum {
  PROP_0,
  PROP_PROCESS,
  PROP_UNREADABLE,
  PROP_BUSY,
  N_PROPS
};

enum {
  READY,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsRefresh, pgs_refresh, G_TYPE_OBJECT)

PgsRefresh *
pgs_refresh_new (void)
{
  return g_object_new (PGS_TYPE_REFRESH, NULL);
}

void
pgs_refresh_cancel (PgsRefresh *self)
{
  gboolean was_busy = pgs_refresh_is_busy (self);

  if (self->detail_cancellable != NULL)
    g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  if (was_busy)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
drop_held (PgsRefresh *self)
{
  g_clear_handle_id (&self->held_timeout, g_source_remove);
  g_clear_object (&self->held_scan);
  pgs_clear_release (&self->held);
}

/* The held snapshot may be shown: its process's pages are in, or will not come in time. */
static void
release_held (PgsRefresh *self,
              const char *why)
{
  g_autoptr(PgsSnapshot) held = g_steal_pointer (&self->held);

  if (held != NULL)
    g_debug ("The new snapshot was held %.1f ms for the selected process's pages (%s)",
             (g_get_monotonic_time () - self->held_since) / 1000.0,
             why);
  drop_held (self);
  if (held != NULL)
    g_signal_emit (self, signals[READY], 0, held);
}

static gboolean
held_too_long (gpointer data)
{
  PgsRefresh *self = data;

  self->held_timeout = 0;
  release_held (self, "not in time");
  return G_SOURCE_REMOVE;
}

static void
pgs_refresh_dispose (GObject *object)
{
  PgsRefresh *self = PGS_REFRESH (object);

  drop_held (self);
  if (self->detail_cancellable != NULL)
    g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  g_clear_object (&self->detail);
  pgs_clear_release (&self->given);
  g_clear_object (&self->chosen);
  g_clear_object (&self->helper);
  g_clear_pointer (&self->view, g_free);
  g_clear_pointer (&self->unreadable, g_free);

  G_OBJECT_CLASS (pgs_refresh_parent_class)->dispose (object);
}

static void
pgs_refresh_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PgsRefresh *self = PGS_REFRESH (object);

  switch (prop_id)
    {
    case PROP_PROCESS:
      g_value_set_object (value, self->given);
      break;
    case PROP_UNREADABLE:
      g_value_set_string (value, self->unreadable);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, pgs_refresh_is_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_refresh_class_init (PgsRefreshClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pgs_refresh_dispose;
  object_class->get_property = pgs_refresh_get_property;

  properties[PROP_PROCESS] =
    g_param_spec_object ("process", NULL, NULL, PGS_TYPE_PROCESS,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNREADABLE] =
    g_param_spec_string ("unreadable", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The snapshot held back by pgs_refresh_hold() may go into the views now. */
  signals[READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                 NULL, NULL, NULL, G_TYPE_NONE, 1, PGS_TYPE_SNAPSHOT);
}

static void
pgs_refresh_init (PgsRefresh *self)
{
}

PgsProcess *
pgs_refresh_get_process (PgsRefresh *self)
{
  g_return_val_if_fail (PGS_IS_REFRESH (self), NULL);
  return self->given;
}

const char *
pgs_refresh_get_unreadable (PgsRefresh *self)
{
  g_return_val_if_fail (PGS_IS_REFRESH (self), NULL);
  return self->unreadable;
}

gboolean
pgs_refresh_is_busy (PgsRefresh *self)
{
  g_return_val_if_fail (PGS_IS_REFRESH (self), FALSE);
  return self->detail_cancellable != NULL;
}

static gboolean
helper_running (PgsHelper *helper)
{
  return helper != NULL && pgs_helper_is_running (helper);
}

static gboolean
physmap_readable (PgsHelper *helper)
{
  /* kpagecount and kpageflags are root's alone; asking for them otherwise only fails. */
  return geteuid () == 0 || helper_running (helper);
}

static gboolean
shows_physical (const char *view)
{
  return g_str_equal (view, "sharing") || g_str_equal (view, "flags");
}

/* Whether the page shows the selected process (its mappings, pages or frames). */
static gboolean
shows_process (const char *view)
{
  return !g_str_equal (view, "groups") && !g_str_equal (view, "libraries");
}

PgsScanFlags
pgs_refresh_list_flags (const char *view,
                        PgsHelper  *helper,
                        gboolean    highlighting)
{
  PgsScanFlags flags;

  if (g_str_equal (view, "groups"))
    flags = PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES;   /* the private figure, the cgroups */
  else if (g_str_equal (view, "libraries"))
    flags = PGS_SCAN_MAPPINGS;
  else
    flags = PGS_SCAN_KERNEL_TOTALS;
  /* Counts only around mapped frames, as the recorder: kpagecount is read where kpageflags
   * says a frame is mapped, a sixth of it at rest, and an unmapped frame's count is 0
   * either way (pgs_physmap_read_fds_mapped). */
  if (shows_physical (view) && physmap_readable (helper))
    flags |= PGS_SCAN_PHYSMAP | PGS_SCAN_MAPPED_COUNTS;
  /* A file chosen in Libraries: the maps highlight its frames, which are every process's
   * pages of it (pgs_librank_file_frames()). */
  if (shows_physical (view) && highlighting)
    flags |= PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES;
  return flags;
}

/* Whether a scan with @have read all a scan with @want would. */
static gboolean
covers (PgsScanFlags have,
        PgsScanFlags want)
{
  /* Pages and mappings are read to make the totals; the rollup's totals are the same. */
  if (have & (PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES))
    have |= PGS_SCAN_KERNEL_TOTALS;
  if (have & PGS_SCAN_PAGES)
    have |= PGS_SCAN_MAPPINGS;
  /* A physical map read whole has every count the mapped-only read would. */
  if (have & PGS_SCAN_PHYSMAP)
    have |= PGS_SCAN_MAPPED_COUNTS;
  return (want & ~have) == 0;
}

gboolean
pgs_refresh_list_covers (PgsRefresh   *self,
                         PgsScanFlags  wanted)
{
  return self->shows_file || covers (self->list_flags, wanted);
}

void
pgs_refresh_list_started (PgsRefresh   *self,
                          PgsScanFlags  flags)
{
  self->started_flags = flags;
}

static void
give (PgsRefresh *self,
      PgsProcess *process,
      const char *unreadable)
{
  if (g_strcmp0 (self->unreadable, unreadable) != 0)
    {
      g_free (self->unreadable);
      self->unreadable = g_strdup (unreadable);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNREADABLE]);
    }
  if (pgs_set_object_release (&self->given, process))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCESS]);
}

/* Why the scan of @pid alone has no such process: its skipped entry's reason. */
static const char *
detail_failure (PgsRefresh *self,
                int         pid)
{
  if (self->detail != NULL)
    for (guint i = 0; i < pgs_snapshot_get_n_skipped (self->detail); i++)
      {
        const PgsSkipped *skipped = pgs_snapshot_get_skipped (self->detail, i);

        if (skipped->pid == pid && skipped->error != NULL)
          return skipped->error->message;
      }
  return _("The process has exited, or its memory could not be read.");
}

static void select_again (PgsRefresh *self);

static void
detail_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PgsRefresh) self = user_data;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));

  gboolean for_held = self->held != NULL && cancellable == self->held_scan;

  snapshot = pgs_scanner_scan_finish (PGS_SCANNER (object), result, &error);
  /* Superseded (another process, another refresh) or the session is going. A snapshot
   * held for it is shown without it: the scan that superseded it follows. */
  if (cancellable != self->detail_cancellable || g_cancellable_is_cancelled (cancellable))
    {
      if (for_held)
        release_held (self, "not read: superseded");
      return;
    }
  g_clear_object (&self->detail_cancellable);

  if (snapshot == NULL)
    g_debug ("The selected process could not be scanned: %s", error->message);
  g_set_object (&self->detail, snapshot);
  /* Held, the snapshot it was read for goes in now, and its selection finds it there. */
  if (for_held)
    release_held (self, "read");
  else
    select_again (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
start_detail (PgsRefresh *self,
              int         pid)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  gboolean was_busy = pgs_refresh_is_busy (self);

  if (self->detail_cancellable != NULL)
    g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  g_clear_object (&self->detail);
  self->detail_pid = pid;
  self->detail_generation = self->generation;

  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  pgs_scanner_set_pids (scanner, &pid, 1);
  if (helper_running (self->helper))
    pgs_scanner_set_helper (scanner, self->helper);
  self->detail_cancellable = g_cancellable_new ();
  pgs_scanner_scan_async (scanner, self->detail_cancellable, detail_done, g_object_ref (self));
  if (!was_busy)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
select_again (PgsRefresh *self)
{
  PgsProcess *selected = self->chosen;
  PgsProcess *scanned;
  int pid;

  if (selected == NULL)
    {
      pgs_refresh_cancel (self);
      g_clear_object (&self->detail);
      give (self, NULL, NULL);
      return;
    }

  /* The list's own process is all there is: a file's, or a scan that read every page. */
  if (self->shows_file || (self->list_flags & PGS_SCAN_PAGES) || !shows_process (self->view))
    {
      pgs_refresh_cancel (self);
      give (self, selected, NULL);
      return;
    }

  pid = pgs_process_get_pid (selected);
  if (self->detail_pid == pid && self->detail_generation == self->generation)
    {
      if (self->detail_cancellable != NULL)
        return;   /* on its way */
      scanned = self->detail != NULL ? pgs_snapshot_lookup_pid (self->detail, pid) : NULL;
      /* Gone between the two scans, or unreadable: the list's figures at least, and the
       * Pages view says why it has none (not "Reading…" for ever). */
      give (self, scanned != NULL ? scanned : selected,
            scanned == NULL ? detail_failure (self, pid) : NULL);
      return;
    }

  /* Until its pages come (milliseconds for most processes): the last scan of the same
   * process stays, so a refresh does not blank the maps; another process shows its totals. */
  if (self->given == NULL || pgs_process_get_pid (self->given) != pid)
    give (self, selected, NULL);
  start_detail (self, pid);
}

void
pgs_refresh_select (PgsRefresh  *self,
                    PgsProcess  *chosen,
                    PgsSnapshot *snapshot,
                    const char  *view,
                    PgsHelper   *helper)
{
  g_return_if_fail (PGS_IS_REFRESH (self));

  g_set_object (&self->chosen, chosen);
  g_set_object (&self->helper, helper);
  g_free (self->view);
  self->view = g_strdup (view);
  self->shows_file = snapshot != NULL && pgs_snapshot_get_file (snapshot) != NULL;
  select_again (self);
}

gboolean
pgs_refresh_hold (PgsRefresh  *self,
                  PgsSnapshot *snapshot)
{
  int pid;

  g_return_val_if_fail (PGS_IS_REFRESH (self), FALSE);

  drop_held (self);
  /* As select_again() would once @snapshot is shown: a scan of the chosen process alone. */
  if (self->chosen == NULL || self->view == NULL || !shows_process (self->view) ||
      (self->started_flags & PGS_SCAN_PAGES) || pgs_snapshot_get_file (snapshot) != NULL)
    return FALSE;
  pid = pgs_process_get_pid (self->chosen);
  if (pgs_snapshot_lookup_pid (snapshot, pid) == NULL)
    return FALSE;

  start_detail (self, pid);
  self->detail_generation = self->generation + 1;   /* @snapshot's, once shown */
  self->held = g_object_ref (snapshot);
  self->held_since = g_get_monotonic_time ();
  self->held_scan = g_object_ref (self->detail_cancellable);
  self->held_timeout = g_timeout_add (hold_ms (), held_too_long, self);
  return TRUE;
}

gboolean
pgs_refresh_list_shown (PgsRefresh   *self,
                        PgsSnapshot  *snapshot,
                        PgsScanFlags  wanted)
{
  /* Something else went in (a file, a recording): the snapshot held is not wanted. */
  drop_held (self);
  self->generation++;
  self->shows_file = pgs_snapshot_get_file (snapshot) != NULL;
  if (self->shows_file)
    return FALSE;
  self->list_flags = self->started_flags;
  /* The page shown changed while the scan ran (the first scan starts before --view or the
   * remembered view is applied): it needs more than was read, at once. */
  return !covers (self->list_flags, wanted);
}

/* Everything, for a file */

static void
complete_scanned (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  PgsSnapshot *snapshot = pgs_scanner_scan_finish (PGS_SCANNER (object), result, &error);

  if (snapshot == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, snapshot, g_object_unref);
}

void
pgs_refresh_complete_async (PgsRefresh          *self,
                            PgsSnapshot         *snapshot,
                            PgsHelper           *helper,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  PgsScanFlags flags = PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, pgs_refresh_complete_async);
  if (physmap_readable (helper))
    flags |= PGS_SCAN_PHYSMAP | PGS_SCAN_MAPPED_COUNTS;
  if (snapshot != NULL && pgs_refresh_list_covers (self, flags))
    {
      g_task_return_pointer (task, g_object_ref (snapshot), g_object_unref);
      return;
    }

  scanner = pgs_scanner_new ();
  pgs_scanner_set_flags (scanner, flags);
  if (helper_running (helper))
    pgs_scanner_set_helper (scanner, helper);
  pgs_scanner_scan_async (scanner, cancellable, complete_scanned, g_steal_pointer (&task));
}

PgsSnapshot *
pgs_refresh_complete_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_refresh_complete_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Start-up figures */

static void
on_first_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  g_debug ("First frame painted at %" G_GINT64_FORMAT " µs (monotonic)", g_get_monotonic_time ());
  g_signal_handlers_disconnect_by_func (clock, on_first_paint, user_data);
}

static void
on_realize (GtkWidget *window)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_first_paint), NULL);
  g_signal_handlers_disconnect_by_func (window, on_realize, NULL);
}

void
pgs_refresh_log_first_frame (GtkWidget *window)
{
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
}

static void
on_figures_painted (GdkFrameClock *clock,
                    gpointer       user_data)
{
  g_debug ("First figures shown at %" G_GINT64_FORMAT " µs (monotonic)", g_get_monotonic_time ());
  g_signal_handlers_disconnect_by_func (clock, on_figures_painted, user_data);
}

void
pgs_refresh_log_first_figures (GtkWidget *window)
{
  static gboolean logged;
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

  /* A window not shown yet paints nothing: its next snapshot is the first shown. */
  if (logged || clock == NULL)
    return;
  logged = TRUE;
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_figures_painted), NULL);
}
