/* pgs-model-build.h: a table's model, built in a worker thread
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _PgsModelBuild PgsModelBuild;

/* Runs in a worker thread: the items of the model, or NULL when @cancellable was cancelled
 * (checked through pgs_model_build_progress() in its loops). Never touches GTK. */
typedef GListModel *(*PgsModelBuildFunc)    (PgsModelBuild *build,
                                             gpointer       data);
/* On the main thread, at most once per main-loop iteration: @fraction of the work done. */
typedef void        (*PgsModelProgressFunc) (gpointer       source_object,
                                             double         fraction);

/* Builds a model with @func over @data (freed with @data_free), reporting progress to
 * @progress (may be NULL) through one coalesced idle callback. */
void        pgs_model_build_async    (gpointer              source_object,
                                      PgsModelBuildFunc     func,
                                      gpointer              data,
                                      GDestroyNotify        data_free,
                                      PgsModelProgressFunc  progress,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
/* The model (transfer full), or NULL with @error set (G_IO_ERROR_CANCELLED when cancelled). */
GListModel *pgs_model_build_finish   (GAsyncResult         *result,
                                      GError              **error);
/* The @data handed to pgs_model_build_async(), which @func may have filled in. */
gpointer    pgs_model_build_get_data (GAsyncResult         *result);

/* In @func: @done of @total steps are done. FALSE when the build was cancelled: @func then
 * stops and returns NULL. */
gboolean    pgs_model_build_progress (PgsModelBuild        *build,
                                      guint                 done,
                                      guint                 total);

/* Replaces the items of @store with those of @items a few per main-loop iteration, the
 * first ones at once: a list view makes the widgets of the rows it is given at once (up to
 * 200 rows on GTK 4.8, 50 to 150 ms for a whole table), which a handful of rows at a time
 * keeps off the main loop's critical path. @callback runs when the last are in, or once
 * @cancellable is cancelled: then @store is left as it is. */
void        pgs_model_fill_async     (GListStore           *store,
                                      GListModel           *items,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
/* TRUE when every item is in, FALSE with @error set (G_IO_ERROR_CANCELLED) otherwise. */
gboolean    pgs_model_fill_finish    (GAsyncResult         *result,
                                      GError              **error);

G_END_DECLS
