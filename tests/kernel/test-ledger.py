#!/usr/bin/env python3
# test-ledger.py: pagescope-cli ledger on the live machine
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# 1. The whole ledger: rows + unexplained == MemTotal exactly, the unexplained rest at most
#    1 % of MemTotal (printed), each counter the rows answer to within 1 % of it or 4 MiB.
#    The counters are read right after the frames while the machine runs (other builds,
#    tests): a counter must agree in one of up to five readings, and every miss is printed.
# 2. 256 MiB in a tmpfs of the test's own (mounted in a temporary directory, unmounted on
#    every way out) and 256 MiB of page cache no process maps (a file written, synced and
#    closed) are found in their rows: "shared memory and tmpfs, no process maps" and the
#    page cache's clean and dirty rows. Residency is checked with mincore() before and
#    after the scan, and the whole takes seconds (a DAMON pageout scheme may reclaim file
#    pages idle for 60 s).
# TAP output; exit 77 without root or without kpageflags.

import atexit
import ctypes
import ctypes.util
import json
import mmap
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgskernel  # noqa: E402

SKIP = 77
MiB = 1 << 20
SIZE = 256 * MiB

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_char_p]
libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]

_mounts = []


def resident(path):
    """Bytes of @path in memory, by mincore() on a mapping made and dropped here."""
    size = os.path.getsize(path)
    fd = os.open(path, os.O_RDONLY)
    try:
        addr = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap")
        try:
            pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
            vec = (ctypes.c_ubyte * pages)()
            if libc.mincore(addr, size, vec) != 0:
                raise OSError(ctypes.get_errno(), "mincore")
            return sum(b & 1 for b in vec) * mmap.PAGESIZE
        finally:
            libc.munmap(addr, size)
    finally:
        os.close(fd)


def write_file(path, size):
    chunk = os.urandom(MiB)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for _ in range(size // MiB):
            os.write(fd, chunk)
        os.fsync(fd)
    finally:
        os.close(fd)


def umount_all():
    while _mounts:
        libc.umount2(_mounts.pop().encode(), 2)  # MNT_DETACH


def on_signal(sig, frame):
    umount_all()
    pgskernel._on_signal(sig, frame)


def ledger(cli):
    run = subprocess.run([cli, "ledger", "--json"], capture_output=True)
    if run.returncode != 0:
        raise RuntimeError(f"ledger exited {run.returncode}: {run.stderr.decode(errors='replace')}")
    return json.loads(run.stdout)


def meminfo():
    with open("/proc/meminfo") as f:
        return {k: int(v.split()[0]) * 1024 for k, v in (line.split(":", 1) for line in f)}


def evaluate(counter, mi):
    """A counter as the ledger names it ("Cached + Buffers − Shmem") from meminfo."""
    total, sign = 0, 1
    for word in counter.split():
        if word == "+":
            sign = 1
        elif word == "−":
            sign = -1
        else:
            total += sign * mi.get(word, 0)
    return total


def rows(doc):
    return {r["name"]: r for r in doc["rows"]}


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (kpageflags, mount)")
        return SKIP
    if not os.access("/proc/kpageflags", os.R_OK):
        print("1..0 # SKIP /proc/kpageflags is not readable")
        return SKIP
    cli = os.environ["PAGESCOPE_CLI"]
    pgskernel.init()
    # Registered after init's cleanup, so it runs first: the mount goes before its folder,
    # on exit and on a signal alike.
    atexit.register(umount_all)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    results = []

    def check(name, ok, detail=""):
        results.append((ok, name, detail))

    start = time.monotonic()

    # 1. The whole ledger, up to five readings. Processes allocate and free while the
    # frames are read (0.3-0.6 s), so a counter is compared with the range it moved in:
    # /proc/meminfo read just before the scan, the CLI's own reading right after the
    # frames, and /proc/meminfo just after it.
    agreed = {}
    for reading in range(5):
        mi0 = meminfo()
        doc = ledger(cli)
        mi1 = meminfo()
        total = sum(r["bytes"] for r in doc["rows"])
        check(f"reading {reading + 1}: rows + unexplained == MemTotal exactly",
              total + doc["unexplained"] == doc["mem_total"],
              f"{total} + {doc['unexplained']} != {doc['mem_total']}")
        print(f"# reading {reading + 1}: unexplained {doc['unexplained']} bytes = "
              f"{100.0 * doc['unexplained'] / doc['mem_total']:.4f} % of MemTotal; "
              f"outside MemTotal {doc['outside_mem_total']}")
        check(f"reading {reading + 1}: unexplained within 1 % of MemTotal",
              abs(doc["unexplained"]) <= doc["mem_total"] // 100, str(doc["unexplained"]))
        groups = {}
        for r in doc["rows"]:
            if r["counter"] is not None and r["counter_value"] is not None:
                g = groups.setdefault(r["counter"], [0, r["counter_value"]])
                g[0] += r["bytes"]
        for counter, (got, want) in groups.items():
            seen = [want, evaluate(counter, mi0), evaluate(counter, mi1)]
            lo, hi = min(seen), max(seen)
            slack = max(want // 100, 4 * MiB)
            ok = lo - slack <= got <= hi + slack
            print(f"# reading {reading + 1}: {counter}: rows {got / MiB:.1f} MiB, counter "
                  f"{want / MiB:.1f} MiB (moved {lo / MiB:.1f}-{hi / MiB:.1f})"
                  f"{'' if ok else ' (off)'}")
            agreed[counter] = agreed.get(counter, False) or ok
        if all(agreed.values()):
            break
    for counter, ok in sorted(agreed.items()):
        check(f"the rows that answer to {counter} agree with it in a reading", ok)

    # 2. 256 MiB in tmpfs and 256 MiB in page cache.
    d = pgskernel.make_tmpdir("ledger")
    mnt = os.path.join(d, "tmpfs")
    os.mkdir(mnt)
    if libc.mount(b"pagescope-test", mnt.encode(), b"tmpfs", 0, b"size=300m") != 0:
        e = ctypes.get_errno()
        check("mount a tmpfs", False, os.strerror(e))
    else:
        _mounts.append(mnt)
        try:
            # Page cache on the file system under the temporary folder, unless that is
            # tmpfs too: then beside the build.
            cache_dir = d
            fs = subprocess.run(["stat", "-f", "-c", "%T", d], capture_output=True,
                                text=True).stdout.strip()
            if fs in ("tmpfs", "ramfs"):
                cache_dir = tempfile.mkdtemp(prefix=f"pagescope-test-{os.getpid()}-ledger-",
                                             dir="/var/tmp")
                pgskernel._dirs.append(cache_dir)
            shm_file = os.path.join(mnt, "shm")
            cache_file = os.path.join(cache_dir, "cache")
            before = rows(ledger(cli))
            write_file(shm_file, SIZE)
            write_file(cache_file, SIZE)
            res_shm0, res_cache0 = resident(shm_file), resident(cache_file)
            after_doc = ledger(cli)
            after = rows(after_doc)
            res_shm1, res_cache1 = resident(shm_file), resident(cache_file)
            print(f"# tmpfs file resident {res_shm0 / MiB:.1f} → {res_shm1 / MiB:.1f} MiB, "
                  f"page cache file {res_cache0 / MiB:.1f} → {res_cache1 / MiB:.1f} MiB")
            check("the tmpfs file stayed resident", res_shm0 == SIZE and res_shm1 == SIZE)
            check("the page cache file stayed resident (mincore)", res_cache1 >= SIZE * 9 // 10,
                  f"{res_cache1}")

            shm_rows = after["shmem-unmapped"]["bytes"]
            shm_delta = shm_rows - before["shmem-unmapped"]["bytes"]
            print(f"# shared memory no process maps: {before['shmem-unmapped']['bytes'] / MiB:.1f} → "
                  f"{shm_rows / MiB:.1f} MiB")
            check("the tmpfs file is in the row of shmem no process maps",
                  shm_rows >= res_shm1 and abs(shm_delta - SIZE) <= 16 * MiB,
                  f"row {shm_rows}, grew by {shm_delta}")
            check("and not with the processes", after["processes-shmem"]["bytes"] < 64 * MiB +
                  before["processes-shmem"]["bytes"])

            cache = after["cache-clean"]["bytes"] + after["cache-dirty"]["bytes"]
            cache0 = before["cache-clean"]["bytes"] + before["cache-dirty"]["bytes"]
            print(f"# page cache no process maps: {cache0 / MiB:.1f} → {cache / MiB:.1f} MiB")
            # Other builds read and write files meanwhile: the row holds at least the file,
            # and grew by about its size.
            check("the page cache file is in the page cache rows",
                  cache >= min(res_cache0, res_cache1) - 4 * MiB and
                  abs((cache - cache0) - SIZE) <= 96 * MiB,
                  f"rows {cache}, grew by {cache - cache0}")
            check("and not in the shmem rows", shm_delta < SIZE + 16 * MiB)
            check("all in under a minute", time.monotonic() - start < 60,
                  f"{time.monotonic() - start:.1f} s")
        finally:
            umount_all()
    check("the tmpfs is unmounted", not os.path.ismount(mnt))

    print(f"1..{len(results)}")
    for i, (ok, name, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}")
        if not ok and detail:
            print(f"# {detail}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
