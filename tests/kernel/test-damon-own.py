#!/usr/bin/env python3
# test-damon-own.py: `access --start-monitor`, a kdamond of Pagescope's own
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# 1. Live, where DAMON's sysfs is not free (a kdamond runs, as on the test machine, or a
#    DAMON module runs one): `access --start-monitor` refuses (exit 3, the reason) and
#    DAMON's configuration, hashed as test-damon-access.py hashes it, is unchanged; the
#    live start is skipped with that reason. Where it is free: a 3 s read starts ours,
#    sees its aggregations and removes it; a run SIGKILLed mid-read leaves, within 5 s,
#    the configuration as it was (its watchdog removed the monitor).
# 2. A fake tree (--sysfs, a directory of the test's): started there, SIGKILLed mid-read,
#    the tree restored byte for byte within 5 s. Never writes under the real
#    /sys/kernel/mm/damon while a kdamond runs: the check that it is free comes first.
# TAP output; exit 77 without root or DAMON's sysfs.

import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pgskernel  # noqa: E402

_spec = importlib.util.spec_from_file_location("damon_access",
                                               os.path.join(HERE, "test-damon-access.py"))
damon_access = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(damon_access)

SKIP = 77
ADMIN = "/sys/kernel/mm/damon/admin"
CLI = os.environ.get("PAGESCOPE_CLI", "pagescope-cli")
KD = "kernel/mm/damon/admin/kdamonds"
CTX = KD + "/0/contexts/0"

# A free tree as the kernel makes kdamonds/0 (values unlike ours, so each write shows).
FAKE = {
    f"{KD}/nr_kdamonds": "0\n",
    f"{KD}/0/state": "off\n",
    f"{KD}/0/pid": "-1\n",
    f"{KD}/0/contexts/nr_contexts": "0\n",
    f"{CTX}/operations": "vaddr\n",
    f"{CTX}/monitoring_attrs/intervals/sample_us": "1000\n",
    f"{CTX}/monitoring_attrs/intervals/aggr_us": "20000\n",
    f"{CTX}/monitoring_attrs/intervals/update_us": "500000\n",
    f"{CTX}/monitoring_attrs/nr_regions/min": "5\n",
    f"{CTX}/monitoring_attrs/nr_regions/max": "500\n",
    f"{CTX}/targets/nr_targets": "0\n",
    f"{CTX}/targets/0/regions/nr_regions": "0\n",
    f"{CTX}/targets/0/regions/0/start": "0\n",
    f"{CTX}/targets/0/regions/0/end": "0\n",
}


def not_free_reason(config):
    """Why a kdamond of our own may not start on the live machine, or None."""
    for name in ("damon_reclaim", "damon_lru_sort", "damon_stat"):
        params = f"/sys/module/{name}/parameters"
        if pgskernel._read(f"{params}/enabled") in ("Y", "1"):
            return f"{name} is enabled"
        pid = pgskernel._read(f"{params}/kdamond_pid")
        if pid not in (None, "", "-1", "0"):
            return f"{name} runs a kdamond (PID {pid})"
    nr = int(config.get(f"{ADMIN}/kdamonds/nr_kdamonds", "0"))
    for i in range(nr):
        if config.get(f"{ADMIN}/kdamonds/{i}/state") != "off":
            return f"a kdamond runs (PID {config.get(f'{ADMIN}/kdamonds/{i}/pid')})"
    if nr > 0:
        return f"{nr} kdamond(s) are configured, though off"
    return None


def read_tree(root):
    out = {}
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, root)] = f.read()
    return out


def run_killed(args, wait_for=b"started kdamond"):
    """Runs the CLI until its stderr says WAIT_FOR, then SIGKILLs it; what it said."""
    p = subprocess.Popen([CLI] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    said = b""
    deadline = time.monotonic() + 30
    while wait_for not in said and time.monotonic() < deadline:
        chunk = os.read(p.stderr.fileno(), 4096)
        if not chunk:
            break
        said += chunk
    time.sleep(1)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    p.stderr.close()
    return said.decode(errors="replace")


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (DAMON's sysfs, tracefs)")
        return SKIP
    if not os.path.isdir(ADMIN):
        print("1..0 # SKIP this kernel has no DAMON sysfs interface")
        return SKIP
    pgskernel.init()
    results = []
    skips = []

    def check(name, ok, detail=""):
        results.append((name, ok, detail))

    before = damon_access.damon_config()
    reason = not_free_reason(before)
    print(f"# DAMON configuration: {len(before)} files, {damon_access.digest(before)}")

    def same_config(when):
        after = {}
        for _ in range(50):
            after = damon_access.damon_config()
            if after == before:
                break
            time.sleep(0.1)
        diff = [p for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)]
        check(f"DAMON's configuration unchanged {when}", not diff,
              "\n".join(f"{p}: {before.get(p)!r} -> {after.get(p)!r}" for p in diff[:20]))

    # 1. Live.
    if reason is not None:
        r = subprocess.run([CLI, "access", "--start-monitor", "--seconds", "1"],
                           capture_output=True, timeout=60)
        err = r.stderr.decode(errors="replace")
        check("--start-monitor refused where DAMON's sysfs is not free (exit 3)",
              r.returncode == 3, f"exit {r.returncode}: {err}")
        check("the refusal gives the reason", reason.split(",")[0] in err, f"{reason!r} in {err!r}")
        same_config("after the refusal")
        skips.append(f"starting a kdamond on the live machine: {reason}")
    else:
        r = subprocess.run([CLI, "access", "--start-monitor", "--seconds", "3", "--json"],
                           capture_output=True, timeout=60)
        err = r.stderr.decode(errors="replace")
        check("--start-monitor read a kdamond of its own", r.returncode == 0 and
              "started kdamond" in err and b'"aggregations":[\n{' in r.stdout,
              f"exit {r.returncode}: {err}")
        same_config("after the read")
        said = run_killed(["access", "--start-monitor", "--seconds", "30"])
        check("the killed run had started its kdamond", "started kdamond" in said, said)
        same_config("after the run was killed with SIGKILL")

    # 2. A fake tree: the start, and the watchdog after a SIGKILL.
    with tempfile.TemporaryDirectory(prefix="pgs-damon-own-") as root:
        for rel, text in FAKE.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        tree = read_tree(root)
        said = run_killed(["access", "--start-monitor", "--sysfs", root, "--seconds", "30"])
        check("started on the fake tree", "started kdamond 0" in said, said)
        now = {}
        for _ in range(50):
            now = read_tree(root)
            if now == tree:
                break
            time.sleep(0.1)
        check("the fake tree restored byte for byte within 5 s of a SIGKILL", now == tree,
              "\n".join(f"{p}: {tree.get(p)!r} -> {now.get(p)!r}"
                        for p in sorted(set(tree) | set(now)) if tree.get(p) != now.get(p)))
    same_config("after the fake tree's runs")

    return pgskernel.report(results, skips)


if __name__ == "__main__":
    sys.exit(main())
