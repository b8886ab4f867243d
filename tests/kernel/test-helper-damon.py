#!/usr/bin/env python3
# test-helper-damon.py: pagescope-helper's ACCESS request, under its own polkit action
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The helper is started as pkexec would start it for nobody (PKEXEC_UID 65534, the socket
# made as nobody), with a stand-in pkcheck (the build tree's pagescope-helper-test honours
# PGS_HELPER_TEST_PKCHECK) that grants only the actions it is told to.
# 1. Hostile values (0, a leading zero, 601, a sign, a second field, no number, huge
#    numbers, a tab) are refused with EINVAL before polkit is asked.
# 2. A pkcheck that grants the change action but not the access one: refused (EACCES),
#    and the action asked for is io.github.pagescope.Pagescope.access.
# 3. Granted: "OK <instance> <private>", trace lines, "END"; where a kdamond runs, the
#    lines parse as damon_aggregated events. DAMON's configuration (every file under
#    /sys/kernel/mm/damon/admin but the counters, as test-damon-access.py hashes it) is
#    the same before and after, no tracefs instance of Pagescope's is left and the
#    tracepoint's top-level enable state is as it was; also after a client that hangs up
#    mid-read.
# Never writes under /sys/kernel/mm/damon: the kdamond is someone else's.
# TAP output; exit 77 without root or the helper; part 3 skips where DAMON, a running
# kdamond, tracefs or the tracepoint is missing.

import importlib.util
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pgskernel  # noqa: E402

_spec = importlib.util.spec_from_file_location("damon_access", os.path.join(HERE, "test-damon-access.py"))
damon_access = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(damon_access)

SKIP = 77
NOBODY = 65534
ACCESS = "io.github.pagescope.Pagescope.access"
CHANGE = "io.github.pagescope.Pagescope.change"
LINE = re.compile(r"^\s*.*-(\d+)\s+\[\d+\].*?\s(\d+\.\d+): damon_aggregated: target_id=\d+ "
                  r"nr_regions=\d+ \d+-\d+: \d+ \d+\s*$")


def fake_pkcheck(directory, name, grants):
    """A pkcheck that logs its arguments and says yes only to the actions in GRANTS."""
    path = os.path.join(directory, name)
    cases = "".join(f'  "{a}") exit 0 ;;\n' for a in grants)
    with open(path, "w") as f:
        f.write(f'#!/bin/sh\necho "$*" >> "{path}.log"\ncase "$2" in\n{cases}esac\nexit 1\n')
    os.chmod(path, 0o755)
    return path


def start_helper(helper, pkcheck, sysfs=None):
    """The helper on one end of a SOCK_SEQPACKET pair made as nobody; our end. SYSFS: the
    fake sysfs root of a test build's helper (PGS_HELPER_TEST_SYSFS), None for the
    machine's."""
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    finally:
        os.seteuid(0)
        os.setegid(0)
    env = {"PKEXEC_UID": str(NOBODY), "PGS_HELPER_TEST_PKCHECK": pkcheck}
    if sysfs is not None:
        env["PGS_HELPER_TEST_SYSFS"] = sysfs
    proc = subprocess.Popen([helper], stdin=theirs, env=env, close_fds=True)
    theirs.close()
    ours.settimeout(30)
    greeting = ours.recv(256)
    assert greeting == b"PAGESCOPE-HELPER 1\n", greeting
    return ours, proc


def ask(sock, request):
    sock.send(request)
    return sock.recv(256).decode(errors="replace")


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (the helper's socket made as nobody, tracefs)")
        return SKIP
    helper = os.environ.get("PGS_HELPER_TEST")
    if not helper or not os.access(helper, os.X_OK):
        print("1..0 # SKIP PGS_HELPER_TEST (the build tree's helper) is not set")
        return SKIP
    found = pgskernel.init()
    tmp = tempfile.mkdtemp(prefix="pgs-helper-damon-")
    os.chmod(tmp, 0o755)
    results = []

    def check(name, ok, detail=""):
        results.append((name, ok, detail))

    # 1. Hostile values: refused before polkit is asked.
    pk = fake_pkcheck(tmp, "grant-access", [ACCESS])
    sock, proc = start_helper(helper, pk)
    hostile = [b"ACCESS 0\n", b"ACCESS 01\n", b"ACCESS 601\n", b"ACCESS -1\n", b"ACCESS +5\n",
               b"ACCESS 5 5\n", b"ACCESS \n", b"ACCESS\n", b"ACCESS 99999999999999999999\n",
               b"ACCESS 5\t\n", b"ACCESS 5", b"ACCESS 1e3\n", b"ACCESS  5\n", b"access 5\n",
               b"ACCESS 5 \n", b"ACCESS 4294967301\n"]
    for req in hostile:
        reply = ask(sock, req)
        check(f"{req!r} refused", reply.startswith("ERR 22 "), reply)
    check("polkit not asked for a refused request", not os.path.exists(pk + ".log"))
    sock.close()
    check("the helper ends with 0 on a hang-up", proc.wait(10) == 0)

    # 2. Only the change action granted: ACCESS refused, the access action asked for.
    pk = fake_pkcheck(tmp, "grant-change", [CHANGE])
    sock, proc = start_helper(helper, pk)
    reply = ask(sock, b"ACCESS 1\n")
    check("refused under the change action's authorisation",
          reply == f"ERR 13 not authorised to read memory access heat (polkit action {ACCESS})\n",
          reply)
    log = open(pk + ".log").read() if os.path.exists(pk + ".log") else ""
    check("pkcheck was asked for the access action", log.startswith(f"--action-id {ACCESS} "), log)
    sock.close()
    check("the helper ends with 0 after the refusal", proc.wait(10) == 0)

    # 3. Granted, against the machine's DAMON.
    reason = None
    if not os.path.isdir(damon_access.ADMIN):
        reason = "this kernel has no DAMON sysfs interface"
    elif found["damon_running"] == 0:
        reason = "no kdamond runs (the test never starts one on the machine)"
    elif "tracefs" not in open("/proc/filesystems").read():
        reason = "the kernel has no tracefs"
    if reason is None:
        try:
            before_tracing = damon_access.tracing_state()
            if damon_access.tracefs_sh("test -e $T/events/damon/damon_aggregated/format && "
                                       "echo yes || true").strip() != "yes":
                reason = "the kernel has no damon:damon_aggregated tracepoint"
        except RuntimeError as e:
            reason = f"tracefs cannot be mounted here: {e}"
    if reason is not None:
        print(f"# part 3 skipped: {reason}")
    else:
        before = damon_access.damon_config()
        aggr_us = max([int(v) for p, v in before.items()
                       if p.endswith("monitoring_attrs/intervals/aggr_us") and v.isdigit()] or [0])
        seconds = min(600, max(2, int(2 * aggr_us / 1e6) + 1))
        running = {int(v) for p, v in before.items()
                   if re.search(r"kdamonds/\d+/pid$", p) and v.lstrip("-").isdigit() and int(v) > 0}
        pk = fake_pkcheck(tmp, "grant-access-2", [ACCESS])
        sock, proc = start_helper(helper, pk)
        sock.settimeout(seconds + 30)
        sock.send(f"ACCESS {seconds}\n".encode())
        first = sock.recv(256).decode(errors="replace")
        ours = set(first.split()[1:2])
        check("the read starts: OK <instance> <private>",
              re.fullmatch(r"OK pagescope-\d+-[0-9a-f]{8} [01]\n", first) is not None, first)
        data, last = b"", ""
        while first.startswith("OK "):
            msg = sock.recv(16384 + 16)
            if msg.startswith(b"+"):
                data += msg[1:]
                continue
            last = msg.decode(errors="replace")
            break
        check("the read ends: END", last == "END\n", last)
        lines = [l for l in data.decode(errors="replace").splitlines() if "damon_aggregated" in l]
        pids = {int(m.group(1)) for m in (LINE.match(l) for l in lines) if m}
        print(f"# {seconds} s: {len(lines)} damon_aggregated lines from kdamond PIDs {sorted(pids)}")
        check(f"{seconds} s (two aggregations) gave damon_aggregated lines, all parsed, "
              "from the running kdamonds",
              len(lines) > 0 and all(LINE.match(l) for l in lines) and pids <= running,
              f"{len(lines)} lines, pids {pids} vs {running}")
        # A second request on the same connection, then a hang-up mid-read.
        sock.send(b"ACCESS 30\n")
        first = sock.recv(256).decode(errors="replace")
        ours |= set(first.split()[1:2])
        check("a second read starts", first.startswith("OK pagescope-"), first)
        time.sleep(1)
        sock.close()
        check("the helper ends with 0 on a hang-up mid-read", proc.wait(15) == 0)
        after = damon_access.damon_config()
        diff = [p for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)]
        check("DAMON's configuration unchanged", not diff,
              "\n".join(f"{p}: {before.get(p)!r} -> {after.get(p)!r}" for p in diff[:20]))
        print(f"# DAMON configuration: {len(before)} files, {damon_access.digest(before)} "
              f"before, {damon_access.digest(after)} after")
        # Only this test's instances (named in the helper's replies) are its business: a
        # Pagescope run beside it (another test, a user) may hold one of its own.
        def settled(state):
            left = ours & set(state.get("instances", "").split())
            same = {k: v for k, v in state.items() if k != "instances"} == \
                   {k: v for k, v in before_tracing.items() if k != "instances"}
            return not left and same

        for _ in range(50):
            now = damon_access.tracing_state()
            if settled(now):
                break
            time.sleep(0.1)
        check(f"no tracefs instance of this test's requests left ({' '.join(sorted(ours))}), "
              "enable state unchanged", settled(now), f"before {before_tracing}\nafter {now}")

    print(f"1..{len(results)}")
    for i, (name, ok, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok and detail:
            for l in str(detail).splitlines():
                print(f"#   {l}")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
