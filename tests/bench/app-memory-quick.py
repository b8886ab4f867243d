#!/usr/bin/env python3
# app-memory-quick.py: app-cost's memory figure alone, for builds side by side (issue 22)
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs each program given (the built pagescope, a copy of an older build, a wrapper script
# that sets something and execs it, or pgs-minimal-window) in interleaved rounds, drives
# the app as bench-app-cost.py does (its Program class: every view, then refreshes, each
# waited out) and prints smaps_rollup's Anonymous and Pss, per run and as medians.
#
#   xvfb-run -a -s "-screen 0 1920x1080x24" dbus-run-session -- \
#     python3 tests/bench/app-memory-quick.py build/src/app/pagescope /tmp/old-pagescope
#
# Environment: ROUNDS (3), REFRESHES (20), VIEWS ("alt+2 … alt+6 alt+1"), GSK_RENDERER is
# removed as in bench-app-cost.py unless QUICK_RENDERER names one; QUICK_HEAPTRACK=DIR
# runs each app under heaptrack's preload library and writes DIR/NAME.ROUND.raw (read with
# `heaptrack_interpret < F.raw | zstd -c > F.zst`, then `heaptrack_print -f F.zst`).
#
# A single run says little: on this 2-core machine under GL through llvmpipe, one build's
# anonymous memory spread over 185-203 MiB in runs a minute apart, most of it in what
# Mesa allocates while drawing (30-35 MiB live, varying from run to run). Compare medians
# of interleaved rounds, or the live heap by caller under heaptrack.

import importlib.util
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_app_cost",
                                              os.path.join(HERE, "bench-app-cost.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def run_one(argv, env, is_app, views, refreshes):
    p = bench.Program(argv, env, is_app)
    if not is_app:
        time.sleep(1.0)
    bench.wait_idle(p.proc.pid)
    if is_app:
        for view in views:
            p.key(view)
        for _ in range(refreshes):
            p.key("F5")
    mem = bench.rollup(p.proc.pid)
    p.stop()
    return mem["Anonymous"] / bench.MIB, mem["Pss"] / bench.MIB


def main():
    programs = sys.argv[1:]
    if not programs:
        raise SystemExit("usage: app-memory-quick.py PROGRAM…")
    rounds = int(os.environ.get("ROUNDS", "3"))
    refreshes = int(os.environ.get("REFRESHES", "20"))
    views = os.environ.get("VIEWS", "alt+2 alt+3 alt+4 alt+5 alt+6 alt+1").split()
    heaptrack_dir = os.environ.get("QUICK_HEAPTRACK")
    env = dict(os.environ)
    env.pop("GSK_RENDERER", None)
    if os.environ.get("QUICK_RENDERER"):
        env["GSK_RENDERER"] = os.environ["QUICK_RENDERER"]
    env["G_MESSAGES_DEBUG"] = "Pagescope"
    env["GDK_BACKEND"] = "x11"
    env["GSETTINGS_BACKEND"] = "memory"
    env.setdefault("GSETTINGS_SCHEMA_DIR", os.path.join(os.getcwd(), "build", "ui"))

    results = {p: [] for p in programs}
    for r in range(rounds):
        # The order turns each round, so that drift hits every program alike.
        order = programs if r % 2 == 0 else list(reversed(programs))
        for prog in order:
            is_app = "minimal" not in os.path.basename(prog)
            argv = [prog, "--pid", str(os.getpid())] if is_app else [prog]
            run_env = dict(env)
            if heaptrack_dir and is_app:
                run_env["LD_PRELOAD"] = "/usr/lib/heaptrack/libheaptrack_preload.so"
                run_env["DUMP_HEAPTRACK_OUTPUT"] = os.path.join(
                    heaptrack_dir, "%s.%d.raw" % (os.path.basename(prog), r + 1))
            anon, pss = run_one(argv, run_env, is_app, views, refreshes)
            results[prog].append((anon, pss))
            print("round %d  %-40s anonymous %6.1f MiB  pss %6.1f MiB" % (r + 1, prog, anon, pss),
                  flush=True)
    for prog in programs:
        print("median   %-40s anonymous %6.1f MiB  pss %6.1f MiB  (%d runs)" %
              (prog, statistics.median(a for a, _ in results[prog]),
               statistics.median(p for _, p in results[prog]), len(results[prog])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
