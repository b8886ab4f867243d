#!/usr/bin/env python3
# bench-record.py: the recorder's cost and the recording's size and speed, against issue 18
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Records with the defaults for PGS_BENCH_SECONDS (default 180), then prints the recorder's
# CPU time as a share of one core (getrusage of the child: its own utime + stime), the
# file's growth an hour, and the time of a whole pagescope-cli process that opens the
# recording and moves to a sample (memrank --at) or a picture (memstats --at), with goals.

import os
import resource
import subprocess
import sys
import tempfile
import time


def timed(args):
    t = time.monotonic()
    # A PID the picture cannot show still costs the whole load: the exit code is not asked.
    subprocess.run(args, capture_output=True)
    return time.monotonic() - t


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
        print("file: %d bytes, %.1f MiB an hour (goal 20)" % (size, size / wall * 3600 / 2**20))
        open_s = timed([cli, "memrank", "--recording", path, "--at", "+%d" % (seconds - 5), "--limit", "1"])
        print("open and move to a sample (whole process): %.0f ms (goal 100)" % (open_s * 1000))
        pic_s = timed([cli, "memstats", "--recording", path, "--at", "+%d" % seconds, "1"])
        print("load the last picture (whole process): %.2f s (goal 1)" % pic_s)
    finally:
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
