"""Reading what torch prints: FX graph nodes, kernel calls and their comments, stack
frames. The provenance mapping (``provenance.py``) is built from these."""

from __future__ import annotations

import re
from dataclasses import dataclass

# "# File: model.py:13 in forward, code: x = a / (torch.abs(a) + 1)"
_FILE = re.compile(r"^\s*# File: (?P<file>.+?):(?P<line>\d{1,9}) in ")
_NO_TRACE = re.compile(r"^\s*# No stacktrace found")
# A node in printed FX code: `abs_1: "f32[10][1]cpu" = torch.abs(l_a_)`.
_NODE = re.compile(r'^ {8}(?P<name>[A-Za-z_]\w*)(?:: "[^"\n]*")? = ')
_ATEN = re.compile(r"torch\.ops\.(?P<op>aten\.\w+)")
_HANDLE = re.compile(r"^\s*# \[Provenance debug handles\] (?P<key>\S+)\s*$")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d{1,9})', re.MULTILINE)
# "# Topologically Sorted Source Nodes: [abs_1, x], Original ATen: [aten.abs, aten.div]"
# ("Unsorted" when the nodes span several graphs).
_NOTE = re.compile(
    r"^\s*# (?:Topologically Sorted|Unsorted) Source Nodes: \[(?P<nodes>[^\]\n]*)\]"
    r"(?:, Original ATen: \[(?P<aten>[^\]\n]*)\])?"
)
_DEFINITION = re.compile(r"^(?P<name>\w+) = async_compile\.\w+\(")
# Lines Inductor writes between a kernel's comments and the call itself.
_BETWEEN = re.compile(r"^\s*(?:# |stream\d* = get_raw_stream\(|$)")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_CALL_SEARCH = 4  # how far below its handle comment a call may be


@dataclass(frozen=True)
class FxNode:
    name: str
    line: int  # in the printed graph, from 1
    filename: str | None  # the innermost frame of its stack trace, when it has one
    source_line: int | None
    aten: str | None  # the ATen operator a post-grad node calls


@dataclass(frozen=True)
class KernelNote:
    """What Inductor's comment above a kernel says it was made of."""

    source_nodes: tuple[str, ...]  # torch's "Source Nodes": the first node each came from
    aten: tuple[str, ...]


def fx_nodes(text: str) -> dict[str, FxNode]:
    """The nodes of a printed FX graph's ``forward``, each with its ``# File:`` line."""
    nodes: dict[str, FxNode] = {}
    where: tuple[str | None, int | None] = (None, None)
    for number, line in enumerate(text.splitlines(), start=1):
        if found := _FILE.match(line):
            where = (found["file"], int(found["line"]))
        elif _NO_TRACE.match(line):
            where = (None, None)
        elif (node := _NODE.match(line)) and node["name"] not in nodes:
            aten = _ATEN.search(line)
            nodes[node["name"]] = FxNode(node["name"], number, *where, aten["op"] if aten else None)
    return nodes


def kernel_name(key: str) -> str:
    """``cpp_fused_abs_add_0:1`` -> ``cpp_fused_abs_add_0``."""
    return key.rsplit(":", 1)[0] if re.search(r":\d+$", key) else key


def _definitions(lines: list[str]) -> dict[str, list[int]]:
    """Each kernel the module defines -> its lines: the comments over it (Triton's
    ``# kernel path:`` and Source Nodes), ``name = async_compile...``, and its source
    to the line that closes it."""
    definitions: dict[str, list[int]] = {}
    current: list[int] | None = None
    for number, line in enumerate(lines, start=1):
        found = _DEFINITION.match(line)
        if found:
            current = definitions.setdefault(found["name"], [])
            above = number - 1
            while above >= 1 and lines[above - 1].startswith("#"):
                above -= 1
            current.extend(range(above + 1, number))
        if current is not None:
            current.append(number)
            # The kernel's source ends on a line of its own, or on this one.
            if line.startswith("'''") or (found and line.count("'''") > 1):
                current = None
    return definitions


def kernel_lines(source: str) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Each kernel key -> (its handle comment's line, all its lines: the comment, the
    Source Nodes comment above it, the call under it, and the definition of the
    kernel it calls, where there is one)."""
    lines = source.splitlines()
    definitions = _definitions(lines)
    calls: dict[str, tuple[int, ...]] = {}
    for number, line in enumerate(lines, start=1):
        if found := _HANDLE.match(line):
            key = found["key"]
            call = [number]
            if number > 1 and _NOTE.match(lines[number - 2]):
                call.insert(0, number - 1)
            call += _call_line(lines, number, kernel_name(key))
            calls[key] = (number, (*definitions.get(kernel_name(key), ()), *call))
    return calls


def _call_line(lines: list[str], handle: int, name: str) -> list[int]:
    """The call under a handle comment: the next line, or for Triton, the launch a
    ``stream0 = get_raw_stream(0)`` line may stand between."""
    for number in range(handle + 1, min(handle + _CALL_SEARCH, len(lines)) + 1):
        text = lines[number - 1]
        if name in _names_in(text):
            return [number]
        if not _BETWEEN.match(text):
            break
    return [handle + 1] if handle < len(lines) else []


def _names_in(text: str) -> set[str]:
    """Every name a line uses, dotted ones with their prefixes: ``k.run(x)`` ->
    {"k", "k.run", "x"}."""
    names = set()
    for dotted in _DOTTED.findall(text):
        parts = dotted.split(".")
        names.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    return names


def kernel_notes(source: str) -> dict[str, KernelNote]:
    """Inductor's comment for each kernel call (by key) and each kernel definition
    (by name): the comment above the handle, or the one above the definition."""
    lines = source.splitlines()
    notes: dict[str, KernelNote] = {}
    for number, line in enumerate(lines, start=1):
        handle, definition = _HANDLE.match(line), _DEFINITION.match(line)
        name = handle["key"] if handle else definition["name"] if definition else None
        if name is None:
            continue
        above = number - 1  # walk up the comment block over it
        while above >= 1 and lines[above - 1].lstrip().startswith("#"):
            if note := _NOTE.match(lines[above - 1]):
                notes[name] = KernelNote(_listed(note["nodes"]), _listed(note["aten"] or ""))
                break
            above -= 1
    return notes


def _listed(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


def stack_frames(stack: str) -> list[tuple[str, int]]:
    """(file, line) of each frame of a stack trace, outermost first."""
    return [(f["file"], int(f["line"])) for f in _FRAME.finditer(stack)]
