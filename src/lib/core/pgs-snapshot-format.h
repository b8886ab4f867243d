/* pgs-snapshot-format.h: the layout of a snapshot file, shared by its reader and writer
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fixed 64-byte header, then the payload: one zlib-compressed GVariant, little endian.
 *
 *   0  "PGSNAP\r\n"            magic (the CR LF catches text-mode mangling, as PNG's does)
 *   8  u32 format version       PGS_SNAPSHOT_FORMAT_VERSION; a reader refuses a higher one
 *  12  u32 reserved             0
 *  16  u64 payload size         compressed bytes after the header
 *  24  u64 uncompressed size    of the GVariant
 *  32  SHA-256                  over bytes 0..31 and the payload
 *
 * Strings are bytestrings ("ay"), not "s": process names and paths need not be UTF-8. The
 * physical map is stored as runs of frames with one count and one flags value; pagemap
 * entries as differences from the previous one (consecutive frames give runs of 1), which
 * zlib then packs.
 */

#pragma once

#include <glib.h>

#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_SNAPSHOT_MAGIC          "PGSNAP\r\n"
#define PGS_SNAPSHOT_MAGIC_LEN      8
#define PGS_SNAPSHOT_HEADER_SIZE    64
#define PGS_SNAPSHOT_FORMAT_VERSION 1

/* Beyond these a file is refused before anything is allocated for it (README, "Snapshot
 * files from elsewhere").
 *
 * The ceiling on the uncompressed GVariant is the largest snapshot a real machine makes: a
 * 4 TiB machine (PGS_SNAPSHOT_MAX_FRAMES) with every page mapped by one process, 12 bytes a
 * page (pagemap entry and map count: 12 GiB), and its frames in runs of 4 (16 bytes a run:
 * 4 GiB). A 24 GiB machine at rest makes 8 MB; 1 TiB at most 7 GiB (every frame a run). */
#define PGS_SNAPSHOT_MAX_PAYLOAD    (G_GUINT64_CONSTANT (16) << 30)
#define PGS_SNAPSHOT_MAX_FRAMES     (G_GUINT64_CONSTANT (1) << 30)   /* 4 TiB of 4 KiB frames */
/* Deflate packs at most 258 bytes into 2 bits: a header that declares more than this many
 * times the compressed size cannot be telling the truth. */
#define PGS_SNAPSHOT_MAX_RATIO      1032
/* No process maps more than this: 2^56 bytes of user space under 5-level paging (x86-64,
 * RISC-V Sv57; 2^52 on arm64), with room for the vsyscall page above it. Any mapping, any
 * process figure and the sum of a process's mappings must fit. */
#define PGS_SNAPSHOT_MAX_MAPPED     (G_GUINT64_CONSTANT (1) << 57)
/* Snapshot-wide sums of any figure must fit in a signed 64-bit difference (compare). */
#define PGS_SNAPSHOT_MAX_TOTAL      ((guint64) G_MAXINT64)
/* Linux's PID_MAX_LIMIT on 64-bit. */
#define PGS_SNAPSHOT_MAX_PID        (1 << 22)

#define PGS_SNAPSHOT_MAPPING_TYPE   "(ttttuuayayttttut)"
#define PGS_SNAPSHOT_RUN_TYPE       "(tuuuu)"
#define PGS_SNAPSHOT_PROCESS_TYPE   "(iiutmaymaymayttttttuumayubba" PGS_SNAPSHOT_MAPPING_TYPE \
                                    "a" PGS_SNAPSHOT_RUN_TYPE "atbaumay)"
#define PGS_SNAPSHOT_SKIPPED_TYPE   "(iayiay)"
#define PGS_SNAPSHOT_PHYSMAP_TYPE   "m(tauataumaymay)"
#define PGS_SNAPSHOT_TYPE           "(a{sv}a" PGS_SNAPSHOT_PROCESS_TYPE "a" PGS_SNAPSHOT_SKIPPED_TYPE \
                                    PGS_SNAPSHOT_PHYSMAP_TYPE ")"

/* The uncompressed GVariant of a snapshot (little endian). */
GBytes      *_pgs_snapshot_encode (PgsSnapshot  *snapshot);
/* The reverse, validating everything; for the reader and the fuzz target, which gives a
 * smaller @max_frames so that a run length cannot make it fill gigabytes. */
PgsSnapshot *_pgs_snapshot_decode (GBytes       *payload,
                                   guint64       max_frames,
                                   GError      **error);

/* A whole file's bytes to a snapshot: header, checksum, decompression, decoding. */
PgsSnapshot *_pgs_snapshot_load_bytes (const guint8  *data,
                                       gsize          len,
                                       guint64        max_frames,
                                       GError       **error);

G_END_DECLS
