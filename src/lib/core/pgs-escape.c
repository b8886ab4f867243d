/* pgs-escape.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-escape.h"

static gboolean
is_shown (gunichar c)
{
  GUnicodeType type = g_unichar_type (c);

  /* g_unichar_isprint() already refuses controls, format characters, unassigned and
   * surrogate code points; separators would break a line of a table. */
  return g_unichar_isprint (c) &&
         type != G_UNICODE_LINE_SEPARATOR && type != G_UNICODE_PARAGRAPH_SEPARATOR;
}

char *
pgs_escape_for_terminal (const char *bytes,
                         gssize      len)
{
  GString *out;
  const char *p, *end;

  if (bytes == NULL)
    return g_strdup ("");
  if (len < 0)
    len = strlen (bytes);
  out = g_string_sized_new (len + 1);
  p = bytes;
  end = bytes + len;
  while (p < end)
    {
      guchar b = *p;
      gunichar c;

      if (b < 0x80)
        {
          g_string_append_c (out, b < 0x20 || b == 0x7f ? '?' : (char) b);
          p++;
          continue;
        }
      c = g_utf8_get_char_validated (p, end - p);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* One "?" per byte, so a cut character shows as its length. */
          g_string_append_c (out, '?');
          p++;
          continue;
        }
      if (is_shown (c))
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      else
        g_string_append_c (out, '?');
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

guint
pgs_escape_width (const char *text)
{
  guint width = 0;

  g_return_val_if_fail (g_utf8_validate (text, -1, NULL), strlen (text));

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iszerowidth (c))
        continue;
      width += g_unichar_iswide (c) ? 2 : 1;
    }
  return width;
}

char *
pgs_escape_make_valid (const char *bytes)
{
  if (bytes == NULL || g_utf8_validate (bytes, -1, NULL))
    return NULL;
  return g_utf8_make_valid (bytes, -1);
}

/* Spreadsheets (Excel, LibreOffice, Google Sheets) evaluate a cell that starts with one of
 * these as a formula; TAB and CR are stripped by some before they look. The fullwidth
 * forms are folded to ASCII by some East Asian locales' input handling. */
static gboolean
starts_formula (const char *text)
{
  gunichar c;

  if (*text == '\0')
    return FALSE;
  if (strchr ("=+-@\t\r", *text) != NULL)
    return TRUE;
  c = g_utf8_get_char (text);
  return c == 0xff1d || c == 0xff0b || c == 0xff0d || c == 0xff20;
}

char *
pgs_escape_for_csv (const char *bytes,
                    gboolean   *exact)
{
  g_autofree char *shown = pgs_escape_for_terminal (bytes, -1);
  gboolean formula;

  if (bytes == NULL)
    {
      if (exact != NULL)
        *exact = TRUE;
      return g_steal_pointer (&shown);
    }
  /* Decided on the bytes as well as on the text shown: a leading TAB shows as "?". */
  formula = starts_formula (bytes) || starts_formula (shown);
  if (exact != NULL)
    *exact = !formula && strcmp (shown, bytes) == 0;
  if (formula)
    return g_strconcat ("'", shown, NULL);
  return g_steal_pointer (&shown);
}
