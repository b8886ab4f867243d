#!/usr/bin/env python3
# test-wss-cli.py: pagescope-cli wss against live processes, and its refusals
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The measured process is pgs-wss-child --rounds (see pgs-wss-child.h): 16 of 64 MiB anonymous
# written, 32 MiB anonymous untouched, 2 of 8 MiB of a shared file read, once per round asked
# for on its stdin. Nothing rests on timing: the CLI runs with --until-stdin and says when it
# has cleared; the script then asks the child for a round, waits for its "done", and only then
# ends the interval, so each interval provably holds one whole round however busy the machine
# is. Working sets within TOLERANCE of those; the kernel's own smaps, read by this script, as
# the oracle for what must not have been cleared. Bad input: one line on stderr naming the problem, a
# non-zero exit, nothing on stdout, nothing cleared. TAP output; exit 77 without root.

import os
import pgskernel
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
MIB = 1 << 20
TOLERANCE = 64 << 10
CLI = os.environ.get("PAGESCOPE_CLI")
CHILD = os.environ.get("PGS_WSS_CHILD")
WARNING = "warning: clearing the referenced bits of PID"

results = []
PROBE = {}


def check(name, ok, detail=""):
    results.append((bool(ok), name, detail))


def near(value, expected):
    return value is not None and abs(value - expected) <= TOLERANCE


def kernel_smaps(pid):
    """{start: {"rss": bytes, "referenced": bytes, "inode": n}} from /proc/PID/smaps."""
    maps, cur = {}, None
    header = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) \S{4} [0-9a-f]+ [0-9a-f]+:[0-9a-f]+ (\d+)")
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            m = header.match(line)
            if m:
                cur = maps.setdefault(int(m.group(1), 16), {"inode": int(m.group(3))})
                continue
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB" and parts[0] in ("Rss:", "Referenced:"):
                cur[parts[0][:-1].lower()] = int(parts[1]) * 1024
    return maps


class Child:
    def __init__(self):
        self.dir = pgskernel.make_tmpdir("wss-cli")
        self.path = os.path.join(self.dir, "mapped")
        self.proc = pgskernel.track(subprocess.Popen([CHILD, "--rounds", self.path], stdin=subprocess.PIPE,
                                                     stdout=subprocess.PIPE, text=True))
        words = self.proc.stdout.readline().split()
        assert words[0] == "ready", words
        self.touched, self.untouched, self.file = (int(w, 16) for w in words[1:4])
        self.pid = self.proc.pid
        self.rounds = 0
        pgskernel.wait_blocked(self.pid)

    def round(self):
        """One whole round of touching, begun and finished."""
        self.rounds += 1
        self.proc.stdin.write("t\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line == f"done {self.rounds}\n", line
        pgskernel.wait_blocked(self.pid)

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


CLEARED = re.compile(r"^pagescope-cli: sample (\d+): cleared; the interval ends at the next line of standard input$")


class Cli:
    """pagescope-cli wss --until-stdin: each interval ended by the script."""

    def __init__(self, *args):
        self.proc = pgskernel.track(subprocess.Popen([CLI, "wss", "--until-stdin", *args], stdin=subprocess.PIPE,
                                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                                     env=dict(os.environ, LC_ALL="C.UTF-8")))
        self.err = []

    def wait_cleared(self, n):
        """Reads stderr up to "sample N: cleared"; False if the CLI ended first."""
        while True:
            line = self.proc.stderr.readline()
            if line == "":
                return False
            self.err.append(line.rstrip("\n"))
            m = CLEARED.match(self.err[-1])
            if m:
                assert int(m.group(1)) == n, self.err
                return True

    def end_interval(self):
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()

    def finish(self, keep_stdin=False):
        if keep_stdin:
            # Closing stdin would end the interval too: let a signal act alone first.
            self.proc.wait(timeout=60)
        out, err = self.proc.communicate(timeout=60)
        self.err += err.splitlines()
        return self.proc.returncode, out, self.err


def measure(child, *args, count=1, rounds=1):
    """COUNT samples, each holding ROUNDS whole rounds of the child."""
    cli = Cli("--count", str(count), *args, str(child.pid))
    for n in range(1, count + 1):
        if not cli.wait_cleared(n):
            break
        for _ in range(rounds):
            child.round()
        cli.end_interval()
    return cli.finish()


def run(*args, user=None, **kw):
    argv = [CLI, "wss", *args]
    if user is not None:
        argv = [shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + argv
    return subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ, LC_ALL="C.UTF-8"), **kw)


def mapping(sample, start):
    for m in sample["mappings"]:
        if int(m["start"], 16) == start:
            return m
    return None


def refused(name, proc, code, pattern):
    """A refusal: the given exit code, nothing on stdout, exactly one line on stderr."""
    lines = proc.stderr.splitlines()
    check(f"{name}: exit {code}", proc.returncode == code, f"exit {proc.returncode}: {proc.stderr.strip()}")
    check(f"{name}: nothing on stdout", proc.stdout == "", repr(proc.stdout[:200]))
    check(f"{name}: one line on stderr saying so", len(lines) == 1 and re.search(pattern, lines[0]),
          repr(proc.stderr))


def test_json_series():
    child = Child()
    try:
        code, out, err = measure(child, "--json", count=3)
        check("json series exits 0", code == 0, err)
        check("json series: the warning before clearing, then each clearing said",
              len(err) == 4 and WARNING in err[0] and "reclaim" in err[0]
              and all(CLEARED.match(e) for e in err[1:]), err)
        doc = pgskernel.strict_json(out)
        check("json: pid, scope, clear_refs", doc["pid"] == child.pid and doc["scope"] == "all"
              and doc["clear_refs"] == 1 and doc["name"] == "pgs-wss-child", str(doc)[:300])
        check("json: complete, 3 samples", doc["complete"] is True and doc["error"] is None
              and len(doc["samples"]) == 3 and doc["samples_requested"] == 3)
        check("json: basis is smaps Referenced", doc["basis"] == "smaps_referenced")
        check("json: no interval asked for: null", doc["interval"] is None, doc["interval"])

        idle_present = os.path.exists("/sys/kernel/mm/page_idle/bitmap")
        idle = doc["per_page"]["idle_tracking"]
        check("json: idle tracking available exactly where the kernel has it",
              idle["available"] == idle_present, str(idle))
        if not idle["available"]:
            check("json: idle tracking's absence says why",
                  "CONFIG_IDLE_PAGE_TRACKING" in (idle["reason"] or ""), str(idle))
        sd = doc["per_page"]["soft_dirty"]
        check("json: soft-dirty absence says why", sd["available"] or bool(sd["reason"]), str(sd))

        for s in doc["samples"]:
            i = s["index"]
            t, u, f = (mapping(s, a) for a in (child.touched, child.untouched, child.file))
            check(f"sample {i}: elapsed", s["elapsed"] > 0, s["elapsed"])
            check(f"sample {i}: the child ran (a round)", s["ran"] is not None and s["ran"]["ran"] is True
                  and s["ran"]["context_switches"] >= 1, s["ran"])
            kinds = [c["kind"] for c in s["caveats"]]
            check(f"sample {i}: a DAMON caveat exactly where a paddr kdamond runs",
                  ("damon-paddr" in kinds) == PROBE["damon_paddr"], s["caveats"])
            check(f"sample {i}: every caveat says why", all(c["message"] for c in s["caveats"]), s["caveats"])
            check(f"sample {i}: touched 16 MiB of 64", t and t["rss"] == 64 * MIB and near(t["referenced"], 16 * MIB),
                  t and (t["rss"], t["referenced"]))
            check(f"sample {i}: untouched near 0 of 32 MiB", u and u["rss"] == 32 * MIB and near(u["referenced"], 0),
                  u and (u["rss"], u["referenced"]))
            check(f"sample {i}: file 2 MiB of 8", f and f["rss"] == 8 * MIB and near(f["referenced"], 2 * MIB)
                  and f["path"] == child.path and f["anonymous"] is False, f)
            check(f"sample {i}: totals add up", s["rss"] == sum(m["rss"] for m in s["mappings"])
                  and s["referenced"] == sum(m["referenced"] for m in s["mappings"]))
            if not idle["available"]:
                check(f"sample {i}: no per-page figure where there is none",
                      s["accessed"] is None and all(m["accessed"] is None for m in s["mappings"]))
    finally:
        child.close()


def test_human():
    child = Child()
    try:
        code, out, err = measure(child, count=2)
        check("human exits 0", code == 0, err)
        check("human: says the child ran", out.count("Ran: the process ran during the interval") == 2, out[:600])
        if PROBE["damon_paddr"]:
            check("human: the DAMON caveat beside each sample",
                  out.count("Caveat: A DAMON monitor of physical memory is running") == 2, repr(out[:4000]))
        check("human: says what it rests on", "Rests on: smaps “Referenced”, per mapping" in out, out[:400])
        if not os.path.exists("/sys/kernel/mm/page_idle/bitmap"):
            check("human: says per-page data is unavailable and why",
                  "Per page: unavailable" in out and "CONFIG_IDLE_PAGE_TRACKING" in out, out[:600])
            check("human: no per-page column", "ACCESSED" not in out)
        row = [l for l in out.splitlines() if l.startswith(f"{child.touched:012x}-")]
        check("human: touched row, 16.0 MiB of 64.0 MiB, 25.0%",
              len(row) == 2 and all(re.search(r"rw-p\s+16\.0 MiB\s+64\.0 MiB\s+25\.0%\s+\[anon\]$", r) for r in row),
              repr(out[:4000]))
        row = [l for l in out.splitlines() if l.startswith(f"{child.untouched:012x}-")]
        check("human: untouched row, near 0 of 32.0 MiB", len(row) == 2 and
              all(re.search(r"rw-p\s+(0 B|[0-9.]+ KiB)\s+32\.0 MiB\s+0\.[0-2]%\s+\[anon\]$", r) for r in row), row)
        check("human: a series table", "Working set over time:" in out)
        check("human: no interval length where the script ended each", "each ending at a line of standard input" in out,
              out[:300])
    finally:
        child.close()


def test_scopes():
    # --anon on a fresh child: the file mapping is not cleared, so the kernel still shows all
    # of it referenced (it was filled at the start); --file on another: the untouched
    # anonymous mapping likewise.
    child = Child()
    try:
        code, out, err = measure(child, "--anon", "--json")
        doc = pgskernel.strict_json(out)
        s = doc["samples"][0]
        check("--anon: exit 0, clear_refs 2", code == 0 and doc["clear_refs"] == 2, err)
        check("--anon: only anonymous mappings", all(m["anonymous"] for m in s["mappings"]))
        check("--anon: touched 16 MiB", near(mapping(s, child.touched)["referenced"], 16 * MIB))
        k = kernel_smaps(child.pid)[child.file]
        check("--anon: the file mapping was not cleared", k["referenced"] == k["rss"] == 8 * MIB, k)
    finally:
        child.close()

    child = Child()
    try:
        code, out, err = measure(child, "--file", "--json")
        doc = pgskernel.strict_json(out)
        s = doc["samples"][0]
        check("--file: exit 0, clear_refs 3", code == 0 and doc["clear_refs"] == 3, err)
        check("--file: only file mappings", all(not m["anonymous"] for m in s["mappings"]))
        check("--file: file 2 MiB", near(mapping(s, child.file)["referenced"], 2 * MIB))
        k = kernel_smaps(child.pid)[child.untouched]
        check("--file: the untouched anonymous mapping was not cleared", k["referenced"] == k["rss"] == 32 * MIB, k)
    finally:
        child.close()


def test_refusals():
    with open("/proc/sys/kernel/pid_max") as f:
        unknown = int(f.read()) + 1
    refused("unknown PID", run("--json", str(unknown)), 3, rf"^pagescope-cli: no process with PID {unknown}$")

    with open("/proc/2/status") as f:
        assert "VmSize:" not in f.read()
    refused("kernel thread", run("--json", "2"), 3, r"PID 2 \(kthreadd\) is a kernel thread")

    # A root-owned process, measured as nobody: refused, and nothing of it cleared.
    child = Child()
    try:
        proc = run("--interval", "0.1", str(child.pid), user="nobody")
        refused("as nobody, a root process", proc, 3,
                rf"PID {child.pid} \(pgs-wss-child\): cannot clear its referenced bits: "
                rf"/proc/{child.pid}/clear_refs: Permission denied")
        k = kernel_smaps(child.pid)
        check("as nobody: nothing was cleared", k[child.untouched]["referenced"] == 32 * MIB
              and k[child.file]["referenced"] == 8 * MIB, (k[child.untouched], k[child.file]))
    finally:
        child.close()

    refused("--anon with --file", run("--anon", "--file", "1"), 2, r"cannot be combined")
    refused("--csv", run("--csv", "1"), 2, r"no CSV output")


def wait_for_exec(pid, name):
    while True:
        with open(f"/proc/{pid}/comm") as f:
            if f.read().strip() == name:
                return
        time.sleep(0.001)


def test_idle_child():
    # No --until-stdin, and no round asked for: the child sits blocked on its pipe, so nothing
    # of its anonymous memory is touched and it does not run; the output says so beside the 0.
    child = Child()
    try:
        proc = run("--interval", "0.2", "--anon", "--json", str(child.pid))
        doc = pgskernel.strict_json(proc.stdout)
        s = doc["samples"][0]
        check("idle child: exit 0", proc.returncode == 0, proc.stderr)
        # Its own regions untouched; the stack (argv) may be read by anyone reading
        # /proc/PID/cmdline, which marks those pages referenced: at most a few pages.
        check("idle child: its regions untouched", mapping(s, child.touched)["referenced"] == 0
              and mapping(s, child.untouched)["referenced"] == 0, s["referenced"])
        check("idle child: nothing else but a few pages", s["referenced"] <= TOLERANCE, s["referenced"])
        check("idle child: did not run", s["ran"] == {"ran": False, "cpu_seconds": 0.0, "context_switches": 0},
              s["ran"])
        proc = run("--interval", "0.2", "--anon", str(child.pid))
        check("idle child, human: never a bare 0",
              re.search(r"^Sample 1 of 1, after [0-9.]+ s: (0 B \(did not run\)|[1-9][0-9.]* [KM]iB) referenced of ",
                        proc.stdout, re.M)
              and "Ran: the process did not run during the interval (0.00 s of CPU, 0 context switches)." in proc.stdout,
              proc.stdout[:600])
    finally:
        child.close()


def test_exit_during_interval():
    # Exits 2 s into a 30 s interval: reported then, not 30 s later; no JSON without a sample.
    sleeper = pgskernel.track(subprocess.Popen(["sleep", "2"]))
    wait_for_exec(sleeper.pid, "sleep")
    start = time.monotonic()
    proc = run("--interval", "30", "--json", str(sleeper.pid))
    took = time.monotonic() - start
    sleeper.wait()
    err = proc.stderr.splitlines()
    check("exits during the interval: exit 3", proc.returncode == 3, f"exit {proc.returncode}: {proc.stderr}")
    check("exits during the interval: reported when it exits", took < 25, f"{took:.2f} s")
    check("exits during the interval: nothing on stdout", proc.stdout == "", proc.stdout[:200])
    check("exits during the interval: warning, then one line saying so",
          len(err) == 2 and WARNING in err[0] and
          err[1] == f"pagescope-cli: PID {sleeper.pid} (sleep) exited during the interval", proc.stderr)

    # After one sample: that sample, marked incomplete, exit 1. The process (cat) exits when
    # its stdin closes, which the script does inside the second interval.
    cat = pgskernel.track(subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL))
    wait_for_exec(cat.pid, "cat")
    cli = Cli("--count", "20", "--json", str(cat.pid))
    if cli.wait_cleared(1):
        cli.end_interval()
        if cli.wait_cleared(2):
            cat.stdin.close()
            cat.wait()
            cli.end_interval()
    code, out, err = cli.finish()
    doc = pgskernel.strict_json(out) if out else {}
    check("exits after some samples: exit 1", code == 1, f"exit {code}: {err}")
    check("exits after some samples: the sample taken, marked incomplete",
          doc.get("complete") is False and len(doc.get("samples", [])) == 1
          and "exited during the interval" in doc.get("error", ""), str(doc)[:300])
    check("exits after some samples: says how far it got",
          err and err[-1] == f"pagescope-cli: PID {cat.pid} (cat) exited during the interval (after 1 of 20 samples)",
          err)


def test_interrupt():
    # Ctrl-C inside the second interval: the first sample reported, exit 1.
    child = Child()
    try:
        cli = Cli("--count", "1000", "--json", str(child.pid))
        if cli.wait_cleared(1):
            child.round()
            cli.end_interval()
            if cli.wait_cleared(2):
                cli.proc.send_signal(signal.SIGINT)
        code, out, err = cli.finish(keep_stdin=True)
        doc = pgskernel.strict_json(out) if out else {}
        check("Ctrl-C: exit 1 with the sample so far", code == 1 and doc.get("complete") is False
              and len(doc.get("samples", [])) == 1, f"exit {code}: {err}")
        check("Ctrl-C: says it was interrupted", err and err[-1] == "pagescope-cli: interrupted after 1 of 1000 samples",
              err)
    finally:
        child.close()


def test_stdin_closed():
    # The end of standard input ends the interval it is in, and the series: exit 1.
    child = Child()
    try:
        cli = Cli("--count", "3", "--json", str(child.pid))
        if cli.wait_cleared(1):
            child.round()
            cli.proc.stdin.close()
        code, out, err = cli.proc.wait(timeout=60), cli.proc.stdout.read(), cli.err + cli.proc.stderr.read().splitlines()
        doc = pgskernel.strict_json(out) if out else {}
        check("stdin closed: exit 1 with the sample", code == 1 and len(doc.get("samples", [])) == 1
              and near(mapping(doc["samples"][0], child.touched)["referenced"], 16 * MIB), f"exit {code}: {err}")
        check("stdin closed: says so", err and err[-1] == "pagescope-cli: standard input closed after 1 of 3 samples", err)
    finally:
        child.close()


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (other processes' clear_refs, and setpriv to nobody)")
        return SKIP
    if shutil.which("setpriv") is None:
        print("1..0 # SKIP setpriv (util-linux) is missing")
        return SKIP

    global PROBE
    PROBE = pgskernel.init()
    for test in (test_json_series, test_human, test_scopes, test_idle_child, test_refusals,
                 test_exit_during_interval, test_interrupt, test_stdin_closed):
        try:
            test()
        except Exception as e:  # a crash in one test is a failure, not the end of the run
            check(f"{test.__name__} ran", False, repr(e))

    print(f"1..{len(results)}")
    failed = 0
    for i, (ok, name, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}" + ("" if ok else f" # {detail}"))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
