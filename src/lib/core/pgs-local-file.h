/* pgs-local-file.h: local files as GIO's GLocalFile reads and writes them, in GLib alone
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The file a command-line argument names, as g_file_new_for_commandline_arg () reads it: a
 * path (made absolute against the working directory, and canonical) or a file:// URI.
 * NULL for any other URI: GIO's local VFS has no file for those either. */
char     *pgs_local_file_from_arg     (const char  *arg);

/* What g_file_get_parse_name () gives for the local file @path: @path itself when it reads
 * as UTF-8 without control characters, else an escaped file:// URI. */
char     *pgs_local_file_parse_name   (const char  *path);

/* The size g_file_query_info (G_FILE_ATTRIBUTE_STANDARD_SIZE) reports for @path, following
 * a symbolic link; 0 where the file cannot be stat()ed for want of permission. */
gboolean  pgs_local_file_query_size   (const char  *path,
                                       goffset     *size,
                                       GError     **error);

/* g_file_load_contents () of @path: the whole file and a NUL after it. */
gboolean  pgs_local_file_load         (const char  *path,
                                       char       **contents,
                                       gsize       *length,
                                       GError     **error);

/* @head then @body into a new file beside @path (".NAME.XXXXXXXX.tmp", created exclusively),
 * renamed over @path once closed: a reader sees the old file or the new one. A failure
 * removes the temporary file. */
gboolean  pgs_local_file_save_atomic  (const char   *path,
                                       const guint8 *head,
                                       gsize         head_len,
                                       const guint8 *body,
                                       gsize         body_len,
                                       GError      **error);

G_END_DECLS
