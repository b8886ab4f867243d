/* pgs-cli-access-collect.c: what `access` and `render --view access` read, with a kdamond
 * of Pagescope's own around the read when asked
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "pgs-cli.h"

PgsDamonCollection *
pgs_cli_access_collect (const char          *sysfs_root,
                        const char          *procfs_root,
                        double               seconds,
                        gboolean             start_monitor,
                        volatile const int  *stop,
                        int                 *exit_code)
{
  g_autoptr(PgsDamonOwn) own = NULL;
  g_autoptr(GError) error = NULL;
  PgsDamonCollection *col;

  *exit_code = PGS_EXIT_OK;
  if (start_monitor)
    {
      own = pgs_damon_own_start (sysfs_root, procfs_root, &error);
      if (own == NULL)
        {
          /* Where one runs, the flag is refused rather than ignored: a script that asked
           * for our own monitor's resolution must not get someone else's. */
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY))
            pgs_cli_error (_("%s (without --start-monitor, access reads a running kdamond)"),
                           error->message);
          else
            pgs_cli_error ("%s", error->message);
          *exit_code = PGS_EXIT_FAILED;
          return NULL;
        }
      pgs_cli_error (_("started kdamond %u (PID %d), Pagescope’s own, for this read: physical "
                       "addresses, 10 to 1000 regions, sampling every 5 ms, aggregating every "
                       "100 ms"), pgs_damon_own_get_index (own), pgs_damon_own_get_pid (own));
    }
  col = pgs_damon_collect (sysfs_root, procfs_root, seconds, stop, &error);
  if (own != NULL)
    {
      g_autoptr(GError) stop_error = NULL;

      if (!pgs_damon_own_stop (own, &stop_error))
        {
          pgs_cli_error ("%s", stop_error->message);
          *exit_code = PGS_EXIT_PARTIAL;
        }
      else
        pgs_cli_error ("%s", _("removed Pagescope’s kdamond: DAMON’s sysfs is as it was"));
    }
  if (col == NULL)
    {
      pgs_cli_error ("%s", error->message);
      *exit_code = PGS_EXIT_FAILED;
    }
  return col;
}
