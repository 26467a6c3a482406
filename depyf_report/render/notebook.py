"""The report in a notebook's output cell, as HTML that needs no script.

A notebook keeps what a cell displayed. A frontend that does not trust the notebook
(one opened from someone else) strips frames, scripts and styles; so the summary
here (the overview's numbers, graph breaks, recompiles) is plain tables and text,
and the live site comes in a frame below it. ``show(fn)``'s
view of torch's cache is plain HTML too, highlighted as the site highlights code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pygments.formatters import HtmlFormatter

from ..dump import Dump, Function
from . import urls
from .assets import LIGHT_STYLE
from .build_overview import build_process_view
from .context import readable_title
from .highlight import highlight_lines
from .plan import process_contexts
from .views import Row, Stat, Table
from .writer import environment

ROWS_SHOWN = 20  # of each table; the site has the rest
FRAME_HEIGHT = 640  # pixels: the overview's numbers and flowchart without scrolling
SCOPE = "depyf-report-nb"


@dataclass(frozen=True)
class ProcessSummary:
    label: str
    headline: str
    notes: tuple[str, ...]
    stats: tuple[Stat, ...]
    tables: tuple[Table, ...]  # graph breaks and recompiles, cut to ROWS_SHOWN rows
    cut: tuple[int, ...]  # rows left out of each table


def report_html(dump: Dump, folder: str, bundle: str | None) -> str:
    """The summary of every process of ``dump``, and a frame that shows ``bundle``
    (``bundle.site_bundle``: the site as one document), when given; ``folder`` is
    where the site is on disk."""
    summaries = [_summary(ctx) for ctx in process_contexts(dump)]
    return (
        environment()
        .get_template("notebook.html")
        .render(
            scope=SCOPE,
            summaries=summaries,
            problems=[str(p) for p in dump.problems],
            index=f"{folder}/{urls.INDEX}",
            bundle=bundle,
            frame_height=FRAME_HEIGHT,
        )
    )


def _summary(ctx) -> ProcessSummary:
    view = build_process_view(ctx)
    wanted = (urls.anchor(ctx.name, "graph-breaks"), urls.anchor(ctx.name, "recompiles"))
    tables = [t for name in wanted for t in view.tables if t.anchor == name]
    return ProcessSummary(
        label=view.label,
        headline=view.headline,
        notes=view.notes,
        stats=tuple(replace(s, href=None) for s in view.stats),
        tables=tuple(_cut(t) for t in tables),
        cut=tuple(max(0, len(t.rows) - ROWS_SHOWN) for t in tables),
    )


def _cut(table: Table) -> Table:
    """The first rows, as text: a link into the site's files would not open from a
    notebook server (see ``bundle.py``); the frame below has the linked site."""
    rows = tuple(
        Row(tuple(tuple(replace(link, href=None) for link in cell) for cell in row.cells))
        for row in table.rows[:ROWS_SHOWN]
    )
    return replace(table, rows=rows)


# --- show(fn): torch's cache ---------------------------------------------------------


@dataclass(frozen=True)
class EntrySummary:
    compile_id: str
    guards: int
    guard_tree: str
    shape_guards: tuple[str, ...]
    code: Sequence  # highlighted lines of the decompiled transformed code
    code_error: str | None
    resumes: tuple[str, ...]  # titles of the resume functions it calls


@dataclass(frozen=True)
class FunctionSummary:
    title: str
    where: str
    resume_note: str
    entries: tuple[EntrySummary, ...]


def cache_html(functions: list[Function]) -> str:
    """Each function's cache entries: guards and decompiled transformed code."""
    by_id = {fn.id: fn for fn in functions}
    titles = {
        fn.id: readable_title(fn, by_id.get(fn.resume.original or "") if fn.resume else None)
        for fn in functions
    }
    return (
        environment()
        .get_template("notebook-cache.html")
        .render(
            scope=SCOPE,
            code_css=HtmlFormatter(style=LIGHT_STYLE).get_style_defs(f".{SCOPE} .code"),
            functions=[_function_summary(fn, titles) for fn in functions],
        )
    )


def _function_summary(fn: Function, titles: dict[str, str]) -> FunctionSummary:
    note = f"resume function {fn.qualname}" if fn.resume else ""
    return FunctionSummary(
        title=titles[fn.id],
        where=f"{fn.filename}:{fn.first_line}",
        resume_note=note,
        entries=tuple(_entry_summary(e, titles) for e in fn.entries),
    )


def _entry_summary(entry, titles: dict[str, str]) -> EntrySummary:
    source = entry.code.decompiled
    return EntrySummary(
        compile_id=entry.compile_id,
        guards=len(entry.guards.guards),
        guard_tree=entry.guards.tree,
        shape_guards=tuple(entry.guards.shape_guards),
        code=tuple(highlight_lines(source)) if source else (),
        code_error=entry.code.decompile_error,
        resumes=tuple(titles.get(r, r) for r in entry.resume_functions),
    )
