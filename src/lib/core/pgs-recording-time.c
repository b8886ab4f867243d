/* pgs-recording-time.c: times on a recording's clock
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A clock time means the recording machine's clock, not the reader's: a recording made in
 * Berlin and read in Tokyo says 10:00 where Berlin said 10:00. "HH:MM:SS" alone is the first
 * such time at or after the start (a recording across midnight reaches the next day's).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pgs-error.h"
#include "pgs-sample-private.h"

static gboolean
parse_clock (const char *text,
             int        *h,
             int        *m,
             double     *s)
{
  char *end;
  long v;

  v = strtol (text, &end, 10);
  if (end == text || *end != ':' || v < 0 || v > 23)
    return FALSE;
  *h = (int) v;
  text = end + 1;
  v = strtol (text, &end, 10);
  if (end == text || v < 0 || v > 59)
    return FALSE;
  *m = (int) v;
  *s = 0;
  if (*end == ':')
    {
      text = end + 1;
      *s = g_ascii_strtod (text, &end);
      if (end == text || *s < 0 || *s >= 61)
        return FALSE;
    }
  return *end == '\0';
}

gboolean
_pgs_time_parse (const char *text,
                 gint64      start,
                 gint64      end,
                 GTimeZone  *tz,
                 gint64     *time,
                 GError    **error)
{
  int h, m;
  double s;

  if (text == NULL || *text == '\0')
    goto bad;
  if (text[0] == '+')
    {
      char *stop;
      double secs = g_ascii_strtod (text + 1, &stop);

      /* A damaged file's start can be anything: no overflow past it. */
      if (stop == text + 1 || *stop != '\0' || !(secs >= 0) || secs > 1e12 ||
          start > G_MAXINT64 - (gint64) (secs * G_USEC_PER_SEC))
        goto bad;
      *time = start + (gint64) (secs * G_USEC_PER_SEC);
      return TRUE;
    }
  if (parse_clock (text, &h, &m, &s))
    {
      g_autoptr(GDateTime) first = g_date_time_new_from_unix_utc (start / G_USEC_PER_SEC);
      g_autoptr(GDateTime) local = first != NULL ? g_date_time_to_timezone (first, tz) : NULL;

      if (local == NULL)
        goto bad;
      /* That clock time on the start's day, then on the days after, until one falls in the
       * recording or after its start. */
      for (int day = 0; day < 3; day++)
        {
          g_autoptr(GDateTime) d = g_date_time_add_days (local, day);
          g_autoptr(GDateTime) t = NULL;
          gint64 us;

          if (d == NULL)
            break;
          t = g_date_time_new (tz, g_date_time_get_year (d), g_date_time_get_month (d),
                               g_date_time_get_day_of_month (d), h, m, s);
          if (t == NULL)
            continue;
          us = g_date_time_to_unix (t) * G_USEC_PER_SEC + g_date_time_get_microsecond (t);
          if (us + G_USEC_PER_SEC > start)
            {
              *time = us;
              return TRUE;
            }
        }
      goto bad;
    }
  {
    g_autoptr(GDateTime) t = g_date_time_new_from_iso8601 (text, tz);

    if (t != NULL)
      {
        *time = g_date_time_to_unix (t) * G_USEC_PER_SEC + g_date_time_get_microsecond (t);
        return TRUE;
      }
  }

bad:
  g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
               "“%s” is not a time: give +SECONDS from the start, HH:MM:SS on the recording’s "
               "clock, or an ISO 8601 date and time", text != NULL ? text : "");
  return FALSE;
}

char *
_pgs_time_format (gint64     time,
                  gint64     start,
                  GTimeZone *tz)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (time / G_USEC_PER_SEC);
  g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_timezone (utc, tz) : NULL;
  g_autofree char *clock = local != NULL ? g_date_time_format (local, "%Y-%m-%d %H:%M:%S %Z") : g_strdup ("?");

  return g_strdup_printf ("%s (+%.0f s)", clock, (time - start) / 1e6);
}
