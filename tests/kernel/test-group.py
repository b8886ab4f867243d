#!/usr/bin/env python3
# test-group.py: memrank --group-by and librank against the kernel's own figures
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A load of three static children (pgs-group-child), run as a user made for the test and moved into a cgroup made for
# the test, each mapping a memfd that only they map, a data file whose first half this script
# (an outsider) maps too, and private memory of its own.
#   - --group-by user and --group-by cgroup: RSS, USS and swap equal the sums of the
#     children's smaps_rollup, PSS within 1 kB per process (each rollup truncates to kB);
#   - private: equals the frames whose every mapping (kpagecount) is a child's, worked out
#     here from pagemap and kpagecount; it includes all of the memfd and none of the
#     outsider's half of the data file;
#   - librank: the data file's and the memfd's figures equal the sums of the smaps entries
#     for those paths.
# The user and the cgroup are removed on every way out. TAP output; exit 77 without root or
# without a cgroup v2 hierarchy.

import mmap
import os
import pwd
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

import pgskernel

SKIP = 77
PS = os.sysconf("SC_PAGE_SIZE")
MEMFD_PAGES = 512
DATA_PAGES = 256
PRIVATE_PAGES = 128



def parse_kb(lines):
    fields = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[2] == "kB":
            fields[parts[0].rstrip(":")] = int(parts[1]) * 1024
    return fields


def rollup(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        return parse_kb(f)


def smaps_for(pid, path):
    """Sums of the smaps entries of @pid whose path is @path, and how many there are."""
    total = {"Size": 0, "Rss": 0, "Pss": 0, "Private_Clean": 0, "Private_Dirty": 0, "Swap": 0}
    n = 0
    current = None
    with open(f"/proc/{pid}/smaps", "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", "surrogateescape")
            head = line.split(None, 5)
            if len(head) >= 5 and "-" in head[0] and ":" in head[3]:
                current = head[5].rstrip("\n") if len(head) == 6 else ""
                if current == path:
                    n += 1
                continue
            if current == path:
                k = parse_kb([line])
                for key in total:
                    if key in k:
                        total[key] += k[key]
    return total, n


def cgroup2_root():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            if right.split()[0] == "cgroup2":
                return left.split()[4]
    return None


def frames(pid):
    """Every present frame @pid maps (one entry per mapping of it), from pagemap."""
    out = []
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/pagemap", "rb") as pm:
        for line in maps:
            lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
            if lo >= 1 << 47:                     # [vsyscall]
                continue
            pm.seek(lo // PS * 8)
            buf = pm.read((hi - lo) // PS * 8)
            for (e,) in struct.iter_unpack("<Q", buf):
                if e >> 63 & 1:
                    out.append(e & ((1 << 55) - 1))
    return out


def private_oracle(pids):
    """Bytes of frames whose kpagecount equals the number of the group's mappings of them
    (the zero page and other count-0 frames left out), and whether a given frame set is."""
    counts = {}
    for pid in pids:
        for pfn in frames(pid):
            counts[pfn] = counts.get(pfn, 0) + 1
    private = set()
    with open("/proc/kpagecount", "rb") as kc, open("/proc/kpageflags", "rb") as kf:
        for pfn, n in counts.items():
            kc.seek(pfn * 8)
            (mapcount,) = struct.unpack("<Q", kc.read(8))
            kf.seek(pfn * 8)
            (flags,) = struct.unpack("<Q", kf.read(8))
            if flags >> 17 & 1:                   # hugetlb: not in Rss
                continue
            if mapcount != 0 and mapcount == n:
                private.add(pfn)
    return private


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (users, cgroups, kpagecount)")
        return SKIP
    root = cgroup2_root()
    if root is None:
        print("1..0 # SKIP no cgroup v2 hierarchy is mounted (mount | grep cgroup2)")
        return SKIP
    useradd, userdel = shutil.which("useradd"), shutil.which("userdel")
    if useradd is None or userdel is None:
        print("1..0 # SKIP useradd/userdel (passwd) are missing")
        return SKIP

    cli = os.environ["PAGESCOPE_CLI"]
    tag = f"pgs-test-{os.getpid()}"
    cgdir = os.path.join(root, tag)
    children = []
    results = []
    made_user = False
    tmp = tempfile.mkdtemp(prefix="pagescope-group-")

    def check(name, ok, detail=""):
        results.append((bool(ok), name, detail))

    # meson's timeout sends SIGTERM: unwind through finally.
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    try:
        r = subprocess.run([useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                            "--user-group", tag], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"1..0 # SKIP useradd failed: {r.stderr.strip()}")
            return SKIP
        made_user = True
        pw = pwd.getpwnam(tag)
        os.mkdir(cgdir)

        os.chmod(tmp, 0o755)
        data = os.path.join(tmp, "data.bin")
        with open(data, "wb") as f:
            f.write(os.urandom(DATA_PAGES * PS))
        os.chmod(data, 0o644)
        mfd = os.memfd_create("pgs-test", 0)
        os.ftruncate(mfd, MEMFD_PAGES * PS)

        # The outsider: this script maps and reads the first half of the data file.
        outside_f = open(data, "rb")
        outside = mmap.mmap(outside_f.fileno(), DATA_PAGES // 2 * PS, mmap.MAP_SHARED, mmap.PROT_READ)
        sum(outside[i * PS] for i in range(DATA_PAGES // 2))

        # The children are static (pgs-group-child): the CLI's libc does not change their
        # figures while it looks. They run as the new user, from a directory it can reach.
        child = os.path.join(tmp, "pgs-group-child")
        shutil.copy(os.environ["PGS_GROUP_CHILD"], child)
        os.chmod(child, 0o755)

        for _ in range(3):
            c = subprocess.Popen([child, str(mfd), data, str(MEMFD_PAGES),
                                  str(DATA_PAGES), str(PRIVATE_PAGES)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                 pass_fds=(mfd,), user=pw.pw_uid, group=pw.pw_gid,
                                 extra_groups=[])
            children.append(c)
            with open(os.path.join(cgdir, "cgroup.procs"), "w") as f:
                f.write(str(c.pid))
            c.stdin.write("go\n")
            c.stdin.flush()
        for c in children:
            line = c.stdout.readline().strip()
            if line != "ready":
                raise RuntimeError(f"child {c.pid} did not start: {line!r}")
        os.close(mfd)
        pids = sorted(c.pid for c in children)

        # Other processes come and go on a shared machine (their libraries change the
        # children's PSS): take a run whose rollups did not move while the CLI looked.
        for attempt in range(20):
            before = {p: rollup(p) for p in pids}
            by_user = subprocess.run([cli, "memrank", "--group-by", "user", "--json"],
                                     capture_output=True, text=True)
            by_cgroup = subprocess.run([cli, "memrank", "--group-by", "cgroup", "--json"],
                                       capture_output=True, text=True)
            oracle = private_oracle(pids)
            after = {p: rollup(p) for p in pids}
            if before == after and oracle == private_oracle(pids):
                break
            time.sleep(0.1)
        check("the children's rollups held still for one run", before == after)

        want_rss = sum(after[p]["Rss"] for p in pids)
        want_pss = sum(after[p]["Pss"] for p in pids)
        want_uss = sum(after[p]["Private_Clean"] + after[p]["Private_Dirty"] for p in pids)
        want_swap = sum(after[p]["Swap"] for p in pids)
        want_private = len(oracle) * PS

        # What the layout implies of the oracle itself.
        member_frames = {p: set(frames(p)) for p in pids}
        outsider_frames = set(frames(os.getpid()))
        shared_in = set.intersection(*member_frames.values()) - outsider_frames
        check("the oracle counts the memfd and the children-only half of the data file",
              len(shared_in & oracle) >= MEMFD_PAGES + DATA_PAGES // 2,
              f"{len(shared_in & oracle)} < {MEMFD_PAGES + DATA_PAGES // 2}")
        check("the oracle counts no frame the outsider maps", not (oracle & outsider_frames))

        for run, key, label in ((by_user, tag, "user"), (by_cgroup, "/" + tag, "cgroup")):
            check(f"--group-by {label} exits 0", run.returncode == 0, run.stderr.strip())
            doc = pgskernel.strict_json(run.stdout)
            group = next((g for g in doc["groups"] if g["group"] == key), None)
            check(f"--group-by {label}: the group {key} is listed", group is not None)
            if group is None:
                continue
            check(f"{label}: its processes are the children", sorted(group["pids"]) == pids,
                  f"{group['pids']} vs {pids}")
            check(f"{label}: RSS equals the sum of smaps_rollup", group["rss"] == want_rss,
                  f"{group['rss']} vs {want_rss}")
            check(f"{label}: PSS within 1 kB per process of the sum",
                  abs(group["pss"] - want_pss) < 1024 * len(pids), f"{group['pss']} vs {want_pss}")
            check(f"{label}: USS equals the sum of Private_Clean + Private_Dirty",
                  group["uss"] == want_uss, f"{group['uss']} vs {want_uss}")
            check(f"{label}: swap equals the sum", group["swap"] == want_swap,
                  f"{group['swap']} vs {want_swap}")
            check(f"{label}: private equals the frames only the children map",
                  group["private"] == want_private, f"{group['private']} vs {want_private}")
            check(f"{label}: private holds the memfd and the children-only half of the data file "
                  "beyond the USS", group["private"] - group["uss"] >= (MEMFD_PAGES + DATA_PAGES // 2) * PS,
                  f"{group['private']} - {group['uss']}")
            check(f"{label}: private leaves out the half the outsider maps",
                  group["private"] - group["uss"] < (MEMFD_PAGES + DATA_PAGES) * PS + 4 * 1024 * 1024,
                  f"{group['private']} - {group['uss']}")

        # librank: the data file (three children and this script) and the memfd.
        for attempt in range(20):
            before = {p: smaps_for(p, data) for p in pids + [os.getpid()]}
            lib = subprocess.run([cli, "librank", "--json"], capture_output=True, text=True)
            after = {p: smaps_for(p, data) for p in pids + [os.getpid()]}
            if before == after:
                break
            time.sleep(0.1)
        check("librank exits 0", lib.returncode == 0, lib.stderr.strip())
        files = {f["path"]: f for f in pgskernel.strict_json(lib.stdout)["files"]}
        for path, mappers in ((data, pids + [os.getpid()]), ("/memfd:pgs-test (deleted)", pids)):
            entry = files.get(path)
            check(f"librank lists {path}", entry is not None)
            if entry is None:
                continue
            sums = [smaps_for(p, path) for p in mappers]
            n_maps = sum(n for _, n in sums)
            want = {k: sum(s[k] for s, _ in sums) for k in sums[0][0]}
            check(f"{path}: mapped by {len(mappers)} processes", entry["processes"] == len(mappers),
                  f"{entry['processes']}")
            check(f"{path}: VSS equals the sum of smaps Size", entry["vss"] == want["Size"],
                  f"{entry['vss']} vs {want['Size']}")
            check(f"{path}: RSS equals the sum of smaps Rss", entry["rss"] == want["Rss"],
                  f"{entry['rss']} vs {want['Rss']}")
            check(f"{path}: PSS within 1 kB per mapping of the sum", abs(entry["pss"] - want["Pss"]) < 1024 * n_maps,
                  f"{entry['pss']} vs {want['Pss']}")
            check(f"{path}: USS equals the sum of Private_*",
                  entry["uss"] == want["Private_Clean"] + want["Private_Dirty"],
                  f"{entry['uss']} vs {want['Private_Clean'] + want['Private_Dirty']}")
            check(f"{path}: swap equals the sum", entry["swap"] == want["Swap"])
        outside.close()
        outside_f.close()
    finally:
        for c in children:
            c.kill()
            c.wait()
        for attempt in range(50):
            try:
                if os.path.isdir(cgdir):
                    os.rmdir(cgdir)
                break
            except OSError:
                time.sleep(0.05)
        if made_user:
            subprocess.run([userdel, tag], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"1..{len(results)}")
    failed = 0
    for i, (ok, name, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok:
            failed += 1
            print(f"# {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
