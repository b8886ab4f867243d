/* pgs-process-tree.h: the process list as a tree of parents and children
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _PgsProcessTree PgsProcessTree;

/* Over @shown, the PgsRow of the processes the list shows (filtered): the model to sort
 * and show is @shown itself (the flat list), or with pgs_process_tree_set_enabled() a
 * GtkTreeListModel whose roots are the shown processes whose parent is not shown and whose
 * children are found by PPID. */
PgsProcessTree *pgs_process_tree_new         (GListModel     *shown);
void            pgs_process_tree_free        (PgsProcessTree *self);
GListModel     *pgs_process_tree_get_model   (PgsProcessTree *self);
/* Switches between flat and tree: the new model, which the caller puts in its chain (its
 * items are PgsRow when flat, GtkTreeListRow of PgsRow in the tree). */
GListModel     *pgs_process_tree_set_enabled (PgsProcessTree *self,
                                              gboolean        enabled);
gboolean        pgs_process_tree_get_enabled (PgsProcessTree *self);

/* After the shown processes changed (a refresh, the filter): finds the roots again, and
 * expands the processes that were expanded before, by PID (those that a change of roots
 * collapsed). Call pgs_process_tree_remember() before the change. */
void            pgs_process_tree_remember    (PgsProcessTree *self);
void            pgs_process_tree_update      (PgsProcessTree *self);
/* Expands the ancestors of @pid so that its row is in the model. */
void            pgs_process_tree_expand_to   (PgsProcessTree *self,
                                              int             pid);
/* The PIDs expanded now, for tests. */
gboolean        pgs_process_tree_is_expanded (PgsProcessTree *self,
                                              int             pid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsProcessTree, pgs_process_tree_free)

G_END_DECLS
