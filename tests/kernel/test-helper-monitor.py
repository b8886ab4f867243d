#!/usr/bin/env python3
# test-helper-monitor.py: pagescope-helper's MONITOR request, under its own polkit action
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The helper is started as pkexec would start it for nobody, with a stand-in pkcheck (see
# test-helper-damon.py) and, for parts 1 to 4, a fake DAMON sysfs tree of the test's (the
# build tree's pagescope-helper-test honours PGS_HELPER_TEST_SYSFS).
# 1. Hostile requests ("MONITOR 1", a trailing space, lower case, no newline, "UNMONITOR"
#    with none running) are refused with EINVAL before polkit is asked.
# 2. A pkcheck that grants the access action but not the monitor one: refused (EACCES),
#    and the action asked for is io.github.pagescope.Pagescope.monitor.
# 3. Granted: "OK 0 -1" and the fake tree as the writer leaves it; a second MONITOR
#    refused (EBUSY); UNMONITOR "OK" and the tree restored byte for byte; the same by the
#    time the helper has exited after the client hangs up, and within 5 s after the helper
#    is killed with SIGKILL (its watchdog).
# 4. A tree where a kdamond runs: "ERR 16 a kdamond runs (PID 4242)", the tree unchanged.
# 5. The machine's DAMON, where it is not free (a kdamond runs, as on the test machine):
#    refused with EBUSY, its configuration unchanged; where it is free, skipped: this test
#    never starts a kdamond on the machine.
# TAP output; exit 77 without root or the helper.

import importlib.util
import os
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pgskernel  # noqa: E402


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


damon_access = _load("damon_access", "test-damon-access.py")
helper_damon = _load("helper_damon", "test-helper-damon.py")
damon_own = _load("damon_own", "test-damon-own.py")

SKIP = 77
MONITOR = "io.github.pagescope.Pagescope.monitor"
ACCESS = "io.github.pagescope.Pagescope.access"


def make_tree(root, files):
    for rel, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)
    return damon_own.read_tree(root)


def wait_tree(root, tree):
    now = {}
    for _ in range(50):
        now = damon_own.read_tree(root)
        if now == tree:
            break
        time.sleep(0.1)
    return now == tree


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (the helper's socket made as nobody)")
        return SKIP
    helper = os.environ.get("PGS_HELPER_TEST")
    if not helper or not os.access(helper, os.X_OK):
        print("1..0 # SKIP PGS_HELPER_TEST (the build tree's helper) is not set")
        return SKIP
    pgskernel.init()
    tmp = tempfile.mkdtemp(prefix="pgs-helper-monitor-")
    os.chmod(tmp, 0o755)
    fake = os.path.join(tmp, "sysfs")
    tree = make_tree(fake, damon_own.FAKE)
    results = []
    skips = []

    def check(name, ok, detail=""):
        results.append((name, ok, detail))

    ask = helper_damon.ask
    kd = damon_own.KD

    # 1. Hostile requests.
    pk = helper_damon.fake_pkcheck(tmp, "grant-monitor", [MONITOR])
    sock, proc = helper_damon.start_helper(helper, pk, fake)
    for req in [b"MONITOR 1\n", b"MONITOR \n", b"monitor\n", b"MONITOR", b" MONITOR\n",
                b"MONITOR\t\n", b"UNMONITOR 0\n", b"UNMONITOR\n"]:
        reply = ask(sock, req)
        check(f"{req!r} refused", reply.startswith("ERR 22 "), reply)
    check("polkit not asked for a refused request", not os.path.exists(pk + ".log"))
    check("the fake tree untouched by refused requests", damon_own.read_tree(fake) == tree)
    sock.close()
    check("the helper ends with 0 on a hang-up", proc.wait(10) == 0)

    # 2. Only the access action granted.
    pk2 = helper_damon.fake_pkcheck(tmp, "grant-access", [ACCESS])
    sock, proc = helper_damon.start_helper(helper, pk2, fake)
    reply = ask(sock, b"MONITOR\n")
    check("refused under the access action's authorisation",
          reply == f"ERR 13 not authorised to start a memory access monitor (polkit action "
                   f"{MONITOR})\n", reply)
    log = open(pk2 + ".log").read() if os.path.exists(pk2 + ".log") else ""
    check("pkcheck was asked for the monitor action", log.startswith(f"--action-id {MONITOR} "),
          log)
    check("the fake tree untouched after the refusal", damon_own.read_tree(fake) == tree)
    sock.close()
    proc.wait(10)

    # 3. Granted: started, refused twice, removed three ways.
    sock, proc = helper_damon.start_helper(helper, pk, fake)
    reply = ask(sock, b"MONITOR\n")
    check("MONITOR answers OK 0 -1 on the fake tree", reply == "OK 0 -1\n", reply)
    state = open(os.path.join(fake, kd, "0/state")).read()
    ops = open(os.path.join(fake, damon_own.CTX, "operations")).read()
    check("the fake kdamond is on, paddr", state == "on\n" and ops == "paddr\n", f"{state!r} {ops!r}")
    reply = ask(sock, b"MONITOR\n")
    check("a second MONITOR refused (EBUSY)", reply.startswith("ERR 16 "), reply)
    reply = ask(sock, b"UNMONITOR\n")
    check("UNMONITOR answers OK", reply == "OK\n", reply)
    check("the fake tree restored after UNMONITOR", damon_own.read_tree(fake) == tree)
    reply = ask(sock, b"MONITOR\n")
    check("MONITOR again", reply == "OK 0 -1\n", reply)
    sock.close()
    check("the helper ends with 0 on a hang-up with a monitor", proc.wait(10) == 0)
    check("the fake tree restored before the helper exited after the hang-up",
          damon_own.read_tree(fake) == tree)
    sock, proc = helper_damon.start_helper(helper, pk, fake)
    reply = ask(sock, b"MONITOR\n")
    check("MONITOR before the kill", reply == "OK 0 -1\n", reply)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    sock.close()
    check("the fake tree restored within 5 s of the helper's SIGKILL", wait_tree(fake, tree))

    # 4. A busy fake tree.
    busy = os.path.join(tmp, "busy")
    busy_tree = make_tree(busy, {f"{kd}/nr_kdamonds": "1\n", f"{kd}/0/state": "on\n",
                                 f"{kd}/0/pid": "4242\n"})
    sock, proc = helper_damon.start_helper(helper, pk, busy)
    reply = ask(sock, b"MONITOR\n")
    check("refused where a kdamond runs", reply == "ERR 16 a kdamond runs (PID 4242)\n", reply)
    check("the busy tree unchanged", damon_own.read_tree(busy) == busy_tree)
    sock.close()
    proc.wait(10)

    # 5. The machine's DAMON: only where it is not free.
    if not os.path.isdir(damon_access.ADMIN):
        skips.append("the machine's DAMON: this kernel has no DAMON sysfs interface")
    else:
        before = damon_access.damon_config()
        reason = damon_own.not_free_reason(before)
        if reason is None:
            skips.append("the machine's DAMON is free: this test never starts a kdamond there")
        else:
            sock, proc = helper_damon.start_helper(helper, pk, None)
            reply = ask(sock, b"MONITOR\n")
            check("MONITOR refused on the machine (EBUSY, the reason)",
                  reply.startswith("ERR 16 ") and reason.split(",")[0] in reply,
                  f"{reply!r} for {reason!r}")
            sock.close()
            proc.wait(10)
            after = damon_access.damon_config()
            check("the machine's DAMON configuration unchanged", after == before,
                  "\n".join(f"{p}: {before.get(p)!r} -> {after.get(p)!r}"
                            for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)))

    shutil.rmtree(tmp, ignore_errors=True)
    return pgskernel.report(results, skips)


if __name__ == "__main__":
    sys.exit(main())
