/* pgs-fuzz-driver.c: a small mutation fuzzer for the LLVMFuzzerTestOneInput targets
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked with each tests/fuzz/fuzz-*.c so that the targets run under gcc and the
 * ASan/UBSan build in `meson test` without libFuzzer. Usage:
 *
 *   fuzz-NAME CORPUS-DIR     run every seed, then mutate them for PGS_FUZZ_SECONDS (5)
 *   fuzz-NAME FILE...        run each file once (reproduce a finding)
 *
 * Environment: PGS_FUZZ_SECONDS (run time; 0 runs the seeds only), PGS_FUZZ_SEED (the
 * random seed, fixed by default so a run is repeatable up to timing), PGS_FUZZ_TIMEOUT
 * (seconds one input may take before it counts as a hang, 10), PGS_FUZZ_ARTIFACTS (where a
 * crashing or hanging input is written, default the temporary directory).
 *
 * A finding is whatever ends the process: a sanitizer report, an abort, a fatal GLib
 * critical (the tests run with G_DEBUG=fatal-criticals), a hang. Before dying, the input is
 * written out and its path printed, so `fuzz-NAME that-file` reproduces it.
 *
 * Mutations, as libFuzzer's: bit flips, random bytes, byte inserts and deletes, copies of a
 * range inside the input, splices with another seed, and "interesting" numbers written as
 * decimal text (0, -1, 2^32, 2^63, 2^64-1…) or as little-endian u64 records (a huge PFN, a
 * present bit with a PFN beyond any RAM, all ones). Inputs are capped at PGS_FUZZ_MAX_INPUT.
 *
 * With libFuzzer instead (clang): build the same fuzz-NAME.c without this file, e.g.
 *   CC=clang meson setup build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
 *     -Dapp=disabled && meson compile -C build-fuzz fuzz-status-libfuzzer
 *   build-fuzz/tests/fuzz/fuzz-status-libfuzzer tests/fuzz/corpus/status -max_total_time=60
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define PGS_FUZZ_MAX_INPUT (64 * 1024)

/* UBSan findings abort (then on_fatal_signal saves the input) unless UBSAN_OPTIONS says
 * otherwise: with gcc, UBSan is a runtime of its own and ignores ASan's death callback. */
const char *__ubsan_default_options (void);

const char *
__ubsan_default_options (void)
{
  return "abort_on_error=1:print_stacktrace=1";
}

/* Present when built with a sanitizer. */
extern void __sanitizer_set_death_callback (void (*callback) (void)) __attribute__ ((weak));

static const uint8_t *current_data;
static size_t current_size;
static char artifact_path[4096];

/* Runs in a dying process (signal or sanitizer): async-signal-safe calls only. */
static void
save_current_input (void)
{
  int fd;

  if (current_data == NULL || artifact_path[0] == '\0')
    return;
  fd = open (artifact_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0)
    {
      size_t off = 0;

      while (off < current_size)
        {
          ssize_t n = write (fd, current_data + off, current_size - off);

          if (n <= 0)
            break;
          off += (size_t) n;
        }
      close (fd);
      (void) !write (STDERR_FILENO, "pgs-fuzz: input saved to ", 25);
      (void) !write (STDERR_FILENO, artifact_path, strlen (artifact_path));
      (void) !write (STDERR_FILENO, "\n", 1);
    }
  current_data = NULL;
}

static void
on_fatal_signal (int sig)
{
  if (sig == SIGALRM)
    (void) !write (STDERR_FILENO, "pgs-fuzz: an input ran past PGS_FUZZ_TIMEOUT (hang)\n", 53);
  save_current_input ();
  signal (sig == SIGALRM ? SIGABRT : sig, SIG_DFL);
  raise (sig == SIGALRM ? SIGABRT : sig);
}

/* xorshift64*: fast, and the same sequence for the same seed everywhere. */
static guint64 rng_state;

static guint64
rng (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * G_GUINT64_CONSTANT (2685821657736338717);
}

static gsize
rng_below (gsize n)
{
  return n == 0 ? 0 : (gsize) (rng () % n);
}

static const char *const interesting_text[] = {
  "0", "-1", "1", "255", "4096", "65535", "2147483647", "2147483648", "4294967295",
  "4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551615",
  "18446744073709551616", "99999999999999999999999", "ffffffffffffffff", "7fffffffffff",
  "fffffffffffff000", " ", "\t", "\n", ":", "-", "\\", "\\\\", "\\n", "\\t", "\\x",
  "\xf0", "\xf0\x9f\x98", "\xc3", "\xff", " kB", "0 kB", "Name:", "State:\tZ (zombie)",
};

static const guint64 interesting_u64[] = {
  0, 1, G_MAXUINT32, G_GUINT64_CONSTANT (1) << 32, G_GUINT64_CONSTANT (1) << 63,
  G_MAXUINT64, G_MAXINT64,
  /* present with PFN 2^36, 2^40, the full 55-bit field; swapped with huge offsets */
  (G_GUINT64_CONSTANT (1) << 63) | (G_GUINT64_CONSTANT (1) << 36),
  (G_GUINT64_CONSTANT (1) << 63) | (G_GUINT64_CONSTANT (1) << 40),
  (G_GUINT64_CONSTANT (1) << 63) | ((G_GUINT64_CONSTANT (1) << 55) - 1),
  (G_GUINT64_CONSTANT (1) << 63) | (G_GUINT64_CONSTANT (1) << 56) | 0x1234,
  (G_GUINT64_CONSTANT (1) << 62) | ((G_GUINT64_CONSTANT (1) << 55) - 1),
  (G_GUINT64_CONSTANT (1) << 63) | (G_GUINT64_CONSTANT (1) << 61) | 1,
};

static void
insert_bytes (GByteArray    *buf,
              gsize          at,
              const guint8  *bytes,
              gsize          n)
{
  if (buf->len + n > PGS_FUZZ_MAX_INPUT)
    return;
  g_byte_array_set_size (buf, buf->len + n);
  memmove (buf->data + at + n, buf->data + at, buf->len - n - at);
  memcpy (buf->data + at, bytes, n);
}

static void
mutate_once (GByteArray *buf,
             GPtrArray  *seeds)
{
  gsize len = buf->len;

  switch (rng_below (10))
    {
    case 0: /* flip a bit */
      if (len > 0)
        buf->data[rng_below (len)] ^= 1u << rng_below (8);
      break;
    case 1: /* a random byte */
      if (len > 0)
        buf->data[rng_below (len)] = (guint8) rng ();
      break;
    case 2: /* insert random bytes */
      {
        guint8 bytes[8];
        gsize n = 1 + rng_below (sizeof bytes);

        for (gsize i = 0; i < n; i++)
          bytes[i] = (guint8) rng ();
        insert_bytes (buf, rng_below (len + 1), bytes, n);
      }
      break;
    case 3: /* delete a range */
      if (len > 0)
        {
          gsize at = rng_below (len);
          gsize n = 1 + rng_below (MIN (len - at, 64));

          g_byte_array_remove_range (buf, at, n);
        }
      break;
    case 4: /* copy a range to another place */
      if (len > 1)
        {
          gsize from = rng_below (len);
          gsize n = 1 + rng_below (MIN (len - from, 256));
          g_autofree guint8 *copy = g_memdup2 (buf->data + from, n);

          insert_bytes (buf, rng_below (len + 1), copy, n);
        }
      break;
    case 5: /* an interesting number or token as text */
      {
        const char *s = interesting_text[rng_below (G_N_ELEMENTS (interesting_text))];
        gsize at = rng_below (len + 1);

        if (len > 0 && rng_below (2))
          {
            /* Replace a run of digits (or one byte) by it. */
            gsize end = at;

            while (end < len && g_ascii_isxdigit (buf->data[end]))
              end++;
            if (end == at && at < len)
              end++;
            g_byte_array_remove_range (buf, at, end - at);
          }
        insert_bytes (buf, at, (const guint8 *) s, strlen (s));
      }
      break;
    case 6: /* an interesting u64 over an aligned record */
      if (len >= 8)
        {
          guint64 v = GUINT64_TO_LE (interesting_u64[rng_below (G_N_ELEMENTS (interesting_u64))]);

          memcpy (buf->data + (rng_below (len / 8) * 8), &v, 8);
        }
      break;
    case 7: /* splice with another seed */
      if (seeds->len > 0)
        {
          GBytes *other = g_ptr_array_index (seeds, rng_below (seeds->len));
          gsize olen;
          const guint8 *odata = g_bytes_get_data (other, &olen);

          if (olen > 0)
            {
              gsize cut = rng_below (len + 1);
              gsize from = rng_below (olen);

              g_byte_array_set_size (buf, cut);
              g_byte_array_append (buf, odata + from, MIN (olen - from, PGS_FUZZ_MAX_INPUT - cut));
            }
        }
      break;
    case 8: /* cut short */
      if (len > 0)
        g_byte_array_set_size (buf, rng_below (len));
      break;
    case 9: /* duplicate a line */
      if (len > 0)
        {
          guint8 *start = buf->data + rng_below (len);
          guint8 *nl = memchr (start, '\n', buf->data + len - start);

          if (nl != NULL)
            {
              g_autofree guint8 *line = g_memdup2 (start, nl + 1 - start);

              insert_bytes (buf, nl + 1 - buf->data, line, nl + 1 - start);
            }
        }
      break;
    }
}

static void
run_one (const guint8 *data,
         gsize         size,
         guint         timeout)
{
  /* Copy to an exact-size allocation: ASan then sees a read one byte past the end. */
  g_autofree guint8 *copy = g_memdup2 (data, MAX (size, 1));

  current_data = copy;
  current_size = size;
  if (timeout > 0)
    alarm (timeout);
  LLVMFuzzerTestOneInput (copy, size);
  if (timeout > 0)
    alarm (0);
  current_data = NULL;
}

static guint
env_uint (const char *name,
          guint       fallback)
{
  const char *s = g_getenv (name);
  guint64 v;

  if (s == NULL || !g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT, &v, NULL))
    return fallback;
  return (guint) v;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autofree char *name = g_path_get_basename (argv[0]);
  const char *artifacts = g_getenv ("PGS_FUZZ_ARTIFACTS");
  guint seconds = env_uint ("PGS_FUZZ_SECONDS", 5);
  guint timeout = env_uint ("PGS_FUZZ_TIMEOUT", 10);
  guint64 execs = 0;
  gint64 deadline;
  struct stat st;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s CORPUS-DIR | FILE...\n", argv[0]);
      return 2;
    }

  g_snprintf (artifact_path, sizeof artifact_path, "%s/%s-crash-%d",
              artifacts != NULL ? artifacts : g_get_tmp_dir (), name, (int) getpid ());
  if (__sanitizer_set_death_callback != NULL)
    __sanitizer_set_death_callback (save_current_input);
  signal (SIGSEGV, on_fatal_signal);
  signal (SIGBUS, on_fatal_signal);
  signal (SIGABRT, on_fatal_signal);
  signal (SIGFPE, on_fatal_signal);
  signal (SIGALRM, on_fatal_signal);

  /* Files named on the command line: reproduce, once each. */
  if (stat (argv[1], &st) == 0 && !S_ISDIR (st.st_mode))
    {
      for (int i = 1; i < argc; i++)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *contents = NULL;
          gsize len;

          if (!g_file_get_contents (argv[i], &contents, &len, &error))
            {
              fprintf (stderr, "%s: %s\n", name, error->message);
              return 2;
            }
          run_one ((const guint8 *) contents, len, timeout);
          printf ("%s: ran %s\n", name, argv[i]);
        }
      return 0;
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GDir) dir = g_dir_open (argv[1], 0, &error);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
    const char *entry;

    if (dir == NULL)
      {
        fprintf (stderr, "%s: %s\n", name, error->message);
        return 2;
      }
    while ((entry = g_dir_read_name (dir)) != NULL)
      g_ptr_array_add (names, g_strdup (entry));
    /* Directory order differs between file systems: sort, so a seed means the same run. */
    g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
    for (guint i = 0; i < names->len; i++)
      {
        g_autofree char *path = g_build_filename (argv[1], g_ptr_array_index (names, i), NULL);
        char *contents;
        gsize len;

        if (g_file_get_contents (path, &contents, &len, NULL))
          g_ptr_array_add (seeds, g_bytes_new_take (contents, len));
      }
  }
  if (seeds->len == 0)
    {
      fprintf (stderr, "%s: no seeds in %s\n", name, argv[1]);
      return 2;
    }

  /* Every seed as it is first: they are the cases we know about. */
  for (guint i = 0; i < seeds->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (g_ptr_array_index (seeds, i), &len);

      run_one (data, len, timeout);
      execs++;
    }

  rng_state = env_uint ("PGS_FUZZ_SEED", 0x5eed) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) + 1;
  deadline = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;
  while (seconds > 0)
    {
      GBytes *seed = g_ptr_array_index (seeds, rng_below (seeds->len));
      gsize len;
      const guint8 *data = g_bytes_get_data (seed, &len);
      guint n_mutations = 1 + (guint) rng_below (8);

      g_byte_array_set_size (buf, 0);
      g_byte_array_append (buf, data, MIN (len, PGS_FUZZ_MAX_INPUT));
      for (guint m = 0; m < n_mutations; m++)
        mutate_once (buf, seeds);
      run_one (buf->data, buf->len, timeout);
      execs++;

      if ((execs & 63) == 0 && g_get_monotonic_time () >= deadline)
        break;
    }

  printf ("%s: %" G_GUINT64_FORMAT " executions over %u seeds in %u s, no finding\n",
          name, execs, seeds->len, seconds);
  return 0;
}
