#!/usr/bin/env python3
# test-helper-polkit.py HELPER POLICY: pagescope-helper under the real pkexec and pkcheck
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# In a private mount namespace (nothing of the machine changes) this test starts a system
# bus and polkitd of its own, with the helper's policy installed and a rule that lets
# nobody start the helper and answers the change action YES or NO; then nobody, as the app
# would, makes a socket pair and runs `pkexec HELPER`. Checked: the helper's parent under
# pkexec is nobody's process (pkexec runs the helper in its own process), so the helper
# serves it; nobody's own process gets a writable clear_refs unasked, root's only when
# polkit (asked by the helper through pkcheck) says yes; a command that forks the helper
# (`sh -c 'pkexec HELPER; exit $?'`) is refused. The helper and the client script are
# copied where nobody can reach them. Skips (77) unless root with unshare, setpriv,
# dbus-daemon, polkitd, pkexec and pkcheck.

import json
import os
import shutil
import subprocess
import sys
import tempfile

NOBODY = 65534
POLKITD = ['/usr/lib/polkit-1/polkitd', '/usr/libexec/polkitd', '/usr/lib/polkit/polkitd']

CLIENT = r'''
import json, os, socket, subprocess, sys, time
helper, root_pid, fork = sys.argv[1], int(sys.argv[2]), sys.argv[3] == 'fork'
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
argv = ['sh', '-c', 'pkexec "$0"; exit $?', helper] if fork else ['pkexec', helper]
p = subprocess.Popen(argv, stdin=b.fileno())
b.close()
out = {'me': os.getpid(), 'greeting': a.recv(256).decode()}
if out['greeting'].startswith('PAGESCOPE'):
    stat = open('/proc/%d/stat' % p.pid).read()
    out['helper_parent'] = int(stat.rsplit(')', 1)[1].split()[1])
    for name, req in (('own', 'OPEN %d clear_refs\n' % os.getpid()),
                      ('root', 'OPEN %d clear_refs\n' % root_pid),
                      ('read', 'OPEN %d pagemap\n' % root_pid)):
        a.send(req.encode())
        msg, anc, flags, addr = a.recvmsg(256, socket.CMSG_SPACE(4))
        for level, kind, data in anc:
            os.close(int.from_bytes(data[:4], sys.byteorder))
        out[name] = [msg.decode(), len(anc)]
a.close()
out['status'] = p.wait(timeout=30)
print(json.dumps(out))
'''

# Runs in the namespace: $1 the folder, $2 YES or NO for the change action, $3 fork or not.
INNER = r'''
set -eu
dir=$1
mount -t tmpfs tmpfs /run
mkdir -p /run/dbus
mount -t tmpfs tmpfs /etc/polkit-1/rules.d
mount --bind "$dir/actions" /usr/share/polkit-1/actions
cat > /etc/polkit-1/rules.d/10-pagescope-test.rules <<RULES
polkit.addRule(function(action, subject) {
  if (subject.user == "nobody" && action.id == "io.github.pagescope.Pagescope.helper")
    return polkit.Result.YES;
  if (subject.user == "nobody" && action.id == "io.github.pagescope.Pagescope.change")
    return polkit.Result.$2;
});
RULES
bus=$(dbus-daemon --system --fork --nopidfile --print-pid)
"$POLKITD" --no-debug >"$dir/polkitd.log" 2>&1 &
polkitd=$!
sleep 600 &
root=$!
trap 'kill $root $polkitd $bus 2>/dev/null || true' EXIT
# polkitd is up when it owns its name on the bus.
for i in $(seq 100); do
  dbus-send --system --print-reply --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.GetNameOwner string:org.freedesktop.PolicyKit1 >/dev/null 2>&1 && break
  sleep 0.1
done
setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 "$dir/client.py" \
  "$dir/pagescope-helper" $root $3
'''

tap = []


def check(name, ok, detail=''):
    tap.append(('ok' if ok else 'not ok') + ' %d %s' % (len(tap) + 1, name)
               + ('' if ok else ' # ' + detail))


def skip(why):
    print('1..0 # SKIP ' + why)
    sys.exit(0)


def run(folder, change, fork):
    r = subprocess.run(['unshare', '-m', '--propagation', 'private', 'sh', '-c', INNER, 'inner',
                        folder, change, 'fork' if fork else 'exec'],
                       env=dict(os.environ, POLKITD=polkitd), capture_output=True, text=True,
                       timeout=90)
    sys.stderr.write(r.stderr)
    for line in r.stdout.splitlines():
        print('# ' + line)
    try:
        return json.loads(r.stdout.splitlines()[-1])
    except (IndexError, ValueError):
        return None


helper, policy = sys.argv[1], sys.argv[2]
if os.geteuid() != 0:
    skip('not root')
for tool in ('unshare', 'setpriv', 'dbus-daemon', 'dbus-send', 'pkexec', 'pkcheck'):
    if shutil.which(tool) is None:
        skip(tool + ' is missing')
polkitd = next((p for p in POLKITD if os.access(p, os.X_OK)), None)
if polkitd is None:
    skip('polkitd is missing')
if not os.path.isdir('/etc/polkit-1/rules.d') or not os.path.isdir('/usr/share/polkit-1/actions'):
    skip('no /etc/polkit-1/rules.d or /usr/share/polkit-1/actions to mount over')
if subprocess.call(['unshare', '-m', 'true'], stderr=subprocess.DEVNULL) != 0:
    skip('cannot make a mount namespace here')

folder = tempfile.mkdtemp(prefix='pagescope-test-%d-polkit-' % os.getpid(), dir='/tmp')
try:
    os.chmod(folder, 0o755)
    shutil.copy(helper, os.path.join(folder, 'pagescope-helper'))
    os.chmod(os.path.join(folder, 'pagescope-helper'), 0o755)
    with open(os.path.join(folder, 'client.py'), 'w') as f:
        f.write(CLIENT)
    os.chmod(os.path.join(folder, 'client.py'), 0o644)
    shutil.copytree('/usr/share/polkit-1/actions', os.path.join(folder, 'actions'))
    with open(policy) as f:
        text = f.read()
    # The policy names the installed helper: name the copy instead, for pkexec.
    start = text.index('exec.path">') + len('exec.path">')
    text = text[:start] + os.path.join(folder, 'pagescope-helper') + text[text.index('<', start):]
    with open(os.path.join(folder, 'actions', os.path.basename(policy)), 'w') as f:
        f.write(text)
    if subprocess.call(['setpriv', '--reuid=%d' % NOBODY, '--regid=%d' % NOBODY,
                        '--clear-groups', 'test', '-x', os.path.join(folder, 'pagescope-helper')]) != 0:
        skip('nobody cannot reach ' + folder)

    refused = ("ERR 13 not authorised to change another user's process "
               "(polkit action io.github.pagescope.Pagescope.change)\n")
    for change in ('NO', 'YES'):
        out = run(folder, change, False)
        check('pkexec started the helper (change %s)' % change,
              out is not None and out['greeting'] == 'PAGESCOPE-HELPER 1\n', repr(out))
        if out is None or 'helper_parent' not in out:
            continue
        check('the helper\'s parent under pkexec is the app', out['helper_parent'] == out['me'],
              repr(out))
        check('own clear_refs unasked', out['own'] == ['OK\n', 1], repr(out['own']))
        check('reading root\'s pagemap', out['read'] == ['OK\n', 1], repr(out['read']))
        expected = ['OK\n', 1] if change == 'YES' else [refused, 0]
        check('root\'s clear_refs when polkit says %s' % change, out['root'] == expected,
              repr(out['root']))
        check('status 0 on hang-up', out['status'] == 0, repr(out['status']))

    out = run(folder, 'NO', True)
    check('a helper forked by a shell under pkexec is refused',
          out is not None
          and out['greeting'] == 'ERR 1 the helper serves only the process that started it\n'
          and out['status'] == 2, repr(out))
finally:
    shutil.rmtree(folder, ignore_errors=True)

print('1..%d' % len(tap))
for line in tap:
    print(line)
