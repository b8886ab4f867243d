/* pgs-map-view.c: a residency, sharing or page-flag map on screen
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small container of objects, each with its own state: the viewport (zoom and centre),
 * the canvas (the pixels, rendered in a worker thread; none unmapped), and overlays
 * drawn fresh on top (the working-set marks, the fold markers, the hover outline, the focus
 * ring), which read the pixels only through the one hit test (pgs-map-overlay.c) and never
 * each other. The legend is a widget of its own beside the map (pgs-map-legend.c), bound to
 * :renderer; the input (pointer, wheel, keys and the map.* actions) an object of its own
 * (pgs-map-input.c). This file holds the properties a page binds and the status line (its
 * words from pgs-map-describe.c); calls go from here to the parts, which never call back.
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "pgs-map-canvas.h"
#include "pgs-map-describe.h"
#include "pgs-map-focus.h"
#include "pgs-map-folds.h"
#include "pgs-map-hover.h"
#include "pgs-map-input.h"
#include "pgs-map-labels.h"
#include "pgs-map-marks.h"
#include "pgs-map-style.h"
#include "pgs-map-view.h"
#include "pgs-release.h"

struct _PgsMapView
{
  GtkWidget       parent_instance;

  PgsMapViewport *viewport;
  PgsMapCanvas   *canvas;
  PgsMapMarks    *marks;
  PgsMapLabels   *labels;
  PgsMapFolds    *folds;
  PgsMapHover    *hover;
  PgsMapFocus    *focus;
  PgsUnits        units;
  char           *status;          /* what the status line says */

  PgsMapInput    *input;
};

enum {
  PROP_0,
  PROP_VIEW,
  PROP_SNAPSHOT,
  PROP_PROCESS,
  PROP_LAYOUT,
  PROP_HIDE_FREE,
  PROP_UNITS,
  PROP_HIGHLIGHT_MODE,
  PROP_HIGHLIGHT_FRAMES,
  PROP_HIGHLIGHT_NAME,
  PROP_WSS_SAMPLE,
  PROP_RENDERER,
  PROP_STATUS,
  N_PROPS
};

enum {
  PAGE_ACTIVATED,
  READY,
  STATUS_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsMapView, pgs_map_view, GTK_TYPE_WIDGET)

static void
get_shown (PgsMapView  *self,
           PgsMapShown *shown)
{
  pgs_map_canvas_fill_shown (self->canvas, GTK_WIDGET (self), shown);
}

/* Asks for a render when what is wanted differs from what is shown, and redraws. */
static void
invalidate (PgsMapView *self)
{
  PgsMapParams *wanted = pgs_map_canvas_get_wanted (self->canvas);
  PgsRenderer *was = pgs_map_canvas_get_renderer (self->canvas);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  /* Mapped but not yet allocated (0 x 0), nothing is rendered: a 1 x 1 map is waste. */
  wanted->width = gtk_widget_get_width (GTK_WIDGET (self)) * scale;
  wanted->height = gtk_widget_get_height (GTK_WIDGET (self)) * scale;
  wanted->zoom = pgs_map_viewport_get_zoom (self->viewport);
  wanted->center_x = pgs_map_viewport_get_center_x (self->viewport);
  wanted->center_y = pgs_map_viewport_get_center_y (self->viewport);
  pgs_map_canvas_update (self->canvas, gtk_widget_get_mapped (GTK_WIDGET (self)));
  if (pgs_map_canvas_get_renderer (self->canvas) != was)   /* let go while hidden */
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RENDERER]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Works out the status line again (hovered cell, else focused cell) and announces it. */
static void
update_status (PgsMapView *self)
{
  PgsMapParams *wanted = pgs_map_canvas_get_wanted (self->canvas);
  g_autofree char *text = NULL;
  PgsMapShown shown;

  get_shown (self, &shown);
  text = pgs_map_describe_status (self->folds, self->hover, self->focus, &shown,
                                  wanted->snapshot, wanted->process, self->units);
  if (g_strcmp0 (text, self->status) == 0)
    return;
  g_free (self->status);
  self->status = g_steal_pointer (&text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->status, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
  g_signal_emit (self, signals[STATUS_CHANGED], 0);
}

/* After a change to the focus cell or the pointer. */
static void
changed (PgsMapView *self)
{
  update_status (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_rendered (PgsMapView *self)
{
  PgsMapShown shown;

  pgs_map_marks_reset (self->marks);
  /* The legend follows: it is bound to :renderer. */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RENDERER]);
  /* Before ::ready, so that whoever waits for it finds the focus cell in place. */
  get_shown (self, &shown);
  pgs_map_focus_after_render (self->focus, &shown);
  changed (self);
  if (!pgs_map_canvas_is_ready (self->canvas))
    invalidate (self);   /* renders again, or, hidden, lets this one go */
  else
    g_signal_emit (self, signals[READY], 0);
}

static void
on_activate (PgsMapView *self,
             PgsHit     *hit)
{
  g_signal_emit (self, signals[PAGE_ACTIVATED], 0, hit);
}

static void
update_style (PgsMapView *self)
{
  PgsMapParams *wanted = pgs_map_canvas_get_wanted (self->canvas);
  PgsRenderStyle style = pgs_map_style_detect (GTK_WIDGET (self));

  if (style == wanted->style)
    return;
  wanted->style = style;
  invalidate (self);
}

static void
pgs_map_view_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  PgsMapView *self = PGS_MAP_VIEW (widget);
  GdkTexture *texture = pgs_map_canvas_get_texture (self->canvas);
  PgsMapOverlay *overlays[] = {
    PGS_MAP_OVERLAY (self->marks), PGS_MAP_OVERLAY (self->labels), PGS_MAP_OVERLAY (self->folds),
    PGS_MAP_OVERLAY (self->hover), PGS_MAP_OVERLAY (self->focus),
  };
  graphene_rect_t area;
  PgsMapShown shown;
  int scale = gtk_widget_get_scale_factor (widget);

  if (texture == NULL)
    return;
  pgs_map_view_get_map_area (self, &area);
  get_shown (self, &shown);
  /* In a resize the old pixels stand in at their own size until the new ones arrive. */
  gtk_snapshot_push_clip (snapshot, &area);
  gtk_snapshot_append_texture (snapshot, texture,
                               &GRAPHENE_RECT_INIT (0, 0, gdk_texture_get_width (texture) / (float) scale,
                                                    gdk_texture_get_height (texture) / (float) scale));
  for (guint i = 0; i < G_N_ELEMENTS (overlays); i++)
    pgs_map_overlay_snapshot (overlays[i], snapshot, &shown);
  gtk_snapshot_pop (snapshot);
}

static void
pgs_map_view_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  *minimum = 64;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 480;
}

static void
pgs_map_view_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  invalidate (PGS_MAP_VIEW (widget));
}

static void
pgs_map_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (pgs_map_view_parent_class)->map (widget);
  invalidate (PGS_MAP_VIEW (widget));
}

/* A theme switch (dark, high contrast) renders the map again in the new style. */
static void
pgs_map_view_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (pgs_map_view_parent_class)->css_changed (widget, change);
  update_style (PGS_MAP_VIEW (widget));
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  PgsMapView *self = PGS_MAP_VIEW (widget);
  PgsMapParams *wanted = pgs_map_canvas_get_wanted (self->canvas);
  g_autofree char *text = NULL;
  PgsMapShown shown;

  get_shown (self, &shown);
  if (!keyboard)
    text = pgs_map_describe_at (self->folds, &shown, x, y, wanted->snapshot, wanted->process,
                                self->units);
  gtk_tooltip_set_text (tooltip, text);
  return text != NULL;
}

/* ---- properties ---- */

static void
pgs_map_view_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  PgsMapView *self = PGS_MAP_VIEW (object);
  PgsMapParams *wanted = pgs_map_canvas_get_wanted (self->canvas);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_uint (value, wanted->view);
      break;
    case PROP_SNAPSHOT:
      g_value_set_object (value, wanted->snapshot);
      break;
    case PROP_PROCESS:
      g_value_set_object (value, wanted->process);
      break;
    case PROP_LAYOUT:
      g_value_set_uint (value, wanted->layout);
      break;
    case PROP_HIDE_FREE:
      g_value_set_boolean (value, wanted->hide_free);
      break;
    case PROP_UNITS:
      g_value_set_uint (value, self->units);
      break;
    case PROP_HIGHLIGHT_MODE:
      g_value_set_uint (value, wanted->highlight_mode);
      break;
    case PROP_HIGHLIGHT_FRAMES:
      g_value_set_boxed (value, wanted->highlight);
      break;
    case PROP_HIGHLIGHT_NAME:
      g_value_set_string (value, wanted->highlight_name);
      break;
    case PROP_WSS_SAMPLE:
      g_value_set_boxed (value, pgs_map_marks_get_sample (self->marks));
      break;
    case PROP_RENDERER:
      g_value_set_object (value, pgs_map_canvas_get_renderer (self->canvas));
      break;
    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_map_view_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  PgsMapView *self = PGS_MAP_VIEW (object);
  PgsMapParams *wanted = pgs_map_canvas_get_wanted (self->canvas);

  switch (prop_id)
    {
    case PROP_VIEW:
      wanted->view = g_value_get_uint (value);
      break;
    case PROP_SNAPSHOT:
      pgs_map_view_set_snapshot (self, g_value_get_object (value));
      break;
    case PROP_PROCESS:
      pgs_map_view_set_process (self, g_value_get_object (value));
      break;
    case PROP_LAYOUT:
      pgs_map_view_set_layout (self, g_value_get_uint (value));
      break;
    case PROP_HIDE_FREE:
      pgs_map_view_set_hide_free (self, g_value_get_boolean (value));
      break;
    case PROP_UNITS:
      pgs_map_view_set_units (self, g_value_get_uint (value));
      break;
    case PROP_HIGHLIGHT_MODE:
      pgs_map_view_set_highlight_mode (self, g_value_get_uint (value));
      break;
    case PROP_HIGHLIGHT_FRAMES:
      pgs_map_view_set_highlight_frames (self, g_value_get_boxed (value),
                                         wanted->highlight_name ? wanted->highlight_name : "");
      break;
    case PROP_HIGHLIGHT_NAME:
      if (g_strcmp0 (wanted->highlight_name, g_value_get_string (value)) == 0)
        break;
      g_free (wanted->highlight_name);
      wanted->highlight_name = g_value_dup_string (value);
      g_object_notify_by_pspec (object, pspec);
      break;
    case PROP_WSS_SAMPLE:
      pgs_map_view_set_wss_sample (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_map_view_constructed (GObject *object)
{
  PgsMapView *self = PGS_MAP_VIEW (object);
  static const char *const labels[] = {
    [PGS_VIEW_RESIDENCY] = N_("Residency map: the pages of the selected process"),
    [PGS_VIEW_SHARING] = N_("Sharing heatmap: every page frame by how many map it"),
    [PGS_VIEW_FLAGS] = N_("Page-flag map: every page frame by what the kernel uses it for"),
  };
  PgsView view = pgs_map_canvas_get_wanted (self->canvas)->view;

  G_OBJECT_CLASS (pgs_map_view_parent_class)->constructed (object);
  if (view < G_N_ELEMENTS (labels))
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _(labels[view]), -1);
}

static void
pgs_map_view_dispose (GObject *object)
{
  PgsMapView *self = (PgsMapView *) object;

  g_clear_object (&self->input);
  /* A render under way is not waited for: its result goes nowhere. */
  if (self->canvas != NULL)
    g_object_run_dispose (G_OBJECT (self->canvas));
  g_clear_object (&self->canvas);
  g_clear_object (&self->viewport);
  g_clear_object (&self->marks);
  g_clear_object (&self->labels);
  g_clear_object (&self->folds);
  g_clear_object (&self->hover);
  g_clear_object (&self->focus);
  g_clear_pointer (&self->status, g_free);

  G_OBJECT_CLASS (pgs_map_view_parent_class)->dispose (object);
}

static void
pgs_map_view_class_init (PgsMapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = pgs_map_view_get_property;
  object_class->set_property = pgs_map_view_set_property;
  object_class->constructed = pgs_map_view_constructed;
  object_class->dispose = pgs_map_view_dispose;

  widget_class->map = pgs_map_view_map;
  widget_class->snapshot = pgs_map_view_snapshot;
  widget_class->measure = pgs_map_view_measure;
  widget_class->size_allocate = pgs_map_view_size_allocate;
  widget_class->css_changed = pgs_map_view_css_changed;

  /* Enums as uint: a PgsView, PgsLayout, PgsUnits, PgsHighlightMode. */
  properties[PROP_VIEW] =
    g_param_spec_uint ("view", NULL, NULL, 0, PGS_VIEW_FLAGS, 0,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SNAPSHOT] = g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT, rw);
  properties[PROP_PROCESS] = g_param_spec_object ("process", NULL, NULL, PGS_TYPE_PROCESS, rw);
  properties[PROP_LAYOUT] = g_param_spec_uint ("layout", NULL, NULL, 0, PGS_LAYOUT_HILBERT, 0, rw);
  properties[PROP_HIDE_FREE] = g_param_spec_boolean ("hide-free", NULL, NULL, FALSE, rw);
  properties[PROP_UNITS] = g_param_spec_uint ("units", NULL, NULL, 0, PGS_UNITS_BYTES, 0, rw);
  properties[PROP_HIGHLIGHT_MODE] =
    g_param_spec_uint ("highlight-mode", NULL, NULL, 0, PGS_HIGHLIGHT_OVERLAY, 0, rw);
  /* Physical views: guint64 PFNs highlighted instead of the process's, NULL for those;
   * highlight-name says what they are in the legend (set it first). */
  properties[PROP_HIGHLIGHT_FRAMES] =
    g_param_spec_boxed ("highlight-frames", NULL, NULL, G_TYPE_BYTES, rw);
  properties[PROP_HIGHLIGHT_NAME] = g_param_spec_string ("highlight-name", NULL, NULL, NULL, rw);
  properties[PROP_WSS_SAMPLE] =
    g_param_spec_boxed ("wss-sample", NULL, NULL, PGS_TYPE_WSS_SAMPLE, rw);
  /* The renderer of the pixels on screen: what the legend describes. */
  properties[PROP_RENDERER] = g_param_spec_object ("renderer", NULL, NULL, PGS_TYPE_RENDERER, ro);
  properties[PROP_STATUS] = g_param_spec_string ("status", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PgsMapView::page-activated:
   * @hit: (type gpointer): the PgsHit under the click
   */
  signals[PAGE_ACTIVATED] = g_signal_new ("page-activated", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* The pixels on screen caught up with what was asked for. */
  signals[READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* pgs_map_view_get_status() says something else (as notify::status). */
  signals[STATUS_CHANGED] = g_signal_new ("status-changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
  pgs_map_input_add_keys (widget_class);

  gtk_widget_class_set_css_name (widget_class, "mapview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pgs_map_view_init (PgsMapView *self)
{
  self->canvas = pgs_map_canvas_new (PGS_VIEW_RESIDENCY);
  self->viewport = pgs_map_viewport_new ();
  self->marks = pgs_map_marks_new ();
  self->labels = pgs_map_labels_new ();
  self->folds = pgs_map_folds_new ();
  self->hover = pgs_map_hover_new ();
  self->focus = pgs_map_focus_new (self->viewport);
  g_signal_connect_object (self->canvas, "rendered", G_CALLBACK (on_rendered), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->viewport, "notify", G_CALLBACK (invalidate), self,
                           G_CONNECT_SWAPPED);
  /* Device pixels change with the scale factor even when the size does not. */
  g_signal_connect (self, "notify::scale-factor", G_CALLBACK (invalidate), NULL);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect_object (self, "unmap", G_CALLBACK (pgs_map_canvas_release), self->canvas,
                           G_CONNECT_SWAPPED);
  /* Plain GTK does not restyle when GNOME's setting changes (libadwaita does): follow it. */
  if (pgs_map_style_a11y_settings () != NULL)
    g_signal_connect_object (pgs_map_style_a11y_settings (), "changed::high-contrast",
                             G_CALLBACK (update_style), self, G_CONNECT_SWAPPED);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  self->input = pgs_map_input_new (GTK_WIDGET (self), self->canvas, self->viewport,
                                   self->hover, self->focus);
  g_signal_connect_object (self->input, "changed", G_CALLBACK (changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->input, "activate", G_CALLBACK (on_activate), self,
                           G_CONNECT_SWAPPED);
  update_status (self);
}

/* ---- public API: the setters are what the properties set ---- */

GtkWidget *
pgs_map_view_new (PgsView view)
{
  return g_object_new (PGS_TYPE_MAP_VIEW, "view", view, NULL);
}

PgsView
pgs_map_view_get_view (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), PGS_VIEW_RESIDENCY);
  return pgs_map_canvas_get_wanted (self->canvas)->view;
}

PgsMapViewport *
pgs_map_view_get_viewport (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return self->viewport;
}

/* A wanted parameter changed: render it, and tell whoever binds it. */
static void
set_done (PgsMapView *self,
          guint       prop)
{
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
pgs_map_view_set_snapshot (PgsMapView  *self,
                           PgsSnapshot *snapshot)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (pgs_set_object_release (&pgs_map_canvas_get_wanted (self->canvas)->snapshot, snapshot))
    set_done (self, PROP_SNAPSHOT);
}

void
pgs_map_view_set_process (PgsMapView *self,
                          PgsProcess *process)
{
  PgsMapParams *wanted;
  gboolean same_pid;

  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  wanted = pgs_map_canvas_get_wanted (self->canvas);
  same_pid = pgs_same_pid (wanted->process, process);
  if (!pgs_set_object_release (&wanted->process, process))
    return;
  /* A new subject starts unzoomed; a rescan of the same PID and physical maps keep it. */
  if (wanted->view == PGS_VIEW_RESIDENCY && !same_pid)
    pgs_map_viewport_set (self->viewport, 1.0, 0.5, 0.5);
  set_done (self, PROP_PROCESS);
}

void
pgs_map_view_set_highlight_frames (PgsMapView *self,
                                   GBytes     *pfns,
                                   const char *name)
{
  PgsMapParams *wanted;

  g_return_if_fail (PGS_IS_MAP_VIEW (self));
  g_return_if_fail (pfns == NULL || name != NULL);

  wanted = pgs_map_canvas_get_wanted (self->canvas);
  if (wanted->highlight == pfns)
    return;
  g_clear_pointer (&wanted->highlight, g_bytes_unref);
  wanted->highlight = pfns ? g_bytes_ref (pfns) : NULL;
  if (g_strcmp0 (wanted->highlight_name, name) != 0)
    {
      g_free (wanted->highlight_name);
      wanted->highlight_name = g_strdup (name);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT_NAME]);
    }
  set_done (self, PROP_HIGHLIGHT_FRAMES);
}

/* An enum or boolean wanted parameter (all int-sized). */
static void
set_int (PgsMapView *self,
         int        *field,
         int         value,
         guint       prop)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (*field == value)
    return;
  *field = value;
  set_done (self, prop);
}

void
pgs_map_view_set_layout (PgsMapView *self,
                         PgsLayout   layout)
{
  set_int (self, (int *) &pgs_map_canvas_get_wanted (self->canvas)->layout, layout, PROP_LAYOUT);
}

void
pgs_map_view_set_hide_free (PgsMapView *self,
                            gboolean    hide_free)
{
  set_int (self, &pgs_map_canvas_get_wanted (self->canvas)->hide_free, !!hide_free,
           PROP_HIDE_FREE);
}

void
pgs_map_view_set_highlight_mode (PgsMapView       *self,
                                 PgsHighlightMode  mode)
{
  set_int (self, (int *) &pgs_map_canvas_get_wanted (self->canvas)->highlight_mode, mode,
           PROP_HIGHLIGHT_MODE);
}

void
pgs_map_view_set_units (PgsMapView *self,
                        PgsUnits    units)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (self->units == units)
    return;
  self->units = units;
  changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
}

void
pgs_map_view_set_wss_sample (PgsMapView   *self,
                             PgsWssSample *sample)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (!pgs_map_marks_set_sample (self->marks, sample))
    return;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WSS_SAMPLE]);
}

PgsWssSample *
pgs_map_view_get_wss_sample (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return pgs_map_marks_get_sample (self->marks);
}

PgsRenderStyle
pgs_map_view_get_style (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), PGS_RENDER_STYLE_LIGHT);
  return pgs_map_canvas_get_wanted (self->canvas)->style;
}

double
pgs_map_view_get_zoom (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), 1.0);
  return pgs_map_viewport_get_zoom (self->viewport);
}

void
pgs_map_view_set_viewport (PgsMapView *self,
                           double      zoom,
                           double      center_x,
                           double      center_y)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));
  pgs_map_viewport_set (self->viewport, zoom, center_x, center_y);
}

void
pgs_map_view_zoom_by (PgsMapView *self,
                      double      factor,
                      double      x,
                      double      y)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));
  pgs_map_input_zoom_by (self->input, factor, x, y);
}

PgsRenderer *
pgs_map_view_get_renderer (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return pgs_map_canvas_get_renderer (self->canvas);
}

GdkTexture *
pgs_map_view_get_texture (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return pgs_map_canvas_get_texture (self->canvas);
}

gboolean
pgs_map_view_is_ready (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), FALSE);
  return pgs_map_canvas_is_ready (self->canvas);
}

void
pgs_map_view_get_map_area (PgsMapView      *self,
                           graphene_rect_t *area)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));
  graphene_rect_init (area, 0, 0, MAX (1, gtk_widget_get_width (GTK_WIDGET (self))),
                      MAX (1, gtk_widget_get_height (GTK_WIDGET (self))));
}

gboolean
pgs_map_view_hit_test (PgsMapView *self,
                       double      x,
                       double      y,
                       PgsHit     *hit)
{
  PgsMapShown shown;

  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  get_shown (self, &shown);
  return pgs_map_hit_test (&shown, x, y, hit);
}

const char *
pgs_map_view_get_status (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return self->status;
}

gboolean
pgs_map_view_get_focus_cell (PgsMapView *self,
                             PgsHit     *hit)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);
  return pgs_map_focus_get_cell (self->focus, hit, NULL, NULL);
}

char *
pgs_map_view_describe_fold (PgsMapView *self,
                            guint       index)
{
  PgsMapShown shown;

  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);

  get_shown (self, &shown);
  return pgs_map_folds_describe (self->folds, &shown, index, self->units);
}

char *
pgs_map_view_describe_hit (PgsMapView   *self,
                           const PgsHit *hit)
{
  PgsMapParams *wanted;

  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  g_return_val_if_fail (hit != NULL, NULL);

  /* The latest process: a hit carried over a refresh was looked up in it. */
  wanted = pgs_map_canvas_get_wanted (self->canvas);
  return pgs_map_describe_hit (pgs_map_canvas_get_renderer (self->canvas), wanted->snapshot,
                               wanted->process, hit);
}

void
pgs_map_view_write_png_async (PgsMapView          *self,
                              const char          *path,
                              int                  width,
                              int                  height,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));
  g_return_if_fail (path != NULL);

  pgs_map_canvas_write_png_async (self->canvas, self, path, width, height, callback, user_data);
}

gboolean
pgs_map_view_write_png_finish (PgsMapView    *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
