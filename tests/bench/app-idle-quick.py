#!/usr/bin/env python3
# app-idle-quick.py: app-cost's idle figure on Processes alone, for builds side by side
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs each program given (the built pagescope, a copy of an older build) in interleaved
# rounds under the renderer GTK picks, as bench-app-cost.py does (its Program class), waits
# until it is idle on Processes with the default 10 s refresh and the live history on, and
# prints the whole process's CPU share over SECS seconds (default 40).
#
#   xvfb-run -a -s "-screen 0 1920x1080x24" dbus-run-session -- \
#     python3 tests/bench/app-idle-quick.py build/src/app/pagescope /tmp/old-pagescope
#
# Environment: ROUNDS (2), SECS (40).

import importlib.util
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_app_cost",
                                              os.path.join(HERE, "bench-app-cost.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def main():
    programs = sys.argv[1:]
    if not programs:
        raise SystemExit("usage: app-idle-quick.py PROGRAM…")
    env = dict(os.environ)
    env.pop("GSK_RENDERER", None)
    env["G_MESSAGES_DEBUG"] = "Pagescope"
    secs = float(os.environ.get("SECS", "40"))
    for r in range(int(os.environ.get("ROUNDS", "2"))):
        for prog in programs:
            p = bench.Program([prog, "--pid", str(os.getpid())], env, False)
            bench.wait_idle(p.proc.pid)
            time.sleep(2)
            bench.wait_idle(p.proc.pid)
            before, t = bench.cpu_seconds(p.proc.pid), time.monotonic()
            time.sleep(secs)
            share = 100.0 * (bench.cpu_seconds(p.proc.pid) - before) / (time.monotonic() - t)
            print("round %d  %-40s idle on Processes %.2f %% of a core" % (r + 1, prog, share),
                  flush=True)
            p.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
