"""Which pages a dump makes, each with a hash of its inputs and how to build it.

Building a view is deferred, so a re-render can skip a page whose inputs
have not changed without computing anything but the hash. A page's weight, the
size of the records it shows, tells the writer which pages to start first.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
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
    weight: int = 1  # about how much work building it is: the size of its records


class Inputs:
    """Hashes of page inputs, each record hashed once: a function's records are
    inputs of its page, its story and every one of its graphs' pages, and a large
    model's function holds megabytes of guards."""

    def __init__(self) -> None:
        self._records: dict[int, tuple[object, str, int]] = {}

    def of(self, *records) -> tuple[str, int]:
        """The hash of ``records`` and their size, for a page that shows them."""
        parts = [self._record(r) for r in records]
        text = "|".join(h for h, _ in parts)
        return hashlib.sha1(text.encode()).hexdigest(), sum(n for _, n in parts)

    def _record(self, record) -> tuple[str, int]:
        if isinstance(record, list | tuple):
            parts = [self._record(r) for r in record]
            return digest([h for h, _ in parts]), sum(n for _, n in parts)
        if record is None or isinstance(record, str | int | float):
            return digest(record), 1
        found = self._records.get(id(record))
        if found is None or found[0] is not record:
            text = repr(record)  # every field, in a fixed order (see ``digest``)
            found = (record, hashlib.sha1(text.encode()).hexdigest(), len(text))
            self._records[id(record)] = found  # keeps the record, so its id stays its own
        return found[1], found[2]


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
    inputs = Inputs()
    plans: list[PagePlan] = []
    for ctx in contexts:
        plans += _process_pages(ctx, switches, inputs)
    if found is not None:
        build = functools.partial(build_divergence_page, found, ranks)
        shown, weight = inputs.of(found)
        plans.append(PagePlan(urls.DIVERGENCE, shown, build, weight))
    plans += [_concept_plan(name, text) for name, text in concept_sources().items()]
    overview = _overview_plan(dump, contexts, [p.inputs for p in plans], switches.overview())
    # The overview shows every record (its search index lists them all).
    overview = dataclasses.replace(overview, weight=sum(p.weight for p in plans) // 4)
    return [overview, *plans]


def _crumbs(ctx: ProcessContext):
    if not ctx.label:
        return (INDEX_CRUMB,)
    return (INDEX_CRUMB, Link(ctx.label, urls.process_section(ctx.name)))


def _process_pages(ctx: ProcessContext, switches: RankSwitches, inputs: Inputs) -> list[PagePlan]:
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
        inputs_of_story = inputs.of(names, *related)
        plans.append(
            PagePlan(
                urls.function_page(ctx.name, fn.id),
                inputs.of(inputs_of_story[0], graphs, switch)[0],
                lambda fn=fn, s=switch: with_switch(build_function_page(ctx, fn, crumbs), s),
                inputs_of_story[1],
            )
        )
        plans.append(
            PagePlan(
                urls.function_story(ctx.name, fn.id),
                inputs_of_story[0],
                lambda fn=fn: function_story(ctx, fn),
                inputs_of_story[1] // 4,  # comments and checked guards, no markup
            )
        )
    for graph in ctx.dump.graphs.values():
        # Output pages name the source lines each kernel came from; the weights
        # are the graph's, as the function's guards are not shown there.
        fn = ctx.function(graph.function)
        shared, weight = inputs.of(names, graph, ctx.compile(graph.compile_id))
        shared = inputs.of(shared, fn)[0]
        switch = switches.graph(ctx, graph.id)
        plans.append(
            PagePlan(
                urls.graph_page(ctx.name, graph.id),
                inputs.of(shared, switch)[0],
                lambda g=graph, s=switch: with_switch(build_graph_page(ctx, g, crumbs), s),
                weight,
            )
        )
        switch = switches.graph(ctx, graph.id, urls.provenance_page)
        plans.append(
            PagePlan(
                urls.provenance_page(ctx.name, graph.id),
                inputs.of(names, graph, fn, switch)[0],
                lambda g=graph, s=switch: with_switch(build_provenance_page(ctx, g, crumbs), s),
                weight,
            )
        )
        for out in graph.output_code:
            switch = switches.graph(ctx, graph.id, urls.output_page, out.part)
            plans.append(
                PagePlan(
                    urls.output_page(ctx.name, graph.id, out.part),
                    inputs.of(shared, switch)[0],
                    lambda g=graph, o=out, s=switch: with_switch(
                        build_output_page(ctx, g, o, crumbs), s
                    ),
                    inputs.of(out)[1],
                )
            )
    return plans


def _concept_plan(name: str, text: str) -> PagePlan:
    return PagePlan(
        urls.concept_page(name), digest(text), lambda: build_concept_page(name, text), len(text)
    )


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
