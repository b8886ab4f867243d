/* pgs-palette.h: every colour the maps use, in one place
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-category.h"

G_BEGIN_DECLS

/* Colours are opaque 0xAARRGGBB, which is also CAIRO_FORMAT_ARGB32 read as a native u32. */

/* Sharing classes: frames (or pages) by map count on a log scale. Order matters: a pixel
 * holding several frames shows the highest class among them. */
typedef enum
{
  PGS_SHARE_HOLE,      /* no frame (NOPAGE) */
  PGS_SHARE_FREE,      /* free (BUDDY) */
  PGS_SHARE_0,         /* in use, mapped by no process: page cache, kernel */
  PGS_SHARE_1,
  PGS_SHARE_2,
  PGS_SHARE_3_4,
  PGS_SHARE_5_8,
  PGS_SHARE_9_16,
  PGS_SHARE_17_32,
  PGS_SHARE_33_64,
  PGS_SHARE_65_128,
  PGS_SHARE_129_PLUS,
  PGS_N_SHARE_CLASSES
} PgsShareClass;

/* The class of a mapped count: 0 → PGS_SHARE_0, 1 → PGS_SHARE_1, 3 → PGS_SHARE_3_4… */
PgsShareClass  pgs_share_class_for_count     (guint32        count);
/* Translated: "Mapped 3–4 times". */
const char    *pgs_share_class_get_label     (PgsShareClass  klass);
/* Untranslated, stable: "3-4". */
const char    *pgs_share_class_get_id        (PgsShareClass  klass);

/* Sequential ramp (viridis, sampled at @n_steps even points, @step 0 darkest) for counts:
 * perceptually uniform and readable with every common colour-vision deficiency. */
guint32        pgs_palette_ramp              (guint          step,
                                              guint          n_steps);
guint32        pgs_palette_share             (PgsShareClass  klass);
/* Qualitative: Okabe–Ito and Paul Tol's colour-blind-safe sets, one per category. */
guint32        pgs_palette_category          (PgsCategory    category);

/* Named colours shared by all views. */
#define PGS_COLOR_HOLE        0xff3b3b3bu  /* dark grey, distinct from every ramp step */
#define PGS_COLOR_FREE        0xffe8e8e8u  /* near white: free memory recedes */
#define PGS_COLOR_NOT_PRESENT 0xffc4c4c4u  /* light grey */
#define PGS_COLOR_SWAPPED     0xffd55e00u  /* Okabe–Ito vermillion */
#define PGS_COLOR_BACKGROUND  0xff808080u  /* mid grey: the frame around a map, on light and dark */

/* Blends @argb towards @towards by @amount (0..255), for dimming what is not highlighted. */
guint32        pgs_palette_mix               (guint32        argb,
                                              guint32        towards,
                                              guint          amount);

G_END_DECLS
