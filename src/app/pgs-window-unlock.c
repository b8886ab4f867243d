/* pgs-window-unlock.c: the window's lock state
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app runs as the user. Locked, it reads what the kernel lets the user read: the
 * user's own processes from smaps_rollup, other users' only from /proc/PID/status, and no
 * physical map (kpagecount and kpageflags are root's). Unlock starts pagescope-helper
 * through pkexec (one password for the session, pgs-helper.c); the scanner then gets its
 * descriptors from the helper and sees what root sees. The helper's exit, for whatever
 * reason, returns the window to locked and says so. (Tests give the app a helper that root
 * started through PGS_HELPER_FD, which pgs_helper_start_async takes instead of pkexec.)
 *
 * The banner says what is missing and why, with the one button that fixes it: Unlock…
 * while locked, Back to Live while a snapshot file is shown.
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-tooltip.h"
#include "pgs-window-private.h"

static gboolean
is_unlocked (PgsWindow *self)
{
  PgsHelper *helper = pgs_session_get_helper (self->session);

  return helper != NULL && pgs_helper_is_running (helper);
}

static gboolean
showing_file (PgsWindow *self)
{
  return pgs_session_get_file (self->session) != NULL;
}

void
_pgs_window_show_banner (PgsWindow  *self,
                         const char *text)
{
  g_free (self->banner_text);
  self->banner_text = g_strdup (text);
  if (text != NULL)
    gtk_label_set_text (self->banner_label, text);
  if (!self->banner_link_connected)
    {
      g_signal_connect_object (self->banner_label, "activate-link", G_CALLBACK (_pgs_window_on_banner_link),
                               self, G_CONNECT_SWAPPED);
      self->banner_link_connected = TRUE;
    }
  gtk_widget_set_visible (self->banner, text != NULL);
}

const char *
pgs_window_get_banner_text (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->banner_text;
}

static void
update_lock_button (PgsWindow *self)
{
  const char *icon;
  const char *tooltip;

  if (geteuid () == 0)
    {
      icon = "changes-allow-symbolic";
      tooltip = _("Running as root: every process and page frame can be read");
    }
  else if (is_unlocked (self))
    {
      icon = "changes-allow-symbolic";
      tooltip = _("Unlocked: Pagescope’s helper reads every process and the physical memory "
                  "maps. Click to lock again.");
    }
  else if (self->unlock_cancellable != NULL)
    {
      icon = "changes-prevent-symbolic";
      tooltip = _("Unlocking…");
    }
  else
    {
      icon = "changes-prevent-symbolic";
      tooltip = _("Locked: only your own processes are measured in full, and the physical "
                  "memory maps are hidden. Click to unlock.");
    }
  gtk_button_set_icon_name (self->lock_button, icon);
  pgs_set_tooltip_text (GTK_WIDGET (self->lock_button), tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->lock_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.toggle-lock",
                                 geteuid () != 0 && self->unlock_cancellable == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.unlock",
                                 geteuid () != 0 && !is_unlocked (self) &&
                                 self->unlock_cancellable == NULL);
}

void
_pgs_window_update_lock (PgsWindow *self)
{
  PgsSnapshot *snapshot = pgs_session_get_snapshot (self->session);
  g_autoptr(GString) text = NULL;

  update_lock_button (self);

  if (pgs_history_get_past (pgs_session_get_history (self->session)) != NULL)
    {
      gint64 time = pgs_snapshot_get_time (snapshot) / G_USEC_PER_SEC;
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (time);
      g_autofree char *clock = g_date_time_format (when, "%X");

      text = g_string_new (NULL);
      /* Translators: %s is a clock time */
      g_string_append_printf (text, _("Showing the totals of %s from the last minutes’ history, not the "
                                      "running system: automatic refresh is paused, and there are no "
                                      "pages for that instant. Alt+Left and Alt+Right move a sample "
                                      "earlier or later."), clock);
    }
  else if (showing_file (self))
    {
      g_autofree char *name = g_file_get_basename (pgs_session_get_file (self->session));

      text = g_string_new (NULL);
      if (pgs_session_get_recording (self->session) != NULL)
        /* Translators: %s is a file name */
        g_string_append_printf (text, _("Showing the recording %s, not the running system: "
                                        "automatic refresh is off. Alt+Left and Alt+Right "
                                        "move a sample earlier or later."), name);
      else
        /* Translators: %s is a file name */
        g_string_append_printf (text, _("Showing the snapshot %s, not the running system: "
                                        "automatic refresh is off."), name);
    }
  if (text != NULL)
    {
      if (!pgs_snapshot_is_privileged (snapshot))
        {
          g_string_append_c (text, ' ');
          g_string_append (text, _("It was taken without root: other users’ processes have no "
                                   "PSS or USS, and there are no physical memory maps."));
        }
      gtk_button_set_label (self->banner_button, _("Back to _Live"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->banner_button), "win.refresh");
      pgs_set_tooltip_text (GTK_WIDGET (self->banner_button),
                                   _("Scan the running system again (F5)"));
      gtk_widget_set_visible (GTK_WIDGET (self->banner_button), TRUE);
      _pgs_window_show_banner (self, text->str);
      return;
    }

  if (snapshot == NULL || pgs_snapshot_is_privileged (snapshot) || geteuid () == 0)
    {
      _pgs_window_show_banner (self, NULL);
      return;
    }

  /* Say what is missing in plain words; which numbers and which kernel files are behind
   * Learn more. */
  text = g_string_new (_("Pagescope runs as you, so it shows less than the whole picture: "
                         "other users’ processes show only part of their figures, and there "
                         "are no physical memory maps."));
  g_string_append_c (text, ' ');
  if (is_unlocked (self))
    g_string_append (text, _("Unlocked: the next scan reads everything."));
  else
    g_string_append (text, _("Unlock to see everything: one password for as long as "
                             "Pagescope runs."));
  gtk_button_set_label (self->banner_button, _("_Unlock…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->banner_button), "win.unlock");
  pgs_set_tooltip_text (GTK_WIDGET (self->banner_button),
                               _("Ask for the administrator password once, then see every "
                                 "process and page frame"));
  gtk_widget_set_visible (GTK_WIDGET (self->banner_button), !is_unlocked (self));
  _pgs_window_show_banner (self, text->str);
  {
    g_autofree char *escaped = g_markup_escape_text (text->str, -1);
    /* Translators: the link after the banner's text that opens the details */
    g_autofree char *markup = g_strdup_printf ("%s <a href=\"learn-more\">%s</a>", escaped,
                                               _("Learn more"));

    gtk_label_set_markup (self->banner_label, markup);
  }
}

gboolean
_pgs_window_on_banner_link (PgsWindow  *self,
                const char *uri)
{
  GtkWidget *dialog;

  if (g_strcmp0 (uri, "learn-more") != 0)
    return FALSE;
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("What Pagescope Can Read as You"),
                                   _("Your own processes have their PSS and USS from the "
                                     "kernel’s /proc/PID/smaps_rollup. Other users’ processes "
                                     "show only what /proc/PID/status gives: RSS and swap, with "
                                     "PSS and USS unknown (“—”). Frame numbers in "
                                     "/proc/PID/pagemap are hidden, and the physical memory "
                                     "maps need /proc/kpagecount and /proc/kpageflags, which "
                                     "only root may read.\n\nUnlock starts Pagescope’s helper "
                                     "through pkexec after the administrator password; it "
                                     "reads those files for the app until Pagescope quits."));
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

static void
on_helper_closed (PgsWindow *self)
{
  /* The window follows the session's helper (pgs-window.c). */
  pgs_session_set_helper (self->session, NULL);
  _pgs_window_add_toast (self, _("Pagescope’s helper has stopped: locked again. The next "
                                 "scan shows only what you may read."));
}

static void
drop_helper (PgsWindow *self)
{
  PgsHelper *helper = self->session != NULL ? pgs_session_get_helper (self->session) : NULL;

  if (helper == NULL)
    return;
  g_signal_handlers_disconnect_by_func (helper, on_helper_closed, self);
  /* The last reference closes the socket; the helper exits when the app goes. */
  pgs_session_set_helper (self->session, NULL);
}

static void
finish_unlock (PgsWindow *self,
               PgsHelper *helper,
               GError    *error)
{

  if (helper == NULL)
    {
      /* The user dismissed the password dialog: that is a choice, not an error. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *text = g_strdup_printf (_("Could not unlock: %s"), error->message);

          _pgs_window_add_toast (self, text);
        }
      _pgs_window_update_lock (self);
      return;
    }

  g_signal_connect_object (helper, "closed", G_CALLBACK (on_helper_closed), self,
                           G_CONNECT_SWAPPED);
  pgs_session_set_helper (self->session, helper);
  _pgs_window_add_toast (self, _("Unlocked: scanning every process"));
  /* Unlocking is asking to see the machine: the live view, now. */
  pgs_session_refresh (self->session);
}

static void
unlock_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PgsWindow) self = user_data;
  g_autoptr(PgsHelper) helper = NULL;
  g_autoptr(GError) error = NULL;

  helper = pgs_helper_start_finish (result, &error);
  g_clear_object (&self->unlock_cancellable);
  if (!gtk_widget_in_destruction (GTK_WIDGET (self)))
    finish_unlock (self, helper, error);
}

void
pgs_window_unlock (PgsWindow *self)
{
  g_return_if_fail (PGS_IS_WINDOW (self));

  if (is_unlocked (self) || self->unlock_cancellable != NULL || geteuid () == 0)
    return;
  drop_helper (self);
  self->unlock_cancellable = g_cancellable_new ();
  pgs_helper_start_async (self->unlock_cancellable, unlock_done, g_object_ref (self));
  update_lock_button (self);
}

static void
unlock_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  pgs_window_unlock (PGS_WINDOW (widget));
}

static void
toggle_lock_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PgsWindow *self = PGS_WINDOW (widget);

  if (!is_unlocked (self))
    {
      pgs_window_unlock (self);
      return;
    }
  drop_helper (self);
  _pgs_window_add_toast (self, _("Locked: the next scan shows only what you may read"));
  if (!showing_file (self))
    pgs_session_refresh (self->session);
}

const char *
_pgs_window_wss_blocked_reason (PgsWindow  *self,
                               PgsProcess *process)
{
  if (showing_file (self))
    return _("A snapshot file is shown: working sets are measured on running processes. "
             "Go back to the live view first.");
  /* The kernel lets only the owner and root write /proc/PID/clear_refs; unlocked, the
   * helper opens it (pgs_wss_set_helper). */
  if (geteuid () != 0 && pgs_process_get_uid (process) != getuid () &&
      pgs_session_get_helper (self->session) == NULL)
    return _("Measuring a working set clears the process’s referenced bits through "
             "/proc/PID/clear_refs, which only its owner and root may write: this "
             "process belongs to another user.");
  return NULL;
}

void
_pgs_window_unlock_dispose (PgsWindow *self)
{
  if (self->unlock_cancellable != NULL)
    g_cancellable_cancel (self->unlock_cancellable);
  g_clear_object (&self->unlock_cancellable);
  drop_helper (self);
}

void
_pgs_window_unlock_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.unlock", NULL, unlock_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-lock", NULL, toggle_lock_action);
}

gboolean
pgs_window_is_unlocked (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), FALSE);
  return is_unlocked (self);
}
