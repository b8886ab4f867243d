/* pgs-recording-codec.c: frames, varints and the samples of a recording file
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout is described in pgs-recording-format.h. A sample is stored as its change from
 * the sample before: on a machine at rest most processes do not change from one second to
 * the next, and an unchanged one costs nothing, so a sample is a few dozen bytes.
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-recording-format.h"
#include "pgs-snapshot-format.h"

/* CRC-32 (the polynomial of zlib, PNG and gzip), a table a byte. zlib's own would need it
 * linked; a frame is checked only when it is read (or when the index is rebuilt). */
static guint32 crc_table[256];

static void
init_crc_table (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      for (guint32 n = 0; n < 256; n++)
        {
          guint32 c = n;

          for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
          crc_table[n] = c;
        }
      g_once_init_leave (&done, 1);
    }
}

guint32
_pgs_crc32 (guint32       crc,
            const guint8 *data,
            gsize         len)
{
  init_crc_table ();
  crc = ~crc;
  for (gsize i = 0; i < len; i++)
    crc = crc_table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

static void
put_le (guint8  *p,
        guint64  v,
        guint    n)
{
  for (guint i = 0; i < n; i++)
    p[i] = (guint8) (v >> (8 * i));
}

static guint64
get_le (const guint8 *p,
        guint         n)
{
  guint64 v = 0;

  for (guint i = 0; i < n; i++)
    v |= (guint64) p[i] << (8 * i);
  return v;
}

void
_pgs_frame_append (GByteArray   *out,
                   guint8        type,
                   guint8        flags,
                   gint64        time,
                   guint32       number,
                   const guint8 *payload,
                   gsize         len)
{
  guint8 h[PGS_RECORDING_FRAME_HEADER] = { 0 };
  guint32 crc;

  g_assert (len <= G_MAXUINT32);
  h[0] = type;
  h[1] = flags;
  put_le (h + 4, len, 4);
  put_le (h + 8, (guint64) time, 8);
  put_le (h + 16, number, 4);
  crc = _pgs_crc32 (0, h, 20);
  crc = _pgs_crc32 (crc, payload, len);
  put_le (h + 20, crc, 4);
  g_byte_array_append (out, h, sizeof h);
  g_byte_array_append (out, payload, len);
}

void
_pgs_frame_parse (const guint8 *data,
                  PgsFrameInfo *info)
{
  info->type = data[0];
  info->flags = data[1];
  info->length = (guint32) get_le (data + 4, 4);
  info->time = (gint64) get_le (data + 8, 8);
  info->number = (guint32) get_le (data + 16, 4);
  info->crc = (guint32) get_le (data + 20, 4);
}

gboolean
_pgs_frame_check (const guint8       *data,
                  const PgsFrameInfo *info)
{
  guint32 crc = _pgs_crc32 (0, data, 20);

  crc = _pgs_crc32 (crc, data + PGS_RECORDING_FRAME_HEADER, info->length);
  return crc == info->crc && data[2] == 0 && data[3] == 0;
}

void
_pgs_put_varint (GByteArray *out,
                 guint64     v)
{
  guint8 buf[10];
  guint n = 0;

  do
    {
      buf[n] = v & 0x7f;
      v >>= 7;
      if (v != 0)
        buf[n] |= 0x80;
      n++;
    }
  while (v != 0);
  g_byte_array_append (out, buf, n);
}

void
_pgs_put_svarint (GByteArray *out,
                  gint64      v)
{
  _pgs_put_varint (out, ((guint64) v << 1) ^ (guint64) (v >> 63));
}

void
_pgs_put_string (GByteArray *out,
                 const char *s)
{
  gsize len = s != NULL ? strlen (s) : 0;

  _pgs_put_varint (out, len);
  g_byte_array_append (out, (const guint8 *) s, len);
}

guint64
_pgs_get_varint (PgsVarReader *r)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 b;

      if (r->bad || r->pos >= r->end)
        {
          r->bad = TRUE;
          return 0;
        }
      b = *r->pos++;
      v |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        return v;
    }
  r->bad = TRUE;
  return 0;
}

gint64
_pgs_get_svarint (PgsVarReader *r)
{
  guint64 v = _pgs_get_varint (r);

  return (gint64) (v >> 1) ^ -(gint64) (v & 1);
}

guint64
_pgs_get_count (PgsVarReader *r,
                gsize         min_size)
{
  guint64 n = _pgs_get_varint (r);

  if (r->bad || n > (guint64) (r->end - r->pos) / MAX (min_size, 1))
    {
      r->bad = TRUE;
      return 0;
    }
  return n;
}

char *
_pgs_get_string (PgsVarReader *r)
{
  guint64 len = _pgs_get_varint (r);
  char *s;

  if (r->bad || len > (guint64) (r->end - r->pos) || memchr (r->pos, '\0', len) != NULL)
    {
      r->bad = TRUE;
      return NULL;
    }
  s = g_strndup ((const char *) r->pos, len);
  r->pos += len;
  return s;
}

/* Process identity order: PID, then start. */
static int
compare_identity (const PgsSampleProcess *a,
                  const PgsSampleProcess *b)
{
  if (a->pid != b->pid)
    return a->pid < b->pid ? -1 : 1;
  if (a->start_time != b->start_time)
    return a->start_time < b->start_time ? -1 : 1;
  return 0;
}

static int
compare_identity_cb (gconstpointer a,
                     gconstpointer b)
{
  return compare_identity (a, b);
}

#define MASK_KNOWN (1u << PGS_SAMPLE_N_FIGURES)
#define MASK_UID   (1u << (PGS_SAMPLE_N_FIGURES + 1))
#define MASK_NAME  (1u << (PGS_SAMPLE_N_FIGURES + 2))
#define MASK_ALL   ((1u << (PGS_SAMPLE_N_FIGURES + 3)) - 1)

static void
put_new_process (GByteArray             *out,
                 const PgsSampleProcess *p)
{
  _pgs_put_varint (out, (guint64) p->pid);
  _pgs_put_varint (out, p->start_time);
  _pgs_put_varint (out, p->uid);
  _pgs_put_string (out, p->name);
  _pgs_put_varint (out, p->known);
  for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
    _pgs_put_varint (out, p->figures[f]);
}

void
_pgs_sample_encode (const PgsSample *prev,
                    const PgsSample *cur,
                    GByteArray      *out)
{
  /* The names may be shared and have grown since @prev: it has as many values as names it
   * knew. */
  guint n_prev_names = prev != NULL ? prev->values->len : 0;
  guint n_prev_values = prev != NULL ? prev->values->len : 0;
  GArray *none = g_array_new (FALSE, FALSE, sizeof (PgsSampleProcess));
  GArray *pp = prev != NULL ? prev->processes : none;
  GArray *cp = cur->processes;
  g_autoptr(GArray) gone = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) changed = g_array_new (FALSE, FALSE, sizeof (guint) * 3);  /* prev, cur, mask */
  g_autoptr(GArray) fresh = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_changed_values = 0, last;
  guint i = 0, j = 0;

  g_assert (cur->names->len >= n_prev_names);
  g_assert (cur->values->len <= cur->names->len);

  _pgs_put_varint (out, cur->names->len - n_prev_names);
  for (guint k = n_prev_names; k < cur->names->len; k++)
    _pgs_put_string (out, g_ptr_array_index (cur->names, k));

  /* Stored as value + 1, 0 for absent, so that a counter can come and go. */
#define STORED(s, k, n) ((k) < (n) ? g_array_index ((s)->values, guint64, k) + 1 : 0)
  for (guint k = 0; k < cur->names->len; k++)
    if (STORED (cur, k, cur->values->len) != (prev != NULL ? STORED (prev, k, n_prev_values) : 0))
      n_changed_values++;
  _pgs_put_varint (out, n_changed_values);
  last = 0;
  for (guint k = 0; k < cur->names->len; k++)
    {
      guint64 a = prev != NULL ? STORED (prev, k, n_prev_values) : 0;
      guint64 b = STORED (cur, k, cur->values->len);

      if (a == b)
        continue;
      _pgs_put_varint (out, k - last);
      _pgs_put_svarint (out, (gint64) (b - a));
      last = k + 1;
    }
#undef STORED

  while (i < pp->len || j < cp->len)
    {
      const PgsSampleProcess *a = i < pp->len ? &g_array_index (pp, PgsSampleProcess, i) : NULL;
      const PgsSampleProcess *b = j < cp->len ? &g_array_index (cp, PgsSampleProcess, j) : NULL;
      int order = a == NULL ? 1 : b == NULL ? -1 : compare_identity (a, b);

      if (order < 0)
        {
          g_array_append_val (gone, i);
          i++;
        }
      else if (order > 0)
        {
          g_array_append_val (fresh, j);
          j++;
        }
      else
        {
          guint mask = 0;

          for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
            if (a->figures[f] != b->figures[f])
              mask |= 1u << f;
          if (a->known != b->known)
            mask |= MASK_KNOWN;
          if (a->uid != b->uid)
            mask |= MASK_UID;
          if (g_strcmp0 (a->name, b->name) != 0)
            mask |= MASK_NAME;
          if (mask != 0)
            g_array_append_vals (changed, (guint[3]) { i, j, mask }, 1);
          i++;
          j++;
        }
    }

  _pgs_put_varint (out, gone->len);
  last = 0;
  for (guint k = 0; k < gone->len; k++)
    {
      guint idx = g_array_index (gone, guint, k);

      _pgs_put_varint (out, idx - last);
      last = idx + 1;
    }

  _pgs_put_varint (out, changed->len);
  last = 0;
  for (guint k = 0; k < changed->len; k++)
    {
      const guint *c = (const guint *) (changed->data + k * 3 * sizeof (guint));
      const PgsSampleProcess *a = &g_array_index (pp, PgsSampleProcess, c[0]);
      const PgsSampleProcess *b = &g_array_index (cp, PgsSampleProcess, c[1]);

      _pgs_put_varint (out, c[0] - last);
      last = c[0] + 1;
      _pgs_put_varint (out, c[2]);
      for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
        if (c[2] & (1u << f))
          _pgs_put_svarint (out, (gint64) (b->figures[f] - a->figures[f]));
      if (c[2] & MASK_KNOWN)
        _pgs_put_varint (out, b->known);
      if (c[2] & MASK_UID)
        _pgs_put_varint (out, b->uid);
      if (c[2] & MASK_NAME)
        _pgs_put_string (out, b->name);
    }

  _pgs_put_varint (out, fresh->len);
  for (guint k = 0; k < fresh->len; k++)
    put_new_process (out, &g_array_index (cp, PgsSampleProcess, g_array_index (fresh, guint, k)));
  g_array_unref (none);
}

static gboolean
bad (GError    **error,
     const char *what)
{
  g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent sample: %s", what);
  return FALSE;
}

static gboolean
check_figures (const PgsSampleProcess *p)
{
  for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
    if (p->figures[f] > PGS_SNAPSHOT_MAX_MAPPED)
      return FALSE;
  return p->pid > 0 && p->pid <= PGS_SNAPSHOT_MAX_PID;
}

static char *
take_name (char *s)
{
  char *ref = s != NULL ? g_ref_string_new (s) : NULL;

  g_free (s);
  return ref;
}

gboolean
_pgs_sample_decode (PgsSample     *state,
                    const guint8  *data,
                    gsize          len,
                    GError       **error)
{
  PgsVarReader r = { data, data + len, FALSE };
  GArray *old = state->processes;
  g_autoptr(GArray) next = NULL;
  g_autofree guint8 *is_gone = NULL;
  guint64 n;
  guint last;

  /* New names. */
  n = _pgs_get_count (&r, 1);
  if (state->names->len + n > G_MAXUINT32 / 2)
    return bad (error, "too many counters");
  for (guint64 k = 0; k < n && !r.bad; k++)
    {
      char *name = _pgs_get_string (&r);

      if (name != NULL)
        g_ptr_array_add (state->names, name);
    }
  if (r.bad)
    return bad (error, "counter names run past its end");

  /* Counters. */
  n = _pgs_get_count (&r, 2);
  last = 0;
  for (guint64 k = 0; k < n; k++)
    {
      guint64 gap = _pgs_get_varint (&r);
      gint64 change = _pgs_get_svarint (&r);
      guint64 idx = last + gap;
      guint64 stored;

      if (r.bad || idx >= state->names->len)
        return bad (error, "a counter that has no name");
      if (state->values->len <= idx)
        {
          guint from = state->values->len;

          g_array_set_size (state->values, idx + 1);
          for (guint v = from; v <= idx; v++)
            g_array_index (state->values, guint64, v) = PGS_SAMPLE_ABSENT;
        }
      stored = g_array_index (state->values, guint64, idx) + 1 + (guint64) change;
      g_array_index (state->values, guint64, idx) = stored - 1;   /* 0 - 1: absent */
      last = idx + 1;
    }
  if (state->values->len < state->names->len)
    {
      guint from = state->values->len;

      g_array_set_size (state->values, state->names->len);
      for (guint v = from; v < state->names->len; v++)
        g_array_index (state->values, guint64, v) = PGS_SAMPLE_ABSENT;
    }

  /* Gone. */
  is_gone = g_malloc0 (old->len + 1);
  n = _pgs_get_count (&r, 1);
  last = 0;
  for (guint64 k = 0; k < n; k++)
    {
      guint64 idx = last + _pgs_get_varint (&r);

      if (r.bad || idx >= old->len)
        return bad (error, "a process gone that was not there");
      is_gone[idx] = 1;
      last = idx + 1;
    }

  /* Changed. */
  n = _pgs_get_count (&r, 2);
  last = 0;
  for (guint64 k = 0; k < n; k++)
    {
      guint64 idx = last + _pgs_get_varint (&r);
      guint64 mask = _pgs_get_varint (&r);
      PgsSampleProcess *p;

      if (r.bad || idx >= old->len || is_gone[idx] || mask == 0 || mask > MASK_ALL)
        return bad (error, "a change to a process that is not there");
      p = &g_array_index (old, PgsSampleProcess, idx);
      for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
        if (mask & (1u << f))
          p->figures[f] += (guint64) _pgs_get_svarint (&r);
      if (mask & MASK_KNOWN)
        p->known = (guint) _pgs_get_varint (&r);
      if (mask & MASK_UID)
        p->uid = (guint) _pgs_get_varint (&r);
      if (mask & MASK_NAME)
        {
          char *name = _pgs_get_string (&r);

          g_clear_pointer (&p->name, g_ref_string_release);
          p->name = take_name (name);
        }
      if (r.bad || !check_figures (p))
        return bad (error, "an absurd figure");
      last = idx + 1;
    }

  /* The list after: those that stay, and the new ones. */
  n = _pgs_get_count (&r, 5 + PGS_SAMPLE_N_FIGURES);
  next = g_array_sized_new (FALSE, TRUE, sizeof (PgsSampleProcess), old->len + n);
  for (guint k = 0; k < old->len; k++)
    if (!is_gone[k])
      {
        PgsSampleProcess *p = &g_array_index (old, PgsSampleProcess, k);

        g_array_append_val (next, *p);
        p->name = NULL;   /* moved */
      }
  for (guint64 k = 0; k < n; k++)
    {
      PgsSampleProcess p = { 0 };
      guint64 pid = _pgs_get_varint (&r);

      p.pid = pid <= G_MAXINT ? (int) pid : -1;
      p.start_time = _pgs_get_varint (&r);
      p.uid = (guint) _pgs_get_varint (&r);
      p.name = take_name (_pgs_get_string (&r));
      p.known = (guint) _pgs_get_varint (&r);
      for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
        p.figures[f] = _pgs_get_varint (&r);
      g_array_append_val (next, p);
      if (r.bad || !check_figures (&p))
        {
          for (guint m = 0; m < next->len; m++)
            g_clear_pointer (&g_array_index (next, PgsSampleProcess, m).name, g_ref_string_release);
          return bad (error, "a new process with an absurd figure or cut short");
        }
    }
  if (r.pos != r.end)
    {
      for (guint m = 0; m < next->len; m++)
        g_clear_pointer (&g_array_index (next, PgsSampleProcess, m).name, g_ref_string_release);
      return bad (error, "bytes after its end");
    }
  g_array_sort (next, compare_identity_cb);
  for (guint k = 1; k < next->len; k++)
    if (compare_identity (&g_array_index (next, PgsSampleProcess, k - 1),
                          &g_array_index (next, PgsSampleProcess, k)) == 0)
      {
        for (guint m = 0; m < next->len; m++)
          g_clear_pointer (&g_array_index (next, PgsSampleProcess, m).name, g_ref_string_release);
        return bad (error, "the same process twice");
      }

  /* Swap the lists: @old frees the names of those gone. */
  g_array_set_size (old, 0);
  g_array_append_vals (old, next->data, next->len);
  g_array_set_size (next, 0);
  return TRUE;
}
