/* pagescope-helper.c: opens the files of /proc that need root and hands them to the app
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Started by `pkexec pagescope-helper` (polkit action io.github.pagescope.Pagescope.helper)
 * with a connected AF_UNIX SOCK_SEQPACKET socket as its stdin. The kernel checks permission
 * when /proc/PID/{maps,smaps,smaps_rollup,pagemap,clear_refs} and /proc/kpage{count,flags}
 * are opened, and pagemap shows frame numbers by the opener's capability, so a descriptor
 * opened here and passed back (SCM_RIGHTS) lets the unprivileged app read what root reads.
 *
 * Protocol, one datagram each way:
 *   greeting  "PAGESCOPE-HELPER 1\n"
 *   request   "OPEN <pid> <name>\n"   name: maps smaps smaps_rollup pagemap clear_refs
 *             "KPAGE <name>\n"        name: kpagecount kpageflags
 *   reply     "OK\n" with one descriptor attached, or "ERR <errno> <text>\n"
 * Anything else gets ERR and the helper carries on. No path from the client is ever used:
 * the name only selects an entry of a fixed table. The helper exits when the app closes its
 * end. Plain libc on purpose: root runs nothing it does not need.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

#define GREETING "PAGESCOPE-HELPER 1\n"
#define MAX_REQUEST 64
/* PID_MAX_LIMIT on 64-bit kernels (include/linux/threads.h). */
#define MAX_PID 4194304

static const struct
{
  const char *name;
  int         pid_file;  /* under /proc/PID, else under /proc */
  int         flags;
} files[] = {
  { "maps",         1, O_RDONLY },
  { "smaps",        1, O_RDONLY },
  { "smaps_rollup", 1, O_RDONLY },
  { "pagemap",      1, O_RDONLY },
  { "clear_refs",   1, O_WRONLY },
  { "kpagecount",   0, O_RDONLY },
  { "kpageflags",   0, O_RDONLY },
};

static int proc_fd = -1;

/* Keeps only what opening those files needs: other users' pagemap (0400) and clear_refs
 * (0200) need DAC_OVERRIDE, the ptrace check at open SYS_PTRACE, and frame numbers in
 * pagemap the opener's SYS_ADMIN. A helper started without them keeps what it has. */
static int
drop_capabilities (void)
{
  static const int keep[] = { CAP_DAC_OVERRIDE, CAP_SYS_PTRACE, CAP_SYS_ADMIN };
  struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2], mask[2];

  memset (mask, 0, sizeof mask);
  for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
    mask[keep[i] / 32].permitted |= 1u << (keep[i] % 32);
  if (syscall (SYS_capget, &header, data) < 0)
    return -1;
  for (int i = 0; i < 2; i++)
    {
      data[i].permitted &= mask[i].permitted;
      data[i].effective &= mask[i].permitted;
      data[i].inheritable = 0;
    }
  return syscall (SYS_capset, &header, data);
}

static void
send_reply (int         sock,
            const char *text,
            int         fd)
{
  char control[CMSG_SPACE (sizeof (int))];
  struct iovec iov = { (void *) text, strlen (text) };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

  if (fd >= 0)
    {
      struct cmsghdr *cmsg;

      memset (control, 0, sizeof control);
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
      cmsg = CMSG_FIRSTHDR (&msg);
      cmsg->cmsg_level = SOL_SOCKET;
      cmsg->cmsg_type = SCM_RIGHTS;
      cmsg->cmsg_len = CMSG_LEN (sizeof (int));
      memcpy (CMSG_DATA (cmsg), &fd, sizeof (int));
    }

  while (sendmsg (sock, &msg, MSG_NOSIGNAL) < 0)
    if (errno != EINTR)
      _exit (errno == EPIPE ? 0 : 1);
}

static int
send_error (int         sock,
            int         errsv,
            const char *what)
{
  char text[128];

  snprintf (text, sizeof text, "ERR %d %s\n", errsv, what);
  send_reply (sock, text, -1);
  return -1;
}

/* A PID exactly as the kernel names its /proc directory: 1 to 7 digits, no sign, no
 * leading zero, no space, at most MAX_PID. */
static int
parse_pid (const char *s,
           size_t      len)
{
  long value = 0;

  if (len == 0 || len > 7 || s[0] == '0')
    return -1;
  for (size_t i = 0; i < len; i++)
    {
      if (s[i] < '0' || s[i] > '9')
        return -1;
      value = value * 10 + (s[i] - '0');
    }
  return value <= MAX_PID ? (int) value : -1;
}

static int
find_file (const char *s,
           int         pid_file)
{
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    if (files[i].pid_file == pid_file && strcmp (files[i].name, s) == 0)
      return (int) i;
  return -1;
}

/* Handles one request of LEN bytes; REQ is NUL-terminated at LEN. */
static int
handle (int    sock,
        char  *req,
        size_t len)
{
  char *name;
  int index, pid = 0, fd, dir = -1;

  if (len == 0 || req[len - 1] != '\n')
    return send_error (sock, EINVAL, "a request is one line ending in a newline");
  req[--len] = '\0';
  for (size_t i = 0; i < len; i++)
    if ((req[i] < 0x21 && req[i] != ' ') || req[i] == 0x7f)
      return send_error (sock, EINVAL, "a request is printable ASCII");

  if (strncmp (req, "OPEN ", 5) == 0)
    {
      char *space = strchr (req + 5, ' ');

      if (space == NULL || (pid = parse_pid (req + 5, space - (req + 5))) < 0)
        return send_error (sock, EINVAL, "OPEN takes a PID from 1 to 4194304");
      name = space + 1;
      if ((index = find_file (name, 1)) < 0)
        return send_error (sock, EINVAL, "no such file in the list the helper opens");
    }
  else if (strncmp (req, "KPAGE ", 6) == 0)
    {
      name = req + 6;
      if ((index = find_file (name, 0)) < 0)
        return send_error (sock, EINVAL, "KPAGE takes kpagecount or kpageflags");
    }
  else
    return send_error (sock, EINVAL, "unknown request");

  if (pid > 0)
    {
      char pid_name[16];

      snprintf (pid_name, sizeof pid_name, "%d", pid);
      dir = openat (proc_fd, pid_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (dir < 0)
        {
          int errsv = errno;

          return send_error (sock, errsv, errsv == ENOENT ? "no such process" : strerror (errsv));
        }
    }
  fd = openat (pid > 0 ? dir : proc_fd, files[index].name,
               files[index].flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      int errsv = errno;

      send_error (sock, errsv, strerror (errsv));
    }
  else
    send_reply (sock, "OK\n", fd);
  if (fd >= 0)
    close (fd);
  if (dir >= 0)
    close (dir);
  return fd >= 0 ? 0 : -1;
}

int
main (int    argc,
      char **argv)
{
  struct stat st;
  struct statfs sfs;
  int type = 0;
  socklen_t type_len = sizeof type;

  /* Nothing of the caller's reaches root's code: no environment, no other descriptors, no
   * working directory, no arguments. */
  clearenv ();
  if (syscall (SYS_close_range, 3, ~0u, 0) < 0)
    for (int fd = 3; fd < 1024; fd++)
      close (fd);
  umask (077);
  if (chdir ("/") < 0 || prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || drop_capabilities () < 0)
    return 1;
  signal (SIGPIPE, SIG_IGN);

  if (argc != 1)
    {
      fprintf (stderr, "pagescope-helper: takes no arguments; the app starts it\n");
      return 2;
    }
  if (fstat (0, &st) < 0 || !S_ISSOCK (st.st_mode) ||
      getsockopt (0, SOL_SOCKET, SO_TYPE, &type, &type_len) < 0 || type != SOCK_SEQPACKET)
    {
      fprintf (stderr, "pagescope-helper: stdin must be a SOCK_SEQPACKET socket from Pagescope\n");
      return 2;
    }
  proc_fd = open ("/proc", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (proc_fd < 0 || fstatfs (proc_fd, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC)
    {
      fprintf (stderr, "pagescope-helper: /proc is not procfs\n");
      return 1;
    }

  send_reply (0, GREETING, -1);

  for (;;)
    {
      char req[MAX_REQUEST + 1];
      struct iovec iov = { req, MAX_REQUEST };
      struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
      ssize_t n = recvmsg (0, &msg, MSG_CMSG_CLOEXEC);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return 1;
      if (n == 0)
        {
          /* End of file, or an empty datagram: only a hang-up ends the session. */
          struct pollfd pfd = { 0, POLLIN, 0 };

          if (poll (&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLERR)))
            return 0;
          send_error (0, EINVAL, "empty request");
          continue;
        }
      /* No control buffer: descriptors sent to us are closed by the kernel (MSG_CTRUNC). */
      if (msg.msg_flags & MSG_CTRUNC)
        send_error (0, EINVAL, "the helper accepts no descriptors");
      else if (msg.msg_flags & MSG_TRUNC)
        send_error (0, EMSGSIZE, "request too long");
      else
        {
          req[n] = '\0';
          handle (0, req, (size_t) n);
        }
    }
}
