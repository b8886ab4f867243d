/* pgs-damon-trace.c: lines of the damon:damon_aggregated tracepoint
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "pgs-damon-trace.h"
#include "pgs-error.h"

#define EVENT_MARK ": damon_aggregated: "

typedef struct
{
  const char *p;
  const char *end;
} Cursor;

static gboolean
eat (Cursor     *c,
     const char *text)
{
  gsize n = strlen (text);

  if ((gsize) (c->end - c->p) < n || memcmp (c->p, text, n) != 0)
    return FALSE;
  c->p += n;
  return TRUE;
}

/* A decimal number, no sign, that fits in @max. */
static gboolean
number (Cursor  *c,
        guint64  max,
        guint64 *value)
{
  guint64 v = 0;
  const char *start = c->p;

  while (c->p < c->end && g_ascii_isdigit (*c->p))
    {
      guint d = *c->p - '0';

      if (v > (max - d) / 10)
        return FALSE;
      v = v * 10 + d;
      c->p++;
    }
  if (c->p == start)
    return FALSE;
  *value = v;
  return TRUE;
}

static const char *
find (const char *hay,
      gsize       len,
      const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= len; i++)
    if (hay[i] == needle[0] && memcmp (hay + i, needle, n) == 0)
      return hay + i;
  return NULL;
}

static PgsDamonLine
fail (GError    **error,
      const char *line,
      gsize       len,
      const char *why)
{
  /* The line as it came, cut and made printable: it may be anything. */
  g_autofree char *shown = g_strndup (line, MIN (len, 160));

  for (char *s = shown; *s; s++)
    if (!g_ascii_isprint (*s))
      *s = '?';
  g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
               _("Unexpected damon_aggregated trace line (%s): “%s”"), why, shown);
  return PGS_DAMON_LINE_ERROR;
}

/* "5123.456789" (any number of decimals up to 9) or "5123456789" (a counter clock). */
static gboolean
parse_timestamp (const char    *s,
                 gsize          n,
                 PgsDamonEvent *event)
{
  Cursor c = { s, s + n };
  guint64 secs = 0, frac = 0;
  guint digits = 0;

  if (n == 0 || n >= sizeof event->timestamp)
    return FALSE;
  if (!number (&c, G_MAXUINT64 / 1000000000u, &secs))
    return FALSE;
  if (c.p < c.end && *c.p == '.')
    {
      c.p++;
      while (c.p < c.end && g_ascii_isdigit (*c.p) && digits < 9)
        {
          frac = frac * 10 + (guint64) (*c.p - '0');
          digits++;
          c.p++;
        }
      if (digits == 0)
        return FALSE;
      for (guint i = digits; i < 9; i++)
        frac *= 10;
      event->timestamp_ns = secs * 1000000000u + frac;
    }
  else
    event->timestamp_ns = secs;   /* a counter, not seconds */
  if (c.p != c.end)
    return FALSE;
  memcpy (event->timestamp, s, n);
  event->timestamp[n] = '\0';
  return TRUE;
}

/* The header before the event: "COMM-PID [CPU] FLAGS TIMESTAMP" (FLAGS and the CPU may
 * be switched off by trace options): the timestamp is the last word, the PID follows the
 * last '-' of the first part. */
static gboolean
parse_header (const char    *line,
              gsize          len,
              PgsDamonEvent *event)
{
  gsize ts_end = len, ts_start;
  const char *bracket = NULL;

  while (ts_end > 0 && line[ts_end - 1] == ' ')
    ts_end--;
  ts_start = ts_end;
  while (ts_start > 0 && line[ts_start - 1] != ' ')
    ts_start--;
  if (!parse_timestamp (line + ts_start, ts_end - ts_start, event))
    return FALSE;

  event->pid = -1;
  for (gsize i = 0; i < ts_start; i++)
    if (line[i] == '[')
      {
        bracket = line + i;
        break;
      }
  if (bracket != NULL)
    {
      const char *e = bracket;
      const char *dash;
      guint64 pid;
      Cursor c;

      while (e > line && e[-1] == ' ')
        e--;
      dash = e;
      while (dash > line && dash[-1] != '-')
        dash--;
      c.p = dash;
      c.end = e;
      if (dash > line && number (&c, G_MAXINT, &pid) && c.p == e)
        event->pid = (int) pid;
    }
  return TRUE;
}

PgsDamonLine
pgs_damon_trace_parse_line (const char     *line,
                            gsize           len,
                            guint64         addr_unit,
                            guint64         ram_end,
                            PgsDamonEvent  *event,
                            guint64        *lost,
                            GError        **error)
{
  const char *mark;
  Cursor c;
  guint64 v, start, end;

  g_return_val_if_fail (line != NULL || len == 0, PGS_DAMON_LINE_ERROR);
  g_return_val_if_fail (event != NULL, PGS_DAMON_LINE_ERROR);

  while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    len--;
  if (addr_unit == 0)
    addr_unit = 1;
  memset (event, 0, sizeof *event);

  /* Lost events: "CPU:3 [LOST 120 EVENTS]". */
  c.p = line;
  c.end = line + len;
  if (eat (&c, "CPU:"))
    {
      const char *l = find (line, len, "[LOST ");

      if (l != NULL)
        {
          c.p = l + strlen ("[LOST ");
          if (number (&c, G_MAXUINT64, &v) && eat (&c, " EVENTS]"))
            {
              if (lost)
                *lost = v;
              return PGS_DAMON_LINE_LOST;
            }
        }
      return fail (error, line, len, _("a lost-events line that does not parse"));
    }

  mark = find (line, len, EVENT_MARK);
  if (mark == NULL)
    {
      /* Ours only when it names the event at all: then its format is not the one known. */
      if (find (line, len, "damon_aggregated") != NULL)
        return fail (error, line, len, _("unknown format"));
      return PGS_DAMON_LINE_OTHER;
    }
  if (!parse_header (line, mark - line, event))
    return fail (error, line, len, _("no timestamp"));

  c.p = mark + strlen (EVENT_MARK);
  if (!eat (&c, "target_id=") || !number (&c, G_MAXUINT64, &event->target_id))
    return fail (error, line, len, _("no target_id"));
  if (!eat (&c, " nr_regions=") || !number (&c, G_MAXUINT32, &v))
    return fail (error, line, len, _("no nr_regions"));
  event->nr_regions = (guint32) v;
  if (!eat (&c, " ") || !number (&c, G_MAXUINT64, &start) || !eat (&c, "-") ||
      !number (&c, G_MAXUINT64, &end) || !eat (&c, ": "))
    return fail (error, line, len, _("no region"));
  if (!number (&c, G_MAXUINT32, &v))
    return fail (error, line, len, _("no nr_accesses"));
  event->nr_accesses = (guint32) v;
  if (!eat (&c, " ") || !number (&c, G_MAXUINT32, &v))
    return fail (error, line, len, _("no age"));
  event->age = (guint32) v;
  while (c.p < c.end && *c.p == ' ')
    c.p++;
  if (c.p != c.end)
    return fail (error, line, len, _("more after the age"));

  if (event->nr_regions == 0)
    return fail (error, line, len, _("nr_regions is 0"));
  if (end <= start)
    return fail (error, line, len, _("a region that ends before it starts"));
  if (start > G_MAXUINT64 / addr_unit || end > G_MAXUINT64 / addr_unit)
    return fail (error, line, len, _("an address beyond 64 bits once scaled by addr_unit"));
  event->start = start * addr_unit;
  event->end = end * addr_unit;
  if (ram_end != 0 && event->end > ram_end)
    {
      g_autofree char *why = g_strdup_printf (_("region beyond RAM, which ends at %#" PRIx64),
                                              ram_end);

      return fail (error, line, len, why);
    }
  return PGS_DAMON_LINE_EVENT;
}
