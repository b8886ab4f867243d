/* pgs-live-scan.c: scans of every process, one at a time, again every so often
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The refresh policy of the session (pgs-session.c), as an object of its own: a scan runs
 * in the scanner's worker thread (pgs_scanner_scan_async); the next is due an interval after
 * the end of the last, so that slow scans never pile up; one asked for while another runs
 * follows it. What a scan reads is the owner's to say, at each start: the object only says
 * when one is due.
 */

#include "config.h"

#include "pgs-background.h"
#include "pgs-live-scan.h"

struct _PgsLiveScan
{
  GObject       parent_instance;

  PgsScanner   *scanner;
  GCancellable *cancellable;       /* while a scan runs */
  guint         timer;
  guint         interval;
  double        progress;
  gint64        progress_time;     /* when "progress" was last notified */
  gboolean      again;             /* asked for while the running scan ran */
  gboolean      held;              /* something else is shown: no result, no timer */
  gboolean      lowered_workers;
  gboolean      in_timer;          /* "due" is being emitted because the interval passed */
  gboolean      automatic;         /* the running scan was started so */
};

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_PROGRESS,
  PROP_INTERVAL,
  N_PROPS
};

enum {
  DUE,
  DONE,
  FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsLiveScan, pgs_live_scan, G_TYPE_OBJECT)

/* At most five steps a second between the start and the end: each moves a progress bar,
 * and under GL without a GPU each is a frame of the whole window, tens of ms of CPU. */
#define PROGRESS_STEP_US (G_USEC_PER_SEC / 5)

static void
set_progress (PgsLiveScan *self,
              double       progress)
{
  gint64 now = g_get_monotonic_time ();

  if (self->progress == progress)
    return;
  if (progress > 0 && progress < 1 && now - self->progress_time < PROGRESS_STEP_US)
    return;
  self->progress = progress;
  self->progress_time = now;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

static void
on_scan_progress (PgsLiveScan *self,
                  double       fraction)
{
  /* The scanner's worker is running by now: it yields to the window (pgs-background.c). */
  if (!self->lowered_workers)
    {
      pgs_background_lower_workers ();
      self->lowered_workers = TRUE;
    }
  set_progress (self, fraction);
}

static gboolean
on_timer (gpointer data)
{
  PgsLiveScan *self = data;

  self->timer = 0;
  self->in_timer = TRUE;
  g_signal_emit (self, signals[DUE], 0);
  self->in_timer = FALSE;
  return G_SOURCE_REMOVE;
}

static void
schedule (PgsLiveScan *self)
{
  g_clear_handle_id (&self->timer, g_source_remove);
  if (!self->held && self->interval > 0 && self->cancellable == NULL)
    self->timer = g_timeout_add_seconds (self->interval, on_timer, self);
}

static void
scan_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PgsLiveScan) self = user_data;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;

  snapshot = pgs_scanner_scan_finish (PGS_SCANNER (object), result, &error);
  g_clear_object (&self->cancellable);
  /* Held for a file: even a scan that finished before the cancel must not replace it. */
  if (!self->held)
    {
      if (snapshot != NULL)
        g_signal_emit (self, signals[DONE], 0, snapshot);
      else
        g_signal_emit (self, signals[FAILED], 0, error);
    }

  /* A "done" handler may have started the next scan already. */
  if (self->cancellable == NULL && self->again)
    {
      self->again = FALSE;
      g_signal_emit (self, signals[DUE], 0);
    }
  else if (self->cancellable == NULL)
    schedule (self);
  /* Last, so that whoever waits for the end finds what it found shown. */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

gboolean
pgs_live_scan_start (PgsLiveScan  *self,
                     PgsScanFlags  flags)
{
  g_return_val_if_fail (PGS_IS_LIVE_SCAN (self), FALSE);

  if (self->cancellable != NULL)
    {
      self->again = TRUE;
      return FALSE;
    }
  g_clear_handle_id (&self->timer, g_source_remove);
  self->again = FALSE;
  self->held = FALSE;
  self->automatic = self->in_timer;
  pgs_scanner_set_flags (self->scanner, flags);
  self->cancellable = g_cancellable_new ();
  self->lowered_workers = FALSE;
  set_progress (self, 0);
  pgs_scanner_scan_async (self->scanner, self->cancellable, scan_done, g_object_ref (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  return TRUE;
}

gboolean
pgs_live_scan_is_automatic (PgsLiveScan *self)
{
  g_return_val_if_fail (PGS_IS_LIVE_SCAN (self), FALSE);
  return self->cancellable != NULL && self->automatic;
}

void
pgs_live_scan_cancel (PgsLiveScan *self)
{
  g_return_if_fail (PGS_IS_LIVE_SCAN (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

void
pgs_live_scan_hold (PgsLiveScan *self)
{
  g_return_if_fail (PGS_IS_LIVE_SCAN (self));

  self->held = TRUE;
  self->again = FALSE;
  g_clear_handle_id (&self->timer, g_source_remove);
  pgs_live_scan_cancel (self);
}

void
pgs_live_scan_set_interval (PgsLiveScan *self,
                            guint        seconds)
{
  g_return_if_fail (PGS_IS_LIVE_SCAN (self));

  if (self->interval == seconds)
    return;
  self->interval = seconds;
  schedule (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTERVAL]);
}

gboolean
pgs_live_scan_is_running (PgsLiveScan *self)
{
  g_return_val_if_fail (PGS_IS_LIVE_SCAN (self), FALSE);
  return self->cancellable != NULL;
}

PgsScanner *
pgs_live_scan_get_scanner (PgsLiveScan *self)
{
  g_return_val_if_fail (PGS_IS_LIVE_SCAN (self), NULL);
  return self->scanner;
}

static void
pgs_live_scan_dispose (GObject *object)
{
  PgsLiveScan *self = PGS_LIVE_SCAN (object);

  pgs_live_scan_hold (self);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->scanner);

  G_OBJECT_CLASS (pgs_live_scan_parent_class)->dispose (object);
}

static void
pgs_live_scan_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  PgsLiveScan *self = PGS_LIVE_SCAN (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->cancellable != NULL);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_INTERVAL:
      g_value_set_uint (value, self->interval);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_live_scan_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  PgsLiveScan *self = PGS_LIVE_SCAN (object);

  switch (prop_id)
    {
    case PROP_INTERVAL:
      pgs_live_scan_set_interval (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_live_scan_class_init (PgsLiveScanClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags r = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_live_scan_dispose;
  object_class->get_property = pgs_live_scan_get_property;
  object_class->set_property = pgs_live_scan_set_property;

  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE, r);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0, 1, 0, r);
  properties[PROP_INTERVAL] =
    g_param_spec_uint ("interval", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[DUE] = g_signal_new ("due", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                               NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[DONE] = g_signal_new ("done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                NULL, NULL, NULL, G_TYPE_NONE, 1, PGS_TYPE_SNAPSHOT);
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
pgs_live_scan_init (PgsLiveScan *self)
{
  self->scanner = pgs_scanner_new ();
  g_signal_connect_object (self->scanner, "progress", G_CALLBACK (on_scan_progress), self,
                           G_CONNECT_SWAPPED);
}

PgsLiveScan *
pgs_live_scan_new (void)
{
  return g_object_new (PGS_TYPE_LIVE_SCAN, NULL);
}
