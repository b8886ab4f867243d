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

/* Residency classes: one virtual page of a process. Order matters as for sharing: a pixel
 * holding several pages shows the highest (most resident, then most shared) among them. */
typedef enum
{
  PGS_RES_NONE,              /* not in any mapping: the background */
  PGS_RES_NOT_PRESENT_ANON,  /* in an anonymous mapping, never touched or reclaimed */
  PGS_RES_NOT_PRESENT_FILE,  /* in a file mapping, not in memory for this process */
  PGS_RES_ZERO,              /* mapped to the shared zero page */
  PGS_RES_SWAPPED,
  PGS_RES_PRESENT,           /* present, map count not read (no privilege) */
  PGS_RES_PRIVATE_FILE,      /* present, mapped once, a file page */
  PGS_RES_PRIVATE_ANON,      /* present, mapped once, anonymous */
  PGS_RES_SHARED_2,          /* present and shared: the sharing classes from 2 up */
  PGS_RES_SHARED_3_4,
  PGS_RES_SHARED_5_8,
  PGS_RES_SHARED_9_16,
  PGS_RES_SHARED_17_32,
  PGS_RES_SHARED_33_64,
  PGS_RES_SHARED_65_128,
  PGS_RES_SHARED_129_PLUS,
  PGS_N_RES_CLASSES
} PgsResClass;

const char    *pgs_res_class_get_label       (PgsResClass    klass);
const char    *pgs_res_class_get_id          (PgsResClass    klass);
guint32        pgs_palette_res               (PgsResClass    klass);

/* Sequential ramp (viridis, sampled at @n_steps even points, @step 0 darkest) for counts:
 * perceptually uniform and readable with every common colour-vision deficiency. */
guint32        pgs_palette_ramp              (guint          step,
                                              guint          n_steps);
guint32        pgs_palette_share             (PgsShareClass  klass);
/* Qualitative: Okabe–Ito and Paul Tol's colour-blind-safe sets, one per category. */
guint32        pgs_palette_category          (PgsCategory    category);

/* Named colours shared by all views. */
#define PGS_COLOR_HOLE        0xff404040u  /* dark grey, apart from every ramp step */
#define PGS_COLOR_FREE        0xffdcdcdcu  /* light grey: free memory recedes */
#define PGS_COLOR_FREE_UNINIT 0xffbbcceeu  /* Tol pale blue: free, never initialised */
#define PGS_COLOR_UNMAPPED    0xff8e8e8eu  /* mid grey, as "reserved or other kernel" */
#define PGS_COLOR_NOT_PRESENT 0xffdcdcdcu  /* light grey, as free: nothing there */
#define PGS_COLOR_NOT_PRESENT_FILE 0xffc2c2c2u  /* a shade darker: file-backed */
#define PGS_COLOR_SWAPPED     0xffd55e00u  /* Okabe–Ito vermillion */
#define PGS_COLOR_BACKGROUND  0xffffffffu  /* around the map; the app sets its theme's */

/* Blends @argb towards @towards by @amount (0..255), for dimming what is not highlighted. */
guint32        pgs_palette_mix               (guint32        argb,
                                              guint32        towards,
                                              guint          amount);

G_END_DECLS
