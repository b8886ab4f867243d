/* pgs-test-cli.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>

#include "pgs-test-cli.h"
#include "pgs-test-json.h"

PgsSnapshot *
pgs_test_scan (PgsFixture   *fx,
               PgsScanFlags  flags)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  PgsSnapshot *snapshot;

  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  pgs_scanner_set_flags (scanner, flags);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (snapshot);
  return snapshot;
}

int
pgs_test_run_cli (PgsFixture  *fx,
                  char       **out,
                  char       **err,
                  ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  gboolean is_json = FALSE;
  const char *arg;
  int status = 0;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("PAGESCOPE_CLI"));
  va_start (args, err);
  while ((arg = va_arg (args, const char *)) != NULL)
    {
      g_ptr_array_add (argv, (char *) arg);
      is_json |= strcmp (arg, "--json") == 0;
    }
  va_end (args);
  if (fx != NULL)
    {
      g_ptr_array_add (argv, (char *) "--procfs");
      g_ptr_array_add (argv, (char *) pgs_fixture_get_root (fx));
    }
  g_ptr_array_add (argv, NULL);
  /* Every document the CLI prints passes the strict check, whatever the test then looks
   * for in it; a refusal prints none. */
  if (is_json && out == NULL)
    out = &json;
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                &status, &error);
  g_assert_no_error (error);
  if (is_json && **out != '\0')
    pgs_test_assert_json (*out);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}
