#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The include and call graph of kernel/ or user/: calls run one way.

Nodes are the tree's .c and .h files. Edges: a file including one of ours;
a .c file naming a function or object another .c file defines (not
static); a header's static inline naming one. kernel/README (Structure)
and user/README say which way calls run; this finds any file that calls
back into one that calls it; with --folders, also any folder that does
(a file at the top, main's, counts as a folder of its own). Prints each
loop; exit 1 if there is one.
  tests/call_graph.py kernel|user [--folders] [--edges]
"""
import collections
import glob
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
TREE = os.path.join(ROOT, next((a for a in sys.argv[1:] if not a.startswith('-')), 'kernel'))
DEF_FN = re.compile(r'^(?!static)[a-z_][\w \*]*?\b([a-z_]\w*)\s*\([^;{]*\)\s*\{', re.M)
DEF_OBJ = re.compile(r'^(?!static|extern)(?:const )?(?:struct \w+|[a-z_]\w*) \**([a-z_]\w*)'
                     r'(?:\[[^\]]*\])?(?: __\w+)?\s*(?:=|;)', re.M)
INLINE = re.compile(r'static inline[^;{]*\{(.*?)^\}', re.M | re.S)
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def rel(path):
    return os.path.relpath(path, TREE)


def resolve(src, name):
    for base in (os.path.dirname(src), TREE):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    return None


def graph():
    files = sorted(glob.glob(os.path.join(TREE, '**', '*.[ch]'), recursive=True))
    text = {f: COMMENT.sub('', open(f).read()) for f in files}
    defined = {}
    for f in files:
        if f.endswith('.c'):
            for rx in (DEF_FN, DEF_OBJ):
                for m in rx.finditer(text[f]):
                    defined.setdefault(m.group(1), f)
    edges = collections.defaultdict(set)
    for f in files:
        for m in re.finditer(r'#include "([^"]+)"', text[f]):
            dest = resolve(f, m.group(1))
            if dest and dest != f:
                edges[f].add((dest, 'includes'))
        body = text[f] if f.endswith('.c') else ' '.join(INLINE.findall(text[f]))
        for word in set(re.findall(r'\b[a-z_]\w*\b', body)):
            dest = defined.get(word)
            if dest and dest != f:
                edges[f].add((dest, word))
    return files, edges


def folder(path):
    """A file's folder below the tree, or the file itself at the top."""
    return rel(path).split(os.sep)[0]


def folders(files, edges):
    """The graph between folders: an edge for every file edge that crosses."""
    fedges = collections.defaultdict(set)
    for f in files:
        for dest, why in edges[f]:
            if folder(dest) != folder(f):
                fedges[folder(f)].add((folder(dest), f'{rel(f)} -> {rel(dest)} ({why})'))
    return sorted({folder(f) for f in files}), fedges


def loops(files, edges):
    index, low, stack, on, found = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w, _ in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))
    for v in files:
        if v not in index:
            visit(v)
    return found


def main():
    files, edges = graph()
    if '--edges' in sys.argv:
        for f in files:
            for dest, why in sorted(edges[f]):
                print(f'{rel(f)} -> {rel(dest)} ({why})')
    found = loops(files, edges)
    for comp in found:
        inside = set(comp)
        print('loop: ' + '; '.join(f'{rel(f)} -> {rel(d)} ({w})' for f in comp
                                   for d, w in sorted(edges[f]) if d in inside))
    dirs, fedges = folders(files, edges)
    dir_found = loops(dirs, fedges) if '--folders' in sys.argv else []
    for comp in dir_found:
        inside = set(comp)
        # One file edge per pair of folders names where the loop is.
        print('folder loop: ' + '; '.join(min(w for d2, w in fedges[d] if d2 == d3)
                                          for d in comp for d3 in sorted({x for x, _ in fedges[d]} & inside)))
    print(f'{len(files)} files, {sum(len(e) for e in edges.values())} edges, {len(found)} loops'
          + (f'; {len(dirs)} folders, {len(dir_found)} loops between folders' if '--folders' in sys.argv else ''))
    return 1 if found or dir_found else 0


if __name__ == '__main__':
    sys.exit(main())
