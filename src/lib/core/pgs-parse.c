/* pgs-parse.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-parse.h"

static gboolean
parse_hex (const char **pos,
           const char  *end,
           guint64     *value)
{
  const char *p = *pos;
  guint64 v = 0;
  guint digits = 0;

  while (p < end && g_ascii_isxdigit (*p))
    {
      if (digits++ >= 16)
        return FALSE;
      v = (v << 4) | (guint64) g_ascii_xdigit_value (*p);
      p++;
    }
  if (digits == 0)
    return FALSE;
  *pos = p;
  *value = v;
  return TRUE;
}

static gboolean
parse_dec (const char **pos,
           const char  *end,
           guint64     *value)
{
  const char *p = *pos;
  guint64 v = 0;
  guint digits = 0;

  while (p < end && g_ascii_isdigit (*p))
    {
      if (v > (G_MAXUINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (guint64) (*p - '0');
      digits++;
      p++;
    }
  if (digits == 0)
    return FALSE;
  *pos = p;
  *value = v;
  return TRUE;
}

static gboolean
expect (const char **pos,
        const char  *end,
        char         c)
{
  if (*pos >= end || **pos != c)
    return FALSE;
  (*pos)++;
  return TRUE;
}

static void
skip_spaces (const char **pos,
             const char  *end)
{
  while (*pos < end && (**pos == ' ' || **pos == '\t'))
    (*pos)++;
}

/* "start-end perms offset major:minor inode   path" (fs/proc/task_mmu.c show_map_vma) */
gboolean
pgs_maps_parse_line (const char   *line,
                     gsize         len,
                     PgsMapsEntry *entry)
{
  const char *p = line;
  const char *end = line + len;
  guint64 major, minor;

  memset (entry, 0, sizeof *entry);

  if (!parse_hex (&p, end, &entry->start) || !expect (&p, end, '-') ||
      !parse_hex (&p, end, &entry->end) || !expect (&p, end, ' '))
    return FALSE;
  if (entry->end < entry->start)
    return FALSE;

  if (end - p < 5)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      static const char allowed[4][3] = { "r-", "w-", "x-", "ps" };

      if (strchr (allowed[i], p[i]) == NULL || p[i] == '\0')
        return FALSE;
      entry->perms[i] = p[i];
    }
  entry->perms[4] = '\0';
  p += 4;

  if (!expect (&p, end, ' ') || !parse_hex (&p, end, &entry->offset) || !expect (&p, end, ' ') ||
      !parse_hex (&p, end, &major) || !expect (&p, end, ':') || !parse_hex (&p, end, &minor) ||
      !expect (&p, end, ' ') || !parse_dec (&p, end, &entry->inode))
    return FALSE;
  if (major > G_MAXUINT || minor > G_MAXUINT)
    return FALSE;
  entry->dev_major = (guint) major;
  entry->dev_minor = (guint) minor;

  if (p < end && *p != ' ')
    return FALSE;
  skip_spaces (&p, end);
  entry->path = p;
  entry->path_len = end - p;
  return TRUE;
}

void
pgs_line_reader_init (PgsLineReader *reader,
                      const char    *buf,
                      gsize          len)
{
  reader->pos = buf;
  reader->end = buf + len;
  reader->line_no = 0;
}

/* Yields each line without its newline. @complete is FALSE for a last line that has no
 * newline: procfs always ends lines, so such a line was cut short. */
gboolean
pgs_line_reader_next (PgsLineReader  *reader,
                      const char    **line,
                      gsize          *len,
                      gboolean       *complete)
{
  const char *nl;

  if (reader->pos >= reader->end)
    return FALSE;

  nl = memchr (reader->pos, '\n', reader->end - reader->pos);
  *line = reader->pos;
  if (nl != NULL)
    {
      *len = nl - reader->pos;
      *complete = TRUE;
      reader->pos = nl + 1;
    }
  else
    {
      *len = reader->end - reader->pos;
      *complete = FALSE;
      reader->pos = reader->end;
    }
  reader->line_no++;
  return TRUE;
}

static gboolean
has_prefix (const char *line,
            gsize       len,
            const char *prefix,
            gsize       prefix_len)
{
  /* The first byte first: most lines a parser meets are not the one it looks for, and
   * memcmp() is a call. */
  return len >= prefix_len && line[0] == prefix[0] && memcmp (line, prefix, prefix_len) == 0;
}

/* "Key:   123 kB" → bytes */
static gboolean
parse_kb_value (const char *p,
                const char *end,
                guint64    *bytes)
{
  guint64 kb;

  skip_spaces (&p, end);
  if (!parse_dec (&p, end, &kb))
    return FALSE;
  skip_spaces (&p, end);
  if (end - p != 2 || memcmp (p, "kB", 2) != 0)
    return FALSE;
  if (kb > G_MAXUINT64 / 1024)
    return FALSE;
  *bytes = kb * 1024;
  return TRUE;
}

#define KEY(s) s, sizeof s - 1

/* The number of bytes of @s (@len long) to keep so as not to end inside a UTF-8 character
 * that is whole in @s: a lead byte whose sequence runs past @len goes, with its
 * continuation bytes. Bytes that are not UTF-8 are kept as they are. */
static gsize
utf8_safe_cut (const guchar *s,
               gsize         full_len,
               gsize         len)
{
  gsize lead = len;

  if (len >= full_len)
    return full_len;
  /* The last lead byte within 3 bytes before the cut. */
  while (lead > 0 && len - lead < 4 && (s[lead - 1] & 0xc0) == 0x80)
    lead--;
  if (lead > 0 && len - lead < 4)
    {
      guchar c = s[lead - 1];
      gsize need = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;

      if (c >= 0xc0 && c < 0xf8 && lead - 1 + need > len)
        return lead - 1;
    }
  return len;
}

/* The Name: field as the kernel prints it (fs/proc/array.c proc_task_name): the task's comm
 * through string_escape_str (ESCAPE_SPACE | ESCAPE_SPECIAL, only "\n\\"), so a backslash
 * is written as two and a newline as \n; every other byte, tabs, spaces and bytes that are
 * not UTF-8 included, is written as it is. Undone here exactly, into at most @size - 1
 * bytes and a NUL, cut (a damaged file; comm is 63 bytes at most) at a character boundary. */
static void
unescape_name (const char *p,
               const char *end,
               char       *out,
               gsize       size)
{
  gsize n = 0;
  gboolean full = FALSE;

  while (p < end)
    {
      char c = *p++;

      if (c == '\\' && p < end && (*p == '\\' || *p == 'n'))
        c = *p++ == 'n' ? '\n' : '\\';
      if (c == '\0' || n + 1 >= size)
        {
          full = c != '\0';
          break;
        }
      out[n++] = c;
    }
  if (full)
    n = utf8_safe_cut ((const guchar *) out, n + 1, n);
  out[n] = '\0';
}

gboolean
pgs_status_parse (const char  *buf,
                  gsize        len,
                  PgsStatus   *status,
                  GError     **error)
{
  PgsLineReader reader;
  const char *line;
  gsize line_len;
  gboolean complete;
  gboolean have_name = FALSE, have_ppid = FALSE, have_uid = FALSE;

  memset (status, 0, sizeof *status);
  status->kthread = -1;
  pgs_line_reader_init (&reader, buf, len);

  while (pgs_line_reader_next (&reader, &line, &line_len, &complete))
    {
      const char *end = line + line_len;
      const char *p;
      guint64 v;

      if (!complete)
        break;

      if (has_prefix (line, line_len, KEY ("Name:")))
        {
          /* "Name:\t" then the name, which may itself begin with spaces or tabs. */
          p = line + 5;
          if (p < end && *p == '\t')
            p++;
          unescape_name (p, end, status->name, sizeof status->name);
          have_name = TRUE;
        }
      else if (has_prefix (line, line_len, KEY ("State:")))
        {
          p = line + 6;
          skip_spaces (&p, end);
          status->state = p < end ? *p : '?';
        }
      else if (has_prefix (line, line_len, KEY ("PPid:")))
        {
          p = line + 5;
          skip_spaces (&p, end);
          if (!parse_dec (&p, end, &v) || v > G_MAXINT)
            goto malformed;
          status->ppid = (int) v;
          have_ppid = TRUE;
        }
      else if (has_prefix (line, line_len, KEY ("Uid:")))
        {
          p = line + 4;
          skip_spaces (&p, end);
          if (!parse_dec (&p, end, &v) || v > G_MAXUINT)
            goto malformed;
          status->uid = (guint) v;
          have_uid = TRUE;
        }
      else if (has_prefix (line, line_len, KEY ("Kthread:")))
        {
          p = line + 8;
          skip_spaces (&p, end);
          if (!parse_dec (&p, end, &v) || v > 1)
            goto malformed;
          status->kthread = (int) v;
        }
      else if (has_prefix (line, line_len, KEY ("VmSize:")))
        {
          if (!parse_kb_value (line + 7, end, &status->vm_size))
            goto malformed;
          status->has_vm = TRUE;
        }
      else if (has_prefix (line, line_len, KEY ("VmRSS:")))
        {
          if (!parse_kb_value (line + 6, end, &status->vm_rss))
            goto malformed;
        }
      else if (has_prefix (line, line_len, KEY ("VmSwap:")))
        {
          if (!parse_kb_value (line + 7, end, &status->vm_swap))
            goto malformed;
          break;   /* the last line wanted: signals, capabilities and the rest follow */
        }
      continue;

    malformed:
      g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                   "status line %u does not parse: “%.*s”",
                   reader.line_no, (int) MIN (line_len, 80), line);
      return FALSE;
    }

  if (!have_name || !have_ppid || !have_uid)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_TRUNCATED,
                   "status lacks its Name, PPid or Uid line (truncated?)");
      return FALSE;
    }

  return TRUE;
}

static const struct {
  const char *key;
  gsize       key_len;
  gsize       offset;
} smaps_keys[] = {
  { KEY ("Size:"),          G_STRUCT_OFFSET (PgsSmapsFields, size) },
  { KEY ("Rss:"),           G_STRUCT_OFFSET (PgsSmapsFields, rss) },
  { KEY ("Pss:"),           G_STRUCT_OFFSET (PgsSmapsFields, pss) },
  { KEY ("Private_Clean:"), G_STRUCT_OFFSET (PgsSmapsFields, private_clean) },
  { KEY ("Private_Dirty:"), G_STRUCT_OFFSET (PgsSmapsFields, private_dirty) },
  { KEY ("Swap:"),          G_STRUCT_OFFSET (PgsSmapsFields, swap) },
  { KEY ("Referenced:"),    G_STRUCT_OFFSET (PgsSmapsFields, referenced) },
  { KEY ("Anonymous:"),     G_STRUCT_OFFSET (PgsSmapsFields, anonymous) },
  { KEY ("SwapPss:"),       G_STRUCT_OFFSET (PgsSmapsFields, swap_pss) },
  { KEY ("Shared_Clean:"),  G_STRUCT_OFFSET (PgsSmapsFields, shared_clean) },
  { KEY ("Shared_Dirty:"),  G_STRUCT_OFFSET (PgsSmapsFields, shared_dirty) },
  { KEY ("AnonHugePages:"), G_STRUCT_OFFSET (PgsSmapsFields, anon_huge) },
  { KEY ("ShmemPmdMapped:"), G_STRUCT_OFFSET (PgsSmapsFields, shmem_pmd) },
  { KEY ("FilePmdMapped:"), G_STRUCT_OFFSET (PgsSmapsFields, file_pmd) },
};

/* Returns TRUE when @line is a "Key: N kB" line (whether or not the key is one we keep),
 * FALSE for anything else (a mapping header, VmFlags, THPeligible, garbage). */
gboolean
pgs_smaps_parse_field (const char     *line,
                       gsize           len,
                       PgsSmapsFields *fields)
{
  for (guint i = 0; i < G_N_ELEMENTS (smaps_keys); i++)
    {
      /* Its colon where the key's is, then the key: one compare of a byte for most. */
      if (len >= smaps_keys[i].key_len && line[smaps_keys[i].key_len - 1] == ':' &&
          has_prefix (line, len, smaps_keys[i].key, smaps_keys[i].key_len))
        {
          guint64 *slot = G_STRUCT_MEMBER_P (fields, smaps_keys[i].offset);

          if (!parse_kb_value (line + smaps_keys[i].key_len, line + len, slot))
            return FALSE;
          fields->seen |= 1u << i;
          return TRUE;
        }
    }

  {
    const char *colon = memchr (line, ':', len);
    guint64 ignored;

    return colon != NULL && parse_kb_value (colon + 1, line + len, &ignored);
  }
}

gboolean
pgs_smaps_rollup_parse (const char      *buf,
                        gsize            len,
                        PgsSmapsFields  *fields,
                        GError         **error)
{
  PgsLineReader reader;
  const char *line;
  gsize line_len;
  gboolean complete;

  memset (fields, 0, sizeof *fields);
  pgs_line_reader_init (&reader, buf, len);

  while (pgs_line_reader_next (&reader, &line, &line_len, &complete))
    {
      PgsMapsEntry header;

      if (!complete)
        break;
      if (reader.line_no == 1 && pgs_maps_parse_line (line, line_len, &header))
        continue;
      if (!pgs_smaps_parse_field (line, line_len, fields))
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                       "smaps_rollup line %u does not parse: “%.*s”",
                       reader.line_no, (int) MIN (line_len, 80), line);
          return FALSE;
        }
    }

  if ((fields->seen & PGS_SMAPS_REQUIRED_ROLLUP) != PGS_SMAPS_REQUIRED_ROLLUP)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_TRUNCATED,
                   "smaps_rollup lacks Rss, Pss, Private_* or Swap (truncated?)");
      return FALSE;
    }
  return TRUE;
}

void
pgs_smaps_reader_init (PgsSmapsReader *reader,
                       const char     *buf,
                       gsize           len)
{
  memset (reader, 0, sizeof *reader);
  pgs_line_reader_init (&reader->lines, buf, len);
}

/* Gives the next mapping with its fields: TRUE, or FALSE at the end or at a line that is cut
 * short or does not parse (then @error is set and the reader stays at its end). */
gboolean
pgs_smaps_reader_next (PgsSmapsReader  *reader,
                       PgsMapsEntry    *entry,
                       PgsSmapsFields  *fields,
                       GError         **error)
{
  const char *line;
  gsize line_len;
  gboolean complete;

  if (reader->done)
    return FALSE;
  while (pgs_line_reader_next (&reader->lines, &line, &line_len, &complete))
    {
      PgsMapsEntry next;

      if (!complete)
        {
          reader->done = TRUE;
          g_set_error (error, PGS_ERROR, PGS_ERROR_TRUNCATED,
                       "smaps is cut short at line %u", reader->lines.line_no);
          return FALSE;
        }
      if (pgs_maps_parse_line (line, line_len, &next))
        {
          gboolean give = reader->have_entry;

          if (give)
            {
              *entry = reader->entry;
              *fields = reader->fields;
            }
          reader->entry = next;
          memset (&reader->fields, 0, sizeof reader->fields);
          reader->have_entry = TRUE;
          if (give)
            return TRUE;
          continue;
        }
      if (!reader->have_entry)
        goto malformed;
      if (has_prefix (line, line_len, KEY ("VmFlags:")) ||
          has_prefix (line, line_len, KEY ("THPeligible:")) ||
          has_prefix (line, line_len, KEY ("ProtectionKey:")))
        continue;
      if (!pgs_smaps_parse_field (line, line_len, &reader->fields))
        goto malformed;
      continue;

    malformed:
      reader->done = TRUE;
      g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                   "smaps line %u does not parse: “%.*s”",
                   reader->lines.line_no, (int) MIN (line_len, 80), line);
      return FALSE;
    }

  reader->done = TRUE;
  if (!reader->have_entry)
    return FALSE;
  *entry = reader->entry;
  *fields = reader->fields;
  return TRUE;
}

gboolean
pgs_stat_parse (const char     *buf,
                gsize           len,
                PgsStatFields  *out,
                GError        **error)
{
  const char *end = buf + len;
  const char *p = NULL;
  const char *open;
  guint64 value = 0;
  guint64 *kept[25] = { NULL };

  memset (out, 0, sizeof *out);
  kept[10] = &out->minflt;
  kept[12] = &out->majflt;
  kept[14] = &out->utime;
  kept[15] = &out->stime;
  kept[22] = &out->start_time;
  kept[23] = &out->vsize;
  kept[24] = &out->rss;

  for (const char *q = buf; q < end; q++)
    if (*q == ')')
      p = q + 1;
  if (p == NULL || (open = memchr (buf, '(', p - buf)) == NULL)
    goto malformed;
  out->comm = open + 1;
  out->comm_len = (p - 1) - out->comm;

  /* " S ppid pgrp …": field 3 is the state; fields up to 22 (the start time) must be there,
   * 23 (vsize) and 24 (rss) are read when they are. */
  if (!expect (&p, end, ' ') || p >= end || !g_ascii_isalpha (*p))
    goto malformed;
  out->state = *p++;
  for (guint field = 4; field <= 24; field++)
    {
      gboolean ok;

      ok = expect (&p, end, ' ');
      /* Some fields are signed (nice, priority, tty_nr can be -1). */
      if (ok && field != 22 && p < end && *p == '-')
        p++;
      ok = ok && parse_dec (&p, end, &value);
      if (!ok && field <= 22)
        goto malformed;
      if (!ok)
        break;
      if (field == 9)
        out->flags = (guint) value;
      else if (kept[field] != NULL)
        *kept[field] = value;
    }
  return TRUE;

malformed:
  g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED, "stat does not parse");
  return FALSE;
}

char *
pgs_cmdline_parse (const char *buf,
                   gsize       len)
{
  char *out = g_malloc (len + 1);

  for (gsize i = 0; i < len; i++)
    out[i] = buf[i] == '\0' ? ' ' : buf[i];
  while (len > 0 && out[len - 1] == ' ')
    len--;
  out[len] = '\0';
  return out;
}

gboolean
pgs_stat_btime_parse (const char  *buf,
                      gsize        len,
                      gint64      *btime,
                      GError     **error)
{
  PgsLineReader reader;
  const char *line;
  gsize line_len;
  gboolean complete;

  pgs_line_reader_init (&reader, buf, len);
  while (pgs_line_reader_next (&reader, &line, &line_len, &complete))
    {
      const char *p = line + strlen ("btime ");
      guint64 value;

      if (!complete || !has_prefix (line, line_len, KEY ("btime ")))
        continue;
      if (!parse_dec (&p, line + line_len, &value) || p != line + line_len ||
          value == 0 || value > G_MAXINT64)
        break;
      *btime = (gint64) value;
      return TRUE;
    }
  g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED, "stat has no btime line that parses");
  return FALSE;
}
