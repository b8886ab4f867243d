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

/* The look of a map: a background and a set of class colours for each. Every class colour
 * keeps a contrast of 3:1 or more against its style's background (4.5:1 in high
 * contrast), text 4.5:1 (7:1), and no class colour comes near the highlight colour. */
typedef enum
{
  PGS_RENDER_STYLE_LIGHT,
  PGS_RENDER_STYLE_DARK,
  PGS_RENDER_STYLE_HC_LIGHT,   /* high contrast, light */
  PGS_RENDER_STYLE_HC_DARK,    /* high contrast, dark */
  PGS_N_RENDER_STYLES
} PgsRenderStyle;

typedef struct
{
  guint32 background;  /* around the map and behind the legend */
  guint32 text;        /* legend and labels */
  guint32 text_dim;    /* secondary text: the legend's rule */
  guint32 grid;        /* band ticks, swatch borders */
  guint32 highlight;   /* the frames of the chosen process: filled or outlined in it */
  guint32 halo;        /* the outline's outer tone, the highlight one pixel inside it: the
                        * background's extreme, 3:1 or more against every class colour */
} PgsStyleColors;

const PgsStyleColors *pgs_palette_style      (PgsRenderStyle style);
/* Untranslated, stable: "light", "dark", "hc-light", "hc-dark". */
const char    *pgs_render_style_get_id       (PgsRenderStyle style);
/* FALSE for an unknown @id. */
gboolean       pgs_render_style_from_id      (const char    *id,
                                              PgsRenderStyle *style);

/* Sequential ramp (viridis, sampled at @n_steps even points, @step 0 darkest) for counts:
 * perceptually uniform and readable with every common colour-vision deficiency. The whole
 * ramp; the maps use the part of it that @style's background allows. */
guint32        pgs_palette_ramp              (guint          step,
                                              guint          n_steps);
guint32        pgs_palette_share_for_style    (PgsRenderStyle style,
                                               PgsShareClass  klass);
/* The same ramp for a continuous value (DAMON's access rate): @fraction 0 (none) to 1
 * (every sample), within the part of the ramp @style's background allows. */
guint32        pgs_palette_heat_for_style     (PgsRenderStyle style,
                                               double         fraction);
/* Qualitative: Okabe–Ito and Paul Tol's colour-blind-safe sets, one per category. */
guint32        pgs_palette_category_for_style (PgsRenderStyle style,
                                               PgsCategory    category);
/* PGS_RES_NONE is the background. */
guint32        pgs_palette_res_for_style      (PgsRenderStyle style,
                                               PgsResClass    klass);
/* The same in the light style. */
guint32        pgs_palette_share             (PgsShareClass  klass);
guint32        pgs_palette_category          (PgsCategory    category);
guint32        pgs_palette_res               (PgsResClass    klass);

/* The light style's background. */
#define PGS_COLOR_BACKGROUND  0xffffffffu

G_END_DECLS
