#!/usr/bin/env python3
# The snapshot mime type, built into a private database: a file with the snapshot magic and
# no extension, and binary bytes without it named *.pgsnap (a damaged snapshot), are both application/x-pagescope-snapshot;
# a PNG named *.dat is not. Exit 77 where update-mime-database or gio is missing.
import os, shutil, subprocess, sys, tempfile

xml = sys.argv[1]
TYPE = 'application/x-pagescope-snapshot'
if not shutil.which('update-mime-database') or not shutil.which('gio'):
    print('update-mime-database or gio not found: skipped')
    sys.exit(77)

with tempfile.TemporaryDirectory() as d:
    mime = os.path.join(d, 'share', 'mime')
    os.makedirs(os.path.join(mime, 'packages'))
    shutil.copy(xml, os.path.join(mime, 'packages'))
    for base in ('/usr/share/mime/packages/freedesktop.org.xml',):
        if os.path.exists(base):
            shutil.copy(base, os.path.join(mime, 'packages'))
    subprocess.run(['update-mime-database', '-V', mime], check=True, capture_output=True)

    files = {
        'magic-only': (b'PGSNAP\r\n\x01\x00\x00\x00' + b'\0' * 52, TYPE),
        'damaged.pgsnap': (b'\x00\xff' * 32, TYPE),
        'picture.dat': (b'\x89PNG\r\n\x1a\n' + b'\0' * 16, 'image/png'),
    }
    env = dict(os.environ, XDG_DATA_DIRS=os.path.join(d, 'share'), XDG_DATA_HOME=os.path.join(d, 'none'),
               GIO_USE_VFS='local')
    failed = False
    for name, (data, want) in files.items():
        path = os.path.join(d, name)
        with open(path, 'wb') as f:
            f.write(data)
        out = subprocess.run(['gio', 'info', '-a', 'standard::content-type', path], env=env,
                             check=True, capture_output=True, text=True).stdout
        got = [l.rsplit(': ', 1)[1].strip() for l in out.splitlines() if 'standard::content-type' in l]
        ok = got == [want]
        failed |= not ok
        print(f'{"ok" if ok else "FAIL"}: {name}: {got} (want {want})')
    sys.exit(1 if failed else 0)
