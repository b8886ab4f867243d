#!/usr/bin/env python3
# test-snapshot-cli.py: snapshot files taken as root and as nobody, read by nobody, compared
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A snapshot taken as root gives nobody exactly root's figures (memrank --json) and pictures
# (render, PNG bytes) without root; one taken as nobody is marked unprivileged and says so;
# compare names a process killed between two snapshots "gone" and one started "new". TAP
# output; exit 77 without root or setpriv.

import os
import shutil
import signal
import subprocess
import sys
import tempfile

import pgskernel

SKIP = 77


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root to switch to nobody")
        return SKIP
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        print("1..0 # SKIP setpriv (util-linux) is missing")
        return SKIP
    cli = os.environ["PAGESCOPE_CLI"]
    drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    results = []
    pgskernel.init()
    # nobody runs copies: the build tree may be in a folder only root can enter. The CLI
    # runs `render` from beside itself, so pagescope-render goes with it.
    try:
        cli_nobody = pgskernel.runnable_as(65534, 65534, [
            cli, os.path.join(os.path.dirname(cli), "pagescope-render")], "snapshot-cli")[0]
    except pgskernel.CannotRunAs as e:
        print(f"1..0 # SKIP {e}")
        return SKIP

    def check(name, ok, detail=""):
        results.append((ok, name, detail))

    def run(args, as_nobody=False):
        return subprocess.run((drop + [cli_nobody] if as_nobody else [cli]) + args, capture_output=True)

    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o1777)
        victim = subprocess.Popen(["sleep", "300"])
        try:
            a = os.path.join(d, "a.pgsnap")
            r = run(["snapshot", "-o", a])
            check("snapshot as root exits 0 or 1 (a process may exit mid-scan)",
                  r.returncode in (0, 1), r.stderr.decode(errors="replace"))
            check("the file is readable by nobody", os.stat(a).st_mode & 0o004 != 0)

            root_rank = run(["memrank", "--json", "--snapshot", a])
            nobody_rank = run(["memrank", "--json", "--snapshot", a], as_nobody=True)
            check("memrank --snapshot as root exits 0", root_rank.returncode == 0, root_rank.stderr.decode())
            check("memrank --snapshot as nobody exits 0", nobody_rank.returncode == 0, nobody_rank.stderr.decode())
            check("nobody reads root's figures exactly", root_rank.stdout == nobody_rank.stdout)
            doc = pgskernel.strict_json(nobody_rank.stdout)
            mine = [p for p in doc["processes"] if p["pid"] == victim.pid]
            check("the file holds the sleeping process, with a PSS (root's view)",
                  len(mine) == 1 and mine[0]["pss"] is not None and mine[0]["pss"] > 0, str(mine))

            pngs = []
            for who in (False, True):
                png = os.path.join(d, f"flags-{int(who)}.png")
                r = run(["render", "--view", "flags", "--snapshot", a, "-o", png], as_nobody=who)
                check(f"render --snapshot as {'nobody' if who else 'root'} exits 0", r.returncode == 0,
                      r.stderr.decode(errors="replace"))
                pngs.append(open(png, "rb").read() if os.path.exists(png) else b"")
            check("nobody renders root's flag map byte for byte", pngs[0] == pngs[1] and len(pngs[0]) > 100)

            b = os.path.join(d, "b.pgsnap")
            victim.send_signal(signal.SIGKILL)
            victim.wait()
            newcomer = subprocess.Popen(["sleep", "301"])
            try:
                r = run(["snapshot", "-o", b])
                check("second snapshot exits 0 or 1", r.returncode in (0, 1), r.stderr.decode(errors="replace"))
            finally:
                newcomer.kill()
                newcomer.wait()
            r = run(["compare", "--json", a, b], as_nobody=True)
            check("compare as nobody exits 0", r.returncode == 0, r.stderr.decode(errors="replace"))
            cmp = pgskernel.strict_json(r.stdout)
            by_pid = {}
            for p in cmp["processes"]:
                by_pid.setdefault(p["pid"], []).append(p)
            gone = by_pid.get(victim.pid, [])
            check("the killed process is gone, with its old figures and new null",
                  any(p["status"] == "gone" and p["new"] is None and p["old"]["pss"] is not None
                      and p["diff"]["pss"] == -p["old"]["pss"] for p in gone), str(gone))
            new = by_pid.get(newcomer.pid, [])
            check("the started process is new", any(p["status"] == "new" and p["old"] is None for p in new), str(new))
            pss = [abs(p["diff"]["pss"]) for p in cmp["processes"] if p["diff"]["pss"] is not None]
            check("sorted by the size of the PSS change", pss == sorted(pss, reverse=True))

            u = os.path.join(d, "u.pgsnap")
            r = run(["snapshot", "-o", u], as_nobody=True)
            check("snapshot as nobody exits 0 or 1", r.returncode in (0, 1), r.stderr.decode(errors="replace"))
            check("snapshot as nobody says it is not root", b"not root" in r.stderr, r.stderr.decode(errors="replace"))
            r = run(["compare", "--json", u, u], as_nobody=True)
            meta = pgskernel.strict_json(r.stdout)["old_snapshot"] if r.returncode == 0 else {}
            check("nobody's snapshot is marked unprivileged", meta.get("privileged") is False, str(meta))
            r = run(["render", "--view", "flags", "--snapshot", u, "-o", os.path.join(d, "u.png")])
            check("nobody's snapshot has no flag map: render says so, draws nothing",
                  r.returncode == 3 and b"without root" in r.stderr and r.stdout == b""
                  and not os.path.exists(os.path.join(d, "u.png")), r.stderr.decode(errors="replace"))

            bad = os.path.join(d, "cut.pgsnap")
            with open(a, "rb") as f, open(bad, "wb") as g:
                g.write(f.read()[: os.path.getsize(a) // 2])
            r = run(["memrank", "--snapshot", bad], as_nobody=True)
            check("a cut file is refused with a message, no figures",
                  r.returncode == 3 and b"cut short" in r.stderr and r.stdout == b"", r.stderr.decode())
        finally:
            if victim.poll() is None:
                victim.kill()
                victim.wait()

    print(f"1..{len(results)}")
    failed = 0
    for i, (ok, name, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok:
            failed += 1
            for line in str(detail).splitlines()[:20]:
                print(f"# {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
