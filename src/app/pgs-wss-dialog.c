/* pgs-wss-dialog.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Clearing a process's referenced bits changes how the kernel treats it, so nothing is
 * cleared before the user has read what it does and pressed Measure. The samples are
 * handed over ("measured") only once the whole series is in: a series cut short by an
 * error or a cancel leaves the results already shown as they were.
 *
 * The second method pages the process out and watches what returns (PgsPageout): its
 * results go out through "measured-pageout", a cycle per sample.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-wss-dialog.h"

#define PROGRESS_TICK_MS 100

struct _PgsWssDialog
{
  GtkWindow       parent_instance;

  GSettings      *settings;
  int             pid;
  char           *name;
  PgsWss         *wss;
  PgsHelper      *helper;         /* while the window is unlocked */
  GCancellable   *cancellable;
  GPtrArray      *samples;        /* PgsWssSample of the series being measured */
  guint           count;          /* samples asked for */
  guint           interval_ms;
  gint64          sample_start;   /* monotonic time the current sample began */
  guint           tick_source;
  char           *error_text;

  /* template children */
  GtkLabel       *title_label;
  GtkSpinButton  *interval_spin;
  GtkSpinButton  *count_spin;
  GtkWidget      *settings_grid;
  GtkWidget      *progress_box;
  GtkProgressBar *progress_bar;
  GtkLabel       *progress_label;
  GtkLabel       *error_label;
  GtkButton      *measure_button;
  GtkDropDown    *method_dropdown;
  GtkLabel       *method_label;

  PgsPageout     *pageout;        /* the series being measured by paging out */
  GPtrArray      *cycles;         /* GPtrArray of PgsPageoutResult, one per sample */
  gboolean        paging;         /* the current sample is still paging out */
};

enum {
  METHOD_REFERENCED,
  METHOD_PAGEOUT,
};

enum {
  MEASURED,
  MEASURED_PAGEOUT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsWssDialog, pgs_wss_dialog, GTK_TYPE_WINDOW)

static void start_sample (PgsWssDialog *self);

static guint
samples_done (PgsWssDialog *self)
{
  return self->pageout != NULL ? self->cycles->len : self->samples->len;
}

static void
update_progress (PgsWssDialog *self)
{
  double elapsed, interval = self->interval_ms / 1000.0;
  g_autofree char *count_text = NULL;
  g_autofree char *text = NULL;

  if (self->pageout != NULL && self->paging)
    {
      guint64 done = 0, total = 0;

      if (pgs_pageout_get_progress (self->pageout, &done, &total) || done == 0)
        {
          g_autofree char *d = pgs_format_size (MIN (done, total));
          g_autofree char *t = pgs_format_size (total);

          gtk_progress_bar_set_fraction (self->progress_bar,
                                         total > 0 ? (double) MIN (done, total) / total : 0);
          /* Translators: progress of a page-out: "Sample 1 of 3: paging out 120 MiB of 1.0 GiB" */
          text = g_strdup_printf (_("Sample %u of %u: paging out %s of %s"),
                                  samples_done (self) + 1, self->count, d, t);
          gtk_label_set_text (self->progress_label, text);
          return;
        }
      /* The page-out is over: the interval starts now. */
      self->paging = FALSE;
      self->sample_start = g_get_monotonic_time ();
    }

  elapsed = (g_get_monotonic_time () - self->sample_start) / 1e6;
  elapsed = CLAMP (elapsed, 0, interval);
  gtk_progress_bar_set_fraction (self->progress_bar, elapsed / interval);
  /* Translators: progress of a working-set measurement: "Sample 1 of 3: 2.1 s of 5 s" */
  text = g_strdup_printf (_("Sample %u of %u: %.1f s of %u s"), samples_done (self) + 1,
                          self->count, elapsed, self->interval_ms / 1000);
  gtk_label_set_text (self->progress_label, text);
}

static gboolean
progress_tick (gpointer data)
{
  update_progress (data);
  return G_SOURCE_CONTINUE;
}

static void
set_running (PgsWssDialog *self,
             gboolean      running)
{
  gtk_widget_set_sensitive (self->settings_grid, !running);
  gtk_widget_set_visible (self->progress_box, running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "wss.measure", !running);
  if (!running)
    g_clear_handle_id (&self->tick_source, g_source_remove);
}

static void
show_error (PgsWssDialog *self,
            const char   *message)
{
  g_free (self->error_text);
  self->error_text = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
measure_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(PgsWssDialog) self = user_data;
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;

  sample = pgs_wss_measure_finish (PGS_WSS (object), result, &error);

  /* Cancelled: the dialog is gone or going, and nothing of the series is kept. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;

  if (sample == NULL)
    {
      g_clear_object (&self->cancellable);
      g_ptr_array_set_size (self->samples, 0);
      set_running (self, FALSE);
      show_error (self, error->message);
      return;
    }

  g_ptr_array_add (self->samples, g_steal_pointer (&sample));
  if (self->samples->len < self->count)
    {
      start_sample (self);
      return;
    }

  g_clear_object (&self->cancellable);
  set_running (self, FALSE);
  g_signal_emit (self, signals[MEASURED], 0, self->samples);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
pageout_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(PgsWssDialog) self = user_data;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;

  results = pgs_pageout_measure_finish (PGS_PAGEOUT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;
  if (results == NULL)
    {
      g_clear_object (&self->cancellable);
      g_ptr_array_set_size (self->cycles, 0);
      set_running (self, FALSE);
      show_error (self, error->message);
      return;
    }
  g_ptr_array_add (self->cycles, g_steal_pointer (&results));
  if (self->cycles->len < self->count)
    {
      start_sample (self);
      return;
    }
  g_clear_object (&self->cancellable);
  set_running (self, FALSE);
  g_signal_emit (self, signals[MEASURED_PAGEOUT], 0, self->cycles);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
start_sample (PgsWssDialog *self)
{
  self->sample_start = g_get_monotonic_time ();
  if (self->pageout != NULL)
    {
      self->paging = TRUE;
      update_progress (self);
      pgs_pageout_measure_async (self->pageout, self->interval_ms, self->cancellable,
                                 pageout_done, g_object_ref (self));
      return;
    }
  update_progress (self);
  pgs_wss_measure_async (self->wss, self->interval_ms, self->cancellable, measure_done,
                         g_object_ref (self));
}

static void
measure_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PgsWssDialog *self = PGS_WSS_DIALOG (widget);

  if (self->cancellable != NULL)
    return;

  gtk_spin_button_update (self->interval_spin);
  gtk_spin_button_update (self->count_spin);
  self->interval_ms = (guint) gtk_spin_button_get_value_as_int (self->interval_spin) * 1000;
  self->count = (guint) gtk_spin_button_get_value_as_int (self->count_spin);

  /* A fresh PgsWss per series: a retry after an error prepares again (the process may
   * have gone, or the user may have fixed the permission). */
  g_clear_object (&self->wss);
  g_clear_object (&self->pageout);
  g_ptr_array_set_size (self->samples, 0);
  g_ptr_array_set_size (self->cycles, 0);
  show_error (self, NULL);
  if (gtk_drop_down_get_selected (self->method_dropdown) == METHOD_PAGEOUT)
    {
      g_autoptr(GError) error = NULL;

      /* Unlocked, the helper pages out (under the polkit action for changing a process,
       * asked only for another user's process); locked, process_madvise in this process. */
      self->pageout = pgs_pageout_new (&self->pid, 1);
      pgs_pageout_set_helper (self->pageout, self->helper);
      if (self->helper != NULL)
        pgs_pageout_set_func (self->pageout, (PgsPageoutFunc) pgs_helper_pageout,
                              g_object_ref (self->helper), g_object_unref);
      if (!pgs_pageout_prepare (self->pageout, &error))
        {
          g_clear_object (&self->pageout);
          show_error (self, error->message);
          return;
        }
    }
  else
    {
      self->wss = pgs_wss_new (self->pid);
      pgs_wss_set_helper (self->wss, self->helper);
    }
  self->cancellable = g_cancellable_new ();
  set_running (self, TRUE);
  self->tick_source = g_timeout_add (PROGRESS_TICK_MS, progress_tick, self);
  start_sample (self);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static gboolean
pgs_wss_dialog_close_request (GtkWindow *window)
{
  PgsWssDialog *self = PGS_WSS_DIALOG (window);

  /* The library's wait is a main-loop timeout: cancelling ends it at once, and clearing
   * already done needs no undoing (the bits come back as the process runs). */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  set_running (self, FALSE);
  return GTK_WINDOW_CLASS (pgs_wss_dialog_parent_class)->close_request (window);
}

static void
pgs_wss_dialog_dispose (GObject *object)
{
  PgsWssDialog *self = (PgsWssDialog *) object;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->tick_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_WSS_DIALOG);
  g_clear_object (&self->wss);
  g_clear_object (&self->pageout);
  g_clear_pointer (&self->cycles, g_ptr_array_unref);
  g_clear_object (&self->helper);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->samples, g_ptr_array_unref);

  G_OBJECT_CLASS (pgs_wss_dialog_parent_class)->dispose (object);
}

static void
pgs_wss_dialog_finalize (GObject *object)
{
  PgsWssDialog *self = (PgsWssDialog *) object;

  g_free (self->name);
  g_free (self->error_text);

  G_OBJECT_CLASS (pgs_wss_dialog_parent_class)->finalize (object);
}

static void
pgs_wss_dialog_class_init (PgsWssDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = pgs_wss_dialog_dispose;
  object_class->finalize = pgs_wss_dialog_finalize;
  window_class->close_request = pgs_wss_dialog_close_request;

  /**
   * PgsWssDialog::measured:
   * @samples: (element-type PgsWssSample): the whole series, oldest first
   *
   * Emitted once, when the last sample is in, just before the dialog closes.
   */
  signals[MEASURED] = g_signal_new ("measured", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  /**
   * PgsWssDialog::measured-pageout:
   * @cycles: (element-type GPtrArray): per sample, the PgsPageoutResult of the process
   *
   * Emitted instead of ::measured when the page-out method measured the series.
   */
  signals[MEASURED_PAGEOUT] = g_signal_new ("measured-pageout", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  gtk_widget_class_install_action (widget_class, "wss.measure", NULL, measure_action);
  gtk_widget_class_install_action (widget_class, "wss.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "wss.cancel", NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-wss-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, title_label);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, count_spin);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, settings_grid);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, progress_box);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, progress_label);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, measure_button);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, method_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PgsWssDialog, method_label);
}

static void
on_method_changed (PgsWssDialog *self)
{
  if (gtk_drop_down_get_selected (self->method_dropdown) == METHOD_PAGEOUT)
    gtk_label_set_text (self->method_label,
                        _("Pages the process’s memory out to swap, lets it run, and reads "
                          "back page by page what it touched: what came back. It faults back "
                          "in what it touches, so it runs slower for a while, and compressing "
                          "costs CPU; nothing is lost. Pages shared with other processes are "
                          "not measured; without swap, only file pages are. Needs root."));
  else
    gtk_label_set_text (self->method_label,
                        _("Per mapping from smaps, and per page where the kernel has idle "
                          "page tracking."));
}

static void
pgs_wss_dialog_init (PgsWssDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->samples = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_wss_sample_unref);
  self->cycles = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_signal_connect_swapped (self->method_dropdown, "notify::selected",
                            G_CALLBACK (on_method_changed), self);
  on_method_changed (self);
}

void
pgs_wss_dialog_set_helper (PgsWssDialog *self,
                           PgsHelper    *helper)
{
  g_return_if_fail (PGS_IS_WSS_DIALOG (self));

  g_set_object (&self->helper, helper);
}

PgsWssDialog *
pgs_wss_dialog_new (GtkWindow  *parent,
                    GSettings  *settings,
                    int         pid,
                    const char *name)
{
  PgsWssDialog *self;
  g_autofree char *pid_text = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (pid > 0, NULL);

  self = g_object_new (PGS_TYPE_WSS_DIALOG, "transient-for", parent, "modal", TRUE, NULL);
  self->settings = g_object_ref (settings);
  self->pid = pid;
  self->name = g_strdup (name != NULL ? name : "?");
  g_settings_bind (settings, "wss-interval", gtk_spin_button_get_adjustment (self->interval_spin),
                   "value", G_SETTINGS_BIND_DEFAULT);

  pid_text = g_strdup_printf ("%d", pid);
  /* Translators: the dialog's question: "Measure the working set of firefox (PID 1234)?" */
  title = g_strdup_printf (_("Measure the working set of %s (PID %s)?"), self->name, pid_text);
  gtk_label_set_text (self->title_label, title);
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->measure_button));
  /* Enter measures, and no spin button text is left focused in a window about to close
   * (GTK 4.8 warns when a focused GtkText sees its window go without a focus-out). */
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->measure_button));
  return self;
}

int
pgs_wss_dialog_get_pid (PgsWssDialog *self)
{
  g_return_val_if_fail (PGS_IS_WSS_DIALOG (self), 0);
  return self->pid;
}

void
pgs_wss_dialog_set_count (PgsWssDialog *self,
                          guint         count)
{
  g_return_if_fail (PGS_IS_WSS_DIALOG (self));
  gtk_spin_button_set_value (self->count_spin, count);
}

void
pgs_wss_dialog_set_method (PgsWssDialog *self,
                           gboolean      pageout)
{
  g_return_if_fail (PGS_IS_WSS_DIALOG (self));
  gtk_drop_down_set_selected (self->method_dropdown, pageout ? METHOD_PAGEOUT : METHOD_REFERENCED);
}

gboolean
pgs_wss_dialog_is_running (PgsWssDialog *self)
{
  g_return_val_if_fail (PGS_IS_WSS_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

const char *
pgs_wss_dialog_get_error_text (PgsWssDialog *self)
{
  g_return_val_if_fail (PGS_IS_WSS_DIALOG (self), NULL);
  return self->error_text;
}
