"""The divergence page: what the ranks of a distributed run compiled differently."""

from __future__ import annotations

import difflib

from . import urls
from .concepts import INDEX_CRUMB
from .divergence import Counts, Difference, Divergence, FunctionDivergence, Side, summary_line
from .ranks import Rank, rank_list
from .views import (
    CountsRow,
    DifferenceView,
    DiffLine,
    DivergencePage,
    FunctionDivergenceView,
    Link,
    SideView,
)

# Lines of context around each change in a diff, as `diff -u` shows.
CONTEXT_LINES = 3


def build_divergence_page(found: Divergence, ranks: list[Rank]) -> DivergencePage:
    return DivergencePage(
        path=urls.DIVERGENCE,
        title="What differs between the ranks",
        crumbs=(INDEX_CRUMB, Link("ranks", None)),
        summary=summary_line(found),
        rank_sections=tuple(Link(r.label, urls.process_section(r.ctx.name)) for r in ranks),
        counts=tuple(_counts_row(f) for f in found.functions),
        functions=tuple(_function_view(f) for f in found.differing()),
    )


def _counts_row(found: FunctionDivergence) -> CountsRow:
    cells = tuple(
        Link(_counts_text(counts), href, "compiles / recompiles / graph breaks")
        for counts, (_, href) in zip(found.counts, found.hrefs)
    )
    differs = len({c for c in found.counts}) > 1
    anchor = urls.divergence_section(found.function_id) if found.differences else None
    return CountsRow(Link(found.title, anchor), cells, differs)


def _counts_text(counts: Counts | None) -> str:
    if counts is None:
        return "—"
    return f"{counts.compiles} / {counts.recompiles} / {counts.graph_breaks}"


def _function_view(found: FunctionDivergence) -> FunctionDivergenceView:
    first, *others = found.agree
    agree = [f"{rank_list(first)} agree" if len(first) > 1 else rank_list(first)]
    agree += [rank_list(group) for group in others]
    return FunctionDivergenceView(
        title=found.title,
        anchor=urls.anchor("diverged", found.function_id),
        agree=tuple(agree),
        links=tuple(Link(label, href) for label, href in found.hrefs),
        differences=tuple(
            _difference_view(found.function_id, index, d)
            for index, d in enumerate(found.differences)
        ),
    )


def _difference_view(function_id: str, index: int, found: Difference) -> DifferenceView:
    base = found.sides[0] if found.sides else None
    return DifferenceView(
        topic=found.topic,
        anchor=urls.anchor("diverged", function_id, index),
        sides=tuple(_side_view(side, base if side is not base else None) for side in found.sides),
        items=tuple((item, rank_list(ranks)) for item, ranks in found.items),
        among=rank_list(found.among) if found.among else "",
        presence=found.presence,
    )


def _side_view(side: Side, base: Side | None) -> SideView:
    diff, note = (), ""
    if not side.present:
        note = "not on these ranks"
    elif base is not None and not base.present:
        note = "only these ranks have it"
    elif base is not None:
        diff = unified_diff(base.text, side.text)
        note = f"differs from {rank_list(base.ranks)}:"
    return SideView(
        ranks=rank_list(side.ranks),
        links=tuple(Link(label, href) for label, href in side.hrefs),
        present=side.present,
        text=side.text,
        diff=diff,
        note=note,
    )


def unified_diff(old: str, new: str) -> tuple[DiffLine, ...]:
    """``new`` against ``old``, as ``diff -u`` shows it, without the file headers."""
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=CONTEXT_LINES)
    shown = []
    for line in lines:
        if line.startswith(("---", "+++")) and not shown:
            continue
        kind = {"@": "hunk", "+": "add", "-": "del"}.get(line[:1], "same")
        shown.append(DiffLine(kind, line))
    return tuple(shown)
