"""The overview's flowchart: one inline SVG per user function, laid out in columns.

function -> cache entries -> transformed code -> graphs -> stages -> output code,
and each resume function below the entry that calls it, drawn the same way.
Boxes are links; colours come from the site's CSS so dark mode applies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup, escape

from ..dump import Function
from ..origin import Origin
from . import urls
from .build_function import resume_names
from .build_graph import stage_label, stage_order
from .context import ProcessContext, function_origin_of, function_title, ordinal
from .names import short_name

COLUMNS = ("function", "cache entry", "transformed code", "graph", "stages", "output code")
# Rows are 24px units: a main box spans two, a stage box one, so a graph's
# stages stack as tightly as its own box without stretching the chart.
BOX_W, GAP_X, UNIT, PAD = 146, 26, 24, 8
BOX_H = {"stage": 20}
MAIN_H, MAIN_UNITS = 40, 2


@dataclass(frozen=True)
class Node:
    col: int
    row: int
    kind: str
    label: str
    detail: str
    href: str | None
    title: str = ""  # the whole name, shown on hover; the label when ""
    alternative: str = ""  # a label to show instead when two boxes' labels read the same


@dataclass
class Chart:
    """Nodes and edges being laid out; ``row`` is the next free row."""

    nodes: list[Node] = field(default_factory=list)
    edges: list[tuple[int, int, str]] = field(default_factory=list)
    row: int = 0

    def add(self, node: Node, parent: int | None = None, edge: str = "") -> int:
        self.nodes.append(node)
        if parent is not None:
            self.edges.append((parent, len(self.nodes) - 1, edge))
        return len(self.nodes) - 1


def flowchart(ctx: ProcessContext, root: Function) -> Markup:
    chart = Chart()
    _place_function(ctx, chart, root, None, set())
    return _svg(chart, f"Flowchart of {function_title(root, ctx)}")


def _place_function(ctx, chart: Chart, fn: Function, caller: int | None, seen: set[str]) -> None:
    seen.add(fn.id)
    if caller is not None:
        chart.row += 1  # air for the edge that comes down from the caller
    entries = f"{len(fn.entries)} cache entr{'y' if len(fn.entries) == 1 else 'ies'}"
    label, alternative = fn.qualname or fn.name, ""
    if fn.resume:  # the chart's root names the function; a resume box says where it resumes
        resume, broke = fn.resume.resume_line, fn.resume.break_line
        label = f"resumes at line {resume}" if resume is not None else f"after line {broke}"
        entries += f" · break {broke}" if broke is not None and resume is not None else ""
        alternative = f"line {broke} → resumes {resume}"
    kind = "resume" if fn.is_resume else "function"
    title = function_title(fn, ctx)
    me = chart.add(
        Node(0, chart.row, kind, label, entries, ctx.function_href(fn.id), title, alternative),
        caller,
        "resume" if caller is not None else "",
    )
    page = ctx.function_href(fn.id) or ""
    later: list[tuple[Function, int]] = []
    for index, entry in enumerate(fn.entries):
        start = chart.row
        guards = len(entry.guards.guards) + len(entry.guards.shape_guards)
        anchor = urls.with_anchor(page, urls.entry_anchor(index))
        e = chart.add(Node(1, start, "entry", entry.compile_id, f"{guards} guards", anchor), me)
        code = chart.add(Node(2, start, "code", entry.code.name, "decompiled", anchor), e)
        for graph_id in entry.graphs:
            _place_graph(ctx, chart, graph_id, code)
        chart.row = max(chart.row, start + MAIN_UNITS)
        called = resume_names(ctx, entry).values()
        later += [(ctx.function(r), code) for r in [*called, *entry.resume_functions]]
    chart.row = max(chart.row, chart.nodes[me].row + MAIN_UNITS)
    later += [(child, me) for child in ctx.resumes_of.get(fn.id, [])]
    for child, parent in later:
        # Dynamo's own helpers (the closure that installs a resume function) are
        # not part of the user's story.
        helper = child and not child.is_resume and function_origin_of(child) is Origin.TORCH
        if child and child.id not in seen and not (helper and root_is_user(ctx, fn)):
            _place_function(ctx, chart, child, parent, seen)


def root_is_user(ctx: ProcessContext, fn: Function) -> bool:
    original = ctx.function(fn.resume.original) if fn.resume else None
    return function_origin_of(original or fn) is Origin.USER


def _place_graph(ctx, chart: Chart, graph_id: str, code: int) -> None:
    graph = ctx.graph(graph_id)
    start = chart.row
    if graph is None:
        chart.add(Node(3, start, "missing", graph_id, "not in the dump", None), code)
        chart.row = start + MAIN_UNITS
        return
    page = ctx.graph_href(graph_id)
    g = chart.add(
        Node(
            3,
            start,
            "graph",
            short_name(graph.name),
            f"{len(graph.stages)} stage{'s' * (len(graph.stages) != 1)}",
            page,
            graph.name,
        ),
        code,
    )
    stages = sorted(graph.stages, key=lambda s: stage_order(s.kind))
    for i, stage in enumerate(stages):
        href = urls.with_anchor(page, urls.stage_anchor(stage.kind))
        chart.add(Node(4, start + i, "stage", stage_label(stage.kind), "", href), g)
    for i, out in enumerate(graph.output_code):
        href = urls.output_page(ctx.name, graph.id, out.part)
        detail = f"{len(out.kernels)} kernel{'s' * (len(out.kernels) != 1)}"
        chart.add(Node(5, start + i * MAIN_UNITS, "kernels", f"{out.part} code", detail, href), g)
    units = max(MAIN_UNITS, len(stages), MAIN_UNITS * len(graph.output_code))
    chart.row = start + units + (units > MAIN_UNITS)  # a little air below tall stacks


# --- drawing -------------------------------------------------------------------------


def _x(col: int) -> int:
    return PAD + col * (BOX_W + GAP_X)


def _y(row: int) -> int:
    return PAD + 22 + row * UNIT


def _h(node: Node) -> int:
    return BOX_H.get(node.kind, MAIN_H)


def _svg(chart: Chart, title: str) -> Markup:
    shown = _shown_labels(chart.nodes)
    used = max((n.col for n in chart.nodes), default=0) + 1
    width = _x(used) - GAP_X + PAD
    height = max((_y(n.row) + _h(n) for n in chart.nodes), default=_y(0)) + PAD
    parts = [
        f'<svg class="flowchart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img">'
        f"<title>{escape(title)}</title>"
    ]
    parts += [
        f'<text class="fc-head" x="{_x(col)}" y="{PAD + 10}">{name}</text>'
        for col, name in enumerate(COLUMNS[:used])
    ]
    parts += [_edge(chart.nodes[a], chart.nodes[b], kind) for a, b, kind in chart.edges]
    parts += [_box(node, label) for node, label in zip(chart.nodes, shown)]
    parts.append("</svg>")
    return Markup("".join(parts))


def _edge(a: Node, b: Node, kind: str) -> str:
    if b.col > a.col:
        x1, y1 = _x(a.col) + BOX_W, _y(a.row) + _h(a) / 2
        x2, y2 = _x(b.col), _y(b.row) + _h(b) / 2
        mid = (x1 + x2) / 2
        d = f"M{x1},{y1} C{mid},{y1} {mid},{y2} {x2},{y2}"
    else:  # to a resume function below, along the gaps between rows and columns
        x1, y1 = _x(a.col) + 14, _y(a.row) + _h(a)
        gap_x = _x(a.col) - GAP_X / 2
        x2, y2 = _x(b.col) + BOX_W / 2, _y(b.row)
        turn = y2 - UNIT / 2
        d = f"M{x1},{y1} L{x1},{y1 + 5} L{gap_x},{y1 + 5} L{gap_x},{turn} L{x2},{turn} L{x2},{y2}"
    return f'<path class="fc-edge {kind}" d="{d}"/>'


def _box(node: Node, label: str) -> str:
    x, y, h = _x(node.col), _y(node.row), _h(node)
    baseline = y + (14 if h == 20 else 17)
    text = f'<text class="fc-label" x="{x + 8}" y="{baseline}">{escape(label)}</text>'
    if node.detail:
        text += f'<text class="fc-detail" x="{x + 8}" y="{y + 32}">{escape(node.detail)}</text>'
    box = (
        f'<rect class="fc-box {node.kind}" x="{x}" y="{y}" width="{BOX_W}" height="{h}" rx="6"/>'
        f"{text}<title>{escape(node.title or node.label)}</title>"
    )
    if node.href:
        return f'<a class="fc-node" href="{escape(node.href)}">{box}</a>'
    return f'<g class="fc-node">{box}</g>'


LABEL = 20  # characters that fit a box


def _shown_labels(nodes: list[Node]) -> list[str]:
    """Each box's text, cut to fit; boxes of one column that are different things
    never read the same: a cut that loses the difference keeps the end instead,
    and what still reads the same gets a counter."""
    shown = [_clip(node.label, LABEL) for node in nodes]
    for col in {node.col for node in nodes}:
        if col >= 4:  # stage and output code boxes repeat per graph on purpose
            continue
        same = _collisions(nodes, shown, col)
        for i in same:
            shown[i] = _clip_middle(nodes[i].alternative or nodes[i].label, LABEL)
        for group in _groups(nodes, shown, col):
            for n, i in enumerate(group[1:], start=2):
                suffix = f" ({ordinal(n)})"
                shown[i] = _clip(nodes[i].label, LABEL - len(suffix)) + suffix
    return shown


def _groups(nodes: list[Node], shown: list[str], col: int) -> list[list[int]]:
    by_text: dict[str, list[int]] = {}
    for i, node in enumerate(nodes):
        if node.col == col:
            by_text.setdefault(shown[i], []).append(i)
    return [group for group in by_text.values() if len(group) > 1]


def _collisions(nodes: list[Node], shown: list[str], col: int) -> list[int]:
    return [i for group in _groups(nodes, shown, col) for i in group]


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clip_middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = limit // 3
    return text[:head] + "…" + text[len(text) - (limit - head - 1) :]
