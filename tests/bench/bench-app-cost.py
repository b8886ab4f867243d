#!/usr/bin/env python3
# bench-app-cost.py: the app as users run it against a minimal libadwaita window (issue 22)
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Both are the built programs, started from exec under the renderer GTK picks (GSK_RENDERER
# is removed from the environment: on a machine without a GPU that is GL through llvmpipe)
# and driven with keys through xdotool as a user would. Rounds are interleaved: the minimal
# window, then the app, then the other way round, so the machine's drift hits both alike.
#
#  - start: exec to the first painted frame (each logs its monotonic time) and, for the app,
#    to the first figures in the list; ratio app / minimal, pair by pair;
#  - memory: the app after every view (Alt+1 … Alt+6, back to Alt+1) and 20 refreshes (F5,
#    each waited out), the minimal window after its first frame; Anonymous and Pss of
#    smaps_rollup, and the app minus the minimal window (goals 32 and 48 MiB);
#  - the floor under both: pgs-skeleton-window, the app's header bar over an empty table of
#    the Processes columns in GTK alone, to its first frame; and the same with 200 rows, the
#    most GTK 4.8's list views keep, after its first frame: what one full table costs.
#  - a refresh of Sharing: the whole process's CPU (every thread) from F5 until it is idle,
#    against `cat /proc/kpagecount /proc/kpageflags > /dev/null` (goal 1.5x), interleaved;
#  - idle: the whole process's CPU share over PGS_BENCH_IDLE_SECONDS (default 60) with the
#    default 10 s automatic refresh, on Processes and on Sharing (goals 1 % and 4 %).
#
# Run as `meson test -C build --benchmark --verbose app-cost` (under xvfb-run and
# dbus-run-session); PGS_BENCH_ROUNDS (default 5) sets the rounds.

import os
import resource
import statistics
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
MIB = 1024.0 * 1024.0


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rollup(pid):
    out = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[0] in ("Anonymous:", "Pss:", "Rss:"):
                out[parts[0][:-1]] = int(parts[1]) * 1024
    return out


def wait_idle(pid, quiet=0.5, timeout=60.0):
    """Waits until the process used no more than a tick of CPU for @quiet seconds."""
    end = time.monotonic() + timeout
    last = cpu_seconds(pid)
    since = time.monotonic()
    while time.monotonic() < end:
        time.sleep(0.1)
        now = cpu_seconds(pid)
        if now - last > 1.0 / TICK:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return True
    return False


class Program:
    def __init__(self, argv, env, wants_figures):
        self.start = time.monotonic()
        self.proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        self.frame = self.figures = None
        for line in self.proc.stdout:
            if "First frame painted at " in line:
                self.frame = self.stamp(line, "First frame painted at ")
            elif "First figures shown at " in line:
                self.figures = self.stamp(line, "First figures shown at ")
            if self.frame is not None and (self.figures is not None or not wants_figures):
                break
        if self.frame is None:
            raise SystemExit("%s logged no first frame" % argv[0])
        self.window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid",
                                      str(self.proc.pid)], capture_output=True, text=True,
                                     timeout=30).stdout.split()[0]
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], timeout=30)

    def stamp(self, line, words):
        # Both log g_get_monotonic_time(), CLOCK_MONOTONIC as time.monotonic() here.
        return int(line.split(words)[1].split()[0]) / 1e6 - self.start

    def key(self, name):
        subprocess.run(["xdotool", "key", "--clearmodifiers", name], timeout=30)
        time.sleep(0.2)
        wait_idle(self.proc.pid)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def kpage_read():
    pid = os.fork()
    if pid == 0:
        fd = os.open("/dev/null", os.O_WRONLY)
        os.dup2(fd, 1)
        os.execvp("cat", ["cat", "/proc/kpagecount", "/proc/kpageflags"])
    _, _, ru = os.wait4(pid, 0)
    return ru.ru_utime + ru.ru_stime


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def main():
    app = os.environ["PAGESCOPE_APP"]
    minimal = os.environ["PGS_MINIMAL_WINDOW"]
    skeleton = os.environ["PGS_SKELETON_WINDOW"]
    rounds = int(os.environ.get("PGS_BENCH_ROUNDS", "5"))
    idle_s = float(os.environ.get("PGS_BENCH_IDLE_SECONDS", "60"))
    env = dict(os.environ)
    env.pop("GSK_RENDERER", None)
    env["G_MESSAGES_DEBUG"] = "Pagescope"
    renderer = "the one GTK picks"
    app_argv = [app, "--pid", str(os.getpid())]

    print("bench-app-cost (issue 22): %s against %s, renderer: %s, load %.1f" %
          (app, minimal, renderer, os.getloadavg()[0]))
    frames, figures, anon, pss, app_mem, min_mem = [], [], [], [], [], []
    skel_frames, app_skel_frames, table_anon, table_pss = [], [], [], []
    programs = {"minimal": [minimal], "skeleton": [skeleton],
                "table": [skeleton, "--rows", "200"]}
    for r in range(rounds):
        # Turned each round, so that the machine's drift hits every program alike.
        order = ["minimal", "skeleton", "table", "app"]
        order = order[r % 4:] + order[:r % 4]
        got = {}
        for which in order:
            if which in programs:
                p = Program(programs[which], env, False)
                time.sleep(1.0)
                wait_idle(p.proc.pid)
                got[which] = (p.frame, None, rollup(p.proc.pid))
                p.stop()
            else:
                p = Program(app_argv, env, True)
                wait_idle(p.proc.pid)
                for view in ("alt+2", "alt+3", "alt+4", "alt+5", "alt+6", "alt+1"):
                    p.key(view)
                for _ in range(20):
                    p.key("F5")
                got[which] = (p.frame, p.figures, rollup(p.proc.pid))
                p.stop()
        (mf, _, mm), (af, afig, am) = got["minimal"], got["app"]
        sf, tm = got["skeleton"][0], got["table"][2]
        frames.append(af / mf)
        skel_frames.append(sf / mf)
        app_skel_frames.append(af / sf)
        table_anon.append((tm["Anonymous"] - mm["Anonymous"]) / MIB)
        table_pss.append((tm["Pss"] - mm["Pss"]) / MIB)
        # Figures filled in before the first frame are on screen with it: 0 s after it.
        figures.append(max(0.0, afig - af))
        anon.append((am["Anonymous"] - mm["Anonymous"]) / MIB)
        pss.append((am["Pss"] - mm["Pss"]) / MIB)
        app_mem.append(am)
        min_mem.append(mm)
        print("  round %d: first frame app %.3f s, minimal %.3f s (%.2fx), skeleton %.3f s;"
              " first figures at %.3f s; app anonymous %.1f MiB pss %.1f MiB, minimal %.1f /"
              " %.1f MiB, 200-row table %.1f / %.1f MiB" %
              (r + 1, af, mf, af / mf, sf, afig, am["Anonymous"] / MIB, am["Pss"] / MIB,
               mm["Anonymous"] / MIB, mm["Pss"] / MIB, tm["Anonymous"] / MIB, tm["Pss"] / MIB))

    print("  start to first frame, app / minimal   median %.2fx (goal 1.1x)" % median(frames))
    print("  first figures on screen after frame   median %.3f s (goal 0.15 s)" % median(figures))
    print("  app − minimal, anonymous              median %.1f MiB (goal 32)" % median(anon))
    print("  app − minimal, pss                    median %.1f MiB (goal 48)" % median(pss))
    print("  app itself                            anonymous %.1f MiB, pss %.1f MiB (medians)" %
          (median([m["Anonymous"] / MIB for m in app_mem]),
           median([m["Pss"] / MIB for m in app_mem])))
    print("  minimal window                        anonymous %.1f MiB, pss %.1f MiB (medians)" %
          (median([m["Anonymous"] / MIB for m in min_mem]),
           median([m["Pss"] / MIB for m in min_mem])))
    print("  floor: skeleton / minimal, first frame median %.2fx (the header bar and an empty"
          " table in GTK alone)" % median(skel_frames))
    print("  app / skeleton, first frame           median %.2fx" % median(app_skel_frames))
    print("  floor: 200-row table − minimal        median %.1f MiB anonymous, %.1f MiB pss"
          " (one full table in GTK alone)" % (median(table_anon), median(table_pss)))

    # A refresh of Sharing against reading both kpage files whole, pair by pair.
    p = Program(app_argv, env, True)
    wait_idle(p.proc.pid)
    p.key("alt+5")
    ratios, costs, reads = [], [], []
    for _ in range(rounds):
        before = cpu_seconds(p.proc.pid)
        p.key("F5")
        cost = cpu_seconds(p.proc.pid) - before
        read = kpage_read()
        costs.append(cost)
        reads.append(read)
        ratios.append(cost / read if read > 0 else float("nan"))
    print("  refresh of Sharing, whole process     median %.2f CPU-s against %.2f for the kpage"
          " files: %.2fx (goal 1.5x)" % (median(costs), median(reads), median(ratios)))

    # Idle with the default automatic refresh: on Sharing, then on Processes.
    for view, key, goal in (("Sharing", None, 4.0), ("Processes", "alt+1", 1.0)):
        if key:
            p.key(key)
        # Idle is after the last key's effects: 2 s without CPU, not 0.5. GTK shows an
        # overlay scrollbar when a list comes under the pointer (Xvfb's is in the middle of
        # the screen, over the list) and fades it out a second later: 28 frames under
        # llvmpipe, 1.3 s of CPU, that the 0.5 s wait let into the first idle seconds.
        wait_idle(p.proc.pid, quiet=2.0)
        before, t = cpu_seconds(p.proc.pid), time.monotonic()
        time.sleep(idle_s)
        share = 100.0 * (cpu_seconds(p.proc.pid) - before) / (time.monotonic() - t)
        print("  idle on %-10s (10 s refresh)      %.2f %% of a core over %.0f s (goal %.0f %%)" %
              (view, share, idle_s, goal))
    p.stop()
    m = Program([minimal], env, False)
    time.sleep(1.0)
    wait_idle(m.proc.pid)
    before, t = cpu_seconds(m.proc.pid), time.monotonic()
    time.sleep(min(idle_s, 20.0))
    print("  idle, minimal window                  %.2f %% of a core" %
          (100.0 * (cpu_seconds(m.proc.pid) - before) / (time.monotonic() - t)))
    m.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
