#!/usr/bin/env python3
# test-record.py: a recording of a child that grows in known steps
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A child (static, pgs-record-child) grows by 10 MiB (pages it writes to) ten times, each step followed by a plateau
# of at least 700 ms that the test knows about (a pipe), then frees half. Every sample taken
# on a plateau must equal the child's smaps_rollup PSS read by the test on that plateau
# (within 1 kB); series --pid gives that staircase; compare --from --to lists the child as
# grown by its true change; --at picks the nearest sample. The recorder is stopped with
# SIGTERM and must end cleanly (an index, no end note). TAP output; exit 77 where
# smaps_rollup is missing.

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
STEP = 10 << 20
def rollup_pss(pid):
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no Pss")


def main():
    if not os.path.exists("/proc/self/smaps_rollup"):
        print("1..0 # SKIP no smaps_rollup on this kernel")
        return SKIP
    cli = os.environ["PAGESCOPE_CLI"]
    results = []
    tmp = tempfile.mkdtemp(prefix="pgs-record-")
    path = os.path.join(tmp, "r.pgrec")
    child = subprocess.Popen([os.environ["PGS_RECORD_CHILD"]], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    recorder = None
    try:
        time.sleep(0.3)
        recorder = subprocess.Popen([cli, "record", "-o", path, "--interval", "0.2",
                                     "--pages-every", "0"], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        time.sleep(0.6)
        plateaus = []   # (start, end, pss read by the test)
        for step in range(11):
            child.stdin.write("g\n" if step < 10 else "f\n")
            child.stdin.flush()
            child.stdout.readline()
            start = time.time()
            pss = rollup_pss(child.pid)
            time.sleep(0.7)
            again = rollup_pss(child.pid)
            end = time.time()
            if abs(again - pss) <= 1024:
                plateaus.append((start, end, pss))
        recorder.send_signal(signal.SIGTERM)
        out, err = recorder.communicate(timeout=30)
        results.append((recorder.returncode == 0, "recorder ends cleanly on SIGTERM (%d: %s)"
                        % (recorder.returncode, err.strip()[-200:])))

        series = subprocess.run([cli, "series", "--recording", path, "--pid", str(child.pid),
                                 "--json"], capture_output=True, text=True)
        results.append((series.returncode == 0 and "did not end cleanly" not in series.stderr,
                        "series reads the recording whole: %s" % series.stderr.strip()))
        rows = json.loads(series.stdout) if series.returncode == 0 else []
        checked, wrong = 0, []
        # Samples on a plateau, a margin after its start (a sample being taken as the step
        # ended may have read part of it). The sample times are the recording's: its first
        # sample frame's time (after the preamble and the header frame) is the start.
        with open(path, "rb") as f:
            data = f.read()
        # The first sample frame's time (bytes 16 + 24 + header length + 8).
        hlen = int.from_bytes(data[16 + 4:16 + 8], "little")
        first = 16 + 24 + hlen
        t0 = int.from_bytes(data[first + 8:first + 16], "little", signed=True) / 1e6
        for start, end, pss in plateaus:
            for r in rows:
                t = t0 + r["seconds"]
                # A sample is stamped when it begins and reads this child a little later:
                # one stamped just before the plateau's end may have read the next step.
                if start + 0.25 <= t <= end - 0.2:
                    checked += 1
                    if abs(r["pss"] - pss) > 1024:
                        wrong.append((round(t - t0, 2), r["pss"], pss))
        results.append((checked >= 10 and not wrong,
                        "%d samples on %d plateaus equal the child's smaps_rollup PSS within 1 kB%s"
                        % (checked, len(plateaus), (": " + str(wrong[:5])) if wrong else "")))

        # The staircase: each growth plateau 10 MiB (± 1 MiB) above the one before.
        steps = [b[2] - a[2] for a, b in zip(plateaus, plateaus[1:])][:9]
        results.append((len(steps) == 9 and all(abs(s - STEP) <= (1 << 20) for s in steps),
                        "series gives steps of 10 MiB: %s" % [round(s / 2**20, 2) for s in steps]))

        # compare over the whole recording: the child grew by its true change.
        before = [r for r in rows if t0 + r["seconds"] < plateaus[0][0] - 0.2]
        cmp = subprocess.run([cli, "compare", "--recording", path, "--from", "+0", "--to",
                              "+%.3f" % rows[-1]["seconds"], "--json"], capture_output=True, text=True)
        ok = False
        note = cmp.stderr.strip()[-200:]
        if cmp.returncode == 0 and before:
            report = json.loads(cmp.stdout)
            for e in report.get("processes", report.get("entries", [])):
                if e.get("pid") == child.pid:
                    old = (e.get("old") or {}).get("pss")
                    new = (e.get("new") or {}).get("pss")
                    true_change = rows[-1]["pss"] - rows[0]["pss"]
                    ok = old is not None and new is not None and new - old == true_change and new > old
                    note = "old %s new %s, series change %d" % (old, new, true_change)
        results.append((ok, "compare --recording lists the child as grown: " + note))

        # --at picks the nearest sample: halfway between two samples, biased to the later.
        if len(rows) > 3:
            a, b = rows[2]["seconds"], rows[3]["seconds"]
            at = a + (b - a) * 0.75
            r = subprocess.run([cli, "memrank", "--recording", path, "--at", "+%.3f" % at,
                                "--limit", "1"], capture_output=True, text=True)
            results.append(("sample 4 of" in r.stderr,
                            "--at +%.3f picks sample 4 (at +%.3f): %s" % (at, b, r.stderr.strip())))
    finally:
        if recorder is not None and recorder.poll() is None:
            recorder.kill()
            recorder.wait()
        child.kill()
        child.wait()
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)

    print("1..%d" % len(results))
    for i, (ok, what) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
