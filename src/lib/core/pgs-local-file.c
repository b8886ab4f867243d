/* pgs-local-file.c: local files as GIO's GLocalFile reads and writes them, in GLib alone
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pagescope-cli reads and writes snapshot and recording files through these rather than
 * GFile: GFile's code takes GIO's local files with it, and they libmount, libselinux and
 * libblkid, whose loading was a third of a short command's start (issue 22). The app keeps
 * GFile (it may be handed files of any GVfs backend). Each step does what GLib 2.74's
 * glocalfile.c, glocalfileinfo.c and glocalfile{input,output}stream.c do for a local file,
 * with their messages in GLib's own translation domain, so that a command says what it said
 * before, word for word.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "pgs-local-file.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static const char *
glib_message (const char *msgid)
{
  return g_dgettext ("glib20", msgid);
}

/* glocalfile.c's g_set_io_error (): @msgid formats the display name, then the reason. */
static void
set_io_error (GError     **error,
              const char  *msgid,
              const char  *path,
              int          errsv)
{
  g_autofree char *display_name = g_filename_display_name (path);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), glib_message (msgid),
               display_name, g_strerror (errsv));
}

#pragma GCC diagnostic pop

/* gfile.c's has_valid_scheme (). */
static gboolean
has_valid_scheme (const char *arg)
{
  const char *p = arg;

  if (!g_ascii_isalpha (*p))
    return FALSE;
  do
    p++;
  while (g_ascii_isalnum (*p) || *p == '.' || *p == '+' || *p == '-');
  return *p == ':';
}

char *
pgs_local_file_from_arg (const char *arg)
{
  g_return_val_if_fail (arg != NULL, NULL);

  if (!g_path_is_absolute (arg) && has_valid_scheme (arg))
    {
      /* glocalvfs.c: the fragment goes, and only a file:// URI has a local file. */
      g_autofree char *stripped = g_strdup (arg);
      g_autofree char *path = NULL;
      char *hash = strchr (stripped, '#');

      if (hash != NULL)
        *hash = '\0';
      path = g_filename_from_uri (stripped, NULL, NULL);
      return path != NULL ? g_canonicalize_filename (path, NULL) : NULL;
    }
  return g_canonicalize_filename (arg, NULL);
}

static gboolean
valid_for_display (const char *s,
                   gboolean    is_valid_utf8)
{
  if (!is_valid_utf8 && !g_utf8_validate (s, -1, NULL))
    return FALSE;
  for (; *s != '\0'; s++)
    if (g_ascii_iscntrl (*s))
      return FALSE;
  return TRUE;
}

char *
pgs_local_file_parse_name (const char *path)
{
  const char **charsets;
  g_autofree char *converted = NULL;
  g_autofree char *escaped = NULL;
  const char *utf8;
  gboolean is_valid_utf8;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_get_filename_charsets (&charsets))
    {
      utf8 = path;
      is_valid_utf8 = FALSE;
    }
  else
    {
      converted = g_convert (path, -1, "UTF-8", charsets[0], NULL, NULL, NULL);
      if (converted != NULL)
        {
          /* Only a name that converts back to the same bytes. */
          g_autofree char *back = g_convert (converted, -1, charsets[0], "UTF-8", NULL, NULL, NULL);

          if (back == NULL || strcmp (back, path) != 0)
            g_clear_pointer (&converted, g_free);
        }
      utf8 = converted;
      is_valid_utf8 = TRUE;
    }
  if (utf8 != NULL && valid_for_display (utf8, is_valid_utf8))
    return g_strdup (utf8);

  escaped = g_uri_escape_string (path, "!$&'()*+,;=:@/", TRUE);
  return g_strconcat ("file://", *escaped != '/' ? "/" : "", escaped, NULL);
}

gboolean
pgs_local_file_query_size (const char  *path,
                           goffset     *size,
                           GError     **error)
{
  struct stat st, target;

  g_return_val_if_fail (path != NULL && size != NULL, FALSE);

  *size = 0;
  if (lstat (path, &st) == -1)
    {
      int errsv = errno;

      /* glocalfileinfo.c carries on without the stat fields on EACCES (SELinux). */
      if (errsv == EACCES)
        return TRUE;
      set_io_error (error, "Error when getting information for file “%s”: %s", path, errsv);
      return FALSE;
    }
  /* A symbolic link is followed; a broken one keeps its own size. */
  if (S_ISLNK (st.st_mode) && stat (path, &target) == 0)
    st = target;
  *size = st.st_size;
  return TRUE;
}

gboolean
pgs_local_file_load (const char  *path,
                     char       **contents,
                     gsize       *length,
                     GError     **error)
{
  g_autoptr(GByteArray) buf = NULL;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL && contents != NULL, FALSE);

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd == -1)
    {
      set_io_error (error, "Error opening file %s: %s", path, errno);
      return FALSE;
    }
  if (fstat (fd, &st) == 0 && S_ISDIR (st.st_mode))
    {
      close (fd);
      set_io_error (error, "Error opening file %s: %s", path, EISDIR);
      return FALSE;
    }

  /* g_file_load_contents () reads 8 KiB a call into a growing buffer. */
  buf = g_byte_array_new ();
  for (;;)
    {
      gsize at = buf->len;
      gssize got;

      g_byte_array_set_size (buf, at + 8192);
      got = read (fd, buf->data + at, 8192);
      if (got == -1 && errno == EINTR)
        {
          g_byte_array_set_size (buf, at);
          continue;
        }
      if (got == -1)
        {
          int errsv = errno;

          close (fd);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       glib_message ("Error reading from file: %s"), g_strerror (errsv));
          return FALSE;
        }
      g_byte_array_set_size (buf, at + got);
      if (got == 0)
        break;
    }
  close (fd);

  if (length != NULL)
    *length = buf->len;
  g_byte_array_append (buf, (const guint8 *) "", 1);
  *contents = (char *) g_byte_array_free (g_steal_pointer (&buf), FALSE);
  return TRUE;
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         len,
           GError      **error)
{
  while (len > 0)
    {
      gssize done = write (fd, data, MIN (len, (gsize) G_MAXSSIZE));

      if (done == -1 && errno == EINTR)
        continue;
      if (done == -1)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       glib_message ("Error writing to file: %s"), g_strerror (errsv));
          return FALSE;
        }
      data += done;
      len -= done;
    }
  return TRUE;
}

/* glocalfile.c's g_local_file_move () with G_FILE_COPY_OVERWRITE, for a regular file. */
static gboolean
move_over (const char  *source,
           const char  *destination,
           GError     **error)
{
  struct stat st;

  if (lstat (source, &st) == -1)
    {
      set_io_error (error, "Error moving file %s: %s", source, errno);
      return FALSE;
    }
  if (lstat (destination, &st) == 0 && S_ISDIR (st.st_mode))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                           glib_message ("Can’t copy over directory"));
      return FALSE;
    }
  if (rename (source, destination) == -1)
    {
      int errsv = errno;

      if (errsv == EXDEV)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                             glib_message ("Move between mounts not supported"));
      else if (errsv == EINVAL)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                             glib_message ("Invalid filename"));
      else
        set_io_error (error, "Error moving file %s: %s", source, errsv);
      return FALSE;
    }
  return TRUE;
}

gboolean
pgs_local_file_save_atomic (const char    *path,
                            const guint8  *head,
                            gsize          head_len,
                            const guint8  *body,
                            gsize          body_len,
                            GError       **error)
{
  g_autofree char *parent = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *tmp = NULL;
  int fd = -1;

  g_return_val_if_fail (path != NULL, FALSE);

  /* The root has no parent to hold a temporary file. */
  if (strcmp (path, "/") == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME, "not a file name");
      return FALSE;
    }
  parent = g_path_get_dirname (path);
  basename = g_path_get_basename (path);
  for (guint attempt = 0; fd == -1; attempt++)
    {
      g_autofree char *name = g_strdup_printf (".%s.%08x.tmp", basename, g_random_int ());
      int errsv;

      g_free (tmp);
      tmp = g_build_filename (parent, name, NULL);
      fd = open (tmp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666);
      errsv = errno;
      if (fd == -1 && (attempt >= 10 || errsv != EEXIST))
        {
          if (errsv == EINVAL)
            g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                                 glib_message ("Invalid filename"));
          else
            {
              g_autofree char *display_name = g_filename_display_name (tmp);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
              g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                           glib_message ("Error opening file “%s”: %s"), display_name, g_strerror (errsv));
#pragma GCC diagnostic pop
            }
          return FALSE;
        }
    }

  if (!write_all (fd, head, head_len, error) || !write_all (fd, body, body_len, error))
    {
      close (fd);
      unlink (tmp);
      return FALSE;
    }
  if (close (fd) == -1)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   glib_message ("Error closing file: %s"), g_strerror (errsv));
      unlink (tmp);
      return FALSE;
    }
  if (!move_over (tmp, path, error))
    {
      unlink (tmp);
      return FALSE;
    }
  return TRUE;
}
