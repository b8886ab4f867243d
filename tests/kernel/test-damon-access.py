#!/usr/bin/env python3
# test-damon-access.py: pagescope-cli access against a running kdamond, leaving no trace
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Never writes under /sys/kernel/mm/damon: the kdamond is someone else's.
# 1. DAMON's configuration (every file under /sys/kernel/mm/damon/admin but the counters:
#    stats/, tried_regions/, effective_bytes, goals' current_value, and the bounds of the
#    targets' initial regions, which the monitor's owner moves (see counter()); the kdamonds' PIDs
#    included) hashes the same before and after `access --seconds 3 --json`, after a run
#    killed with SIGKILL while it reads, and after its worker then it were (the watchdog's
#    case); no tracefs instance of Pagescope's is left,
#    and the tracepoint's enable state (top level: the event, its group, set_event,
#    tracing_on) is as it was.
# 2. The CLI's regions, per aggregation, equal the raw damon_aggregated lines this test
#    collects itself from a tracefs instance of its own, matched by timestamp.
# tracefs is reached in a mount namespace of the test's own (mounted there when it is
# not mounted), never in the machine's.
# TAP output; exit 77 without root, DAMON's sysfs, a running kdamond or tracefs.

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgskernel  # noqa: E402

SKIP = 77
ADMIN = "/sys/kernel/mm/damon/admin"
CLI = os.environ.get("PAGESCOPE_CLI", "pagescope-cli")

# Runs SCRIPT (sh) with $T the tracefs mount point, in a mount namespace of its own.
TRACEFS_SH = r'''
T=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
if [ -z "$T" ]; then
  mount -t tracefs nodev /sys/kernel/tracing || exit 3
  T=/sys/kernel/tracing
fi
'''

# The test's own collector: an instance of its own, its trace_pipe to the file argv[1]
# (not a pipe the test would have to drain while the CLI runs) until stdin closes (the
# test ended, however), then the instance goes.
COLLECTOR = r'''
import os, select, sys
t = None
for line in open("/proc/self/mounts"):
    f = line.split()
    if f[2] == "tracefs":
        t = f[1]; break
if t is None:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(b"nodev", b"/sys/kernel/tracing", b"tracefs", 0, None) != 0:
        sys.exit(3)
    t = "/sys/kernel/tracing"
inst = f"{t}/instances/pgstest-{os.getpid()}"
os.mkdir(inst)
try:
    with open(f"{inst}/events/damon/damon_aggregated/enable", "w") as f:
        f.write("1")
    tp = os.open(f"{inst}/trace_pipe", os.O_RDONLY | os.O_NONBLOCK)
    sys.stderr.write("READY\n"); sys.stderr.flush()
    out = open(sys.argv[1], "wb")
    while True:
        r, _, _ = select.select([0, tp], [], [], 0.25)
        try:
            data = os.read(tp, 65536)
            out.write(data); out.flush()
        except BlockingIOError:
            pass
        if 0 in r and os.read(0, 1) == b"":
            break
    os.close(tp)
    out.close()
finally:
    try:
        with open(f"{inst}/events/damon/damon_aggregated/enable", "w") as f:
            f.write("0")
    finally:
        os.rmdir(inst)
'''

LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[\d+\].*?\s(\d+\.\d+): damon_aggregated: target_id=(\d+) "
                  r"nr_regions=(\d+) (\d+)-(\d+): (\d+) (\d+)\s*$")


def tracefs_sh(script):
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-ec",
                        TRACEFS_SH + script], capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise RuntimeError(f"tracefs script failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def counter(path):
    """Values that change without anyone asking Pagescope: DAMON's counters, and the bounds
    of a target's initial regions, which the monitor's owner moves as it likes. Seen on a
    machine that initialises its memory lazily (deferred_init=lazy): the owner of a
    physical-address kdamond widened regions/0/end from 9126805504 to 9797894144 during one
    11 s run, as memory came online. Pagescope never writes under admin/ (the reader opens
    nothing there for writing; a kdamond of its own is only started where none runs), so
    these are the owner's, as the counters are the kernel's."""
    parts = path.split("/")
    return ("stats" in parts or "tried_regions" in parts or parts[-1] == "effective_bytes"
            or ("goals" in parts and parts[-1] == "current_value")
            or ("targets" in parts and "regions" in parts and parts[-1] in ("start", "end")))


def damon_config():
    """Every file under ADMIN but the counters, as {path: contents}."""
    files = {}
    for d, dirs, names in os.walk(ADMIN):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(d, n)
            if counter(p):
                continue
            v = pgskernel._read(p)
            files[p] = v if v is not None else "<unreadable>"
    return files


def digest(files):
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(f"{p}\0{files[p]}\n".encode())
    return h.hexdigest()


def tracing_state():
    """Pagescope's instances, and the top-level enable state of the tracepoint."""
    out = tracefs_sh(r'''
echo "instances: $(ls $T/instances | grep '^pagescope-' | tr '\n' ' ')"
echo "event: $(cat $T/events/damon/damon_aggregated/enable)"
echo "group: $(cat $T/events/damon/enable)"
echo "filter: $(cat $T/events/damon/damon_aggregated/filter | tr '\n' ' ')"
echo "set_event: $(cat $T/set_event | tr '\n' ' ')"
echo "tracing_on: $(cat $T/tracing_on)"
''')
    return dict(line.split(": ", 1) if ": " in line else (line.rstrip(":"), "")
                for line in out.splitlines())


def raw_aggregations(text, addr_units):
    """The collector's lines grouped as the kernel prints them: per kdamond and target,
    nr_regions lines in address order. Only whole ones."""
    done, pending = [], {}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        pid, ts, tid, nr, s, e, acc, age = (int(m[2]), m[3], int(m[4]), int(m[5]), int(m[6]),
                                            int(m[7]), int(m[8]), int(m[9]))
        unit = addr_units.get(pid, 1)
        region = [s * unit, e * unit, acc, age]
        key = (pid, tid)
        p = pending.get(key)
        if p is None or p["nr"] != nr or s * unit < p["regions"][-1][1]:
            p = pending[key] = {"ts": ts, "pid": pid, "nr": nr, "regions": []}
        p["regions"].append(region)
        if len(p["regions"]) == nr:
            done.append(p)
            del pending[key]
    return done


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (DAMON's sysfs, tracefs)")
        return SKIP
    if not os.path.isdir(ADMIN):
        print("1..0 # SKIP this kernel has no DAMON sysfs interface")
        return SKIP
    found = pgskernel.init()
    if found["damon_running"] == 0:
        print("1..0 # SKIP no kdamond runs: there are no events to read "
              "(the test never starts one on the machine)")
        return SKIP
    if "tracefs" not in open("/proc/filesystems").read():
        print("1..0 # SKIP the kernel has no tracefs")
        return SKIP
    try:
        before_tracing = tracing_state()
        has_event = tracefs_sh("test -e $T/events/damon/damon_aggregated/format && echo yes || true")
    except RuntimeError as e:
        print(f"1..0 # SKIP tracefs cannot be mounted here: {e}")
        return SKIP
    if has_event.strip() != "yes":
        print("1..0 # SKIP the kernel has no damon:damon_aggregated tracepoint")
        return SKIP

    results = []

    def check(name, ok, detail=""):
        results.append((name, ok, detail))

    before = damon_config()
    print(f"# DAMON configuration: {len(before)} files, {digest(before)}")
    addr_units = {}
    aggr_us = 0
    kd = f"{ADMIN}/kdamonds"
    for k in os.listdir(kd):
        if not k.isdigit() or before.get(f"{kd}/{k}/state") != "on":
            continue
        pid = int(before[f"{kd}/{k}/pid"])
        addr_units[pid] = int(before.get(f"{kd}/{k}/contexts/0/addr_unit", "1"))
        aggr_us = max(aggr_us, int(before.get(
            f"{kd}/{k}/contexts/0/monitoring_attrs/intervals/aggr_us", "0")))

    def same_config(when):
        after = damon_config()
        diff = [p for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)]
        check(f"DAMON's configuration unchanged {when}", not diff,
              "\n".join(f"{p}: {before.get(p)!r} -> {after.get(p)!r}" for p in diff[:20]))

    def same_tracing(when):
        # The watchdog may need a moment after a kill.
        for _ in range(50):
            now = tracing_state()
            if now == before_tracing:
                break
            time.sleep(0.1)
        check(f"no tracefs instance of Pagescope's left, enable state unchanged {when}",
              now == before_tracing, f"before {before_tracing}\nafter {now}")

    # 1. Three seconds, JSON.
    r = subprocess.run([CLI, "access", "--seconds", "3", "--json"], capture_output=True,
                       timeout=60)
    check("access --seconds 3 --json exits 0 or 1 (no whole aggregation in 3 s)",
          r.returncode in (0, 1), r.stderr.decode(errors="replace"))
    try:
        doc = pgskernel.strict_json(r.stdout)
        check("its JSON names the running kdamonds",
              sorted(k["pid"] for k in doc["kdamonds"]) == sorted(addr_units),
              f"{[k['pid'] for k in doc['kdamonds']]} vs {sorted(addr_units)}")
    except ValueError as e:
        check("its JSON parses", False, str(e))
    same_config("after a 3 s run")
    same_tracing("after a 3 s run")

    # 2. The CLI's aggregations against the test's own raw lines.
    seconds = max(3.0, 2.0 * aggr_us / 1e6 + 1)
    raw_path = os.path.join(pgskernel.make_tmpdir("damon"), "raw-trace")
    collector = pgskernel.track(subprocess.Popen(
        ["unshare", "-m", "--propagation", "private", sys.executable, "-c", COLLECTOR, raw_path],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    ready = collector.stderr.readline()
    if ready.strip() != b"READY":
        check("the test's own tracefs instance", False, ready.decode(errors="replace"))
    else:
        r = subprocess.run([CLI, "access", "--seconds", f"{seconds:g}", "--json"],
                           capture_output=True, timeout=seconds + 60)
        time.sleep(0.5)
        collector.stdin.close()
        collector.wait(timeout=30)
        with open(raw_path, errors="replace") as f:
            raw_text = f.read()
        doc = pgskernel.strict_json(r.stdout)
        raw = raw_aggregations(raw_text, addr_units)
        cli_aggs = doc["aggregations"]
        print(f"# {seconds:g} s: the CLI saw {len(cli_aggs)} aggregations, the test "
              f"{len(raw)} ({len(raw_text.splitlines())} raw lines)")
        check(f"the CLI saw at least one whole aggregation in {seconds:g} s",
              r.returncode == 0 and len(cli_aggs) > 0, r.stderr.decode(errors="replace"))
        bad = []
        worst = 0.0
        for a in cli_aggs:
            ts = float(a["timestamp"])
            match = [x for x in raw if x["pid"] == a["kdamond_pid"]
                     and abs(float(x["ts"]) - ts) <= 0.001]
            mine = [[g["start"], g["end"], g["nr_accesses"], g["age"]] for g in a["regions"]]
            if match:
                worst = max(worst, abs(float(match[0]["ts"]) - ts))
            if len(match) != 1:
                bad.append(f"{a['timestamp']}: {len(match)} raw aggregations at that time")
            elif match[0]["regions"] != mine:
                diffs = sum(1 for x, y in zip(match[0]["regions"], mine) if x != y)
                bad.append(f"{a['timestamp']}: {len(mine)} regions vs {len(match[0]['regions'])}"
                           f" raw, {diffs} differ")
        print(f"# timestamps of the two instances differ by at most {worst * 1e6:.0f} us")
        check("every aggregation's regions equal the raw trace lines at its timestamp",
              not bad and len(cli_aggs) > 0, "\n".join(bad))
    same_config("after the compared run")
    same_tracing("after the compared run")

    # 3. SIGKILL while it reads: the worker (PR_SET_PDEATHSIG) cleans up. 4. The worker
    #    SIGKILLed first, then the CLI: the watchdog cleans up.
    for what, kill_worker in (("SIGKILL mid-read", False),
                              ("SIGKILL of the worker, then the CLI", True)):
        p = pgskernel.track(subprocess.Popen([CLI, "access", "--seconds", "60", "--json"],
                                             stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL))
        seen = False
        for _ in range(100):
            if tracing_state()["instances"].strip():
                seen = True
                break
            time.sleep(0.1)
        time.sleep(0.5)
        workers = []
        if kill_worker:
            for t in os.listdir(f"/proc/{p.pid}/task"):
                with open(f"/proc/{p.pid}/task/{t}/children") as f:
                    workers += [int(c) for c in f.read().split()]
            for w in workers:
                os.kill(w, signal.SIGKILL)
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        check(f"the run killed by {what} had made its instance"
              + (" and had a worker" if kill_worker else ""),
              seen and (workers or not kill_worker))
        same_config(f"after {what}")
        same_tracing(f"after {what}")

    return pgskernel.report(results)


if __name__ == "__main__":
    sys.exit(main())
