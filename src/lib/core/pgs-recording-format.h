/* pgs-recording-format.h: the layout of a recording file, shared by its reader and writer
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A recording is append-only, little endian:
 *
 *   0  "PGSREC\r\n"      magic
 *   8  u32 version       PGS_RECORDING_FORMAT_VERSION; a reader refuses a higher one by name
 *  12  u32 reserved      0
 *  16  frames, one after the other, each
 *        0  u8  type     'H' header, 'S' sample, 'P' picture, 'X' index
 *        1  u8  flags    PGS_FRAME_KEY: a sample or picture that stands alone
 *        2  u16 reserved 0
 *        4  u32 payload length
 *        8  i64 time     microseconds since the epoch
 *       16  u32 number   the sample's or picture's number, from 0
 *       20  u32 CRC-32   (zlib's polynomial) over bytes 0..19 and the payload
 *       24  the payload
 *   on a clean end: an 'X' frame, then 16 bytes: u64 offset of the 'X' frame, "PGRECEND".
 *
 * 'H' (first frame): a GVariant a{sv}: hostname, kernel, boot-id, version (ay), time-zone (s,
 * an identifier such as "Europe/Berlin"), utc-offset (i, seconds, at the start), privileged
 * (b), interval-ms (u), pages-every-ms (u), page-size (u), boot-time (x, seconds since the
 * epoch: start times in clock ticks after boot become times), clock-ticks (u).
 *
 * 'S': varints (LEB128; signed ones zigzag) describing the change from the sample before
 * (a key sample: from nothing, so the same decoder reads both):
 *   n new counter names, each a string (varint length, bytes)
 *   n changed counters, each: index gap, signed change of (value + 1) (0 = absent)
 *   n processes gone, each: index gap in the list before
 *   n processes changed, each: index gap in the list before, a mask (bit i: figure i,
 *     PGS_SAMPLE_N_FIGURES: known, +1: uid, +2: name), then what the mask names: signed
 *     changes of figures, known and uid as they are, name as a string
 *   n processes new, each: pid, start time, uid, name, known, the figures
 * A key sample comes every PGS_RECORDING_KEY_SAMPLES samples, so any sample is at most that
 * many decodings away.
 *
 * 'P': u64 size of the snapshot GVariant (pgs-snapshot-format.h), u64 size of what the zlib
 * stream that follows inflates to: from version 2 on, the structural difference
 * (pgs-picture-diff.c) from the picture before, or from the empty picture for a key picture,
 * whose processes are, from version 3 on, their bytes but pages and each page a residual
 * from a prediction (pgs-picture-proc.c); version 1, the GVariant itself for a key picture,
 * else a block difference of the bytes (pgs-delta.h). A key picture comes every
 * PGS_RECORDING_KEY_PICTURES pictures.
 *
 * 'X': varint count, then per frame: type, flags, offset gap, length, signed time change,
 * number. Missing or wrong, it is rebuilt by reading the frames from the start.
 */

#pragma once

#include <glib.h>

#include "pgs-sample.h"
#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_RECORDING_MAGIC            "PGSREC\r\n"
#define PGS_RECORDING_MAGIC_LEN        8
#define PGS_RECORDING_PREAMBLE_SIZE    16
#define PGS_RECORDING_FRAME_HEADER     24
#define PGS_RECORDING_TRAILER_SIZE     16
#define PGS_RECORDING_TRAILER_MAGIC    "PGRECEND"
/* 2: pictures differ structurally from the one before (pgs-picture-diff.c); 3: the same,
 * with each process's pages predicted (pgs-picture-proc.c). Versions 1 (block differences,
 * pgs-delta.h) and 2 are still read. */
#define PGS_RECORDING_FORMAT_VERSION   3
#define PGS_RECORDING_KEY_SAMPLES      60
#define PGS_RECORDING_KEY_PICTURES     10

enum
{
  PGS_FRAME_HEADER  = 'H',
  PGS_FRAME_SAMPLE  = 'S',
  PGS_FRAME_PICTURE = 'P',
  PGS_FRAME_INDEX   = 'X',
};

#define PGS_FRAME_KEY 0x01

typedef struct
{
  guint8  type;
  guint8  flags;
  guint32 length;
  gint64  time;
  guint32 number;
  guint32 crc;
  guint64 offset;   /* of the frame header in the file */
} PgsFrameInfo;

guint32  _pgs_crc32           (guint32        crc,
                               const guint8  *data,
                               gsize          len);

/* A frame: header (with its CRC) and payload, appended to @out. */
void     _pgs_frame_append    (GByteArray    *out,
                               guint8         type,
                               guint8         flags,
                               gint64         time,
                               guint32        number,
                               const guint8  *payload,
                               gsize          len);
/* The header at @data (at least PGS_RECORDING_FRAME_HEADER bytes); no CRC check. */
void     _pgs_frame_parse     (const guint8  *data,
                               PgsFrameInfo  *info);
/* Whether the CRC of the frame at @data (header and @info->length bytes of payload) holds. */
gboolean _pgs_frame_check     (const guint8  *data,
                               const PgsFrameInfo *info);

/* Varints. */
void     _pgs_put_varint      (GByteArray    *out,
                               guint64        v);
void     _pgs_put_svarint     (GByteArray    *out,
                               gint64         v);
void     _pgs_put_string      (GByteArray    *out,
                               const char    *s);

typedef struct
{
  const guint8 *pos;
  const guint8 *end;
  gboolean      bad;
} PgsVarReader;

guint64  _pgs_get_varint      (PgsVarReader  *r);
gint64   _pgs_get_svarint     (PgsVarReader  *r);
/* A newly allocated string, or NULL (and r->bad) when it runs past the end or holds a NUL. */
char    *_pgs_get_string      (PgsVarReader  *r);
/* A count of items of at least @min_size bytes each, checked against what is left. */
guint64  _pgs_get_count       (PgsVarReader  *r,
                               gsize          min_size);

/* The sample payload for @cur, as a change from @prev (NULL: a key sample). Both in
 * (pid, start_time) order; @cur's names extend @prev's. */
void     _pgs_sample_encode   (const PgsSample *prev,
                               const PgsSample *cur,
                               GByteArray      *out);
/* Applies a sample payload to @state (for a key sample, a fresh pgs_sample_new()). FALSE,
 * with a message, for a payload that does not add up; @state is then unusable. */
gboolean _pgs_sample_decode   (PgsSample       *state,
                               const guint8    *data,
                               gsize            len,
                               GError         **error);

G_END_DECLS

G_BEGIN_DECLS

/* What a picture's difference (version 3) made of its processes, for the next one in a
 * chain: each process's pages, entries and bytes (pgs-picture-proc.c). */
typedef struct _PgsPictureProcs PgsPictureProcs;
void     _pgs_picture_procs_free  (PgsPictureProcs *self);

/* A picture frame's payload applied to the picture before's GVariant (NULL for a key
 * picture): the picture's GVariant, or NULL with a message. Sizes are checked against the
 * payload's length and the snapshot format's ceilings before anything is allocated. */
GBytes  *_pgs_picture_apply   (GBytes        *before,
                               const guint8  *payload,
                               gsize          len,
                               gboolean       key,
                               guint          version,
                               PgsPictureProcs **cache,
                               GError       **error);

/* The structural difference of @picture from @before (snapshot GVariants as
 * _pgs_snapshot_encode makes them), appended to @out. */
void     _pgs_picture_diff_encode (GBytes      *before,
                                   GBytes      *picture,
                                   GByteArray  *out);
/* The same in a format @version's layout (2 or 3; _pgs_picture_diff_encode is version 2's). */
void     _pgs_picture_diff_encode_version (GBytes     *before,
                                           GBytes     *picture,
                                           guint       version,
                                           GByteArray *out);
/* The same, with a chain's cache (_pgs_picture_procs_encode). */
void     _pgs_picture_diff_encode_cached (GBytes           *before,
                                          GBytes           *picture,
                                          guint             version,
                                          PgsPictureProcs **cache,
                                          GByteArray       *out);
/* @before with a difference applied: a GVariant of exactly @size bytes, or NULL with a
 * message. Never more than about @size bytes are allocated, whatever the difference says. */
/* The picture with nothing in it, which a key picture differs from (version 2). */
GBytes  *_pgs_picture_empty       (void);
GBytes  *_pgs_picture_diff_apply  (GBytes       *before,
                                   const guint8 *diff,
                                   gsize         len,
                                   guint64       size,
                                   GError      **error);
/* The same for a format @version's layout (_pgs_picture_diff_apply reads version 2's). */
GBytes  *_pgs_picture_diff_apply_version (GBytes       *before,
                                          const guint8 *diff,
                                          gsize         len,
                                          guint64       size,
                                          guint         version,
                                          GError      **error);
/* The same, with a chain's cache (_pgs_picture_procs_apply). */
GBytes  *_pgs_picture_diff_apply_cached  (GBytes           *before,
                                          const guint8     *diff,
                                          gsize             len,
                                          guint64           size,
                                          guint             version,
                                          PgsPictureProcs **cache,
                                          GError          **error);

G_END_DECLS
