#!/usr/bin/env python3
# test-churn.py: memrank --json while processes start, fork, exec and exit all the time
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# pgs-churn-load starts up to a few hundred processes a second (some named with bytes that are not
# UTF-8). memrank --json runs RUNS times meanwhile: every run exits 0 (a process that exits
# mid-scan is skipped, never an error), prints one JSON document that parses, lists each
# skipped process in skipped_processes and counts it in skipped, and does not crash. The load
# is killed with its process group whatever happens. TAP output; exit 77 without root.

import base64
import os
import signal
import subprocess
import sys
import time

import pgskernel

SKIP = 77
RUNS = int(os.environ.get("PGS_CHURN_RUNS", "30"))
CLI = os.environ.get("PAGESCOPE_CLI")
LOAD = os.environ.get("PGS_CHURN_LOAD")

results = []


def check(name, ok, detail=""):
    results.append((bool(ok), name, detail))


def ticks_now():
    """Now, in the clock ticks since boot that /proc/PID/stat counts start times in."""
    with open("/proc/uptime") as f:
        return float(f.read().split()[0]) * os.sysconf("SC_CLK_TCK")


def still_running_since(pid, ticks):
    """True when PID is a live process (not a zombie) that started before TICKS: the same
    process a scan from TICKS on saw. A PID gone, a zombie, or reused later is False."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            # Bytes: the name in parentheses is whatever the process chose.
            fields = f.read().rsplit(b")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return fields[0] not in (b"Z", b"X") and int(fields[19]) < ticks - 1


def churn(load):
    stats = {"skipped": 0, "processes": 0, "lossy_names": 0}
    for run in range(RUNS):
        ticks = ticks_now()
        proc = subprocess.run([CLI, "memrank", "--json"], capture_output=True, timeout=120)
        tag = f"run {run + 1}"
        check(f"{tag}: exit 0", proc.returncode == 0,
              f"exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-400:]!r}")
        try:
            doc = pgskernel.strict_json(proc.stdout)
        except (UnicodeDecodeError, ValueError) as e:
            check(f"{tag}: output is UTF-8 JSON", False, f"{e}: {proc.stdout[-200:]!r}")
            continue
        check(f"{tag}: output is UTF-8 JSON", True)
        skipped = doc["skipped_processes"]
        check(f"{tag}: skipped counts skipped_processes", doc["skipped"] == len(skipped),
              f"{doc['skipped']} != {len(skipped)}")
        check(f"{tag}: every skipped process has a reason",
              all(isinstance(s["reason"], str) and s["reason"] for s in skipped), repr(skipped))
        # Skipped means exited mid-scan: none may still be running as the process seen.
        # A process already in do_exit (its mm gone, the state still R or D) is skipped
        # rightly but may need a moment on a loaded machine to become a zombie: wait up to
        # 5 s for it. One that still runs after that was skipped wrongly.
        deadline = time.monotonic() + 5
        alive = [s for s in skipped if still_running_since(s["pid"], ticks)]
        while alive and time.monotonic() < deadline:
            time.sleep(0.05)
            alive = [s for s in alive if still_running_since(s["pid"], ticks)]
        check(f"{tag}: every skipped process has exited", not alive, repr(alive))
        lines = proc.stderr.decode("utf-8", errors="replace").splitlines()
        check(f"{tag}: one stderr line per skipped process", len(lines) == len(skipped),
              f"{len(lines)} lines, {len(skipped)} skipped: {lines[:5]}")
        for p in doc["processes"]:
            if "name_bytes" not in p:
                continue
            stats["lossy_names"] += 1
            raw = base64.b64decode(p["name_bytes"])
            # The text keeps every valid character of the bytes, in order.
            if raw.decode("utf-8", errors="ignore") != p["name"].replace("\ufffd", ""):
                check(f"{tag}: name_bytes agrees with name", False, repr(p))
        stats["skipped"] += len(skipped)
        stats["processes"] += len(doc["processes"])
        if load.poll() is not None:
            check("the load is still running", False, f"exited {load.returncode}")
            break
    return stats


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (every process's pagemap)")
        return SKIP
    if not CLI or not LOAD:
        print("1..0 # SKIP PAGESCOPE_CLI or PGS_CHURN_LOAD is not set")
        return SKIP

    # meson's timeout sends SIGTERM: leave through the finally that stops the load.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    load = subprocess.Popen([LOAD], stdout=subprocess.PIPE, start_new_session=True)
    started = None
    t0 = time.monotonic()
    try:
        time.sleep(0.2)
        stats = churn(load)
    finally:
        seconds = time.monotonic() - t0
        try:
            load.send_signal(signal.SIGTERM)
            out, _ = load.communicate(timeout=10)
            started = int(out.decode().strip() or 0)
        except (subprocess.TimeoutExpired, ValueError):
            pass
        finally:
            try:
                os.killpg(load.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            load.wait()
            # Until the last orphan of the group has been reaped (by init), at most 10 s.
            for _ in range(1000):
                try:
                    os.killpg(load.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.01)

    # The load is what makes the runs mean something, so it must have kept going: at least
    # 20 starts a second (a plain build reached 125/s on a 2-core machine). Under ASan each
    # fork of the sanitized load copies its shadow mappings; CI measured 90/s there, so a
    # floor of 100 failed on the machine's speed, not on anything Pagescope does.
    rate = (started or 0) / seconds
    check(f"the load kept starting processes throughout ({rate:.0f}/s, floor 20/s)",
          rate >= 20, f"{started} in {seconds:.1f} s")
    print(f"# {RUNS} runs in {seconds:.1f} s; the load started {started} processes "
          f"({rate:.0f}/s); {stats['skipped']} skipped in all, {stats['lossy_names']} names "
          f"not UTF-8 listed with name_bytes, {stats['processes']} processes listed")
    print(f"1..{len(results)}")
    failed = 0
    for i, (ok, name, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}" + ("" if ok else f" # {detail}"))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
