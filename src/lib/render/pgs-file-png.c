/* pgs-file-png.c: a cairo surface written as a PNG file, whole or not at all
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from pgs-file.c so that libpagescope-core needs no cairo.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "pgs-file.h"
#include "pgs-file-png.h"

static cairo_status_t
append_png (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
pgs_file_replace_png (const char       *path,
                      cairo_surface_t  *surface,
                      GError          **error)
{
  g_autoptr(GByteArray) png = g_byte_array_new ();
  cairo_status_t status;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (surface != NULL, FALSE);

  /* Encoded in memory, then written whole: cairo_surface_write_to_png() leaves a partial
   * file behind and says only "error while writing to output stream", whatever the system
   * said. */
  status = cairo_surface_status (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png_stream (surface, append_png, png);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_autofree char *shown = g_filename_display_name (path);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write “%s”: %s"), shown,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return pgs_file_replace_contents (path, png->data, png->len, error);
}
