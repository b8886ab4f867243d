/* pgs-file.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "pgs-file.h"

static gboolean
fail (GError    **error,
      const char *path,
      int         errsv)
{
  g_autofree char *shown = g_filename_display_name (path);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), _("cannot write “%s”: %s"),
               shown, g_strerror (errsv));
  return FALSE;
}

/* 0 or an errno. */
static int
write_all (int          fd,
           const guint8 *data,
           gsize        len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, MIN (len, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno;
      if (n == 0)
        return EIO;
      data += n;
      len -= n;
    }
  return 0;
}

gboolean
pgs_file_replace_contents (const char  *path,
                           const void  *data,
                           gsize        len,
                           GError     **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *tmp = NULL;
  struct stat st;
  gboolean exists;
  int fd = -1;
  int errsv;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (*path == '\0')
    return fail (error, path, ENOENT);
  exists = stat (path, &st) == 0;
  if (exists && S_ISDIR (st.st_mode))
    return fail (error, path, EISDIR);
  if (exists && !S_ISREG (st.st_mode))
    {
      /* Renaming over a device node would replace the device: write to it instead. */
      fd = open (path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0)
        return fail (error, path, errno);
      errsv = write_all (fd, data, len);
      if (close (fd) != 0 && errsv == 0)
        errsv = errno;
      return errsv == 0 ? TRUE : fail (error, path, errsv);
    }

  /* A name of our own beside the target, so the rename stays within one file system; the
   * open mode 0666 lets the umask decide the permissions, as for any new file. */
  dir = g_path_get_dirname (path);
  for (guint attempt = 0; attempt < 100 && fd < 0; attempt++)
    {
      g_free (tmp);
      tmp = g_strdup_printf ("%s/.pagescope-%08x.tmp", dir, g_random_int ());
      fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
      if (fd < 0 && errno != EEXIST)
        break;
    }
  if (fd < 0)
    return fail (error, path, errno);

  if (exists)
    (void) fchmod (fd, st.st_mode & 07777);
  errsv = write_all (fd, data, len);
  /* On a full disk or a network file system the error may come only now. */
  if (errsv == 0 && fsync (fd) != 0 && errno != EINVAL)
    errsv = errno;
  if (close (fd) != 0 && errsv == 0)
    errsv = errno;
  if (errsv == 0 && rename (tmp, path) != 0)
    errsv = errno;
  if (errsv != 0)
    {
      (void) unlink (tmp);
      return fail (error, path, errsv);
    }
  return TRUE;
}
