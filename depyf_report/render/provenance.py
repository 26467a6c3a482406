"""A compiled graph's provenance: which lines became which, from source to kernels.

The mapping is a graph of lines across panes: the user's source, the Dynamo
graph, each post-grad graph and each output module. An edge goes from a line to
a line it became. Every edge is read from the dump, none guessed from names:

- source -> Dynamo node, source -> post-grad node: the node's ``# File:``
  comment, which FX prints from the node's stack trace (a backward node keeps
  the stack trace of the forward line it differentiates);
- Dynamo node -> post-grad node, post-grad node -> kernel: Inductor's node
  mappings (``OutputCode.provenance``);
- source -> kernel: the stack traces Inductor logs for each kernel.

A kernel's lines are its call (below the ``# [Provenance debug handles]``
comment that names it) and, for a kernel the module defines, its definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..dump import CompiledGraph, OutputCode

# "# File: model.py:13 in forward, code: x = a / (torch.abs(a) + 1)"
_FILE = re.compile(r"^\s*# File: (?P<file>.+?):(?P<line>\d{1,9}) in ")
_NO_TRACE = re.compile(r"^\s*# No stacktrace found")
# A node in printed FX code: `abs_1: "f32[10][1]cpu" = torch.abs(l_a_)`.
_NODE = re.compile(r'^ {8}(?P<name>[A-Za-z_]\w*)(?:: "[^"\n]*")? = ')
_ATEN = re.compile(r"torch\.ops\.(?P<op>aten\.\w+)")
_HANDLE = re.compile(r"^\s*# \[Provenance debug handles\] (?P<key>\S+)\s*$")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d{1,9})', re.MULTILINE)
_SORTED_NODES = re.compile(r"^\s*# Topologically Sorted Source Nodes: ")
_DEFINITION = re.compile(r"^(?P<name>\w+) = async_compile\.\w+\(")


@dataclass(frozen=True)
class SourceText:
    """The user's code the source pane shows, numbered as in its file."""

    filename: str
    first_line: int
    text: str

    def holds(self, filename: str, line: int) -> bool:
        last = self.first_line + len(self.text.splitlines())
        return _same_path(filename, self.filename) and self.first_line <= line < last


def _same_path(a: str, b: str) -> bool:
    """The same file, though one name may be relative (a script run as
    ``python examples/toy.py`` names its frames so) and the other absolute."""
    a, b = a.replace("\\", "/"), b.replace("\\", "/")
    a, b = a.removeprefix("./"), b.removeprefix("./")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


@dataclass(frozen=True)
class FxNode:
    name: str
    line: int  # in the printed graph, from 1
    filename: str | None  # the innermost frame of its stack trace, when it has one
    source_line: int | None
    aten: str | None  # the ATen operator a post-grad node calls


@dataclass(frozen=True)
class Pane:
    key: str  # source | dynamo | post_grad_<part> | output_<part>
    label: str
    text: str
    first_line: int = 1
    note: str = ""  # which links this pane lacks, and why


@dataclass(frozen=True)
class KernelCall:
    """One kernel call in an output module, and what it was made from."""

    key: str  # torch's name for it: "cpp_fused_abs_add_0:1", "extern_kernels.mm:2"
    name: str  # as the output code calls it
    part: str
    handle_line: int  # the "# [Provenance debug handles]" comment: the call's line id
    lines: tuple[int, ...]  # all its lines in the output module, definition included
    post_grad_nodes: tuple[str, ...]
    dynamo_nodes: tuple[str, ...]
    aten: tuple[str, ...]
    source_lines: tuple[int, ...]  # of the source pane's file


@dataclass(frozen=True)
class Provenance:
    panes: tuple[Pane, ...]
    edges: tuple[tuple[str, str], ...]  # (line id, id of a line it became); "pane:line"
    kernels: tuple[KernelCall, ...]


_AOT_PANES = {
    "aot_forward": "AOT forward",
    "aot_backward": "AOT backward",
    "aot_inference": "AOT inference",
}


def line_id(pane: str, line: int) -> str:
    return f"{pane}:{line}"


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


def kernel_lines(source: str) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Each kernel key -> (its handle comment's line, all its lines: that comment, the
    call under it, and the definition of the kernel it calls, where there is one)."""
    lines = source.splitlines()
    definitions: dict[str, list[int]] = {}
    current: list[int] | None = None
    for number, line in enumerate(lines, start=1):
        found = _DEFINITION.match(line)
        if found:
            current = definitions.setdefault(found["name"], [])
        if current is not None:
            current.append(number)
            # The kernel's source ends on a line of its own, or on this one.
            if line.startswith("'''") or (found and line.count("'''") > 1):
                current = None
    calls: dict[str, tuple[int, ...]] = {}
    for number, line in enumerate(lines, start=1):
        if found := _HANDLE.match(line):
            key = found["key"]
            call = [number, number + 1] if number < len(lines) else [number]
            if number > 1 and _SORTED_NODES.match(lines[number - 2]):
                call.insert(0, number - 1)
            calls[key] = (number, (*definitions.get(kernel_name(key), ()), *call))
    return calls


def stack_lines(stacks: list[str], source: SourceText) -> tuple[int, ...]:
    """The lines of ``source`` that torch's stack traces pass through."""
    found = {
        int(frame["line"])
        for stack in stacks
        for frame in _FRAME.finditer(stack)
        if source.holds(frame["file"], int(frame["line"]))
    }
    return tuple(sorted(found))


def missing_note(out: OutputCode) -> str:
    """What this output module's panes cannot link, in the user's words; "" for nothing."""
    prov = out.provenance
    if prov is None:
        return (
            "No provenance was recorded for this module (a dump made before schema "
            "version 3, or torch logged none): its kernels are linked to nothing, and "
            "post-grad nodes only to the source lines their # File comments name."
        )
    if not prov.kernel_to_post:
        return (
            "Inductor logged no node-to-kernel mapping for this module (torch 2.13 "
            "logs none for a backward): kernels link to the source lines of their "
            "stack traces, and post-grad nodes to theirs, but not to each other or to "
            "Dynamo nodes."
        )
    return ""


def graph_provenance(graph: CompiledGraph, source: SourceText | None) -> Provenance:
    builder = _Builder(source)
    dynamo = next((s.text for s in graph.stages if s.kind == "dynamo"), None)
    if source is not None:
        builder.panes.append(Pane("source", "Source", source.text, source.first_line))
    if dynamo is not None:
        builder.panes.append(Pane("dynamo", "Dynamo graph", dynamo))
        builder.from_source("dynamo", fx_nodes(dynamo))
    for out in graph.output_code:
        builder.add_output(graph, out, fx_nodes(dynamo or ""))
    if not graph.output_code:  # aot_eager: the AOT graphs are the last the dump holds
        for stage in graph.stages:
            if stage.kind in _AOT_PANES:
                builder.panes.append(Pane(stage.kind, _AOT_PANES[stage.kind], stage.text))
                builder.from_source(stage.kind, fx_nodes(stage.text))
    return Provenance(tuple(builder.panes), tuple(sorted(builder.edges)), tuple(builder.kernels))


class _Builder:
    def __init__(self, source: SourceText | None) -> None:
        self.source = source
        self.panes: list[Pane] = []
        self.edges: set[tuple[str, str]] = set()
        self.kernels: list[KernelCall] = []

    def from_source(self, pane: str, nodes: dict[str, FxNode]) -> None:
        for node in nodes.values():
            if self._holds(node.filename, node.source_line):
                self.edges.add((line_id("source", node.source_line), line_id(pane, node.line)))

    def _holds(self, filename: str | None, line: int | None) -> bool:
        return (
            self.source is not None
            and filename is not None
            and line is not None
            and (self.source.holds(filename, line))
        )

    def add_output(self, graph: CompiledGraph, out: OutputCode, dynamo: dict[str, FxNode]) -> None:
        post_key, out_key = f"post_grad_{out.part}", f"output_{out.part}"
        post_text = next((s.text for s in graph.stages if s.kind == post_key), "")
        post = fx_nodes(post_text)
        note = missing_note(out)
        if post_text:
            self.panes.append(Pane(post_key, f"Post-grad {out.part}", post_text, note=note))
        self.panes.append(Pane(out_key, f"Output code ({out.part})", out.source, note=note))
        self.from_source(post_key, post)
        prov = out.provenance
        if prov is None:
            return
        for pre, posts in prov.pre_to_post.items():
            for name in posts:
                if pre in dynamo and name in post:
                    self.edges.add(
                        (line_id("dynamo", dynamo[pre].line), line_id(post_key, post[name].line))
                    )
        for key, (handle, lines) in kernel_lines(out.source).items():
            self._add_kernel(key, handle, lines, out, post, dynamo)

    def _add_kernel(self, key, handle, lines, out: OutputCode, post, dynamo) -> None:
        prov = out.provenance
        post_key, call = f"post_grad_{out.part}", line_id(f"output_{out.part}", handle)
        made_of = [n for n in prov.kernel_to_post.get(key, []) if n in post]
        for name in made_of:
            self.edges.add((line_id(post_key, post[name].line), call))
        stacks = stack_lines(prov.kernel_stacks.get(key, []), self.source) if self.source else ()
        for number in stacks:
            self.edges.add((line_id("source", number), call))
        # Its source lines: its stack traces', and those of the nodes it runs.
        sources = set(stacks) | {
            post[n].source_line
            for n in made_of
            if self._holds(post[n].filename, post[n].source_line)
        }
        pre = [
            p for p, posts in prov.pre_to_post.items() if p in dynamo and set(posts) & set(made_of)
        ]
        aten = [post[n].aten for n in made_of if post[n].aten]
        self.kernels.append(
            KernelCall(
                key=key,
                name=kernel_name(key),
                part=out.part,
                handle_line=handle,
                lines=lines,
                post_grad_nodes=tuple(made_of),
                dynamo_nodes=tuple(pre),
                aten=tuple(dict.fromkeys(aten)),
                source_lines=tuple(sorted(sources)),
            )
        )
