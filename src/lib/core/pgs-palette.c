/* pgs-palette.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Counts go on viridis (van der Walt and Smith, matplotlib): lightness rises steadily from
 * end to end, so order reads without hue and survives every common colour-vision
 * deficiency and greyscale printing. Categories began as the Okabe–Ito set and Paul Tol's
 * "muted" set in families (page cache in blues, anonymous memory in oranges and yellows,
 * kernel memory in reds and purples, nothing-there in near-greys).
 *
 * Each style (light, dark, high contrast light and dark) keeps every class colour at a
 * contrast of 3:1 or more against its background (4.5:1 in high contrast): on white that
 * means CIE L* of about 60 or less, on a dark grey 46 or more. Within that band, any two
 * colours of one legend (the flag map's sixteen categories; the sharing map's hole, free,
 * unmapped and ramp; the residency map's classes) are at least ΔE2000 12 apart, for normal
 * vision and through Machado, Oliveira and Fernandes's deuteranopia matrix (2009, severity
 * 1), where a deuteranope sees little but lightness and blue against yellow. Only the ramp's
 * steps are excepted among themselves: nine steps cannot be 12 apart inside the band, and
 * they read in order of lightness. The colours were found by a search from the families
 * above (each category kept in its hue sector, the greys under C* 14, the smallest move
 * from the original that meets the rule), which is why they are not round numbers;
 * test-palette.c checks the rule with its own CIEDE2000 and matrix. The highlight is black
 * on light styles and white on dark ones, every class colour more than CIE76 ΔE 20 away
 * from it for every viewer, colour-blind or not, as test-render-style checks. Black alone
 * is lost on the dark blues and purples (contrast 1.6:1 with #0e15ad), so an outline is
 * two tones: outside, the halo, the background's extreme (white on light styles, black on
 * dark ones), and the highlight colour one pixel inside it. Every class colour keeps 3:1 against its background, so against the
 * halo too; test-style checks that on the map's pixels.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "pgs-palette.h"

/* viridis at 0, 0.1, …, 1 */
static const guint32 viridis[] = {
  0x440154, 0x482475, 0x414487, 0x355f8d, 0x2a788e, 0x21918c,
  0x22a884, 0x44bf70, 0x7ad151, 0xbddf26, 0xfde725,
};

/* viridis at @t (0..1), linear between the samples */
static guint32
viridis_at (double t)
{
  double pos, frac;
  guint i;
  guint32 a, b, out = 0xff000000u;

  pos = CLAMP (t, 0.0, 1.0) * (G_N_ELEMENTS (viridis) - 1);
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

guint32
pgs_palette_ramp (guint step,
                  guint n_steps)
{
  g_return_val_if_fail (n_steps > 0, 0xff000000u);

  return viridis_at (n_steps > 1 ? (double) MIN (step, n_steps - 1) / (n_steps - 1) : 1.0);
}

/* Per style. The categories in PgsCategory order; the residency classes not taken from
 * the categories or the ramp: "not present, file" (a near-grey, told from free's) and
 * "present, sharing unknown" (from Okabe–Ito reddish purple #cc79a7). */
static const struct
{
  const char     *id;
  PgsStyleColors  colors;
  double          ramp_start;   /* the part of viridis in the band, its ends chosen so that
                                 * no channel of a step falls on a rounding tie */
  double          ramp_end;
  guint32         category[PGS_N_CATEGORIES];
  guint32         not_present_file;
  guint32         present;
} styles[PGS_N_RENDER_STYLES] = {
  /* White: L* 20…62 (contrast 3:1 and up); near-greys L* 32 (hole), 27 (free), 43. */
  [PGS_RENDER_STYLE_LIGHT] = {
    "light",
    { 0xffffffffu, 0xff202020u, 0xff505050u, 0xff707070u, 0xff000000u, 0xffffffffu },
    0.1, 0.58,
    { 0xff494b59u, 0xff014004u, 0xff3e4238u, 0xff617294u, 0xff626662u, 0xffaf3b4fu,
      0xffc65f9au, 0xff0e15adu, 0xff52125bu, 0xff88847bu, 0xff833802u, 0xff966908u,
      0xffa69067u, 0xffa99500u, 0xff025d99u, 0xff018cdbu },
    0xff7f735bu, 0xff944365u,
  },
  /* Adwaita's dark view #1e1e1e: L* 45…95 (3:1 and up); near-greys 71 (hole), 45 (free), 77. */
  [PGS_RENDER_STYLE_DARK] = {
    "dark",
    { 0xff1e1e1eu, 0xffeeeeeeu, 0xffbdbdbdu, 0xff9a9a9au, 0xffffffffu, 0xff000000u },
    0.4, 0.81,
    { 0xffa6afb9u, 0xff94f6acu, 0xff706a61u, 0xff416e90u, 0xffcfbab5u, 0xffd37185u,
      0xffa45a84u, 0xff8163deu, 0xffd953b7u, 0xffabaa66u, 0xffd16208u, 0xff917349u,
      0xfffcf57au, 0xffc9c014u, 0xff9ec5f3u, 0xff0bacffu },
    0xffaeafb5u, 0xfff784e1u,
  },
  /* White: L* 9…50 (4.5:1 and up); near-greys 23 (hole), 39 (free), 40. */
  [PGS_RENDER_STYLE_HC_LIGHT] = {
    "hc-light",
    { 0xffffffffu, 0xff000000u, 0xff202020u, 0xff000000u, 0xff000000u, 0xffffffffu },
    0.1, 0.42,
    { 0xff2e3743u, 0xff314336u, 0xff545d61u, 0xff556a8du, 0xff685e4eu, 0xffb7507bu,
      0xff8000d7u, 0xff000b81u, 0xffc90bd4u, 0xff874c00u, 0xff612700u, 0xffee0700u,
      0xff1e2100u, 0xff91704bu, 0xff014d77u, 0xff001937u },
    0xff313b4au, 0xffa93d60u,
  },
  /* Black: L* 49…89 (4.5:1 and up); near-greys 76 (hole), 49 (free), 78. Short of the
   * rule for a deuteranope (test-palette.c): free is ΔE2000 11.2 from the ramp's fourth
   * step, 11.6 from anonymous; anonymous huge page and dirty, the zero page and the ramp's
   * top 11.9. */
  [PGS_RENDER_STYLE_HC_DARK] = {
    "hc-dark",
    { 0xff000000u, 0xffffffffu, 0xffe0e0e0u, 0xffffffffu, 0xffffffffu, 0xff000000u },
    0.46, 0.81,
    { 0xffb3bec5u, 0xffdae2a5u, 0xff707761u, 0xff66afc6u, 0xffd3bdb3u, 0xffdb6b89u,
      0xffa47990u, 0xff7d61e0u, 0xffb94aa5u, 0xffaca86au, 0xfff02d04u, 0xff857339u,
      0xfffadd01u, 0xffed9600u, 0xffb1d7ffu, 0xff1fa6feu },
    0xffbeb7b7u, 0xffd785bdu,
  },
};

const PgsStyleColors *
pgs_palette_style (PgsRenderStyle style)
{
  g_return_val_if_fail (style < PGS_N_RENDER_STYLES, &styles[0].colors);
  return &styles[style].colors;
}

const char *
pgs_render_style_get_id (PgsRenderStyle style)
{
  g_return_val_if_fail (style < PGS_N_RENDER_STYLES, NULL);
  return styles[style].id;
}

gboolean
pgs_render_style_from_id (const char     *id,
                          PgsRenderStyle *style)
{
  for (guint s = 0; s < PGS_N_RENDER_STYLES && id != NULL; s++)
    if (g_strcmp0 (id, styles[s].id) == 0)
      {
        *style = s;
        return TRUE;
      }
  return FALSE;
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
pgs_palette_share_for_style (PgsRenderStyle style,
                             PgsShareClass  klass)
{
  guint n = PGS_N_SHARE_CLASSES - PGS_SHARE_1;

  g_return_val_if_fail (style < PGS_N_RENDER_STYLES, 0xff000000u);
  g_return_val_if_fail (klass < PGS_N_SHARE_CLASSES, 0xff000000u);

  if (klass == PGS_SHARE_HOLE)
    return styles[style].category[PGS_CATEGORY_HOLE];
  if (klass == PGS_SHARE_FREE)
    return styles[style].category[PGS_CATEGORY_FREE];
  /* In use but mapped by no process (kernel, page cache): grey, off the ramp. On the ramp's
   * dark end it could not be told from "mapped once", and it is most of a machine. */
  if (klass == PGS_SHARE_0)
    return styles[style].category[PGS_CATEGORY_RESERVED];
  return viridis_at (styles[style].ramp_start + (styles[style].ramp_end - styles[style].ramp_start)
                     * (klass - PGS_SHARE_1) / (n - 1));
}

guint32
pgs_palette_heat_for_style (PgsRenderStyle style,
                            double         fraction)
{
  g_return_val_if_fail (style < PGS_N_RENDER_STYLES, 0xff000000u);

  if (!(fraction >= 0))
    fraction = 0;
  if (fraction > 1)
    fraction = 1;
  return viridis_at (styles[style].ramp_start +
                     (styles[style].ramp_end - styles[style].ramp_start) * fraction);
}

guint32
pgs_palette_share (PgsShareClass klass)
{
  return pgs_palette_share_for_style (PGS_RENDER_STYLE_LIGHT, klass);
}

guint32
pgs_palette_category_for_style (PgsRenderStyle style,
                                PgsCategory    category)
{
  g_return_val_if_fail (style < PGS_N_RENDER_STYLES, 0xff000000u);
  g_return_val_if_fail (category < PGS_N_CATEGORIES, 0xff000000u);
  return styles[style].category[category];
}

guint32
pgs_palette_category (PgsCategory category)
{
  return pgs_palette_category_for_style (PGS_RENDER_STYLE_LIGHT, category);
}

static const struct
{
  const char *id;
  const char *label;
} res_info[PGS_N_RES_CLASSES] = {
  [PGS_RES_NONE] = { "none", N_("Outside every mapping") },
  [PGS_RES_NOT_PRESENT_ANON] = { "not-present-anon", N_("Not present, anonymous") },
  [PGS_RES_NOT_PRESENT_FILE] = { "not-present-file", N_("Not present, file") },
  [PGS_RES_ZERO] = { "zero-page", N_("Zero page") },
  [PGS_RES_SWAPPED] = { "swapped", N_("Swapped out") },
  [PGS_RES_PRESENT] = { "present", N_("Present, sharing unknown") },
  [PGS_RES_PRIVATE_FILE] = { "private-file", N_("Present, private, file") },
  [PGS_RES_PRIVATE_ANON] = { "private-anon", N_("Present, private, anonymous") },
  [PGS_RES_SHARED_2] = { "shared-2", N_("Shared by 2") },
  [PGS_RES_SHARED_3_4] = { "shared-3-4", N_("Shared by 3–4") },
  [PGS_RES_SHARED_5_8] = { "shared-5-8", N_("Shared by 5–8") },
  [PGS_RES_SHARED_9_16] = { "shared-9-16", N_("Shared by 9–16") },
  [PGS_RES_SHARED_17_32] = { "shared-17-32", N_("Shared by 17–32") },
  [PGS_RES_SHARED_33_64] = { "shared-33-64", N_("Shared by 33–64") },
  [PGS_RES_SHARED_65_128] = { "shared-65-128", N_("Shared by 65–128") },
  [PGS_RES_SHARED_129_PLUS] = { "shared-129+", N_("Shared by 129 or more") },
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
pgs_palette_res_for_style (PgsRenderStyle style,
                           PgsResClass    klass)
{
  const guint32 *cat;

  g_return_val_if_fail (style < PGS_N_RENDER_STYLES, 0xff000000u);
  g_return_val_if_fail (klass < PGS_N_RES_CLASSES, 0xff000000u);

  cat = styles[style].category;
  /* Shared pages take the sharing view's colour for the same count; the rest match the
   * flag view's colour for the same thing where there is one. */
  if (klass >= PGS_RES_SHARED_2)
    return pgs_palette_share_for_style (style, PGS_SHARE_2 + (klass - PGS_RES_SHARED_2));
  switch (klass)
    {
    case PGS_RES_NONE:
      return styles[style].colors.background;
    case PGS_RES_NOT_PRESENT_ANON:
      return cat[PGS_CATEGORY_FREE];  /* as free: nothing there */
    case PGS_RES_NOT_PRESENT_FILE:
      return styles[style].not_present_file;
    case PGS_RES_ZERO:
      return cat[PGS_CATEGORY_ZERO_PAGE];
    case PGS_RES_SWAPPED:
      return cat[PGS_CATEGORY_ANON_THP];  /* Okabe–Ito vermillion */
    case PGS_RES_PRESENT:
      return styles[style].present;
    case PGS_RES_PRIVATE_FILE:
      return cat[PGS_CATEGORY_FILE_INACTIVE];
    case PGS_RES_PRIVATE_ANON:
    default:
      return cat[PGS_CATEGORY_ANON];
    }
}

guint32
pgs_palette_res (PgsResClass klass)
{
  return pgs_palette_res_for_style (PGS_RENDER_STYLE_LIGHT, klass);
}
