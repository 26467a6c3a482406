"""A compiled graph's page (every stage) and its Inductor output code pages."""

from __future__ import annotations

import re

from ..dump import STAGE_KINDS, CompiledGraph, OutputCode
from . import urls
from .build_provenance import kernel_origins
from .codeview import code_lines
from .context import ProcessContext
from .listings import output_lines, stage_lines
from .names import name_link, short_name
from .provenance import missing_note
from .views import GraphPage, KernelView, Link, OutputPage, StageView

STAGE_LABELS = {
    "dynamo": "Dynamo graph",
    "pre_grad": "Pre-grad passes",
    "aot_joint": "AOT joint graph",
    "aot_forward": "AOT forward",
    "aot_backward": "AOT backward",
    "aot_inference": "AOT inference",
    "post_grad_forward": "Post-grad forward",
    "post_grad_backward": "Post-grad backward",
    "post_grad_inference": "Post-grad inference",
}

# A graph input in FX's printed signature: `L_x_: "f32[8, 16][16, 1]cpu"`. The
# look-behind starts a name only at its first character, so a long line is one pass.
_INPUT = re.compile(r'(?<!\w)(\w+): "([a-z]+\d*\[[^"\]]*\][^"]*)"')


def stage_label(kind: str) -> str:
    return STAGE_LABELS.get(kind, kind.replace("_", " ").capitalize())


def stage_order(kind: str) -> int:
    return STAGE_KINDS.index(kind) if kind in STAGE_KINDS else len(STAGE_KINDS)


def graph_context_links(ctx: ProcessContext, graph: CompiledGraph) -> tuple[Link, Link, Link]:
    """Links from a graph back to its function, cache entry and compile."""
    fn = ctx.function(graph.function)
    function = Link(fn.qualname if fn else "unknown function", ctx.function_href(graph.function))
    entry = Link(f"cache entry {graph.compile_id}", ctx.entry_href(graph.compile_id))
    compile_ = Link(f"compile {graph.compile_id}", ctx.compile_href(graph.compile_id))
    return function, entry, compile_


def build_graph_page(ctx: ProcessContext, graph: CompiledGraph, crumbs) -> GraphPage:
    function, entry, compile_ = graph_context_links(ctx, graph)
    record = ctx.compile(graph.compile_id)
    stages = sorted(graph.stages, key=lambda s: stage_order(s.kind))
    return GraphPage(
        path=urls.graph_page(ctx.name, graph.id),
        title=short_name(graph.name),
        crumbs=(*crumbs, Link(function.text, function.href), name_link(graph.name, None)),
        process=ctx.label,
        name=name_link(graph.name, None),
        backend=graph.backend or "",
        function=function,
        entry=entry,
        compile=compile_,
        stages=tuple(_stage_view(ctx, graph, s.kind, s.text) for s in stages),
        outputs=tuple(
            Link(
                f"{out.part} code · {len(out.kernels)} kernels",
                urls.output_page(ctx.name, graph.id, out.part),
            )
            for out in graph.output_code
        ),
        symbols=tuple(
            (s.name, s.source or "", s.lower or "", s.upper or "", s.hint or "")
            for s in (record.dynamic_symbols if record else [])
        ),
        provenance=Link("provenance", urls.provenance_page(ctx.name, graph.id)),
    )


def _stage_view(ctx: ProcessContext, graph: CompiledGraph, kind: str, text: str) -> StageView:
    anchor = urls.stage_anchor(kind)
    return StageView(
        kind=kind,
        label=stage_label(kind),
        anchor=anchor,
        lines=stage_lines(ctx, graph, text, lambda n: urls.line_anchor(anchor, n)),
        inputs=_inputs(text),
    )


def _inputs(text: str) -> tuple[tuple[str, str], ...]:
    """The graph's inputs and their shapes, from the printed ``forward`` signature."""
    for line in text.splitlines():
        if "def forward(" in line:
            return tuple(dict.fromkeys(_INPUT.findall(line)))
    return ()


def build_output_page(
    ctx: ProcessContext, graph: CompiledGraph, out: OutputCode, crumbs
) -> OutputPage:
    function, entry, _ = graph_context_links(ctx, graph)
    graph_href = ctx.graph_href(graph.id)
    origins = kernel_origins(ctx, graph, out.part)
    return OutputPage(
        path=urls.output_page(ctx.name, graph.id, out.part),
        title=f"{short_name(graph.name)} · {out.part} code",
        crumbs=(
            *crumbs,
            Link(function.text, function.href),
            name_link(graph.name, graph_href),
            Link(f"{out.part} code", None),
        ),
        process=ctx.label,
        part=out.part,
        graph=name_link(graph.name, graph_href),
        function=function,
        entry=entry,
        code=output_lines(ctx, graph, out, urls.source_line),
        kernels=tuple(_kernel_view(k, origins.get(k.name, ())) for k in out.kernels),
        provenance=Link("provenance", urls.provenance_page(ctx.name, graph.id)),
        provenance_note=missing_note(out),
    )


def _kernel_view(kernel, calls) -> KernelView:
    anchor = urls.kernel_anchor(kernel.name)
    return KernelView(
        name=kernel.name,
        anchor=anchor,
        language=kernel.language,
        lines=code_lines(
            kernel.source, language=kernel.language, anchor=lambda n: urls.line_anchor(anchor, n)
        ),
        calls=tuple(calls),
    )
