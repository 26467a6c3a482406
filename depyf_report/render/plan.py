"""Which pages a dump makes, each with a hash of its inputs and how to build it.

Building a view is deferred, so a re-render can skip a page whose inputs
have not changed without computing anything but the hash.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from ..dump import Dump
from . import urls
from .build_divergence import build_divergence_page
from .build_function import build_function_page
from .build_graph import build_graph_page, build_output_page
from .build_overview import build_process_view
from .build_provenance import build_provenance_page, function_graphs
from .concepts import INDEX_CRUMB, build_concept_page, concept_sources
from .context import ProcessContext, digest
from .divergence import divergence
from .rank_switch import RankSwitches, with_switch
from .ranks import ranks_of
from .search import search_json, search_rows
from .story import function_story
from .views import Link, OverviewPage, RankSwitch


@dataclass(frozen=True)
class PagePlan:
    path: str
    inputs: str  # hash of everything the page shows
    build: Callable[[], object]  # -> a view model, or text for a plain file


def process_contexts(dump: Dump) -> list[ProcessContext]:
    several = len(dump.processes) > 1
    return [ProcessContext.build(p, _label(p) if several else "") for p in dump.processes]


def _label(process) -> str:
    m = process.manifest
    if m.rank is not None:
        return f"rank {m.rank}"
    return process.name or f"main process (pid {m.pid})"


def plan_pages(dump: Dump, contexts: list[ProcessContext]) -> list[PagePlan]:
    ranks = ranks_of(contexts)
    found = divergence(ranks) if ranks else None
    switches = RankSwitches(ranks, found)
    plans: list[PagePlan] = []
    for ctx in contexts:
        plans += _process_pages(ctx, switches)
    if found is not None:
        build = functools.partial(build_divergence_page, found, ranks)
        plans.append(PagePlan(urls.DIVERGENCE, digest(found), build))
    plans += [_concept_plan(name, text) for name, text in concept_sources().items()]
    # The overview is the biggest page: first, so a worker starts on it at once
    # instead of leaving it for last while the other workers sit idle.
    overview = _overview_plan(dump, contexts, [p.inputs for p in plans], switches.overview())
    return [overview, *plans]


def _crumbs(ctx: ProcessContext):
    if not ctx.label:
        return (INDEX_CRUMB,)
    return (INDEX_CRUMB, Link(ctx.label, urls.process_section(ctx.name)))


def _process_pages(ctx: ProcessContext, switches: RankSwitches) -> list[PagePlan]:
    crumbs = _crumbs(ctx)
    names = (ctx.label, ctx.names_digest)
    plans = []
    for fn in ctx.functions():
        compiles = ctx.compiles_of.get(fn.id, [])
        debug = [ctx.debug_of.get(e.compile_id) for e in fn.entries]
        related = (fn, compiles, ctx.resumes_of.get(fn.id, []), debug)
        # Its source lines list what they became in its graphs and its resume functions'.
        graphs = [g for member in ctx.family(fn) for g in function_graphs(ctx, member)]
        switch = switches.function(ctx, fn.id)
        plans.append(
            PagePlan(
                urls.function_page(ctx.name, fn.id),
                digest(names, *related, graphs, switch),
                lambda fn=fn, s=switch: with_switch(build_function_page(ctx, fn, crumbs), s),
            )
        )
        plans.append(
            PagePlan(
                urls.function_story(ctx.name, fn.id),
                digest(names, *related),
                lambda fn=fn: function_story(ctx, fn),
            )
        )
    for graph in ctx.dump.graphs.values():
        # Output pages name the source lines each kernel came from.
        fn = ctx.function(graph.function)
        inputs = digest(names, graph, ctx.compile(graph.compile_id), fn)
        switch = switches.graph(ctx, graph.id)
        plans.append(
            PagePlan(
                urls.graph_page(ctx.name, graph.id),
                digest(inputs, switch),
                lambda g=graph, s=switch: with_switch(build_graph_page(ctx, g, crumbs), s),
            )
        )
        switch = switches.graph(ctx, graph.id, urls.provenance_page)
        plans.append(
            PagePlan(
                urls.provenance_page(ctx.name, graph.id),
                digest(names, graph, fn, switch),
                lambda g=graph, s=switch: with_switch(build_provenance_page(ctx, g, crumbs), s),
            )
        )
        for out in graph.output_code:
            switch = switches.graph(ctx, graph.id, urls.output_page, out.part)
            plans.append(
                PagePlan(
                    urls.output_page(ctx.name, graph.id, out.part),
                    digest(inputs, switch),
                    lambda g=graph, o=out, s=switch: with_switch(
                        build_output_page(ctx, g, o, crumbs), s
                    ),
                )
            )
    return plans


def _concept_plan(name: str, text: str) -> PagePlan:
    return PagePlan(urls.concept_page(name), digest(text), lambda: build_concept_page(name, text))


def _overview_plan(
    dump: Dump, contexts: list[ProcessContext], inputs: list[str], switch: RankSwitch | None
) -> PagePlan:
    problems = tuple(str(p) for p in dump.problems)
    manifests = [c.dump.manifest for c in contexts]

    def build() -> OverviewPage:
        rows = [row for ctx in contexts for row in search_rows(ctx)]
        return OverviewPage(
            path=urls.INDEX,
            title="Overview",
            crumbs=(Link("overview", None),),
            processes=tuple(build_process_view(ctx) for ctx in contexts),
            problems=problems,
            search_json=search_json(rows),
            ranks=switch,
        )

    return PagePlan(urls.INDEX, digest(inputs, problems, *manifests, switch), build)
