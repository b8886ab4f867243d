#!/usr/bin/env python3
# check-calls.py: files of src/ that call each other both ways
#
# Copyright 2026 The Pagescope developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Files that call each other in a circle are one object in disguise (issue 17). This finds
# every pair of files A, B where a function of A reaches one of B and one of B reaches one
# of A, without ctags or a compiler: comments and strings are blanked, then
#   - a definition is a name followed by a parameter list and '{' at file scope; static
#     ones are private to their file, others (and static inline ones in headers) are
#     reachable from any file;
#   - A reaches B when code in A (inside braces: function bodies, tables) names a function
#     defined in B and not in A, as a call or as a pointer;
#   - a pointer handed over reaches back: when A passes one of its own functions as an
#     argument to a function of B, B reaches A. Except when B's function is an `_async`
#     one: its callbacks (the GAsyncReadyCallback, and a worker or progress function of
#     that one operation) are GIO's way for an operation to run the asker's code for the
#     asker, under its cancellable, and to be done with it when the result is handed over.
#     B keeps nothing of A afterwards and never calls A on its own: the standard GTask
#     pattern, not a lower file reaching up. A callback kept beyond one operation (a
#     `_set_…_func`, a done-function of a plain call) still counts;
#   - a signal emitted by name reaches its class: g_signal_emit_by_name (…, "x") in A
#     reaches the file whose g_signal_new ("x", …) defines it.
# A class's own signals, emitted by id and connected to by the files that use the class,
# are how a lower object tells a higher one without knowing it: not a call.
#
# Usage: check-calls.py [--list] [--known FILE] [SRC_DIR]
# Exits 1 when a pair is found that FILE (lines "a <-> b", # comments) does not list: the
# unit test holds the pairs still to be undone there, so that no new one creeps in.

import os
import re
import sys
from collections import defaultdict

IDENT = re.compile(r'[A-Za-z_]\w*')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else', 'case',
            'defined', 'G_STATIC_ASSERT', '_Static_assert', '__attribute__', 'typeof'}


def blank(text):
    """Comments, strings and preprocessor lines replaced by spaces (newlines kept).
    String contents are kept aside for the signal names."""
    out = []
    strings = []   # (offset, text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == '#':
            # a preprocessor line, with its continuations
            j = i
            while j < n and text[j] != '\n':
                if text[j] == '\\' and j + 1 < n and text[j + 1] == '\n':
                    j += 2
                    continue
                j += 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c in ' \t':
            out.append(c)
            i += 1
            continue
        line_start = c == '\n'
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            if c == '"':
                strings.append((i, text[i + 1:j - 1]))
            out.append(c + ' ' * (j - i - 2) + c if j - i >= 2 else ' ' * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out), strings


def matching(code, i, open_c, close_c):
    depth = 0
    for j in range(i, len(code)):
        if code[j] == open_c:
            depth += 1
        elif code[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


class Unit:
    def __init__(self, path, rel):
        self.rel = rel
        with open(path, encoding='utf-8', errors='replace') as f:
            self.text = f.read()
        self.code, self.strings = blank(self.text)
        self.header = rel.endswith('.h')
        self.defs = {}          # name -> static?
        self.bodies = []        # (start, end) of code that runs
        self.find_definitions()

    def find_definitions(self):
        code = self.code
        depth = 0
        i = 0
        n = len(code)
        while i < n:
            c = code[i]
            if c == '{':
                # a table or struct at file scope: its initialisers count as code
                end = matching(code, i, '{', '}')
                if not self.header:
                    self.bodies.append((i, end))
                i = end + 1
                continue
            m = IDENT.match(code, i)
            if m and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] == '_')):
                name = m.group(0)
                j = m.end()
                while j < n and code[j] in ' \t\n':
                    j += 1
                if j < n and code[j] == '(' and name not in KEYWORDS:
                    close = matching(code, j, '(', ')')
                    k = close + 1
                    # attributes such as G_GNUC_UNUSED between ) and {
                    while True:
                        while k < n and code[k] in ' \t\n':
                            k += 1
                        a = IDENT.match(code, k)
                        if a and a.group(0).isupper() or (a and a.group(0).startswith('G_GNUC')):
                            k = a.end()
                            if k < n and code[k] == '(':
                                k = matching(code, k, '(', ')') + 1
                            continue
                        break
                    if k < n and code[k] == '{':
                        end = matching(code, k, '{', '}')
                        start = code.rfind(';', 0, i)
                        start = max(start, code.rfind('}', 0, i))
                        prefix = code[start + 1:i]
                        is_static = re.search(r'\bstatic\b', prefix) is not None
                        inline = re.search(r'\binline\b', prefix) is not None
                        if not self.header or (is_static and inline):
                            # a static inline in a header is every includer's
                            self.defs[name] = is_static and not self.header
                            self.bodies.append((k, end))
                        i = end + 1
                        continue
                    i = close + 1
                    continue
                i = m.end()
                continue
            i += 1

    def references(self):
        """(name, offset, is_call) for every identifier in code that runs."""
        for start, end in self.bodies:
            for m in IDENT.finditer(self.code, start, end + 1):
                if m.start() > 0 and (self.code[m.start() - 1].isalnum() or
                                      self.code[m.start() - 1] in '_.' or
                                      self.code[m.start() - 2:m.start()] == '->'):
                    continue
                j = m.end()
                while j < len(self.code) and self.code[j] in ' \t\n':
                    j += 1
                yield m.group(0), m.start(), j < len(self.code) and self.code[j] == '('


def enclosing_call(code, offset, lo):
    """The name of the innermost call whose argument list holds @offset."""
    depth = 0
    for i in range(offset - 1, lo - 1, -1):
        c = code[i]
        if c == ')':
            depth += 1
        elif c == '(':
            if depth == 0:
                j = i - 1
                while j >= lo and code[j] in ' \t\n':
                    j -= 1
                e = j + 1
                while j >= lo and (code[j].isalnum() or code[j] == '_'):
                    j -= 1
                name = code[j + 1:e]
                if name in ('G_CALLBACK', 'G_SOURCE_FUNC', 'GTK_CALLBACK') or not name:
                    continue   # a cast-like macro: look further out
                return name
            depth -= 1
        elif c in '{;':
            return None
    return None


def analyse(src):
    units = []
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                path = os.path.join(root, f)
                units.append(Unit(path, os.path.relpath(path, os.path.dirname(src.rstrip('/')))))

    public = defaultdict(set)   # name -> files defining it non-statically
    for u in units:
        for name, is_static in u.defs.items():
            if not is_static:
                public[name].add(u.rel)

    signals = defaultdict(set)
    for u in units:
        for m in re.finditer(r'\bg_signal_new\s*\(\s*"', u.code):
            for off, s in u.strings:
                if off == m.end() - 1:
                    signals[s].add(u.rel)

    edges = defaultdict(list)   # (a, b) -> reasons
    for u in units:
        for name, off, is_call in u.references():
            if name in u.defs:
                # one of u's own functions handed to another file's function: that file
                # calls back
                if not is_call and not u.defs.get(name) is None:
                    lo = max([s for s, e in u.bodies if s <= off] or [0])
                    callee = enclosing_call(u.code, off, lo)
                    if callee is None or callee.endswith('_async'):
                        continue
                    for target in public.get(callee, ()):
                        if target != u.rel:
                            edges[(target, u.rel)].append(f'{callee} gets {name}')
                continue
            for target in public.get(name, ()):
                if target != u.rel:
                    edges[(u.rel, target)].append(name)
        for m in re.finditer(r'\bg_signal_emit_by_name\s*\(', u.code):
            end = matching(u.code, m.end() - 1, '(', ')')
            for off, s in u.strings:
                if m.end() <= off < end:
                    for target in signals.get(s, ()):
                        if target != u.rel:
                            edges[(u.rel, target)].append(f'emits "{s}"')
                    break
    pairs = []
    for (a, b), why in sorted(edges.items()):
        if a < b and (b, a) in edges:
            pairs.append((a, b, sorted(set(why)), sorted(set(edges[(b, a)]))))
    return units, edges, pairs


def main(argv):
    listing = '--list' in argv
    known = set()
    if '--known' in argv:
        path = argv[argv.index('--known') + 1]
        argv = argv[:argv.index('--known')] + argv[argv.index('--known') + 2:]
        with open(path, encoding='utf-8') as f:
            known = {tuple(line.split('#')[0].split(' <-> '))
                     for line in f if ' <-> ' in line.split('#')[0]}
            known = {(a.strip(), b.strip()) for a, b in known}
    args = [a for a in argv[1:] if not a.startswith('--')]
    src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            '..', 'src')
    src = os.path.normpath(src)
    units, edges, pairs = analyse(src)
    new = 0
    for a, b, ab, ba in pairs:
        listed = (a, b) in known
        new += not listed
        print(f'{a} <-> {b}{"   (known)" if listed else ""}')
        if listing:
            print(f'    {a} -> {b}: {", ".join(ab[:6])}{" …" if len(ab) > 6 else ""}')
            print(f'    {b} -> {a}: {", ".join(ba[:6])}{" …" if len(ba) > 6 else ""}')
    found = {(a, b) for a, b, _, _ in pairs}
    for a, b in sorted(known - found):
        print(f'{a} <-> {b}: undone, take it off the known list')
    print(f'{len(pairs)} two-way pairs among {len(units)} files ({new} not known), '
          f'{len(edges)} one-way edges')
    return 1 if new else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
