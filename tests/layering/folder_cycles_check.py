#!/usr/bin/env python3
"""Fails when the folders of a layer include each other in a cycle.

Every folder under kernels/, solver/ and io/ holds one concept; a folder's sources may include
headers of folders below it, never of one that (through others) includes it back. Reads the
`#include "layer/folder/..."` lines of every source and prints each cycle it finds as
`solver: halo -> step -> halo (solver/halo/halo_exchange.hpp includes solver/step/step_program.hpp, ...)`.

usage: folder_cycles_check.py SOURCE_DIR
"""
import pathlib
import re
import sys

LAYERS = ("kernels", "solver", "io")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def folder_graph(source_dir: pathlib.Path, layer: str):
    """{folder: {included folder: first (source, header) that makes the edge}} within `layer`."""
    edges = {}
    for source in sorted((source_dir / layer).rglob("*")):
        if source.suffix not in (".hpp", ".cpp", ".cu", ".cuh") or len(source.relative_to(source_dir).parts) < 3:
            continue
        folder = source.relative_to(source_dir).parts[1]
        edges.setdefault(folder, {})
        for header in INCLUDE.findall(source.read_text()):
            parts = header.split("/")
            if len(parts) >= 3 and parts[0] == layer and parts[1] != folder:
                edges[folder].setdefault(parts[1], (source.relative_to(source_dir), header))
    return edges


def cycles(edges):
    """Strongly connected components of more than one folder (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in edges.get(node, {}):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def main():
    source_dir = pathlib.Path(sys.argv[1])
    failures = 0
    for layer in LAYERS:
        edges = folder_graph(source_dir, layer)
        for component in cycles(edges):
            failures += 1
            members = set(component)
            why = [f"{source} includes {header}" for folder in component
                   for target, (source, header) in sorted(edges[folder].items()) if target in members]
            print(f"{layer}: folders {' <-> '.join(component)} include each other ({'; '.join(why)})")
        print(f"{layer}: {len(edges)} folders, {sum(len(e) for e in edges.values())} edges between them")
    if failures:
        print(f"FAIL: {failures} cycle(s) between folders")
        return 1
    print("ok: no folder of a layer includes one that includes it back")
    return 0


if __name__ == "__main__":
    sys.exit(main())
