"""A graph's listings, drawn the same on every page that shows them.

A graph's page, its output code pages and its provenance page show the same
stages and modules. Drawn with the same links, their long listings cut into the
same blocks of data (deferred.py), so the site holds each block once.
"""

from __future__ import annotations

from collections.abc import Callable

from ..dump import CompiledGraph, OutputCode
from . import urls
from .codeview import code_lines
from .context import ProcessContext
from .views import CodeLine


def stage_lines(
    ctx: ProcessContext, graph: CompiledGraph, text: str, anchor: Callable[[int], str]
) -> tuple[CodeLine, ...]:
    """A graph stage (Dynamo, AOT, post-grad): its "# File:" places link to the
    function's source."""
    return code_lines(text, anchor=anchor, where=ctx.source_linker(graph.function))


def output_lines(
    ctx: ProcessContext, graph: CompiledGraph, out: OutputCode, anchor: Callable[[int], str]
) -> tuple[CodeLine, ...]:
    """An Inductor module: each kernel in its own language, each kernel's name linked
    to its listing on the output code page (a link that works from any page)."""
    page = urls.output_page(ctx.name, graph.id, out.part)
    kernels = {k.name: urls.with_anchor(page, urls.kernel_anchor(k.name)) for k in out.kernels}
    return code_lines(
        out.source,
        anchor=anchor,
        link=kernels.get,
        embedded=[(k.source, k.language) for k in out.kernels],
    )
