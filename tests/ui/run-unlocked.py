#!/usr/bin/env python3
# run-unlocked.py HELPER TEST: runs a ui test as nobody with pagescope-helper running as root
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What Unlock does through pkexec, without pkexec (no password in a test): this launcher,
# root, starts the helper with one end of a SOCK_SEQPACKET socket pair as its stdin, and
# runs the test as nobody with the other end as fd 3 and PGS_HELPER_FD=3; the app's
# Unlock (pgs_helper_start_async) takes that descriptor instead of starting pkexec. The
# helper exits when its end hangs up. Skips (77) unless root with setpriv, xvfb-run and
# dbus-run-session. Where nobody cannot enter the build tree, runs a copy of the test.

import os
import shutil
import socket
import subprocess
import sys
import tempfile

NOBODY = 65534


def skip(why):
    print(why + ': skipped')
    sys.exit(77)


def main():
    helper, exe = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        skip('not root')
    for tool in ('setpriv', 'xvfb-run', 'dbus-run-session'):
        if shutil.which(tool) is None:
            skip(tool + ' is missing')
    as_nobody = ['setpriv', '--reuid=%d' % NOBODY, '--regid=%d' % NOBODY, '--clear-groups']
    schemas = os.path.join(os.environ.get('GSETTINGS_SCHEMA_DIR', ''), 'gschemas.compiled')
    # nobody's home, in /tmp even when TMPDIR is a private folder.
    home = tempfile.mkdtemp(prefix='pgs-ui-nobody.', dir='/tmp')
    os.chmod(home, 0o755)
    env = dict(os.environ)
    if subprocess.call(as_nobody + ['test', '-x', exe, '-a', '-r', schemas]) != 0:
        # A checkout nobody cannot enter (root's home, a 0700 folder): run a copy of the
        # test and of the compiled schemas from nobody's home.
        exe = shutil.copy(exe, home)
        env['GSETTINGS_SCHEMA_DIR'] = home
        shutil.copy(schemas, home)
        print('nobody cannot enter the build tree: running copies from ' + home)
    if subprocess.call(as_nobody + ['test', '-x', exe]) != 0:
        shutil.rmtree(home, ignore_errors=True)
        skip('nobody cannot run ' + exe)

    # A process of root's that root can read in full (PID 1 may be a sandbox's, unreadable
    # even to root): the test checks the unlocked app knows its PSS, as the kernel does.
    child = subprocess.Popen([os.environ['PGS_UI_CHILD'], '256'], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    child.stdout.readline()
    app_end, helper_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    helper_proc = subprocess.Popen([helper], stdin=helper_end.fileno(), close_fds=True)
    helper_end.close()
    try:
        for name in os.listdir(home) + ['']:
            os.chown(os.path.join(home, name), NOBODY, -1)
        fd = app_end.detach()
        if fd != 3:
            os.dup2(fd, 3)
            os.close(fd)
        env.update(HOME=home, TMPDIR=home, XDG_RUNTIME_DIR=home, PGS_HELPER_FD='3',
                   PGS_UI_ROOT_PID=str(child.pid))
        status = subprocess.call(as_nobody + ['xvfb-run', '-a', '-s', '-screen 0 1280x800x24',
                                              'dbus-run-session', '--', exe],
                                 env=env, cwd=home, pass_fds=(3,))
        os.close(3)
    finally:
        child.stdin.close()
        child.wait(timeout=30)
        helper_proc.wait(timeout=30)
        shutil.rmtree(home, ignore_errors=True)
    sys.exit(status)


main()
