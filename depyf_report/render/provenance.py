"""A compiled graph's provenance: which lines became which, from source to kernels.

The mapping is a graph of lines across panes: the user's source (the compiled
function, then each other function the graph's nodes come from, as capture
stored them), the Dynamo graph, each post-grad graph (or, under aot_eager, each
AOT graph) and each output module. An edge goes from a line to a line it
became. Every edge is read from the dump, none guessed from names:

- source -> a graph node: the node's ``# File:`` comment, which FX prints from
  the innermost user frame of the node's stack trace (a backward node keeps the
  stack trace of the forward line it differentiates);
- Dynamo node -> post-grad node, post-grad node -> kernel: Inductor's node
  mappings (``OutputCode.provenance``). Where torch logged none (a backward on
  torch 2.13, an AOT graph), a Dynamo node links to the nodes whose stack traces
  name its source line, and a kernel to the post-grad nodes its
  ``# Topologically Sorted Source Nodes`` comment names; the panes say so;
- source -> kernel: the innermost user frame of each stack trace Inductor logs
  for a kernel; the frames further out are the lines that called it.

A kernel's lines are its call (below the ``# [Provenance debug handles]``
comment that names it) and, for a kernel the module defines, its definition.
"""

from __future__ import annotations

import functools
import itertools
import posixpath
from dataclasses import dataclass

from ..dump import CompiledGraph, OutputCode
from .provenance_text import (
    FxNode,
    KernelNote,
    fx_nodes,
    kernel_lines,
    kernel_name,
    kernel_notes,
    stack_frames,
)

__all__ = ["FxNode", "fx_nodes", "kernel_lines", "kernel_name"]


@dataclass(frozen=True)
class SourceText:
    """User code the source pane shows, numbered as in its file: the compiled
    function (key ``source``) or another function its nodes come from."""

    filename: str
    first_line: int
    text: str
    key: str = "source"
    qualname: str = ""

    def holds(self, filename: str, line: int) -> bool:
        return self.first_line <= line < self.end and _same_path(filename, self.filename)

    @functools.cached_property
    def end(self) -> int:
        """The line after its last."""
        return self.first_line + len(self.text.splitlines())

    @property
    def label(self) -> str:
        """``modeling_llama.py:LlamaAttention.forward``"""
        name = posixpath.basename(self.filename.replace("\\", "/"))
        return f"{name}:{self.qualname}" if self.qualname else name


def _same_path(a: str, b: str) -> bool:
    """The same file, though one name may be relative (a script run as
    ``python examples/toy.py`` names its frames so) and the other absolute."""
    a, b = a.replace("\\", "/"), b.replace("\\", "/")
    a, b = a.removeprefix("./"), b.removeprefix("./")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


@dataclass(frozen=True)
class Region:
    """A stretch of numbered lines in a pane; line ids are ``key:line``."""

    key: str
    label: str  # a source function's name; "" in a graph or output pane
    text: str
    first_line: int = 1


@dataclass(frozen=True)
class Pane:
    key: str  # source | dynamo | aot_<part> | post_grad_<part> | output_<part>
    label: str
    regions: tuple[Region, ...]
    note: str = ""  # which links this pane lacks, and why


def single_pane(key: str, label: str, text: str, note: str = "") -> Pane:
    return Pane(key, label, (Region(key, "", text),), note)


Spot = tuple[str, int]  # (region key, line)


@dataclass(frozen=True)
class KernelCall:
    """One kernel call in an output module, and what it was made from."""

    key: str  # torch's name for it: "cpp_fused_abs_add_0:1", "extern_kernels.mm:2"
    name: str  # as the output code calls it
    part: str
    handle_line: int  # the "# [Provenance debug handles]" comment: the call's line id
    lines: tuple[int, ...]  # all its lines in the output module, definition included
    post_grad_nodes: tuple[str, ...]
    dynamo_nodes: tuple[str, ...]  # torch's "source nodes"
    aten: tuple[str, ...]
    sources: tuple[Spot, ...]  # the innermost user lines it was made from
    callers: tuple[Spot, ...] = ()  # user lines further out on its stack traces

    @property
    def source_lines(self) -> tuple[int, ...]:
        """Its lines in the compiled function itself."""
        return tuple(line for key, line in self.sources if key == "source")


# The pane key of a hub: a point no page shows that stands for one source line linked
# by line, so that its N Dynamo nodes and M nodes of another graph cost N + M edges
# (the Dynamo nodes -> the hub -> the other nodes), not N * M.
HUB = "~"


@dataclass(frozen=True)
class Provenance:
    panes: tuple[Pane, ...]
    edges: tuple[tuple[str, str], ...]  # (line id, id of a line it became); "pane:line"
    kernels: tuple[KernelCall, ...]

    def pairs(self) -> set[tuple[str, str]]:
        """Every (line, line it became) the edges say, a hub's ins joined to its outs."""
        into: dict[str, list[str]] = {}
        out: dict[str, list[str]] = {}
        pairs = set()
        for a, b in self.edges:
            if is_hub(b):
                into.setdefault(b, []).append(a)
            elif is_hub(a):
                out.setdefault(a, []).append(b)
            else:
                pairs.add((a, b))
        for hub, starts in into.items():
            pairs.update((a, b) for a in starts for b in out.get(hub, ()))
        return pairs


def is_hub(line: str) -> bool:
    return line.startswith(HUB + ":")


_AOT_PANES = {
    "aot_forward": "AOT forward",
    "aot_backward": "AOT backward",
    "aot_inference": "AOT inference",
}
BY_LINE_NOTE = (
    "torch records no map from Dynamo nodes to these nodes: each is linked to the "
    "Dynamo nodes of the source line its stack trace names (for a backward node, the "
    "forward line it differentiates), all of that line's nodes to all of them."
)
# torch 2.14 prints a backward graph without stack traces: nothing is left to link by.
NO_TRACE_NOTE = (
    "torch records no map from Dynamo nodes to these nodes, and this graph's nodes "
    "carry no stack traces (torch 2.14 prints none for a backward graph): they are "
    "linked to nothing."
)


def line_id(pane: str, line: int) -> str:
    return f"{pane}:{line}"


def stack_spots(stack: str, sources: list[SourceText]) -> list[Spot]:
    """The frames of one stack trace that the source pane holds, outermost first."""
    spots = []
    for filename, line in stack_frames(stack):
        region = next((s for s in sources if s.holds(filename, line)), None)
        if region is not None:
            spots.append((region.key, line))
    return spots


NO_STACK_TRACES = (
    "These post-grad nodes carry no stack traces (torch 2.14 prints none for a "
    "backward graph), so they link to no source line or Dynamo node."
)


def _traced(nodes: dict[str, FxNode]) -> bool:
    """Whether any node's stack trace names a source line."""
    return any(node.source_line is not None for node in nodes.values())


def missing_note(out: OutputCode) -> str:
    """What this output module's panes cannot link, in the user's words; "" for nothing."""
    prov = out.provenance
    if prov is None:
        return (
            "No provenance was recorded for this module (a dump made before schema "
            "version 3, or torch logged none): its kernels are linked to nothing, and "
            "post-grad nodes only to the source lines their # File comments name and "
            "to those lines' Dynamo nodes."
        )
    if not prov.kernel_to_post:
        return (
            "Inductor logged no node-to-kernel mapping for this module (torch "
            "logs none for a backward): kernels link to the source lines of their "
            "stack traces and to the post-grad nodes Inductor's Source Nodes comment "
            "names; post-grad nodes link to the Dynamo nodes of the source line they "
            "come from (a backward node: the forward line it differentiates)."
        )
    return ""


def unheld_note(unheld: dict[tuple[str, int], None], old_dump: bool) -> str:
    """The source pane's note when some nodes come from code the dump holds no text for."""
    if not unheld:
        return ""
    where = [f"{posixpath.basename(f.replace(chr(92), '/'))}:{n}" for f, n in list(unheld)[:6]]
    more = f" and {len(unheld) - 6} more" if len(unheld) > 6 else ""
    why = (
        "this dump was made before schema version 4, which stores the source of the "
        "other functions a graph's nodes come from"
        if old_dump
        else "capture could not read their files"
    )
    return (
        f"No source is shown for {', '.join(where)}{more}: {why}. Their nodes link to no line here."
    )


def graph_provenance(
    graph: CompiledGraph, sources: list[SourceText], *, old_dump: bool = False
) -> Provenance:
    """``sources``: the compiled function's (key ``source``) first, then the others."""
    builder = _Builder(sources)
    dynamo_text = next((s.text for s in graph.stages if s.kind == "dynamo"), None)
    dynamo = fx_nodes(dynamo_text or "")
    if dynamo_text is not None:
        builder.panes.append(single_pane("dynamo", "Dynamo graph", dynamo_text))
        builder.from_source("dynamo", dynamo)
    for out in graph.output_code:
        builder.add_output(graph, out, dynamo)
    if not graph.output_code:  # aot_eager: the AOT graphs are the last the dump holds
        for stage in graph.stages:
            if stage.kind in _AOT_PANES:
                nodes = fx_nodes(stage.text)
                linked = builder.by_line(stage.kind, nodes, dynamo)
                note = (
                    BY_LINE_NOTE
                    if linked
                    else NO_TRACE_NOTE
                    if nodes and not _traced(nodes)
                    else ""
                )
                builder.panes.append(
                    single_pane(stage.kind, _AOT_PANES[stage.kind], stage.text, note)
                )
                builder.from_source(stage.kind, nodes)
    if sources:
        regions = tuple(Region(s.key, s.label, s.text, s.first_line) for s in sources)
        note = unheld_note(builder.unheld, old_dump)
        builder.panes.insert(0, Pane("source", "Source", regions, note))
    return Provenance(tuple(builder.panes), tuple(sorted(builder.edges)), tuple(builder.kernels))


class _Builder:
    def __init__(self, sources: list[SourceText]) -> None:
        self.sources = sources
        self.panes: list[Pane] = []
        self.edges: set[tuple[str, str]] = set()
        self.kernels: list[KernelCall] = []
        self.unheld: dict[tuple[str, int], None] = {}  # frames no region holds
        self._pre_index: tuple[object, dict] = (None, {})
        self._spots: dict[tuple[str, int], Spot | None] = {}
        self._hubs: dict[tuple[str, int], str] = {}

    def spot(self, filename: str | None, line: int | None) -> Spot | None:
        """Where the source pane shows a frame's line, if it does."""
        if filename is None or line is None:
            return None
        if (filename, line) not in self._spots:
            region = next((s for s in self.sources if s.holds(filename, line)), None)
            self._spots[(filename, line)] = (region.key, line) if region else None
            if region is None:
                self.unheld[(filename, line)] = None
        return self._spots[(filename, line)]

    def from_source(self, pane: str, nodes: dict[str, FxNode]) -> None:
        for node in nodes.values():
            if spot := self.spot(node.filename, node.source_line):
                self.edges.add((line_id(*spot), line_id(pane, node.line)))

    def by_line(self, pane: str, nodes: dict[str, FxNode], dynamo: dict[str, FxNode]) -> bool:
        """Link Dynamo nodes to the nodes of ``pane`` whose stack traces name the same
        source line, where torch records no node map, through one hub per source
        line; whether any were linked."""
        at_line: dict[int, list[FxNode]] = {}
        for node in dynamo.values():
            if node.filename is not None and node.source_line is not None:
                at_line.setdefault(node.source_line, []).append(node)
        # The files of a line's Dynamo nodes, once per line: a line of a layer's
        # forward has a node in every layer.
        files_at = {
            line: tuple(dict.fromkeys(n.filename for n in at)) for line, at in at_line.items()
        }
        linked = False
        for node in nodes.values():
            line = node.source_line or 0
            for filename in files_at.get(line, ()):
                if not _same_path(filename, node.filename or ""):
                    continue
                linked = True
                hub = self._hub(filename, line, at_line[line])
                self.edges.add((hub, line_id(pane, node.line)))
        return linked

    def _hub(self, filename: str, line: int, dynamo_at_line: list[FxNode]) -> str:
        """The hub of one source line, its Dynamo nodes linked into it once."""
        if (filename, line) not in self._hubs:
            hub = self._hubs[(filename, line)] = line_id(HUB, len(self._hubs))
            for pre in dynamo_at_line:
                if pre.filename == filename:
                    self.edges.add((line_id("dynamo", pre.line), hub))
        return self._hubs[(filename, line)]

    def add_output(self, graph: CompiledGraph, out: OutputCode, dynamo: dict[str, FxNode]) -> None:
        post_key, out_key = f"post_grad_{out.part}", f"output_{out.part}"
        post_text = next((s.text for s in graph.stages if s.kind == post_key), "")
        post = fx_nodes(post_text)
        note = missing_note(out)
        prov = out.provenance
        if prov is not None and prov.pre_to_post:
            for pre, posts in prov.pre_to_post.items():
                for name in posts:
                    if pre in dynamo and name in post:
                        self.edges.add(
                            (
                                line_id("dynamo", dynamo[pre].line),
                                line_id(post_key, post[name].line),
                            )
                        )
        else:
            self.by_line(post_key, post, dynamo)
            if post and not _traced(post):
                note = f"{note} {NO_STACK_TRACES}".strip()
        if post_text:
            self.panes.append(single_pane(post_key, f"Post-grad {out.part}", post_text, note))
        self.panes.append(single_pane(out_key, f"Output code ({out.part})", out.source, note))
        self.from_source(post_key, post)
        notes = kernel_notes(out.source)
        for key, (handle, lines) in kernel_lines(out.source).items():
            note_of = notes.get(key) or notes.get(kernel_name(key))
            self._add_kernel(key, handle, lines, out, post, dynamo, note_of)

    def _pre_of(self, prov, made_of: list[str]) -> list[str]:
        """The Dynamo nodes Inductor maps to any of these post-grad nodes, in its order."""
        if prov is None:
            return []
        if self._pre_index[0] is not prov:  # one inverted map per output module
            index: dict[str, list[str]] = {}
            for order, (pre, posts) in enumerate(prov.pre_to_post.items()):
                for name in posts:
                    index.setdefault(name, []).append((order, pre))
            self._pre_index = (prov, index)
        found = {item for name in made_of for item in self._pre_index[1].get(name, ())}
        return [pre for _, pre in sorted(found)]

    def _add_kernel(
        self, key, handle, lines, out: OutputCode, post, dynamo, note: KernelNote | None
    ) -> None:
        prov = out.provenance
        post_key, call = f"post_grad_{out.part}", line_id(f"output_{out.part}", handle)
        recorded = prov.kernel_to_post.get(key) if prov is not None else None
        # Inductor's own comment names the nodes where no mapping was logged.
        named = recorded if recorded else (note.source_nodes if note else ())
        made_of = [n for n in named if n in post]
        for name in made_of:
            self.edges.add((line_id(post_key, post[name].line), call))
        sources: dict[Spot, None] = {}
        callers: dict[Spot, None] = {}
        for stack in prov.kernel_stacks.get(key, []) if prov is not None else []:
            spots = stack_spots(stack, self.sources)
            if spots:  # the innermost user frame it came from; the rest called it
                sources[spots[-1]] = None
                callers.update(dict.fromkeys(spots[:-1]))
            for outer, inner in itertools.pairwise(spots):
                if outer[0] != inner[0]:  # a call into another function: the chain
                    self.edges.add((line_id(*outer), line_id(*inner)))
        for spot in sources:
            self.edges.add((line_id(*spot), call))
        # Its source lines: its stack traces', and those of the nodes it runs.
        for name in made_of:
            if spot := self.spot(post[name].filename, post[name].source_line):
                sources[spot] = None
        pre = [p for p in self._pre_of(prov, made_of) if p in dynamo]
        if not pre and note is not None:
            pre = list(note.source_nodes)
        # torch's own list where its comment gives one: the operators before decomposition.
        aten = list(note.aten) if note and note.aten else [post[n].aten for n in made_of]
        self.kernels.append(
            KernelCall(
                key=key,
                name=kernel_name(key),
                part=out.part,
                handle_line=handle,
                lines=lines,
                post_grad_nodes=tuple(made_of),
                dynamo_nodes=tuple(pre),
                aten=tuple(dict.fromkeys(a for a in aten if a)),
                sources=tuple(sorted(sources)),
                callers=tuple(c for c in sorted(callers) if c not in sources),
            )
        )
