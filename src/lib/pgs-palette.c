/* pgs-palette.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Counts go on viridis (van der Walt and Smith, matplotlib): lightness rises steadily from
 * end to end, so order reads without hue and survives every common colour-vision
 * deficiency and greyscale printing. Categories use the Okabe–Ito set and Paul Tol's
 * "muted" set, chosen to stay apart for colour-blind readers; fifteen categories cannot all
 * be told apart by hue alone, so related ones share a family (page cache in blues,
 * anonymous memory in oranges, kernel memory in reds and purples, nothing-there in greys)
 * and the legend and tooltips carry the rest. Every colour is a mid or light tone that
 * reads on both a light and a dark window.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "pgs-palette.h"

/* viridis at 0, 0.1, …, 1 */
static const guint32 viridis[] = {
  0x440154, 0x482475, 0x414487, 0x355f8d, 0x2a788e, 0x21918c,
  0x22a884, 0x44bf70, 0x7ad151, 0xbddf26, 0xfde725,
};

guint32
pgs_palette_ramp (guint step,
                  guint n_steps)
{
  double t, pos, frac;
  guint i;
  guint32 a, b, out = 0xff000000u;

  g_return_val_if_fail (n_steps > 0, 0xff000000u);

  t = n_steps > 1 ? (double) MIN (step, n_steps - 1) / (n_steps - 1) : 1.0;
  pos = t * (G_N_ELEMENTS (viridis) - 1);
  i = MIN ((guint) pos, G_N_ELEMENTS (viridis) - 2);
  frac = pos - i;
  a = viridis[i];
  b = viridis[i + 1];
  for (guint shift = 0; shift < 24; shift += 8)
    {
      double ca = (a >> shift) & 0xff, cb = (b >> shift) & 0xff;

      out |= (guint32) (ca + (cb - ca) * frac + 0.5) << shift;
    }
  return out;
}

PgsShareClass
pgs_share_class_for_count (guint32 count)
{
  guint klass;

  if (count <= 1)
    return count == 0 ? PGS_SHARE_0 : PGS_SHARE_1;
  /* 2 → 1 step above PGS_SHARE_1, 3–4 → 2, 5–8 → 3: the bit length of count - 1. */
  klass = PGS_SHARE_1 + (32 - __builtin_clz (count - 1));
  return MIN (klass, PGS_SHARE_129_PLUS);
}

static const struct
{
  const char *id;
  const char *label;
} share_info[PGS_N_SHARE_CLASSES] = {
  [PGS_SHARE_HOLE] = { "hole", N_("Hole (no page)") },
  [PGS_SHARE_FREE] = { "free", N_("Free") },
  [PGS_SHARE_0] = { "0", N_("In use, not mapped") },
  [PGS_SHARE_1] = { "1", N_("Mapped once") },
  [PGS_SHARE_2] = { "2", N_("Mapped 2 times") },
  [PGS_SHARE_3_4] = { "3-4", N_("Mapped 3–4 times") },
  [PGS_SHARE_5_8] = { "5-8", N_("Mapped 5–8 times") },
  [PGS_SHARE_9_16] = { "9-16", N_("Mapped 9–16 times") },
  [PGS_SHARE_17_32] = { "17-32", N_("Mapped 17–32 times") },
  [PGS_SHARE_33_64] = { "33-64", N_("Mapped 33–64 times") },
  [PGS_SHARE_65_128] = { "65-128", N_("Mapped 65–128 times") },
  [PGS_SHARE_129_PLUS] = { "129+", N_("Mapped 129 times or more") },
};

const char *
pgs_share_class_get_label (PgsShareClass klass)
{
  g_return_val_if_fail (klass < PGS_N_SHARE_CLASSES, NULL);
  return g_dgettext (GETTEXT_PACKAGE, share_info[klass].label);
}

const char *
pgs_share_class_get_id (PgsShareClass klass)
{
  g_return_val_if_fail (klass < PGS_N_SHARE_CLASSES, NULL);
  return share_info[klass].id;
}

guint32
pgs_palette_share (PgsShareClass klass)
{
  g_return_val_if_fail (klass < PGS_N_SHARE_CLASSES, 0xff000000u);

  if (klass == PGS_SHARE_HOLE)
    return PGS_COLOR_HOLE;
  if (klass == PGS_SHARE_FREE)
    return PGS_COLOR_FREE;
  /* In use but mapped by no process (kernel, page cache): grey, off the ramp. On the ramp's
   * dark end it could not be told from "mapped once", and it is most of a machine. */
  if (klass == PGS_SHARE_0)
    return PGS_COLOR_UNMAPPED;
  return pgs_palette_ramp (klass - PGS_SHARE_1, PGS_N_SHARE_CLASSES - PGS_SHARE_1);
}

static const guint32 category_colors[PGS_N_CATEGORIES] = {
  [PGS_CATEGORY_HOLE] = PGS_COLOR_HOLE,
  [PGS_CATEGORY_ZERO_PAGE] = 0xff009e73u,      /* Okabe–Ito bluish green */
  [PGS_CATEGORY_FREE] = PGS_COLOR_FREE,
  /* Tol pale blue: light, as free memory is, and apart from free's grey by hue for every
   * common colour-vision deficiency (blue survives protan and deutan vision). */
  [PGS_CATEGORY_FREE_UNINIT] = PGS_COLOR_FREE_UNINIT,
  [PGS_CATEGORY_RESERVED] = 0xff8e8e8eu,       /* grey */
  [PGS_CATEGORY_SLAB] = 0xffcc6677u,           /* Tol rose */
  [PGS_CATEGORY_PAGE_TABLE] = 0xff882255u,     /* Tol wine */
  [PGS_CATEGORY_HUGETLB] = 0xff332288u,        /* Tol indigo */
  [PGS_CATEGORY_KSM] = 0xffaa4499u,            /* Tol purple */
  [PGS_CATEGORY_UNEVICTABLE] = 0xff999933u,    /* Tol olive */
  [PGS_CATEGORY_ANON_THP] = 0xffd55e00u,       /* Okabe–Ito vermillion */
  [PGS_CATEGORY_ANON] = 0xffe69f00u,           /* Okabe–Ito orange */
  [PGS_CATEGORY_SHMEM] = 0xffddcc77u,          /* Tol sand */
  [PGS_CATEGORY_DIRTY] = 0xfff0e442u,          /* Okabe–Ito yellow */
  [PGS_CATEGORY_FILE_ACTIVE] = 0xff0072b2u,    /* Okabe–Ito blue */
  [PGS_CATEGORY_FILE_INACTIVE] = 0xff56b4e9u,  /* Okabe–Ito sky blue */
};

guint32
pgs_palette_category (PgsCategory category)
{
  g_return_val_if_fail (category < PGS_N_CATEGORIES, 0xff000000u);
  return category_colors[category];
}

guint32
pgs_palette_mix (guint32 argb,
                 guint32 towards,
                 guint   amount)
{
  guint32 out = 0xff000000u;

  amount = MIN (amount, 255);
  for (guint shift = 0; shift < 24; shift += 8)
    {
      guint a = (argb >> shift) & 0xff, b = (towards >> shift) & 0xff;

      out |= ((a * (255 - amount) + b * amount + 127) / 255) << shift;
    }
  return out;
}

static const struct
{
  const char *id;
  const char *label;
  guint32     color;
} res_info[PGS_N_RES_CLASSES] = {
  [PGS_RES_NONE] = { "none", N_("Outside every mapping"), PGS_COLOR_BACKGROUND },
  [PGS_RES_NOT_PRESENT_ANON] = { "not-present-anon", N_("Not present, anonymous"),
                                 PGS_COLOR_NOT_PRESENT },
  [PGS_RES_NOT_PRESENT_FILE] = { "not-present-file", N_("Not present, file"),
                                 PGS_COLOR_NOT_PRESENT_FILE },
  /* As the zero page category on the flags view. */
  [PGS_RES_ZERO] = { "zero-page", N_("Zero page"), 0xff009e73u },
  [PGS_RES_SWAPPED] = { "swapped", N_("Swapped out"), PGS_COLOR_SWAPPED },
  [PGS_RES_PRESENT] = { "present", N_("Present, sharing unknown"), 0xffcc79a7u },
  /* As page cache and anonymous memory on the flags view. */
  [PGS_RES_PRIVATE_FILE] = { "private-file", N_("Present, private, file"), 0xff56b4e9u },
  [PGS_RES_PRIVATE_ANON] = { "private-anon", N_("Present, private, anonymous"), 0xffe69f00u },
  [PGS_RES_SHARED_2] = { "shared-2", N_("Shared by 2"), 0 },
  [PGS_RES_SHARED_3_4] = { "shared-3-4", N_("Shared by 3–4"), 0 },
  [PGS_RES_SHARED_5_8] = { "shared-5-8", N_("Shared by 5–8"), 0 },
  [PGS_RES_SHARED_9_16] = { "shared-9-16", N_("Shared by 9–16"), 0 },
  [PGS_RES_SHARED_17_32] = { "shared-17-32", N_("Shared by 17–32"), 0 },
  [PGS_RES_SHARED_33_64] = { "shared-33-64", N_("Shared by 33–64"), 0 },
  [PGS_RES_SHARED_65_128] = { "shared-65-128", N_("Shared by 65–128"), 0 },
  [PGS_RES_SHARED_129_PLUS] = { "shared-129+", N_("Shared by 129 or more"), 0 },
};

const char *
pgs_res_class_get_label (PgsResClass klass)
{
  g_return_val_if_fail (klass < PGS_N_RES_CLASSES, NULL);
  return g_dgettext (GETTEXT_PACKAGE, res_info[klass].label);
}

const char *
pgs_res_class_get_id (PgsResClass klass)
{
  g_return_val_if_fail (klass < PGS_N_RES_CLASSES, NULL);
  return res_info[klass].id;
}

guint32
pgs_palette_res (PgsResClass klass)
{
  g_return_val_if_fail (klass < PGS_N_RES_CLASSES, 0xff000000u);

  /* Shared pages take the sharing view's colour for the same count. */
  if (klass >= PGS_RES_SHARED_2)
    return pgs_palette_share (PGS_SHARE_2 + (klass - PGS_RES_SHARED_2));
  return res_info[klass].color;
}
