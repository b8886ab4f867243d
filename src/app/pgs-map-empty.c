/* pgs-map-empty.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A map page never shows an empty picture: where there is nothing to draw (no process
 * chosen, no page data, no physical map without root) it says why instead.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-map-empty.h"

static gboolean
say (PgsMapEmpty *empty,
     const char  *icon,
     const char  *title,
     char        *description)
{
  empty->icon = icon;
  empty->title = title;
  empty->description = description;
  return TRUE;
}

/* Residency: why @process has no pages to draw; FALSE when it has some. */
static gboolean
explain_process (PgsSnapshot *snapshot,
                 PgsProcess  *process,
                 const char  *unreadable,
                 PgsMapEmpty *empty)
{
  const char *reason;
  char *text;

  if (process == NULL)
    return say (empty, "view-list-symbolic", _("No Process Selected"),
                g_strdup (_("Choose a process in the Processes view: its pages appear here, "
                            "one cell per page of each mapping.")));
  /* The list's totals stand in for the process until a scan of it alone brings its
   * mappings and pages (pgs-refresh.c): the kernel's totals and no mapping. */
  if (!pgs_process_has_pages (process) &&
      pgs_process_get_source (process) == PGS_SOURCE_KERNEL &&
      pgs_process_get_n_mappings (process) == 0 &&
      pgs_snapshot_get_file (snapshot) == NULL)
    {
      if (unreadable != NULL)
        return say (empty, "dialog-warning-symbolic", _("Its Pages Could Not Be Read"),
                    g_strdup (unreadable));
      return say (empty, "content-loading-symbolic", _("Reading Its Pages…"),
                  g_strdup (_("The pages of the selected process are being scanned.")));
    }
  if (pgs_process_has_pages (process))
    return FALSE;

  reason = pgs_process_get_unknown_reason (process);
  if (pgs_process_get_source (process) == PGS_SOURCE_STATUS &&
      !pgs_snapshot_is_privileged (snapshot) &&
      pgs_snapshot_get_file (snapshot) != NULL)
    text = g_strdup (_("This snapshot was taken without root, and the page tables "
                       "of this process could not be read: the file has no pages "
                       "for it."));
  else if (pgs_process_get_source (process) == PGS_SOURCE_STATUS &&
           pgs_process_get_uid (process) != getuid () &&
           !pgs_snapshot_is_privileged (snapshot))
    /* Translators: %s is a user name */
    text = g_strdup_printf (_("This process belongs to %s. The kernel lets only its "
                              "owner and root read its page tables: unlock Pagescope "
                              "to see its pages."),
                            pgs_process_get_user (process) != NULL
                            ? pgs_process_get_display_user (process) : _("another user"));
  else if (pgs_process_get_n_mappings (process) == 0)
    text = g_strdup (_("This process has no user address space "
                       "(a kernel thread, or it exited)."));
  else if (reason != NULL)
    /* Translators: %s is why the process's pagemap could not be read */
    text = g_strdup_printf (_("Its pagemap could not be read: %s"), reason);
  else
    text = g_strdup (_("Its pagemap could not be read."));
  return say (empty, "dialog-information-symbolic", _("No Page Data"), text);
}

gboolean
pgs_map_empty_explain (PgsView      view,
                       PgsSnapshot *snapshot,
                       PgsReplay   *replay,
                       PgsProcess  *process,
                       const char  *unreadable,
                       PgsMapEmpty *empty)
{
  g_return_val_if_fail (empty != NULL, FALSE);

  memset (empty, 0, sizeof *empty);
  if (snapshot == NULL && replay != NULL)
    {
      if (pgs_replay_get_picture_index (replay) == G_MAXUINT)
        return say (empty, "dialog-information-symbolic", _("No Page-Level Picture"),
                    g_strdup (_("This recording holds every process’s totals only: it was made "
                                "without pictures of the pages (pagescope-cli record --pages-every).")));
      return say (empty, "content-loading-symbolic", _("Reading the Picture…"),
                  g_strdup (_("The page-level picture nearest the instant is being read.")));
    }
  if (snapshot == NULL)
    return say (empty, "content-loading-symbolic", _("Scanning Memory…"),
                g_strdup (_("The first scan of every process is running.")));

  if (view == PGS_VIEW_RESIDENCY)
    return explain_process (snapshot, process, unreadable, empty);
  if (pgs_snapshot_get_physmap (snapshot) != NULL)
    return FALSE;
  if (!pgs_snapshot_is_privileged (snapshot) && pgs_snapshot_get_file (snapshot) != NULL)
    return say (empty, "system-lock-screen-symbolic", _("No Physical Map in This Snapshot"),
                g_strdup (_("It was taken without root: /proc/kpagecount and /proc/kpageflags "
                            "could not be read.")));
  if (!pgs_snapshot_is_privileged (snapshot))
    return say (empty, "system-lock-screen-symbolic", _("Physical Memory Needs Root"),
                g_strdup (_("This map is drawn from /proc/kpagecount and /proc/kpageflags, "
                            "which the kernel lets only root read. Unlock Pagescope to see "
                            "every page frame of the machine.")));
  return say (empty, "dialog-warning-symbolic", _("No Physical Map"),
              g_strdup (_("The last scan could not read /proc/kpagecount and /proc/kpageflags.")));
}

const char *
pgs_map_empty_counters_note (PgsSnapshot *snapshot)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), NULL);

  if (pgs_snapshot_get_file (snapshot) != NULL)
    return _("This snapshot was taken without root: /proc/kpagecount and /proc/kpageflags "
             "could not be read, so it has no physical map, and the rows only the frames "
             "can answer are unknown.");
  if (!pgs_snapshot_is_privileged (snapshot))
    return _("The map of physical memory, and the rows only the frames can answer, need "
             "/proc/kpagecount and /proc/kpageflags, which the kernel lets only root read. "
             "Unlock Pagescope to see every page frame of the machine.");
  return _("The last scan could not read /proc/kpagecount and /proc/kpageflags: no map, "
           "and the rows only the frames can answer are unknown.");
}

void
pgs_map_empty_clear (PgsMapEmpty *empty)
{
  g_clear_pointer (&empty->description, g_free);
}
