"""The user functions a graph's nodes come from, with their source text.

A node's stack trace names its innermost user frame (``# File: f.py:20 in
forward``), often a submodule's ``forward`` and not the compiled function. Render
never reads the user's files, so capture stores the source of each such
function in the graph's record while the files are at hand.
"""

from __future__ import annotations

import ast
import linecache
import re
from collections.abc import Iterable

from ..dump import CompiledGraph, SourceRegion
from ..origin import Origin, origin_of

# "# File: /src/model.py:20 in forward, code: h = torch.relu(self.up(x))"
_FILE_COMMENT = re.compile(r"^\s*# File: (?P<file>.+?):(?P<line>\d{1,9}) in (?P<name>[^,\n]+)")
# '  File "/src/model.py", line 20, in forward' (a kernel's stack trace)
_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d{1,9}), in (?P<name>.+)$')
_SKIPPED = (Origin.TORCH, Origin.STDLIB)


def frames_named(graph: CompiledGraph) -> list[tuple[str, int, str]]:
    """(file, line, function name) of every frame the graph's stages and kernel
    stack traces name, in the order first named."""
    found: dict[tuple[str, int, str], None] = {}
    texts = [s.text for s in graph.stages]
    for out in graph.output_code:
        if out.provenance is not None:
            texts += [t for stacks in out.provenance.kernel_stacks.values() for t in stacks]
    for text in texts:
        for line in text.splitlines():
            match = _FILE_COMMENT.match(line) or _FRAME.match(line)
            if match:
                found[(match["file"], int(match["line"]), match["name"].strip())] = None
    return list(found)


class SourceReader:
    """Finds the function around a line, reading and parsing each file once."""

    def __init__(self) -> None:
        self._functions: dict[str, list[tuple[int, int, str, str]]] = {}

    def regions(
        self, frames: Iterable[tuple[str, int, str]], skip: tuple[str, int, int] | None
    ) -> list[SourceRegion]:
        """One region per user function the frames are in; ``skip`` is the compiled
        function's (file, first line, last line), which its own record holds."""
        regions: dict[tuple[str, int], SourceRegion] = {}
        for filename, line, name in frames:
            if origin_of(filename) in _SKIPPED:
                continue
            if skip and filename == skip[0] and skip[1] <= line <= skip[2]:
                continue
            if any(_covers(r, filename, line) for r in regions.values()):
                continue
            region = self.region(filename, line, name)
            if region is not None:
                regions[(filename, region.first_line)] = region
        return sorted(regions.values(), key=lambda r: (r.filename, r.first_line))

    def region(self, filename: str, line: int, name: str) -> SourceRegion | None:
        lines = linecache.getlines(filename)
        if not lines or not 0 < line <= len(lines):
            return None
        # The innermost definition around the line that has the frame's name.
        around = [f for f in self._defs(filename, lines) if f[0] <= line <= f[1] and f[3] == name]
        if around:
            first, last, qualname, _ = max(around, key=lambda f: f[0])
        else:  # module-level code, a lambda, or a file that no longer parses
            first, last, qualname = line, line, name
        return SourceRegion(filename, qualname, first, "".join(lines[first - 1 : last]))

    def _defs(self, filename: str, lines: list[str]) -> list[tuple[int, int, str, str]]:
        if filename not in self._functions:
            try:
                tree = ast.parse("".join(lines))
            except (SyntaxError, ValueError, RecursionError):
                tree = ast.Module(body=[], type_ignores=[])
            self._functions[filename] = list(_definitions(tree, ""))
        return self._functions[filename]


def _definitions(node: ast.AST, prefix: str):
    """(first line, last line, qualname, name) of each def, decorators included."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            qualname = f"{prefix}{child.name}"
            if not isinstance(child, ast.ClassDef):
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                yield first, child.end_lineno or child.lineno, qualname, child.name
                yield from _definitions(child, f"{qualname}.<locals>.")
            else:
                yield from _definitions(child, f"{qualname}.")
        else:
            yield from _definitions(child, prefix)


def _covers(region: SourceRegion, filename: str, line: int) -> bool:
    last = region.first_line + len(region.text.splitlines())
    return region.filename == filename and region.first_line <= line < last
