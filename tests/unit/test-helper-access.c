/* test-helper-access.c: reading DAMON's trace through a scripted fake helper (ACCESS)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The client must take a well-formed stream whole (chunks cut lines anywhere), refuse an
 * oversized chunk, a stream without its "END", an error and garbage with an error that
 * says so, and when cancelled ask the helper to STOP (it removes its tracefs instance
 * and serves on), or hang up before the read began or when STOP goes unanswered. A thread plays the helper on a socketpair: no root needed.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>

#include "pagescope.h"
#include "src/helper/pgs-helper-protocol.h"

#define LINE(ts, body) "       kdamond.0-107     [003] ..... " ts ": damon_aggregated: " body

/* One aggregation of two regions, as trace_pipe gives it. */
static const char trace[] =
  LINE ("15.000100", "target_id=0 nr_regions=2 0-4096: 2 7") "\n"
  LINE ("15.000101", "target_id=0 nr_regions=2 4096-12288: 0 1") "\n";

typedef struct
{
  int           sock;
  const char   *expect;        /* the request */
  GPtrArray    *frames;        /* GBytes, sent in turn */
  GCancellable *cancel_after;  /* cancelled once the frames are sent */
  const char   *after_stop[3]; /* then "STOP\n" expected, and these sent */
  gboolean      wait_hang_up;  /* else close after the frames */
  gboolean      got_stop;
  gboolean      hung_up;       /* the client closed or shut down its end */
} Fake;

static void
add_frame (Fake       *fake,
           const char *data,
           gssize      len)
{
  g_ptr_array_add (fake->frames, g_bytes_new (data, len < 0 ? strlen (data) : (gsize) len));
}

static gpointer
fake_helper (gpointer data)
{
  Fake *fake = data;
  char request[128];
  ssize_t n;

  g_assert_cmpint (send (fake->sock, PGS_HELPER_GREETING, strlen (PGS_HELPER_GREETING),
                         MSG_NOSIGNAL), >, 0);
  n = recv (fake->sock, request, sizeof request - 1, 0);
  g_assert_cmpint (n, >, 0);
  request[n] = '\0';
  g_assert_cmpstr (request, ==, fake->expect);
  for (guint i = 0; i < fake->frames->len; i++)
    {
      gsize len;
      const char *frame = g_bytes_get_data (g_ptr_array_index (fake->frames, i), &len);

      /* The client may have hung up already (a bad frame): then sending fails. */
      if (send (fake->sock, frame, len, MSG_NOSIGNAL) < 0)
        break;
    }
  if (fake->cancel_after != NULL)
    {
      int queued;

      /* Once the client has taken every frame (what we sent and it has not read is still
       * ours: SIOCOUTQ), so that it is mid-read when cancelled. */
      while (ioctl (fake->sock, SIOCOUTQ, &queued) == 0 && queued > 0)
        g_usleep (1000);
      g_cancellable_cancel (fake->cancel_after);
    }
  if (fake->after_stop[0] != NULL)
    {
      n = recv (fake->sock, request, sizeof request - 1, 0);
      fake->got_stop = n == 5 && memcmp (request, "STOP\n", 5) == 0;
      for (guint i = 0; i < G_N_ELEMENTS (fake->after_stop) && fake->after_stop[i]; i++)
        send (fake->sock, fake->after_stop[i], strlen (fake->after_stop[i]), MSG_NOSIGNAL);
    }
  if (fake->wait_hang_up)
    {
      /* Nothing more comes from the client: its next datagram is the end of file. */
      n = recv (fake->sock, request, sizeof request, 0);
      fake->hung_up = n == 0;
    }
  close (fake->sock);
  return NULL;
}

typedef struct
{
  GMainLoop *loop;
  GBytes    *bytes;
  char      *instance;
  gboolean   private_mount;
  GError    *error;
} Result;

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Result *r = user_data;

  r->bytes = pgs_helper_read_access_finish (PGS_HELPER (source), result, &r->instance,
                                            &r->private_mount, &r->error);
  g_main_loop_quit (r->loop);
}

/* Plays FAKE's script against a client reading 3 s; returns what the read gave. */
static void
run (Fake         *fake,
     GCancellable *cancellable,
     Result       *r,
     gboolean     *still_running)
{
  g_autoptr(PgsHelper) helper = NULL;
  g_autoptr(GError) error = NULL;
  GThread *thread;
  int sv[2];

  g_assert_no_errno (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
  fake->sock = sv[1];
  if (fake->expect == NULL)
    fake->expect = "ACCESS 3\n";
  thread = g_thread_new ("fake-helper", fake_helper, fake);
  helper = pgs_helper_new_for_fd (sv[0], &error);
  g_assert_no_error (error);

  memset (r, 0, sizeof *r);
  r->loop = g_main_loop_new (NULL, FALSE);
  pgs_helper_read_access_async (helper, 3, cancellable, on_read, r);
  g_main_loop_run (r->loop);
  g_main_loop_unref (r->loop);
  g_assert_true ((r->bytes != NULL) != (r->error != NULL));
  *still_running = pgs_helper_is_running (helper);
  /* The last reference closes the socket: a fake that waits for it then returns. */
  g_clear_object (&helper);
  g_thread_join (thread);
  g_ptr_array_unref (fake->frames);
}

static void
result_clear (Result *r)
{
  g_clear_pointer (&r->bytes, g_bytes_unref);
  g_clear_pointer (&r->instance, g_free);
  g_clear_error (&r->error);
}

static void
test_good_stream (void)
{
  Fake fake = { .frames = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
                .wait_hang_up = TRUE };
  g_autoptr(PgsDamonAccess) access = pgs_damon_access_new (0);
  PgsDamonAccessCounts counts;
  const PgsDamonAggregation *a;
  const PgsDamonRegion *reg;
  g_autofree char *first = NULL, *second = NULL;
  gsize cut = strlen (LINE ("15.000100", "target_id=0 nr_regions=2 0-4096: 2 7") "\n") + 40;
  gboolean running;
  Result r;

  /* The second line cut in its middle, between two chunks. */
  first = g_strdup_printf ("+%.*s", (int) cut, trace);
  second = g_strdup_printf ("+%s", trace + cut);
  add_frame (&fake, "OK pagescope-4242-0badcafe 1\n", -1);
  add_frame (&fake, first, -1);
  add_frame (&fake, "+", 1);   /* an empty chunk is no harm */
  add_frame (&fake, second, -1);
  add_frame (&fake, "END\n", -1);
  run (&fake, NULL, &r, &running);

  g_assert_no_error (r.error);
  g_assert_cmpstr (r.instance, ==, "pagescope-4242-0badcafe");
  g_assert_true (r.private_mount);
  g_assert_cmpmem (g_bytes_get_data (r.bytes, NULL), g_bytes_get_size (r.bytes),
                   trace, strlen (trace));
  /* Still served after END; it hung up only when the client went. */
  g_assert_true (running);
  g_assert_true (fake.hung_up);

  /* The library's one parser takes them: one aggregation of the two regions. */
  pgs_damon_access_feed (access, g_bytes_get_data (r.bytes, NULL), g_bytes_get_size (r.bytes));
  pgs_damon_access_finish (access);
  pgs_damon_access_get_counts (access, &counts);
  g_assert_cmpuint (counts.lines, ==, 2);
  g_assert_cmpuint (counts.events, ==, 2);
  g_assert_cmpuint (counts.errors, ==, 0);
  g_assert_cmpuint (pgs_damon_access_get_aggregations (access)->len, ==, 1);
  a = g_ptr_array_index (pgs_damon_access_get_aggregations (access), 0);
  g_assert_cmpint (a->pid, ==, 107);
  g_assert_cmpuint (a->regions->len, ==, 2);
  reg = &g_array_index (a->regions, PgsDamonRegion, 0);
  g_assert_cmpuint (reg->start, ==, 0);
  g_assert_cmpuint (reg->end, ==, 4096);
  g_assert_cmpuint (reg->nr_accesses, ==, 2);
  g_assert_cmpuint (reg->age, ==, 7);
  reg = &g_array_index (a->regions, PgsDamonRegion, 1);
  g_assert_cmpuint (reg->start, ==, 4096);
  g_assert_cmpuint (reg->end, ==, 12288);
  g_assert_cmpuint (reg->nr_accesses, ==, 0);
  result_clear (&r);
}

typedef struct
{
  const char *name;
  const char *frames[4];
  gssize      big_chunk;       /* a '+' frame of this many bytes after the others, or 0 */
  GQuark      domain;
  int         code;
  const char *says;            /* in the message */
  gboolean    still_running;   /* an ERR ends the request, not the helper */
} Bad;

static void
test_bad_streams (void)
{
  static const Bad bads[] = {
    { "chunk over the limit", { "OK pagescope-1-1 0\n", "+abc" }, PGS_HELPER_ACCESS_CHUNK + 1,
      0, PGS_ERROR_FAILED, "chunk of more than 16384 bytes", FALSE },
    { "no END", { "OK pagescope-1-1 0\n", "+abc\n" }, 0,
      0, PGS_ERROR_FAILED, "before the end of the trace", FALSE },
    { "error line", { "OK pagescope-1-1 0\n", "+abc\n", "ERR 5 the tracefs instance was "
                      "not removed\x1b[31m\n" }, 0,
      0, 0, "the tracefs instance was not removed", TRUE },
    { "refused", { "ERR 13 not authorised to read memory access heat\n" }, 0,
      0, PGS_ERROR_NO_PERMISSION, "not authorised", TRUE },
    { "dismissed", { "ERR 125 authentication was dismissed\n" }, 0,
      1, G_IO_ERROR_CANCELLED, "dismissed", TRUE },
    { "garbage frame", { "OK pagescope-1-1 0\n", "+abc\n", "hello\n" }, 0,
      0, PGS_ERROR_FAILED, "malformed frame", FALSE },
    { "garbage reply", { "OKAY\n" }, 0, 0, PGS_ERROR_FAILED, "malformed reply", FALSE },
    { "instance with a path", { "OK ../../x 1\n" }, 0, 0, PGS_ERROR_FAILED, "malformed", FALSE },
    { "bad private flag", { "OK pagescope-1-1 2\n" }, 0, 0, PGS_ERROR_FAILED, "malformed",
      FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bads); i++)
    {
      Fake fake = { .frames = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
                    .wait_hang_up = FALSE };
      gboolean running;
      Result r;

      g_test_message ("%s", bads[i].name);
      for (guint j = 0; j < G_N_ELEMENTS (bads[i].frames) && bads[i].frames[j]; j++)
        add_frame (&fake, bads[i].frames[j], -1);
      if (bads[i].big_chunk > 0)
        {
          g_autofree char *big = g_malloc (bads[i].big_chunk + 1);

          memset (big, 'x', bads[i].big_chunk + 1);
          big[0] = '+';
          add_frame (&fake, big, bads[i].big_chunk + 1);
          add_frame (&fake, "END\n", -1);
        }
      /* A fake that stays for the hang-up when the client should stay connected. */
      fake.wait_hang_up = bads[i].still_running;
      run (&fake, NULL, &r, &running);

      g_assert_null (r.bytes);
      g_assert_nonnull (r.error);
      if (bads[i].domain == 1)
        g_assert_error (r.error, G_IO_ERROR, bads[i].code);
      else if (bads[i].code != 0)
        g_assert_error (r.error, PGS_ERROR, bads[i].code);
      g_assert_nonnull (strstr (r.error->message, bads[i].says));
      g_assert_null (strchr (r.error->message, '\x1b'));
      g_assert_nonnull (strstr (r.error->message, "access heat"));
      /* A stream that cannot be trusted is let go; an error line ends only the request. */
      g_assert_cmpint (running, ==, bads[i].still_running);
      result_clear (&r);
    }
}

static void
test_cancel (void)
{
  static const struct
  {
    const char *name;
    gboolean    ok_sent;       /* the read had begun (else polkit was still asking) */
    const char *after_stop[3];
    gboolean    still_running; /* STOP answered: the helper serves on */
  } cases[] = {
    { "stopped", TRUE, { "+" LINE ("15.000101", "target_id=0 nr_regions=2 4096-12288: 0 1")
                         "\n", "END\n" }, TRUE },
    { "stop answered with an error", TRUE, { "ERR 5 the tracefs instance was not removed\n" },
      TRUE },
    { "stop answered with garbage", TRUE, { "hello\n" }, FALSE },
    { "stop unanswered", TRUE, { "+abc" }, FALSE },   /* then the fake closes: EOF */
    { "before the read began", FALSE, { NULL }, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Fake fake = { .frames = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
                    .wait_hang_up = TRUE };
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      gboolean running;
      Result r;

      g_test_message ("%s", cases[i].name);
      if (cases[i].ok_sent)
        {
          add_frame (&fake, "OK pagescope-1-1 0\n", -1);
          add_frame (&fake, "+" LINE ("15.000100", "target_id=0 nr_regions=2 0-4096: 2 7") "\n",
                     -1);
        }
      memcpy (fake.after_stop, cases[i].after_stop, sizeof fake.after_stop);
      /* Unanswered: the fake goes after STOP, which the client reads as end of file. */
      fake.wait_hang_up = g_strcmp0 (cases[i].name, "stop unanswered") != 0;
      fake.cancel_after = cancellable;
      run (&fake, cancellable, &r, &running);

      g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (r.bytes);
      /* Mid-read the client asks the helper to STOP; before, or unanswered, it hangs up,
       * which stops the helper's read (and the helper). */
      g_assert_cmpint (fake.got_stop, ==, cases[i].ok_sent);
      g_assert_cmpint (running, ==, cases[i].still_running);
      if (fake.wait_hang_up)
        g_assert_true (fake.hung_up);
      result_clear (&r);
    }
}

static void
test_seconds (void)
{
  g_autoptr(PgsHelper) helper = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsDamonAccess) access = pgs_damon_access_new (0);
  int sv[2];

  g_assert_no_errno (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
  g_assert_cmpint (send (sv[1], PGS_HELPER_GREETING, strlen (PGS_HELPER_GREETING), 0), >, 0);
  helper = pgs_helper_new_for_fd (sv[0], &error);
  g_assert_no_error (error);
  /* Refused before anything is sent: nothing answers on the other end. */
  g_assert_false (pgs_helper_read_access (helper, 0, access, NULL, NULL, NULL, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_false (pgs_helper_read_access (helper, 601, access, NULL, NULL, NULL, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_assert_true (pgs_helper_is_running (helper));
  close (sv[1]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/helper-access/good-stream", test_good_stream);
  g_test_add_func ("/pgs/helper-access/bad-streams", test_bad_streams);
  g_test_add_func ("/pgs/helper-access/cancel", test_cancel);
  g_test_add_func ("/pgs/helper-access/seconds", test_seconds);

  return g_test_run ();
}
