/* pgs-file-name.c: the names the save and export dialogs suggest
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GLib only, so the unit suite tests it without a display.
 */

#include "config.h"

#include "pgs-file-name.h"

#define MAX_SUBJECT_CHARS 64

/* A process names itself (prctl, argv[0]): its name may hold a '/', a newline, a terminal
 * escape, a right-to-left override, bytes that are not UTF-8. None of that belongs in a
 * file name a dialog shows and a shell may later see. */
static char *
safe_subject (const char *subject)
{
  g_autofree char *valid = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  guint n = 0;

  if (subject == NULL)
    return g_strdup ("pagescope");
  /* Bytes that are not UTF-8 become U+FFFD, and that then '_'. */
  valid = g_utf8_make_valid (subject, -1);
  for (const char *p = valid; *p != '\0' && n < MAX_SUBJECT_CHARS; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeType type = g_unichar_type (c);

      if (c == '/' || c == 0xFFFD || type == G_UNICODE_CONTROL || type == G_UNICODE_FORMAT ||
          type == G_UNICODE_LINE_SEPARATOR || type == G_UNICODE_PARAGRAPH_SEPARATOR)
        g_string_append_c (out, '_');
      else
        g_string_append_unichar (out, c);
    }
  /* Not a hidden file, and no blanks at either end for a shell to lose. */
  g_strstrip (out->str);
  for (char *p = out->str; *p == '.'; p++)
    *p = '_';
  if (*out->str == '\0')
    return g_strdup ("pagescope");
  return g_strdup (out->str);
}

char *
pgs_file_name_suggest (const char *subject,
                       int         pid,
                       GDateTime  *time,
                       const char *extension)
{
  g_autofree char *safe = safe_subject (subject);
  g_autofree char *stamp = NULL;

  g_return_val_if_fail (time != NULL, NULL);
  g_return_val_if_fail (extension != NULL, NULL);

  stamp = g_date_time_format (time, "%Y-%m-%d-%H%M");
  if (pid > 0)
    return g_strdup_printf ("%s-%d-%s.%s", safe, pid, stamp, extension);
  return g_strdup_printf ("%s-%s.%s", safe, stamp, extension);
}
