/* pgs-test-json.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-test-json.h"

typedef struct
{
  const char *start;
  const char *p;
  const char *end;
  guint       depth;
  char       *problem;
} Checker;

/* Deeper than any document the tools print; a bound so a bad one cannot blow the stack. */
#define MAX_DEPTH 256

static gboolean parse_value (Checker *c);

static gboolean
fail (Checker    *c,
      const char *what)
{
  if (c->problem == NULL)
    c->problem = g_strdup_printf ("%s at byte %" G_GSIZE_FORMAT, what, (gsize) (c->p - c->start));
  return FALSE;
}

static void
skip_ws (Checker *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static gboolean
literal (Checker    *c,
         const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (c->end - c->p) < n || memcmp (c->p, word, n) != 0)
    return fail (c, "not a JSON value (NaN, Infinity or a bare word?)");
  c->p += n;
  return TRUE;
}

static int
hex4 (const char *p)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      int d = g_ascii_xdigit_value (p[i]);

      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  return v;
}

/* A string from its opening quote; its decoded text (UTF-8) in @out when not NULL. */
static gboolean
parse_string (Checker *c,
              GString *out)
{
  c->p++;
  while (c->p < c->end)
    {
      guchar b = *c->p;

      if (b == '"')
        {
          c->p++;
          return TRUE;
        }
      if (b < 0x20)
        return fail (c, "a raw control character in a string");
      if (b == '\\')
        {
          if (c->end - c->p < 2)
            return fail (c, "a cut escape");
          switch (c->p[1])
            {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
              if (out != NULL)
                g_string_append_c (out, c->p[1]);
              c->p += 2;
              continue;
            case 'u':
              {
                int u, lo;

                if (c->end - c->p < 6 || (u = hex4 (c->p + 2)) < 0)
                  return fail (c, "a bad \\u escape");
                c->p += 6;
                if (u >= 0xdc00 && u <= 0xdfff)
                  return fail (c, "a lone low surrogate escape");
                if (u >= 0xd800 && u <= 0xdbff)
                  {
                    if (c->end - c->p < 6 || c->p[0] != '\\' || c->p[1] != 'u' ||
                        (lo = hex4 (c->p + 2)) < 0xdc00 || lo > 0xdfff)
                      return fail (c, "a lone high surrogate escape");
                    c->p += 6;
                    u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                  }
                if (out != NULL)
                  g_string_append_unichar (out, u);
                continue;
              }
            default:
              return fail (c, "an escape JSON does not have");
            }
        }
      if (b >= 0x80)
        {
          gunichar ch = g_utf8_get_char_validated (c->p, c->end - c->p);

          if (ch == (gunichar) -1 || ch == (gunichar) -2)
            return fail (c, "bytes that are not UTF-8 in a string");
          if (out != NULL)
            g_string_append_len (out, c->p, g_utf8_next_char (c->p) - c->p);
          c->p = g_utf8_next_char (c->p);
          continue;
        }
      if (out != NULL)
        g_string_append_c (out, b);
      c->p++;
    }
  return fail (c, "an unterminated string");
}

static gboolean
digits (Checker *c)
{
  const char *from = c->p;

  while (c->p < c->end && g_ascii_isdigit (*c->p))
    c->p++;
  return c->p > from;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
parse_number (Checker *c)
{
  if (*c->p == '-')
    c->p++;
  if (c->p >= c->end || !g_ascii_isdigit (*c->p))
    return fail (c, "a number without digits (NaN, Infinity?)");
  if (*c->p == '0')
    {
      c->p++;
      if (c->p < c->end && g_ascii_isdigit (*c->p))
        return fail (c, "a number with a leading zero");
    }
  else
    digits (c);
  if (c->p < c->end && *c->p == '.')
    {
      c->p++;
      if (!digits (c))
        return fail (c, "no digits after a decimal point");
    }
  if (c->p < c->end && (*c->p == 'e' || *c->p == 'E'))
    {
      c->p++;
      if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
        c->p++;
      if (!digits (c))
        return fail (c, "no digits in an exponent");
    }
  return TRUE;
}

static gboolean
parse_container (Checker *c,
                 gboolean object)
{
  g_autoptr(GHashTable) keys = object ? g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL)
                                      : NULL;
  const char close = object ? '}' : ']';
  gboolean first = TRUE;

  if (++c->depth > MAX_DEPTH)
    return fail (c, "nested too deep");
  c->p++;
  for (;;)
    {
      skip_ws (c);
      if (c->p >= c->end)
        return fail (c, "an unterminated object or array");
      if (*c->p == close)
        {
          if (!first)
            return fail (c, "a trailing comma");
          c->p++;
          break;
        }
      if (object)
        {
          g_autoptr(GString) key = g_string_new (NULL);

          if (*c->p != '"')
            return fail (c, "an object key that is not a string");
          if (!parse_string (c, key))
            return FALSE;
          if (g_hash_table_contains (keys, key->str))
            return fail (c, "a member twice in one object");
          g_hash_table_add (keys, g_string_free (g_steal_pointer (&key), FALSE));
          skip_ws (c);
          if (c->p >= c->end || *c->p != ':')
            return fail (c, "no colon after a key");
          c->p++;
        }
      if (!parse_value (c))
        return FALSE;
      skip_ws (c);
      if (c->p < c->end && *c->p == ',')
        {
          c->p++;
          first = FALSE;
          continue;
        }
      if (c->p < c->end && *c->p == close)
        {
          c->p++;
          break;
        }
      return fail (c, "neither a comma nor the end of an object or array");
    }
  c->depth--;
  return TRUE;
}

static gboolean
parse_value (Checker *c)
{
  skip_ws (c);
  if (c->p >= c->end)
    return fail (c, "no value");
  switch (*c->p)
    {
    case '{':
      return parse_container (c, TRUE);
    case '[':
      return parse_container (c, FALSE);
    case '"':
      return parse_string (c, NULL);
    case 't':
      return literal (c, "true");
    case 'f':
      return literal (c, "false");
    case 'n':
      return literal (c, "null");
    default:
      if (*c->p == '-' || g_ascii_isdigit (*c->p))
        return parse_number (c);
      return fail (c, "not a JSON value (NaN, Infinity or a bare word?)");
    }
}

gboolean
pgs_test_json_check (const char  *text,
                     gssize       len,
                     char       **problem)
{
  Checker c = { 0 };
  gboolean ok;

  g_return_val_if_fail (text != NULL, FALSE);
  if (len < 0)
    len = strlen (text);
  c.start = c.p = text;
  c.end = text + len;
  if (parse_value (&c))
    {
      skip_ws (&c);
      if (c.p != c.end)
        fail (&c, "more after the document");
    }
  ok = c.problem == NULL;
  if (problem != NULL)
    *problem = g_steal_pointer (&c.problem);
  g_free (c.problem);
  return ok;
}

void
pgs_test_assert_json (const char *text)
{
  g_autofree char *problem = NULL;

  if (!pgs_test_json_check (text, -1, &problem))
    g_error ("not strict JSON: %s\n%.2000s", problem, text);
}
