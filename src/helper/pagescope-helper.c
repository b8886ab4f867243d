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
 * Page-out is done here: process_madvise() checks CAP_SYS_NICE of its caller, so no
 * descriptor could carry it. The protocol is in pgs-helper-protocol.h.
 *
 * Who may ask what:
 * - Only the process that started it: the socket's peer (SO_PEERCRED, fixed when the app
 *   made the socket pair) must be its parent (pkexec execs the helper in its own process,
 *   so the parent is the app) and have the caller's uid: PKEXEC_UID under pkexec, else the
 *   real uid. Whoever can set PKEXEC_UID without pkexec runs the helper with their own
 *   rights, so a false one gains nothing the kernel would not give them anyway.
 * - Reading (what pkexec authorised): every file of the list, for every process.
 * - Changing a process's memory state (clear_refs, PAGEOUT): the caller's own processes
 *   (every uid of the target the caller's; a root caller's: all), others' only when polkit
 *   grants the app's process the change action, asked at that request through pkcheck.
 * - Reading DAMON's events (ACCESS) and starting a kdamond of its own (MONITOR): root
 *   without asking, others under their polkit actions, asked at each request.
 * No path from the client is ever used. Plain libc on purpose: root runs nothing it does
 * not need.
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
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/capability.h>

#include "pgs-helper-protocol.h"
#include "pgs-kdamond-writer.h"
#include "pgs-tracefs-worker.h"

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef PGS_PKCHECK
#define PGS_PKCHECK "/usr/bin/pkcheck"
#endif
/* process_madvise() advises at most MAX_RW_COUNT (2 GiB less a page) per call. */
#define PAGEOUT_CHUNK (1ull << 30)

static int proc_fd = -1;
static pid_t peer_pid;                 /* the app: the helper's parent and its socket's peer */
static unsigned long long peer_start;  /* its start time (stat field 22), as polkit names it */
static uid_t caller_uid;               /* the user pkexec authenticated */
static char pkcheck[256] = PGS_PKCHECK;
static char sysfs_root[256] = "/sys";
static char procfs_root[256] = "/proc";  /* its iomem: the monitor's region */
static pid_t monitor_watchdog = -1;    /* MONITOR: removes our kdamond when monitor_sock */
static int monitor_sock = -1;          /* closes, as it does when the helper ends anyhow */

/* Keeps only what the requests need: other users' pagemap (0400) and clear_refs (0200)
 * need DAC_OVERRIDE, the ptrace check at open SYS_PTRACE, frame numbers in pagemap the
 * opener's SYS_ADMIN, process_madvise() SYS_NICE. A helper started without them keeps
 * what it has. The bounding set goes too, so that pkcheck, the one program the helper
 * runs, gets no more (not root, there is nothing to drop or regain: errors ignored). */
static int
drop_capabilities (void)
{
  static const int keep[] = { CAP_DAC_OVERRIDE, CAP_SYS_PTRACE, CAP_SYS_ADMIN, CAP_SYS_NICE };
  struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2], mask[2];

  memset (mask, 0, sizeof mask);
  for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
    mask[keep[i] / 32].permitted |= 1u << (keep[i] % 32);
  for (int cap = 0; cap < 64 && prctl (PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
    if (!(mask[cap / 32].permitted & (1u << (cap % 32))))
      prctl (PR_CAPBSET_DROP, cap, 0, 0, 0);
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

  /* The client went: that ends the session, normally. */
  while (sendmsg (sock, &msg, MSG_NOSIGNAL) < 0)
    if (errno != EINTR)
      _exit (errno == EPIPE || errno == ECONNRESET ? 0 : 1);
}

/* A datagram of LEN bytes (trace text, which may hold any byte). */
static void
send_data (int         sock,
           const char *data,
           size_t      len)
{
  while (send (sock, data, len, MSG_NOSIGNAL) < 0)
    if (errno != EINTR)
      _exit (errno == EPIPE || errno == ECONNRESET ? 0 : 1);
}

static int
send_error (int         sock,
            int         errsv,
            const char *what)
{
  char text[PGS_HELPER_MAX_REPLY];

  snprintf (text, sizeof text, "ERR %d %s\n", errsv, what);
  send_reply (sock, text, -1);
  return -1;
}

/* send_error with the kernel's words for ERRSV. */
static int
send_errno (int sock,
            int errsv)
{
  return send_error (sock, errsv, errsv == ENOENT || errsv == ESRCH ? "no such process"
                                                                   : strerror (errsv));
}

/* A PID exactly as the kernel names its /proc directory: 1 to 7 digits, no sign, no
 * leading zero, no space, at most PGS_HELPER_MAX_PID. */
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
  return value <= PGS_HELPER_MAX_PID ? (int) value : -1;
}

/* 1 to 16 lower-case hex digits, no leading zero; advances *S past them. */
static int
parse_hex (const char         **s,
           unsigned long long  *value)
{
  const char *p = *s;

  *value = 0;
  for (; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++)
    {
      if (p - *s == 16 || (p == *s && *p == '0'))
        return -1;
      *value = *value * 16 + (unsigned) (*p <= '9' ? *p - '0' : *p - 'a' + 10);
    }
  if (p == *s)
    return -1;
  *s = p;
  return 0;
}

/* "<start>-<end>[ <start>-<end>]...", page-aligned, ascending, not overlapping, at most
 * PGS_HELPER_MAX_RANGES. Returns their number, or -1. */
static int
parse_ranges (const char         *s,
              unsigned long long *start,
              unsigned long long *end)
{
  unsigned long long page = (unsigned long long) sysconf (_SC_PAGESIZE);

  for (int n = 0; n < PGS_HELPER_MAX_RANGES; )
    {
      if (parse_hex (&s, &start[n]) < 0 || *s++ != '-' || parse_hex (&s, &end[n]) < 0 ||
          start[n] >= end[n] || start[n] % page != 0 || end[n] % page != 0 ||
          (n > 0 && start[n] < end[n - 1]))
        return -1;
      n++;
      if (*s == '\0')
        return n;
      if (*s++ != ' ')
        return -1;
    }
  return -1;
}

static int
find_file (const char *s,
           int         pid_file)
{
  for (size_t i = 0; i < PGS_HELPER_N_FILES; i++)
    if (pgs_helper_files[i].pid_file == pid_file && strcmp (pgs_helper_files[i].name, s) == 0)
      return (int) i;
  return -1;
}

/* Reads a small file (stat, status) of DIR whole, NUL-terminated; its length or -1. */
static ssize_t
read_small (int         dir,
            const char *name,
            char       *buf,
            size_t      size)
{
  int fd = openat (dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : read (fd, buf, size - 1);

  if (fd >= 0)
    close (fd);
  if (n >= 0)
    buf[n] = '\0';
  return n;
}

/* Whether the process of DIR is the caller's: its real, effective, saved and filesystem
 * uids all the caller's (a set-user-ID program the caller started is not). */
static int
owned_by_caller (int dir)
{
  char buf[4096], *line;
  unsigned long uid[4];

  if (caller_uid == 0)
    return 1;
  if (read_small (dir, "status", buf, sizeof buf) <= 0 || (line = strstr (buf, "\nUid:")) == NULL ||
      sscanf (line, " Uid: %lu %lu %lu %lu", &uid[0], &uid[1], &uid[2], &uid[3]) != 4)
    return 0;
  for (int i = 0; i < 4; i++)
    if (uid[i] != caller_uid)
      return 0;
  return 1;
}

/* Asks polkit whether the app's process may do ACTION (REFUSAL says what it may not); the
 * user may be asked for a password now. 0 when it may, else -1 with the refusal sent. A
 * client that hangs up meanwhile ends the helper and pkcheck. */
static int
authorize (int         sock,
           const char *action,
           const char *what,
           const char *refusal)
{
  char subject[64], missing[PGS_HELPER_MAX_REPLY - 16];
  char *const argv[] = { pkcheck, "--action-id", (char *) action, "--process", subject,
                         "--allow-user-interaction", NULL };
  char *const envp[] = { NULL };
  struct pollfd pfd[2] = { { sock, POLLRDHUP, 0 }, { -1, POLLIN, 0 } };
  int status, ready;
  pid_t child;

  if (access (pkcheck, X_OK) < 0)
    {
      snprintf (missing, sizeof missing, "%s needs polkit's pkcheck (package polkitd), which "
                "is not installed", what);
      return send_error (sock, EACCES, missing);
    }
  snprintf (subject, sizeof subject, "%d,%llu,%u", (int) peer_pid, peer_start,
            (unsigned) caller_uid);
  child = fork ();
  if (child < 0)
    return send_errno (sock, errno);
  if (child == 0)
    {
      int null = open ("/dev/null", O_RDWR);

      if (null < 0 || dup2 (null, 0) < 0 || dup2 (null, 1) < 0)
        _exit (127);
      syscall (SYS_close_range, 3, ~0u, 0);
      execve (pkcheck, argv, envp);
      _exit (127);
    }
  pfd[1].fd = (int) syscall (SYS_pidfd_open, child, 0);
  if (pfd[1].fd >= 0)
    {
      do
        ready = poll (pfd, 2, -1);
      while (ready < 0 && errno == EINTR);
      if (ready > 0 && !(pfd[1].revents & POLLIN))
        {
          kill (child, SIGKILL);
          waitpid (child, NULL, 0);
          _exit (0);
        }
      close (pfd[1].fd);
    }
  while (waitpid (child, &status, 0) < 0)
    if (errno != EINTR)
      return send_errno (sock, errno);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    return 0;
  if (WIFEXITED (status) && WEXITSTATUS (status) == 3)
    return send_error (sock, ECANCELED, "authentication was dismissed");
  if (WIFEXITED (status) && WEXITSTATUS (status) <= 2)
    return send_error (sock, EACCES, refusal);
  return send_error (sock, EACCES, "pkcheck failed: polkit could not be asked");
}

/* 1: the process of DIR is the caller's; 0: polkit allows it; -1: refused (reply sent). */
static int
may_change (int sock,
            int dir)
{
  return owned_by_caller (dir) ? 1
    : authorize (sock, PGS_HELPER_ACTION_CHANGE, "changing another user's process",
                 "not authorised to change another user's "
                 "process (polkit action " PGS_HELPER_ACTION_CHANGE ")");
}

static int
open_file (int sock,
           int dir,
           int index)
{
  int changes = pgs_helper_files[index].changes, owned = 0, fd;

  if (changes && (owned = may_change (sock, dir)) < 0)
    return -1;
  fd = openat (dir, pgs_helper_files[index].name,
               (changes ? O_WRONLY : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return send_errno (sock, errno);
  /* The caller's when checked, another user's when opened: it ran a set-user-ID program. */
  if (owned == 1 && !owned_by_caller (dir))
    {
      close (fd);
      return send_error (sock, EACCES, "the process changed its user");
    }
  send_reply (sock, "OK\n", fd);
  close (fd);
  return 0;
}

/* Pages out N ranges of the process PID (whose /proc directory is DIR) after checking
 * that each lies inside one line of its maps. */
static int
pageout (int                       sock,
         int                       dir,
         int                       pid,
         const unsigned long long *start,
         const unsigned long long *end,
         int                       n)
{
  unsigned long long requested = 0, advised = 0, lo, hi;
  char reply[64], *line = NULL;
  size_t size = 0;
  int pidfd, mapsfd, i = 0, inside = 1, errsv = 0;
  FILE *maps;

  /* Opened after DIR; maps read through DIR after it shows the process still ran then, so
   * the PID was not passed on in between and PIDFD is DIR's process. */
  pidfd = (int) syscall (SYS_pidfd_open, pid, 0);
  if (pidfd < 0)
    return send_errno (sock, errno);
  if (may_change (sock, dir) < 0)
    {
      close (pidfd);
      return -1;
    }
  mapsfd = openat (dir, "maps", O_RDONLY | O_CLOEXEC);
  if (mapsfd < 0 || (maps = fdopen (mapsfd, "r")) == NULL)
    {
      errsv = errno;
      if (mapsfd >= 0)
        close (mapsfd);
      close (pidfd);
      return send_errno (sock, errsv);
    }
  while (inside && i < n && getline (&line, &size, maps) > 0 &&
         sscanf (line, "%llx-%llx", &lo, &hi) == 2)
    for (; inside && i < n && start[i] < hi; i++)
      inside = start[i] >= lo && end[i] <= hi;
  free (line);
  fclose (maps);
  if (!inside || i < n)
    {
      close (pidfd);
      return send_error (sock, EINVAL, "a range is not inside one mapping of the process");
    }

  for (i = 0; i < n; i++)
    requested += end[i] - start[i];
  for (i = 0; i < n && errsv == 0; i++)
    for (unsigned long long at = start[i]; at < end[i]; )
      {
        struct iovec iov = { (void *) at, end[i] - at < PAGEOUT_CHUNK ? end[i] - at : PAGEOUT_CHUNK };
        ssize_t done = syscall (SYS_process_madvise, pidfd, &iov, 1, MADV_PAGEOUT, 0);

        if (done <= 0)
          {
            errsv = done < 0 ? errno : EIO;
            break;
          }
        advised += (unsigned long long) done;
        at += (unsigned long long) done;
      }
  close (pidfd);
  if (advised == 0 && errsv != 0)
    return send_errno (sock, errsv);
  snprintf (reply, sizeof reply, "OK %llu %llu\n", requested, advised);
  send_reply (sock, reply, -1);
  return 0;
}

/* "1" to PGS_HELPER_MAX_ACCESS_SECONDS, no sign, no leading zero, nothing else. */
static int
parse_seconds (const char *s)
{
  long value = 0;

  if (s[0] < '1' || s[0] > '9')
    return -1;
  for (; *s; s++)
    {
      if (*s < '0' || *s > '9' || value > PGS_HELPER_MAX_ACCESS_SECONDS)
        return -1;
      value = value * 10 + (*s - '0');
    }
  return value <= PGS_HELPER_MAX_ACCESS_SECONDS ? (int) value : -1;
}

/* Forwards what the worker wrote to PIPE as "+" datagrams; 0 at its end of file, 1 when
 * nothing more is there now, -1 when the pipe failed. */
static int
forward_trace (int sock,
               int pipe_fd)
{
  static char buf[PGS_HELPER_ACCESS_CHUNK + 2];

  for (;;)
    {
      ssize_t n = read (pipe_fd, buf + 1, PGS_HELPER_ACCESS_CHUNK);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno == EAGAIN ? 1 : -1;
      if (n == 0)
        return 0;
      buf[0] = '+';
      buf[n + 1] = '\0';
      send_data (sock, buf, (size_t) n + 1);
    }
}

/* Reads damon:damon_aggregated for SECONDS through a tracefs instance of the helper's own,
 * made and removed by the same worker as the library's reader (pgs-tracefs-worker.h),
 * and streams the lines to the client. The worker's watchdog removes the instance should
 * the helper be killed; a client that hangs up stops the read. */
static int
read_access (int sock,
             int seconds)
{
  char status[PGS_HELPER_MAX_REPLY - 8], stop[16];
  size_t len = 0;
  int fds[2], wstatus, code, stopped = 0;
  pid_t worker;
  struct timespec now, deadline;

  if (caller_uid != 0 &&
      authorize (sock, PGS_HELPER_ACTION_ACCESS, "reading memory access heat",
                 "not authorised to read memory access heat (polkit action "
                 PGS_HELPER_ACTION_ACCESS ")") < 0)
    return -1;
  if (pipe2 (fds, O_CLOEXEC) != 0)
    return send_errno (sock, errno);
  worker = fork ();
  if (worker < 0)
    {
      int errsv = errno;

      close (fds[0]);
      close (fds[1]);
      return send_errno (sock, errsv);
    }
  if (worker == 0)
    {
      close (fds[0]);
      worker_main (fds[1], getppid ());
    }
  close (fds[1]);

  /* Its first line: "OK <instance> <private>" or "ERR <text>". */
  while (len < sizeof status - 1)
    {
      ssize_t n = read (fds[0], status + len, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0 || status[len] == '\n')
        break;
      len++;
    }
  status[len] = '\0';
  if (strncmp (status, "OK ", 3) != 0)
    {
      close (fds[0]);
      while (waitpid (worker, &wstatus, 0) < 0 && errno == EINTR)
        ;
      return send_error (sock, EIO, strncmp (status, "ERR ", 4) == 0 ? status + 4
                                    : "the tracefs reader failed to start");
    }
  strcat (status, "\n");
  send_reply (sock, status, -1);

  fcntl (fds[0], F_SETFL, O_NONBLOCK);
  clock_gettime (CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += seconds;
  for (;;)
    {
      struct pollfd pfd[2] = { { fds[0], POLLIN, 0 }, { sock, POLLIN | POLLRDHUP, 0 } };
      long left;

      clock_gettime (CLOCK_MONOTONIC, &now);
      left = (deadline.tv_sec - now.tv_sec) * 1000 + (deadline.tv_nsec - now.tv_nsec) / 1000000;
      if (left <= 0)
        break;
      if (poll (pfd, 2, (int) (left < 1000 ? left : 1000)) < 0 && errno != EINTR)
        break;
      if (pfd[1].revents & (POLLRDHUP | POLLHUP | POLLERR))
        {
          /* The client went: stop, let the worker clean up, and end as on any hang-up. */
          kill (worker, SIGTERM);
          while (waitpid (worker, &wstatus, 0) < 0 && errno == EINTR)
            ;
          _exit (0);
        }
      /* The client ends the read early with "STOP\n" (anything else also stops it, and is
       * refused once the instance is gone). */
      if (pfd[1].revents & POLLIN)
        {
          ssize_t n = recv (sock, stop, sizeof stop, MSG_DONTWAIT);

          if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
          stopped = n == 5 && memcmp (stop, "STOP\n", 5) == 0 ? 1 : 2;
          break;
        }
      if ((pfd[0].revents & (POLLIN | POLLHUP)) && forward_trace (sock, fds[0]) <= 0)
        break;
    }
  kill (worker, SIGTERM);
  /* What the worker read before it stopped is still in the pipe. */
  fcntl (fds[0], F_SETFL, 0);
  forward_trace (sock, fds[0]);
  close (fds[0]);
  while (waitpid (worker, &wstatus, 0) < 0)
    if (errno != EINTR)
      return send_errno (sock, errno);
  code = WIFEXITED (wstatus) ? WEXITSTATUS (wstatus) : -1;
  if (code != WORKER_REMOVED)
    return send_error (sock, EIO, "the tracefs instance was not removed by the reader; its "
                       "watchdog tries again");
  if (stopped == 2)
    return send_error (sock, EINVAL, "only STOP may be sent during ACCESS");
  send_reply (sock, "END\n", -1);
  return 0;
}

/* At a hang-up the helper returns from main: the monitor is removed before it exits
 * (forked children end with _exit, never running this). */
static int release_registered;

static void
release_monitor (void)
{
  char reply[KDAMOND_REPLY_MAX];

  if (monitor_watchdog >= 0)
    kdamond_release (monitor_watchdog, monitor_sock, reply, sizeof reply);
  monitor_watchdog = -1;
}

/* MONITOR: a kdamond of our own, started by a watchdog (pgs-kdamond-writer.h) that removes
 * it, every file restored, at its socket's end of file: at UNMONITOR, when the helper
 * returns from main, or when it ends in any other way (SIGTERM, SIGKILL). */
static int
monitor (int sock,
         int start)
{
  char reply[KDAMOND_REPLY_MAX];

  if (!start)
    {
      if (monitor_watchdog < 0)
        return send_error (sock, EINVAL, "no monitor of the helper's runs");
      kdamond_release (monitor_watchdog, monitor_sock, reply, sizeof reply);
      monitor_watchdog = -1;
      send_reply (sock, reply, -1);
      return 0;
    }
  if (monitor_watchdog >= 0)
    return send_error (sock, EBUSY, "a monitor of the helper's runs already");
  if (caller_uid != 0 &&
      authorize (sock, PGS_HELPER_ACTION_MONITOR, "starting a memory access monitor",
                 "not authorised to start a memory access monitor (polkit action "
                 PGS_HELPER_ACTION_MONITOR ")") < 0)
    return -1;
  if (!release_registered)
    release_registered = atexit (release_monitor) == 0;
  monitor_watchdog = kdamond_spawn (sysfs_root, procfs_root, &monitor_sock, reply, sizeof reply);
  send_reply (sock, reply, -1);
  return 0;
}

/* Handles one request of LEN bytes; REQ is NUL-terminated at LEN. */
static int
handle (int    sock,
        char  *req,
        size_t len)
{
  unsigned long long start[PGS_HELPER_MAX_RANGES], end[PGS_HELPER_MAX_RANGES];
  char *space, name[16];
  int verb, index = -1, n = 0, pid, dir, ret;

  if (len == 0 || req[len - 1] != '\n')
    return send_error (sock, EINVAL, "a request is one line ending in a newline");
  req[--len] = '\0';
  for (size_t i = 0; i < len; i++)
    if ((req[i] < 0x21 && req[i] != ' ') || req[i] == 0x7f)
      return send_error (sock, EINVAL, "a request is printable ASCII");

  if (strncmp (req, "ACCESS ", 7) == 0)
    {
      int seconds = parse_seconds (req + 7);

      if (seconds < 0)
        return send_error (sock, EINVAL, "ACCESS takes a number of seconds from 1 to 600");
      return read_access (sock, seconds);
    }
  if (strcmp (req, "MONITOR") == 0 || strcmp (req, "UNMONITOR") == 0)
    return monitor (sock, req[0] == 'M');
  if (strncmp (req, "KPAGE ", 6) == 0)
    {
      if ((index = find_file (req + 6, 0)) < 0)
        return send_error (sock, EINVAL, "KPAGE takes kpagecount or kpageflags");
      return open_file (sock, proc_fd, index);
    }
  if (strncmp (req, "OPEN ", 5) == 0)
    verb = 5;
  else if (strncmp (req, "PAGEOUT ", 8) == 0)
    verb = 8;
  else
    return send_error (sock, EINVAL, "unknown request");

  space = strchr (req + verb, ' ');
  if (space == NULL || (pid = parse_pid (req + verb, (size_t) (space - (req + verb)))) < 0)
    return send_error (sock, EINVAL, "OPEN and PAGEOUT take a PID from 1 to 4194304");
  if (verb == 5 && (index = find_file (space + 1, 1)) < 0)
    return send_error (sock, EINVAL, "no such file in the list the helper opens");
  if (verb == 8 && (n = parse_ranges (space + 1, start, end)) < 0)
    return send_error (sock, EINVAL, "PAGEOUT takes 1 to 64 ranges start-end: lower-case hex, "
                       "page-aligned, ascending, not overlapping");

  snprintf (name, sizeof name, "%d", pid);
  dir = openat (proc_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir < 0)
    return send_errno (sock, errno);
  ret = verb == 5 ? open_file (sock, dir, index) : pageout (sock, dir, pid, start, end, n);
  close (dir);
  return ret;
}

/* Serves only the process that made the socket pair: the helper's parent, as the user the
 * helper acts for. Also notes its start time, by which polkit tells it from a PID reused. */
static int
check_peer (void)
{
  struct ucred cred;
  socklen_t len = sizeof cred;
  char name[32], buf[1024], *paren;

  if (getsockopt (0, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid != peer_pid ||
      cred.uid != caller_uid)
    return send_error (0, EPERM, "the helper serves only the process that started it");
  snprintf (name, sizeof name, "%d/stat", (int) peer_pid);
  if (read_small (proc_fd, name, buf, sizeof buf) <= 0 || (paren = strrchr (buf, ')')) == NULL ||
      sscanf (paren + 1, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
              "%*s %*s %llu", &peer_start) != 1)
    return send_error (0, EPERM, "cannot read the start time of the process that started it");
  return 0;
}

int
main (int    argc,
      char **argv)
{
  const char *pkexec_uid = getenv ("PKEXEC_UID");
  struct stat st;
  struct statfs sfs;
  int type = 0;
  socklen_t type_len = sizeof type;
  char *end = NULL;

  peer_pid = getppid ();
  caller_uid = getuid ();
  if (pkexec_uid != NULL)
    {
      unsigned long uid = strtoul (pkexec_uid, &end, 10);

      if (end == pkexec_uid || *end != '\0' || uid >= (uid_t) -1)
        {
          fprintf (stderr, "pagescope-helper: PKEXEC_UID is not a user ID\n");
          return 2;
        }
      caller_uid = (uid_t) uid;
    }
#ifdef PGS_HELPER_TESTING
  /* Only in the build tree's test helper, never installed: a stand-in for pkcheck. */
  if (getenv ("PGS_HELPER_TEST_PKCHECK") != NULL)
    snprintf (pkcheck, sizeof pkcheck, "%s", getenv ("PGS_HELPER_TEST_PKCHECK"));
  /* ... and a fake DAMON sysfs tree for MONITOR, which holds the iomem it reads too. */
  if (getenv ("PGS_HELPER_TEST_SYSFS") != NULL)
    {
      snprintf (sysfs_root, sizeof sysfs_root, "%s", getenv ("PGS_HELPER_TEST_SYSFS"));
      snprintf (procfs_root, sizeof procfs_root, "%s", getenv ("PGS_HELPER_TEST_SYSFS"));
    }
#endif

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
  if (check_peer () < 0)
    return 2;

  send_reply (0, PGS_HELPER_GREETING, -1);

  for (;;)
    {
      char req[PGS_HELPER_MAX_REQUEST + 1];
      struct iovec iov = { req, PGS_HELPER_MAX_REQUEST };
      struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
      ssize_t n = recvmsg (0, &msg, MSG_CMSG_CLOEXEC);

      if (n < 0 && errno == EINTR)
        continue;
      /* ECONNRESET: the client closed its end with a reply unread, a hang-up all the same. */
      if (n < 0)
        return errno == ECONNRESET ? 0 : 1;
      if (n == 0)
        {
          /* End of file (a hang-up or a half-close), or an empty datagram, which is not. */
          struct pollfd pfd = { 0, POLLRDHUP, 0 };

          if (poll (&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLRDHUP | POLLERR)))
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
