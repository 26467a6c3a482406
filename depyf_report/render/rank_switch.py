"""The rank switcher: one rank's page of a function or graph, on every other rank."""

from __future__ import annotations

from dataclasses import replace

from . import urls
from .context import ProcessContext
from .divergence import Divergence, compared_stages, summary_line
from .ranks import GraphKey, Rank, rank_list
from .views import Link, RankChoice, RankSwitch


class RankSwitches:
    """Builds each page's switcher; every page of a process without a rank gets none."""

    def __init__(self, ranks: list[Rank], divergence: Divergence | None) -> None:
        self.ranks = ranks
        self.divergence = divergence
        self.key_of: dict[str, dict[str, GraphKey]] = {r.ctx.name: r.graph_keys() for r in ranks}
        self.graph_at: dict[str, dict[GraphKey, str]] = {
            name: {key: graph_id for graph_id, key in keys.items()}
            for name, keys in self.key_of.items()
        }
        self.rank_of = {r.ctx.name: r for r in ranks}
        self.found = {f.function_id: f for f in divergence.functions} if divergence else {}
        # Each graph's stages as compared, made once: every rank's page of a graph
        # compares it with the same graph on every other rank.
        self.stages: dict[tuple[str, str], tuple] = {}

    def _rank(self, ctx: ProcessContext) -> Rank | None:
        rank = self.rank_of.get(ctx.name)
        return rank if rank is not None and rank.ctx is ctx else None

    def _stages(self, rank: Rank, graph_id: str) -> tuple:
        key = (rank.ctx.name, graph_id)
        if key not in self.stages:
            self.stages[key] = compared_stages(rank.ctx.dump.graphs[graph_id])
        return self.stages[key]

    def overview(self) -> RankSwitch | None:
        if not self.ranks or self.divergence is None:
            return None
        most = self.divergence.agree[0]  # the ranks that agree, the most of them
        choices = tuple(
            RankChoice(
                r.label,
                urls.process_section(r.ctx.name),
                False,
                "" if r.label in most else "differs",
            )
            for r in self.ranks
        )
        link = Link("what differs between the ranks", urls.DIVERGENCE)
        return RankSwitch("", choices, summary_line(self.divergence), link)

    def function(self, ctx: ProcessContext, function_id: str) -> RankSwitch | None:
        here = self._rank(ctx)
        if here is None or self.divergence is None:
            return None
        found = self.found.get(function_id)
        group = next((g for g in found.agree if here.label in g), ()) if found else ()
        choices = []
        for rank in self.ranks:
            href = rank.ctx.function_href(function_id)
            state = "missing" if href is None else ("" if rank.label in group else "differs")
            choices.append(RankChoice(rank.label, href, rank is here, state))
        differs = found is not None and bool(found.differences)
        target = urls.divergence_section(function_id) if differs else urls.DIVERGENCE
        link = Link("what differs between the ranks", target)
        return RankSwitch("this function", tuple(choices), _note(choices, "compiled"), link)

    def graph(self, ctx: ProcessContext, graph_id: str, page=urls.graph_page, part: str = ""):
        """The switcher of a graph's page, or (``page``) of its output or provenance
        page: the same graph of the same compile of the same function elsewhere."""
        here = self._rank(ctx)
        key = self.key_of.get(ctx.name, {}).get(graph_id) if here else None
        if key is None or self.divergence is None:
            return None
        mine = self._stages(here, graph_id)
        choices = []
        for rank in self.ranks:
            other = self.graph_at[rank.ctx.name].get(key)
            graph = rank.ctx.dump.graphs[other] if other else None
            if graph is not None and part and part not in {o.part for o in graph.output_code}:
                graph = None
            href = None
            if graph is not None:
                href = page(rank.ctx.name, other, part) if part else page(rank.ctx.name, other)
            state = "missing" if graph is None else ""
            if graph is not None and self._stages(rank, other) != mine:
                state = "differs"
            choices.append(RankChoice(rank.label, href, rank is here, state))
        found = self.found.get(key[0])
        differs = found is not None and bool(found.differences)
        target = urls.divergence_section(key[0]) if differs else urls.DIVERGENCE
        link = Link("what differs between the ranks", target)
        return RankSwitch("this graph", tuple(choices), _note(choices, "made"), link)


def _note(choices: list[RankChoice], verb: str) -> str:
    missing = [c.label for c in choices if c.state == "missing"]
    differs = [c.label for c in choices if c.state == "differs"]
    parts = []
    if missing:
        parts.append(f"not {verb} on {rank_list(missing)}")
    if differs:
        parts.append(f"different on {rank_list(differs)}")
    if not parts:
        return f"The same on every rank ({len(choices)})."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def with_switch(page, switch: RankSwitch | None):
    """``page`` with its rank switcher; the page itself when there is none."""
    return replace(page, ranks=switch) if switch is not None else page
