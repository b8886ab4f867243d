#!/usr/bin/env python3
# bench-record.py: the recorder's cost and the recording's size and speed, against issue 18
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Records with the defaults for PGS_BENCH_SECONDS (default 180), then prints the recorder's
# CPU time as a share of one core (getrusage of the child: its own utime + stime), the
# file's growth an hour (at the run's own rate, and as an hour of the run's key pictures,
# differences and samples would make it), and the time of a whole pagescope-cli process that opens the
# recording and moves to a sample (memrank --at) or a picture (memstats --at), with goals. The
# last picture of the run is few differences from its key picture; the worst of an hour is the
# one before the next key (PGS_RECORDING_KEY_PICTURES - 1 differences), measured on a second,
# short recording with a picture a second (PGS_BENCH_CHAIN=0 leaves it out).

import datetime
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time


def timed(args):
    t = time.monotonic()
    # A PID the picture cannot show still costs the whole load: the exit code is not asked.
    subprocess.run(args, capture_output=True)
    return time.monotonic() - t


def frames(path):
    """Picture frames as (key, bytes) and the sample frames' bytes, headers included."""
    with open(path, "rb") as f:
        data = f.read()
    at, pictures, samples = 16, [], []
    while at + 24 <= len(data):
        kind, flags, length = data[at], data[at + 1], struct.unpack_from("<I", data, at + 4)[0]
        if kind == ord("P"):
            pictures.append((bool(flags & 1), 24 + length))
        elif kind == ord("S"):
            samples.append(24 + length)
        at += 24 + length
    return pictures, samples


def picture_times(path):
    """Picture frames as (key, time in microseconds since the epoch)."""
    with open(path, "rb") as f:
        data = f.read()
    at, pictures = 16, []
    while at + 24 <= len(data):
        kind, flags, length = data[at], data[at + 1], struct.unpack_from("<I", data, at + 4)[0]
        if kind == ord("P"):
            pictures.append((bool(flags & 1), struct.unpack_from("<q", data, at + 8)[0]))
        at += 24 + length
    return pictures


def main():
    cli = os.environ["PAGESCOPE_CLI"]
    seconds = float(os.environ.get("PGS_BENCH_SECONDS", "180"))
    tmp = tempfile.mkdtemp(prefix="pgs-bench-record-")
    path = os.path.join(tmp, "r.pgrec")
    try:
        t = time.monotonic()
        subprocess.run([cli, "record", "-o", path, "--duration", str(seconds)], capture_output=True,
                       check=True)
        wall = time.monotonic() - t
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = ru.ru_utime + ru.ru_stime
        size = os.path.getsize(path)
        print("command: %s record -o FILE --duration %.0f" % (cli, seconds))
        print("recorder CPU: %.2f %% of one core (%.2f s user, %.2f s system in %.1f s; goal 2 %%)"
              % (100 * cpu / wall, ru.ru_utime, ru.ru_stime, wall))
        print("file: %d bytes, %.1f MiB an hour at this run's rate (its first picture a key one)"
              % (size, size / wall * 3600 / 2**20))
        # An hour holds 60 pictures, 6 of them key pictures (one in 10), and 3600 samples.
        pictures, samples = frames(path)
        keys = [n for key, n in pictures if key] or [0]
        diffs = [n for key, n in pictures if not key] or keys
        hour = (6 * sum(keys) / len(keys) + 54 * sum(diffs) / len(diffs)
                + 3600 * sum(samples) / max(len(samples), 1))
        print("pictures: key %s bytes, differences %s bytes; samples %.0f bytes each"
              % (", ".join(str(n) for n in keys), ", ".join(str(n) for n in diffs),
                 sum(samples) / max(len(samples), 1)))
        print("an hour of these (6 key pictures, 54 differences, 3600 samples): %.1f MiB (goal 20)"
              % (hour / 2**20))
        open_s = timed([cli, "memrank", "--recording", path, "--at", "+%d" % (seconds - 5), "--limit", "1"])
        print("open and move to a sample (whole process): %.0f ms (goal 100)" % (open_s * 1000))
        pic_s = timed([cli, "memstats", "--recording", path, "--at", "+%d" % seconds, "1"])
        print("load the last picture (whole process): %.2f s (goal 1)" % pic_s)
        if os.environ.get("PGS_BENCH_CHAIN", "1") != "0":
            chain = os.path.join(tmp, "chain.pgrec")
            subprocess.run([cli, "record", "-o", chain, "--pages-every", "1", "--duration", "12"],
                           capture_output=True, check=True)
            pictures = picture_times(chain)
            # The tenth picture: its key picture and nine differences.
            at = min(9, len(pictures) - 1)
            keys_before = [i for i in range(at + 1) if pictures[i][0]]
            when = datetime.datetime.fromtimestamp(pictures[at][1] / 1e6, datetime.timezone.utc)
            when = when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            times = sorted(timed([cli, "memstats", "--recording", chain, "--at", when, "1"])
                           for _ in range(3))
            print("load a picture %d differences after its key (whole process, median of 3): %.2f s (goal 1)"
                  % (at - keys_before[-1], times[1]))
    finally:
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
