/* pgs-preferences-window.c: the refresh interval, units, map layout, highlight and style
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every row is bound to its key with g_settings_bind: what the window shows is what is
 * stored, a change is stored (and persists) at once, and the app follows the keys, not
 * this window. The string keys are combo rows: row i stands for the key's i-th choice,
 * in the order of the arrays below and of the template's string lists.
 */

#include "config.h"

#include "pgs-preferences-window.h"

struct _PgsPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;

  /* template children */
  GtkSpinButton        *interval_spin;
  GtkAdjustment        *interval_adjustment;
  AdwComboRow          *units_row;
  AdwComboRow          *layout_row;
  AdwComboRow          *highlight_row;
  AdwComboRow          *color_scheme_row;
};

G_DEFINE_FINAL_TYPE (PgsPreferencesWindow, pgs_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char *const units_choices[] = { "iec", "bytes", NULL };
static const char *const layout_choices[] = { "linear", "hilbert", NULL };
static const char *const highlight_choices[] = { "outline", "overlay", NULL };
static const char *const color_scheme_choices[] = { "system", "light", "dark", NULL };

static const struct
{
  const char         *key;
  gsize               offset;
  const char *const  *choices;
} combos[] = {
  { "units", G_STRUCT_OFFSET (PgsPreferencesWindow, units_row), units_choices },
  { "layout", G_STRUCT_OFFSET (PgsPreferencesWindow, layout_row), layout_choices },
  { "highlight", G_STRUCT_OFFSET (PgsPreferencesWindow, highlight_row), highlight_choices },
  { "color-scheme", G_STRUCT_OFFSET (PgsPreferencesWindow, color_scheme_row),
    color_scheme_choices },
};

static gboolean
choice_to_index (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  const char *const *choices = user_data;
  const char *choice = g_variant_get_string (variant, NULL);

  for (guint i = 0; choices[i] != NULL; i++)
    if (g_str_equal (choices[i], choice))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  /* The schema's choices and the arrays above disagree: a bug, kept visible. */
  g_warning ("No row for “%s”", choice);
  return FALSE;
}

static GVariant *
index_to_choice (const GValue       *value,
                 const GVariantType *expected_type,
                 gpointer            user_data)
{
  const char *const *choices = user_data;
  guint index = g_value_get_uint (value);

  /* GTK_INVALID_LIST_POSITION while the model is being replaced: nothing to store. */
  if (index >= g_strv_length ((char **) choices))
    return NULL;
  return g_variant_new_string (choices[index]);
}

static void
pgs_preferences_window_dispose (GObject *object)
{
  PgsPreferencesWindow *self = (PgsPreferencesWindow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (pgs_preferences_window_parent_class)->dispose (object);
}

static void
pgs_preferences_window_class_init (PgsPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/pagescope/Pagescope/"
                                               "pgs-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsPreferencesWindow, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, PgsPreferencesWindow,
                                        interval_adjustment);
  gtk_widget_class_bind_template_child (widget_class, PgsPreferencesWindow, units_row);
  gtk_widget_class_bind_template_child (widget_class, PgsPreferencesWindow, layout_row);
  gtk_widget_class_bind_template_child (widget_class, PgsPreferencesWindow, highlight_row);
  gtk_widget_class_bind_template_child (widget_class, PgsPreferencesWindow, color_scheme_row);
}

static void
pgs_preferences_window_init (PgsPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static void
bind_settings (PgsPreferencesWindow *self)
{
  /* The key is a uint, the adjustment a double: GSettings converts, within the key's
   * range (0-3600, the adjustment's too). */
  g_settings_bind (self->settings, "refresh-interval", self->interval_adjustment, "value",
                   G_SETTINGS_BIND_DEFAULT);
  for (guint i = 0; i < G_N_ELEMENTS (combos); i++)
    {
      AdwComboRow *row = G_STRUCT_MEMBER (AdwComboRow *, self, combos[i].offset);

      g_settings_bind_with_mapping (self->settings, combos[i].key, row, "selected",
                                    G_SETTINGS_BIND_DEFAULT, choice_to_index, index_to_choice,
                                    (gpointer) combos[i].choices, NULL);
    }
}

GtkWidget *
pgs_preferences_window_new (GtkWindow *parent,
                            GSettings *settings)
{
  PgsPreferencesWindow *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (PGS_TYPE_PREFERENCES_WINDOW, "transient-for", parent, NULL);
  self->settings = g_object_ref (settings);
  bind_settings (self);
  return GTK_WIDGET (self);
}

GtkSpinButton *
pgs_preferences_window_get_interval (PgsPreferencesWindow *self)
{
  g_return_val_if_fail (PGS_IS_PREFERENCES_WINDOW (self), NULL);
  return self->interval_spin;
}

AdwComboRow *
pgs_preferences_window_get_combo (PgsPreferencesWindow *self,
                                  const char           *key)
{
  g_return_val_if_fail (PGS_IS_PREFERENCES_WINDOW (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (combos); i++)
    if (g_str_equal (combos[i].key, key))
      return G_STRUCT_MEMBER (AdwComboRow *, self, combos[i].offset);
  return NULL;
}
