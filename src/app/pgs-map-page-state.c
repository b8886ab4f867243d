/* pgs-map-page-state.c: what a map page says around its map: why it is empty, its title
 * and scale, the instant shown, a process that exited, the counters' ledger
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-map-empty.h"
#include "pgs-map-page-private.h"
#include "pgs-tooltip.h"

static void
set_empty (PgsMapPage *self,
           const char *icon,
           const char *title,
           const char *description)
{
  gtk_image_set_from_icon_name (self->empty_icon, icon);
  gtk_label_set_text (self->empty_title, title);
  gtk_label_set_text (self->empty_description, description);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/* Page flags: the ledger of the map shown, every byte of MemTotal. */
static void
update_counters (PgsMapPage  *self,
                 PgsRenderer *renderer)
{
  gboolean shown = renderer != NULL && self->view == PGS_VIEW_FLAGS;

  pgs_ledger_view_set_snapshot (self->ledger_view, shown ? pgs_renderer_get_snapshot (renderer) : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->ledger_view), shown);
}

void
_pgs_map_page_update_title (PgsMapPage *self)
{
  g_autofree char *title = NULL;
  g_autofree char *size = NULL;
  g_autofree char *count = NULL;
  PgsRenderer *renderer = pgs_map_view_get_renderer (self->map_view);
  g_autofree char *scale = NULL;

  if (self->snapshot == NULL)
    return;

  if (self->view == PGS_VIEW_RESIDENCY)
    {
      if (self->process == NULL)
        return;
      /* Translators: above a residency map: "Pages of firefox (PID 1234)" */
      title = g_strdup_printf (_("Pages of %s (PID %d)"), pgs_process_get_display_name (self->process),
                               pgs_process_get_pid (self->process));
    }
  else
    {
      PgsPhysMap *physmap = pgs_snapshot_get_physmap (self->snapshot);
      guint64 n_frames = physmap ? pgs_physmap_get_n_frames (physmap) : 0;

      size = pgs_units_format (self->units, n_frames * pgs_snapshot_get_page_size (self->snapshot));
      count = pgs_units_format_count (n_frames);
      if (self->view == PGS_VIEW_SHARING)
        /* Translators: "Physical memory by map count: 6,291,456 frames (24.0 GiB)" */
        title = g_strdup_printf (_("Physical memory by map count: %s frames (%s)"), count, size);
      else
        /* Translators: "Physical memory by use: 6,291,456 frames (24.0 GiB)" */
        title = g_strdup_printf (_("Physical memory by use: %s frames (%s)"), count, size);
      if (self->highlight != NULL)
        {
          /* Translators: a map's title, then "frames of libc.so.6 highlighted (1,234)" */
          g_autofree char *with = g_strdup_printf (_("%s — %s"), title,
                                                   pgs_highlight_get_caption (self->highlight));
          g_free (title);
          title = g_steal_pointer (&with);
        }
      else if (self->process != NULL)
        {
          g_autofree char *with = g_strdup_printf (_("%s — frames of %s (PID %d) highlighted"),
                                                   title,
                                                   pgs_process_get_display_name (self->process),
                                                   pgs_process_get_pid (self->process));
          g_free (title);
          title = g_steal_pointer (&with);
        }
    }
  gtk_label_set_text (self->title_label, title);

  if (renderer != NULL)
    {
      graphene_rect_t area;
      int factor = gtk_widget_get_scale_factor (GTK_WIDGET (self));
      guint64 ppp;

      pgs_map_view_get_map_area (self->map_view, &area);
      ppp = pgs_renderer_get_pages_per_pixel (renderer, area.size.width * factor,
                                              area.size.height * factor);
      if (ppp > 1)
        {
          g_autofree char *pages = pgs_units_format_count (ppp);

          /* Translators: the map's scale: "1 pixel = 64 pages" */
          scale = g_strdup_printf (ngettext ("1 pixel = %s page", "1 pixel = %s pages",
                                             (gulong) MIN (ppp, G_MAXULONG)), pages);
        }
      else
        scale = g_strdup (_("1 pixel or more per page"));
    }
  gtk_label_set_text (self->scale_label, scale ? scale : "");
  update_counters (self, renderer);
}

/* With a recording shown: which page-level picture the map is of, and when. Live at the
 * history's newest sample the map is the live scan's: nothing to say (as the list). */
void
_pgs_map_page_update_instant (PgsMapPage *self)
{
  PgsSession *session = pgs_page_get_session (PGS_PAGE (self));
  gboolean past = session != NULL && pgs_session_get_picture (session) != pgs_session_get_snapshot (session);
  g_autofree char *text = self->replay != NULL && past ? pgs_replay_describe (self->replay, TRUE) : NULL;

  gtk_label_set_text (self->instant_label, text != NULL ? text : "");
  pgs_set_tooltip_text (GTK_WIDGET (self->instant_label), text);
  gtk_widget_set_visible (GTK_WIDGET (self->instant_label), text != NULL);
}

const char *
pgs_map_page_get_instant_text (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->instant_label)) ?
         gtk_label_get_text (self->instant_label) : NULL;
}

void
_pgs_map_page_update_exited (PgsMapPage *self)
{
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->exited_label), self->exited);
  if (!self->exited)
    return;
  /* Translators: over the map of a process that is gone: "Process 1234 (firefox) has
   * exited; showing its last scan" */
  text = g_strdup_printf (_("Process %d (%s) has exited; showing its last scan"),
                          pgs_process_get_pid (self->process),
                          pgs_process_get_display_name (self->process));
  gtk_label_set_text (self->exited_label, text);
}

/* Page flags without a physical map: the ledger's rows that the kernel's counters give, the
 * others unknown (pgs_ledger_compute() without frames), and why the map is missing. */
static gboolean
show_counters (PgsMapPage *self)
{
  pgs_ledger_view_set_snapshot (self->counters_ledger, self->snapshot);
  if (pgs_ledger_view_get_ledger (self->counters_ledger) == NULL)
    return FALSE;
  gtk_label_set_text (self->counters_note, pgs_map_empty_counters_note (self->snapshot));
  gtk_stack_set_visible_child_name (self->stack, "counters");
  return TRUE;
}

void
_pgs_map_page_update_state (PgsMapPage *self)
{
  PgsMapEmpty empty;

  /* Page flags without a physical map: the rows of the ledger the counters give. */
  if (self->view == PGS_VIEW_FLAGS && self->snapshot != NULL &&
      pgs_snapshot_get_physmap (self->snapshot) == NULL && show_counters (self))
    return;
  if (pgs_map_empty_explain (self->view, self->snapshot, self->replay, self->process,
                             self->unreadable, &empty))
    {
      set_empty (self, empty.icon, empty.title, empty.description);
      pgs_map_empty_clear (&empty);
      return;
    }

  gtk_stack_set_visible_child_name (self->stack, "map");
  _pgs_map_page_update_title (self);
  _pgs_map_page_update_exited (self);
}
