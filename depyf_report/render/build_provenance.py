"""A compiled graph's provenance page, and the provenance lists other pages show.

The page holds its own graph's mapping only, inline as JSON, so a large model's
report loads one graph's data at a time.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict

from markupsafe import Markup

from ..dump import CompiledGraph, Function
from . import urls
from .codeview import code_lines
from .context import ProcessContext
from .listings import output_lines, stage_lines
from .names import name_link, short_name
from .provenance import (
    Pane,
    Provenance,
    Region,
    SourceText,
    fx_nodes,
    graph_provenance,
    is_hub,
    line_id,
)
from .views import (
    CodeLine,
    KernelOrigin,
    Link,
    Mark,
    PaneView,
    ProvenancePage,
    RegionView,
)

_SOURCES_SINCE = 4  # the schema version that stores the other functions' source


def graph_sources(ctx: ProcessContext, graph: CompiledGraph) -> list[SourceText]:
    """The user's code a graph came from: its function's source as captured, then
    the other functions its nodes come from (schema version 4 on)."""
    fn = ctx.function(graph.function)
    sources = []
    if fn is not None and fn.source is not None:
        sources.append(SourceText(fn.filename, fn.first_line, fn.source, "source", fn.qualname))
    for n, region in enumerate(graph.sources, start=1):
        sources.append(
            SourceText(
                region.filename, region.first_line, region.text, f"source_{n}", region.qualname
            )
        )
    return sources


def pane_anchor(pane: str, line: int) -> str:
    return urls.line_anchor(pane, line)


def provenance_of(ctx: ProcessContext, graph: CompiledGraph) -> Provenance:
    def make() -> Provenance:
        old = ctx.dump.manifest.schema_version < _SOURCES_SINCE
        return graph_provenance(graph, graph_sources(ctx, graph), old_dump=old)

    return ctx.once(("provenance", graph.id), make)


def build_provenance_page(ctx: ProcessContext, graph: CompiledGraph, crumbs) -> ProvenancePage:
    prov = provenance_of(ctx, graph)
    fn = ctx.function(graph.function)
    graph_href = ctx.graph_href(graph.id)
    function = Link(fn.qualname if fn else "unknown function", ctx.function_href(graph.function))
    return ProvenancePage(
        path=urls.provenance_page(ctx.name, graph.id),
        title=f"{short_name(graph.name)} · provenance",
        crumbs=(
            *crumbs,
            Link(function.text, function.href),
            name_link(graph.name, graph_href),
            Link("provenance", None),
        ),
        process=ctx.label,
        graph=name_link(graph.name, graph_href),
        function=function,
        panes=tuple(_pane_view(ctx, graph, pane) for pane in prov.panes),
        data_json=mapping_json(prov),
        # Only Inductor records a mapping: eager and aot_eager graphs miss none.
        unrecorded=any(o.provenance is None for o in graph.output_code),
    )


def _pane_view(ctx: ProcessContext, graph: CompiledGraph, pane: Pane) -> PaneView:
    return PaneView(
        key=pane.key,
        label=pane.label,
        anchor=urls.anchor("pane", pane.key),
        note=pane.note,
        regions=tuple(
            RegionView(label=region.label, lines=_region_lines(ctx, graph, pane, region))
            for region in pane.regions
        ),
    )


def _region_lines(
    ctx: ProcessContext, graph: CompiledGraph, pane: Pane, region: Region
) -> tuple[CodeLine, ...]:
    """A pane's lines, drawn as the graph and output code pages draw the same text,
    so the long ones share their data files with those pages."""
    anchor = functools.partial(pane_anchor, region.key)
    if pane.key == "source":
        return code_lines(region.text, first_line=region.first_line, anchor=anchor)
    out = next((o for o in graph.output_code if f"output_{o.part}" == pane.key), None)
    if out is not None and out.source == region.text:
        return output_lines(ctx, graph, out, anchor)
    return stage_lines(ctx, graph, region.text, anchor)


def mapping_json(prov: Provenance) -> Markup:
    """The page's mapping for its script: line ids as DOM ids; the edges, as each
    line's list of the lines it became (``down``: pairs of a line and its number in
    ``targets``, each distinct list once); the lines of each kernel call. Safe inside
    a <script> element.

    Where torch records no node map, a source line's nodes link to the nodes of
    another graph made from that line through a hub, whose id is "" (no line shows it).
    """
    ids: dict[str, int] = {}

    def index(spot: str) -> int:
        if is_hub(spot):
            return ids.setdefault(spot, len(ids))
        pane, _, line = spot.rpartition(":")
        return ids.setdefault(pane_anchor(pane, int(line)), len(ids))

    became: dict[int, list[int]] = {}
    for a, b in prov.edges:
        became.setdefault(index(a), []).append(index(b))
    targets: dict[tuple[int, ...], int] = {}
    down = []
    for line, lines in became.items():
        down += (line, targets.setdefault(tuple(lines), len(targets)))
    spans = {
        index(line_id(f"output_{k.part}", k.handle_line)): [
            index(line_id(f"output_{k.part}", n)) for n in k.lines
        ]
        for k in prov.kernels
    }
    data = {
        "ids": ["" if is_hub(id_) else id_ for id_ in ids],
        "targets": list(targets),
        "down": down,
        "spans": spans,
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


# --- what other pages list -----------------------------------------------------------


def made_from_lines(prov: Provenance) -> dict[int, tuple[list[str], list[str]]]:
    """Each source line -> (the Dynamo nodes, the kernels) made from it."""
    from_source: dict[int, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    sources_of = defaultdict(list)
    for a, b in prov.edges:
        pane, _, line = a.rpartition(":")
        if pane == "source":
            sources_of[b].append(int(line))
    for spot, name in _dynamo_names(prov).items():  # in the graph's order
        for line in sources_of.get(spot, ()):
            _add(from_source[line][0], name)
    for kernel in prov.kernels:
        # A line that calls the function a kernel came from made it too.
        for key, line in (*kernel.sources, *kernel.callers):
            if key == "source":
                _add(from_source[line][1], kernel.name)
    return dict(from_source)


def _dynamo_names(prov: Provenance) -> dict[str, str]:
    pane = next((p for p in prov.panes if p.key == "dynamo"), None)
    nodes = fx_nodes(pane.regions[0].text) if pane else {}
    return {line_id("dynamo", n.line): n.name for n in nodes.values()}


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def function_graphs(ctx: ProcessContext, fn: Function) -> list[CompiledGraph]:
    return [g for g in ctx.dump.graphs.values() if g.function == fn.id]


def kernel_origins(
    ctx: ProcessContext, graph: CompiledGraph, part: str
) -> dict[str, list[KernelOrigin]]:
    """Each kernel of one output module -> what each of its calls was made from."""
    prov = provenance_of(ctx, graph)
    page = urls.provenance_page(ctx.name, graph.id)
    labels = {r.key: r.label for p in prov.panes if p.key == "source" for r in p.regions}
    origins: dict[str, list[KernelOrigin]] = defaultdict(list)
    for kernel in prov.kernels:
        if kernel.part != part:
            continue
        origins[kernel.name].append(
            KernelOrigin(
                key=kernel.key,
                post_grad_nodes=kernel.post_grad_nodes,
                dynamo_nodes=kernel.dynamo_nodes,
                aten=kernel.aten,
                source_lines=tuple(_source_link(ctx, graph, labels, s) for s in kernel.sources),
                called_from=tuple(_source_link(ctx, graph, labels, s) for s in kernel.callers),
                provenance=Link(
                    kernel.key,
                    urls.with_anchor(page, pane_anchor(f"output_{part}", kernel.handle_line)),
                ),
            )
        )
    return origins


def _source_link(ctx: ProcessContext, graph: CompiledGraph, labels, spot) -> Link:
    """A line of the compiled function links to its page; a line of another
    function, which has no page of its own, to the line on the provenance page."""
    key, line = spot
    function_page = ctx.function_href(graph.function)
    if key == "source":
        href = urls.with_anchor(function_page, urls.source_line(line)) if function_page else None
        return Link(str(line), href)
    page = urls.provenance_page(ctx.name, graph.id)
    return Link(f"{labels.get(key, key)}:{line}", urls.with_anchor(page, pane_anchor(key, line)))


def made_marks(ctx: ProcessContext, graph: CompiledGraph) -> dict[int, Mark]:
    """Each source line -> a mark naming the graph nodes and kernels made from it,
    linked to the line on the graph's provenance page."""
    page = urls.provenance_page(ctx.name, graph.id)
    marks = {}
    for line, (nodes, kernels) in made_from_lines(provenance_of(ctx, graph)).items():
        label = f"{short_name(graph.name)}: {', '.join(nodes) or 'no node'}"
        if kernels:
            label += f" → {', '.join(kernels)}"
        href = urls.with_anchor(page, pane_anchor("source", line))
        marks[line] = Mark("made", _short(label), href)
    return marks


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
