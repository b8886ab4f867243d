/* pgs-cgroup.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-cgroup.h"
#include "pgs-parse.h"

char *
pgs_cgroup_parse (const char *buf,
                  gsize       len)
{
  PgsLineReader reader;
  const char *line;
  gsize line_len;
  gboolean complete;

  g_return_val_if_fail (buf != NULL, NULL);

  /* "hierarchy-ID:controllers:path"; the unified (v2) hierarchy is ID 0 with no
   * controllers. On a hybrid system the v1 lines come first and "0::" last. */
  pgs_line_reader_init (&reader, buf, len);
  while (pgs_line_reader_next (&reader, &line, &line_len, &complete))
    {
      if (line_len >= 4 && memcmp (line, "0::", 3) == 0 && line[3] == '/' &&
          memchr (line, '\0', line_len) == NULL)
        return g_strndup (line + 3, line_len - 3);
    }
  return NULL;
}

char *
pgs_cgroup_unescape (const char *str,
                     gssize      len)
{
  GString *out;

  if (len < 0)
    len = strlen (str);
  out = g_string_sized_new (len);
  for (gssize i = 0; i < len; i++)
    {
      if (str[i] == '\\' && i + 3 < len && str[i + 1] == 'x' &&
          g_ascii_isxdigit (str[i + 2]) && g_ascii_isxdigit (str[i + 3]))
        {
          char c = (char) (g_ascii_xdigit_value (str[i + 2]) * 16 + g_ascii_xdigit_value (str[i + 3]));

          /* A NUL would cut the name short: keep the escape as it is. */
          if (c != '\0')
            {
              g_string_append_c (out, c);
              i += 3;
              continue;
            }
        }
      g_string_append_c (out, str[i]);
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_digits (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

/* "app[-<launcher>]-<id>[-<random>].scope", "app[-<launcher>]-<id>[@<random>].service".
 * The id's own dashes are escaped (\x2d), so the dashes left separate launcher, id and the
 * random suffix. The suffix is optional; what launchers put there is a number (GNOME: a
 * PID) or a random string, so a scope with three or more parts drops the last one, a
 * scope with two drops the last one only when it is a number. */
static char *
parse_app_unit (const char *unit)
{
  g_autofree char *stem = NULL;
  g_auto(GStrv) parts = NULL;
  gboolean scope = g_str_has_suffix (unit, ".scope");
  guint n, first, last;
  g_autofree char *joined = NULL;
  char *at;

  if (!g_str_has_prefix (unit, "app-"))
    return NULL;
  if (scope)
    stem = g_strndup (unit + 4, strlen (unit) - 4 - strlen (".scope"));
  else if (g_str_has_suffix (unit, ".service"))
    {
      stem = g_strndup (unit + 4, strlen (unit) - 4 - strlen (".service"));
      if ((at = strchr (stem, '@')) != NULL)
        *at = '\0';
    }
  else
    return NULL;

  parts = g_strsplit (stem, "-", -1);
  n = g_strv_length (parts);
  if (n == 0 || *parts[0] == '\0')
    return NULL;

  first = 0;
  last = n;  /* exclusive */
  if (scope && (n >= 3 || (n == 2 && is_digits (parts[1]))))
    last = n - 1;
  if (last - first >= 2)
    first = 1;  /* the launcher */
  if (last <= first)
    return NULL;

  /* Unescaped dashes inside the id, if a launcher wrote them: keep them in the id. */
  {
    GString *id = g_string_new (parts[first]);

    for (guint i = first + 1; i < last; i++)
      g_string_append_printf (id, "-%s", parts[i]);
    joined = g_string_free (id, FALSE);
  }
  if (*joined == '\0')
    return NULL;
  return pgs_cgroup_unescape (joined, -1);
}

static PgsUnitKind
classify_unit (const char  *unit,
               char       **name)
{
  char *app;

  if ((app = parse_app_unit (unit)) != NULL)
    {
      if (g_str_has_suffix (app, ".desktop"))
        app[strlen (app) - strlen (".desktop")] = '\0';
      *name = app;
      return PGS_UNIT_APP;
    }
  if (g_str_has_suffix (unit, ".service"))
    {
      *name = pgs_cgroup_unescape (unit, -1);
      return PGS_UNIT_SERVICE;
    }
  if (g_str_has_prefix (unit, "session-") && g_str_has_suffix (unit, ".scope"))
    {
      *name = pgs_cgroup_unescape (unit, -1);
      return PGS_UNIT_SESSION;
    }
  return PGS_UNIT_OTHER;
}

PgsUnitKind
pgs_cgroup_classify (const char  *path,
                     char       **name)
{
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (path != NULL, PGS_UNIT_OTHER);
  g_return_val_if_fail (name != NULL, PGS_UNIT_OTHER);

  /* The innermost unit wins: a service may make sub-cgroups of its own
   * (/system.slice/foo.service/worker), and a user's services live under user@UID.service. */
  parts = g_strsplit (path, "/", -1);
  for (guint i = g_strv_length (parts); i-- > 0;)
    {
      PgsUnitKind kind;

      if (*parts[i] == '\0')
        continue;
      kind = classify_unit (parts[i], name);
      if (kind != PGS_UNIT_OTHER)
        return kind;
    }
  *name = g_strdup (path);
  return PGS_UNIT_OTHER;
}
