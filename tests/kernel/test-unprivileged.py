#!/usr/bin/env python3
# test-unprivileged.py: pagescope-cli run as a normal user (nobody)
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# As nobody, other users' PSS and USS must be null with a reason (never 0), their RSS still
# read from status; nobody's own process gets the kernel's own PSS and USS from smaps_rollup,
# which this script (as root) reads itself to compare. TAP output; exit 77 without root.

import os
import shutil
import subprocess
import sys
import time

import pgskernel

SKIP = 77


def rollup(pid):
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                fields[parts[0].rstrip(":")] = int(parts[1]) * 1024
    return fields


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root to switch to nobody")
        return SKIP
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        print("1..0 # SKIP setpriv (util-linux) is missing")
        return SKIP
    drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    pgskernel.init()
    # nobody runs copies: the build tree may be in a folder only root can enter.
    try:
        cli, sleeper = pgskernel.runnable_as(65534, 65534, [os.environ["PAGESCOPE_CLI"],
                                                            os.environ["PGS_STATIC_SLEEPER"]],
                                             "unprivileged")
    except pgskernel.CannotRunAs as e:
        print(f"1..0 # SKIP {e}")
        return SKIP

    # nobody's own process: writes 4 MiB, and is static so the CLI's libraries do not
    # change its numbers while the CLI looks.
    own = subprocess.Popen(drop + [sleeper], stdout=subprocess.PIPE, text=True)
    results = []
    try:
        assert own.stdout.readline().strip() == "ready"
        for attempt in range(30):
            before = rollup(own.pid)
            run = subprocess.run(drop + [cli, "memrank", "--json"], capture_output=True, text=True)
            after = rollup(own.pid)
            if before == after:
                break
            time.sleep(0.05)

        def check(name, ok, detail=""):
            results.append((ok, name, detail))

        check("memrank as nobody exits 0", run.returncode == 0, f"exit {run.returncode}: {run.stderr.strip()}")
        doc = pgskernel.strict_json(run.stdout)
        check("privileged is false", doc["privileged"] is False)
        procs = {p["pid"]: p for p in doc["processes"]}

        mine = procs.get(own.pid)
        check("nobody's own process is listed", mine is not None)
        if mine is not None:
            check("own PSS equals the kernel's smaps_rollup", mine["pss"] == after["Pss"],
                  f"{mine['pss']} vs {after['Pss']}")
            check("own USS equals Private_Clean + Private_Dirty",
                  mine["uss"] == after["Private_Clean"] + after["Private_Dirty"],
                  f"{mine['uss']} vs {after['Private_Clean'] + after['Private_Dirty']}")
            check("own RSS equals the kernel's", mine["rss"] == after["Rss"], f"{mine['rss']} vs {after['Rss']}")
            check("own process has no unknown reason", mine["unknown_reason"] is None)

        me = procs.get(os.getpid())
        check("root's process (this script) is listed", me is not None)
        if me is not None:
            check("root's PSS is null", me["pss"] is None, repr(me["pss"]))
            check("root's USS is null", me["uss"] is None, repr(me["uss"]))
            check("root's RSS is still known (status)", isinstance(me["rss"], int) and me["rss"] > 0)
            check("root's process says why", bool(me["unknown_reason"]) and "root" in me["unknown_reason"],
                  repr(me["unknown_reason"]))
        check("totals say how many PSS values are unknown", doc["totals_unknown"]["pss"] >= 1)

        # memstats of a root process as nobody: exit 0 with PSS unknown, never 0.
        ms = subprocess.run(drop + [cli, "memstats", "--json", str(os.getpid())], capture_output=True, text=True)
        check("memstats of root's process as nobody still reports", ms.returncode == 0,
              f"exit {ms.returncode}: {ms.stderr.strip()}")
        p = pgskernel.strict_json(ms.stdout)["processes"][0]
        check("memstats: PSS null for root's process", p["pss"] is None)

        # memstats of a PID that does not exist: one line on stderr, exit 3.
        gone = subprocess.run(drop + [cli, "memstats", "999999999"], capture_output=True, text=True)
        check("memstats of an unknown PID exits 3", gone.returncode == 3, f"exit {gone.returncode}")
        check("memstats of an unknown PID says so on one line",
              gone.stderr.count("\n") == 1 and "no process with PID 999999999" in gone.stderr, gone.stderr)
    finally:
        own.kill()
        own.wait()

    print(f"1..{len(results)}")
    failed = 0
    for i, (ok, name, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}" + ("" if ok else f" # {detail}"))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
