/* fuzz-status.c: /proc/PID/status
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "pgs-parse.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  PgsStatus status;

  if (pgs_status_parse ((const char *) data, size, &status, &error))
    {
      /* The name is NUL-terminated inside its buffer and never ends in half a character
       * that was whole in the input. */
      g_assert (memchr (status.name, '\0', sizeof status.name) != NULL);
      g_assert_no_error (error);
    }
  else
    g_assert (error != NULL && error->message != NULL);
  return 0;
}
