#!/usr/bin/env python3
# Writes the seed corpus of fuzz-snapshot: a tiny procfs tree (two processes sharing two
# frames, one swapped page) scanned and saved by pagescope-cli snapshot, then the same file
# as the fuzz target's three modes (see fuzz-snapshot.c): file, file with its checksum
# recomputed, bare payload. Usage: make-snapshot-seeds.py PAGESCOPE_CLI CORPUS_DIR
import os, struct, subprocess, sys, tempfile, zlib

cli, out = sys.argv[1], sys.argv[2]
PS = os.sysconf('SC_PAGESIZE')
BASE = 0x10000000
PRESENT, EXCL, FILE = 1 << 63, 1 << 56, 1 << 61

with tempfile.TemporaryDirectory() as root:
    def write(rel, data):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            f.write(data if isinstance(data, bytes) else data.encode())

    pages = {100: [PRESENT | EXCL | 10, PRESENT | FILE | 20, PRESENT | FILE | 21, (1 << 62) | (5 << 5) | 1],
             200: [PRESENT | FILE | 20, PRESENT | FILE | 21]}
    for pid, entries in pages.items():
        n = len(entries)
        write(f'{pid}/status', f'Name:\tp{pid}\nState:\tS (sleeping)\nTgid:\t{pid}\nPid:\t{pid}\nPPid:\t1\n'
              f'Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nVmSize:\t{n * PS // 1024} kB\nVmRSS:\t4 kB\nVmSwap:\t0 kB\n')
        write(f'{pid}/cmdline', f'/bin/p{pid}\0-x\0')
        write(f'{pid}/stat', f'{pid} (p{pid}) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 {pid * 10} 0 0\n')
        write(f'{pid}/maps', f'{BASE:08x}-{BASE + n * PS:08x} rw-p 00000000 00:00 0 [heap]\n')
        write(f'{pid}/pagemap', b'\0' * (BASE // PS * 8) + struct.pack(f'<{n}Q', *entries))
    counts = [0] * 32
    flags = [0] * 32
    counts[10], counts[20], counts[21] = 1, 2, 2
    flags[10], flags[20], flags[21] = 1 << 12, 1 << 5, 1 << 5
    write('kpagecount', struct.pack('<32Q', *counts))
    write('kpageflags', struct.pack('<32Q', *flags))
    write('meminfo', 'MemTotal:  128 kB\nMemFree:  64 kB\n')
    write('sys/kernel/hostname', 'seed\n')
    write('sys/kernel/osrelease', '6.1.0\n')
    write('sys/kernel/random/boot_id', '00000000-0000-0000-0000-000000000000\n')
    snap = os.path.join(root, 'seed.pgsnap')
    subprocess.run([cli, 'snapshot', '--procfs', root, '-o', snap], check=True)
    data = open(snap, 'rb').read()

os.makedirs(out, exist_ok=True)
open(os.path.join(out, 'file'), 'wb').write(b'\0' + data)
open(os.path.join(out, 'file-fixed-checksum'), 'wb').write(b'\1' + data)
open(os.path.join(out, 'payload'), 'wb').write(b'\2' + zlib.decompress(data[64:]))
