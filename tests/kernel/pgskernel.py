# pgskernel.py: the python kernel tests' probe and cleanup (pgs-kernel-probe.c and
# pgs-kernel-util.c say the same for the C tests)
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# init() sweeps what killed runs left behind (directories "pagescope-test-PID-..." whose PID
# is gone), registers the cleanup for exit and for SIGINT, SIGTERM and SIGHUP, and prints
# the probe as TAP comments. make_tmpdir() and track() register what the cleanup undoes.

import atexit
import errno
import json
import os
import shutil
import signal
import sys
import tempfile
import time

_dirs = []
_procs = []


def _pid_dead(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def sweep():
    swept = 0
    tmp = tempfile.gettempdir()
    for name in os.listdir(tmp):
        if not name.startswith("pagescope-test-"):
            continue
        head = name[len("pagescope-test-"):].split("-", 1)[0]
        if head.isdigit() and _pid_dead(int(head)):
            print(f"# sweep: removing {os.path.join(tmp, name)} (PID {head} is gone)")
            shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
            swept += 1
    return swept


def cleanup():
    while _procs:
        p = _procs.pop()
        if p.poll() is None:
            p.kill()
            p.wait()
    while _dirs:
        shutil.rmtree(_dirs.pop(), ignore_errors=True)


def _on_signal(sig, frame):
    cleanup()
    signal.signal(sig, signal.SIG_DFL)
    os.kill(os.getpid(), sig)


def make_tmpdir(what):
    d = tempfile.mkdtemp(prefix=f"pagescope-test-{os.getpid()}-{what}-")
    _dirs.append(d)
    return d


def track(proc):
    _procs.append(proc)
    return proc


def _no_constant(name):
    raise ValueError(f"{name} is not JSON (RFC 8259 has no NaN or Infinity)")


def _no_duplicates(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise ValueError(f"member {k!r} twice in one object")
        obj[k] = v
    return obj


def strict_json(data):
    """The one document in DATA (bytes or str), parsed as strictly as tests/common's
    pgs_test_assert_json(): UTF-8, no raw control characters in strings (strict=True), no
    NaN or Infinity, no member twice in one object. Raises ValueError otherwise."""
    if isinstance(data, (bytes, bytearray)):
        data = data.decode("utf-8")
    return json.loads(data, strict=True, parse_constant=_no_constant,
                      object_pairs_hook=_no_duplicates)


class CannotRunAs(Exception):
    """The reason a test cannot run its programs as another user here (a skip)."""


def _can_execute_as(uid, gid, path):
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)
            os._exit(0 if os.access(path, os.X_OK) else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def runnable_as(uid, gid, paths, what="bin"):
    """Copies of PATHS (programs the test runs as UID:GID) in a directory that user can
    enter, so the test passes in a checkout other users cannot enter (a clone under a 0700
    folder: the build tree's programs are out of their reach). Returns the copies' paths in
    order; the directory goes with the cleanup. A copy is enough: the programs link nothing
    from the build tree (its libraries are static), and pagescope-cli finds pagescope-render
    beside itself. Raises CannotRunAs with the reason when even the copies are out of reach
    (a temporary directory other users cannot enter)."""
    d = make_tmpdir(what)
    os.chmod(d, 0o755)
    out = []
    for p in paths:
        dest = os.path.join(d, os.path.basename(p))
        shutil.copy2(p, dest)
        os.chmod(dest, 0o755)
        out.append(dest)
    for dest in out:
        if not _can_execute_as(uid, gid, dest):
            raise CannotRunAs(f"uid {uid} cannot run programs copied to {d} "
                              f"(is {tempfile.gettempdir()} closed to other users?)")
    return out


def _read(path):
    # Some of DAMON's sysfs handlers can answer EBUSY while another tool holds their lock.
    for _ in range(1000):
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError as e:
            if e.errno not in (errno.EBUSY, errno.EAGAIN, errno.EINTR):
                return None
            time.sleep(0.001)
    return None


def wait_blocked(pid):
    """Waits until PID sleeps (state S): a child that answers on a pipe and then reads the
    next request is not running once it is, so its CPU and switch counters stand still."""
    while True:
        with open(f"/proc/{pid}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "S":
                return
        time.sleep(0.001)


def probe():
    """What the C probe finds that the python tests need."""
    found = {"idle_tracking": os.path.exists("/sys/kernel/mm/page_idle/bitmap"),
             "damon_running": 0, "damon_paddr": False}
    root = "/sys/kernel/mm/damon/admin/kdamonds"
    for k in (os.listdir(root) if os.path.isdir(root) else []):
        if _read(f"{root}/{k}/state") != "on":
            continue
        found["damon_running"] += 1
        ctxs = f"{root}/{k}/contexts"
        for c in (os.listdir(ctxs) if os.path.isdir(ctxs) else []):
            if _read(f"{ctxs}/{c}/operations") == "paddr":
                found["damon_paddr"] = True
    yes = {True: "yes", False: "no"}
    print(f"# probe: idle page tracking: {yes[found['idle_tracking']]}")
    print(f"# probe: DAMON kdamonds on: {found['damon_running']} "
          f"(physical addresses: {yes[found['damon_paddr']]})")
    return found


def init():
    sweep()
    atexit.register(cleanup)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    sys.stdout.flush()
    return probe()


def report(results, skips=()):
    """TAP for RESULTS, (name, ok, detail) each, the detail of a failure as comments, then
    SKIPS, a reason each; the exit status: 1 when any failed."""
    print(f"1..{len(results) + len(skips)}")
    failed = 0
    for i, (name, ok, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}")
        if not ok:
            failed += 1
            for line in detail.splitlines():
                print(f"# {line}")
    for j, why in enumerate(skips, len(results) + 1):
        print(f"ok {j} # SKIP {why}")
    return 1 if failed else 0
