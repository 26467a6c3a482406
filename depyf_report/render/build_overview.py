"""The overview page: headline numbers, flowcharts and tables for each process."""

from __future__ import annotations

import dataclasses
from collections import defaultdict

from markupsafe import Markup

from ..dump import Compile
from ..origin import Origin
from . import urls
from .build_function import guard_count
from .compile_time import added, compile_time, time_bar
from .context import (
    ProcessContext,
    break_summary,
    function_origin_of,
    function_title,
    graph_order,
)
from .flowchart import flowchart
from .metrics import format_metric
from .names import name_link
from .recompiles import limit_hit
from .symbols import symbols_table
from .views import Link, ProcessView, Row, Stat, Table


def build_process_view(ctx: ProcessContext) -> ProcessView:
    m = ctx.dump.manifest
    tables = (
        _functions_table(ctx),
        _other_functions_table(ctx),
        _compiles_table(ctx),
        _recompiles_table(ctx),
        _breaks_table(ctx),
        symbols_table(ctx, _anchor(ctx, "symbols")),
        _guards_table(ctx),
        _graphs_table(ctx),
        _kernels_table(ctx),
        _counters_table(ctx),
    )
    roots = ctx.roots()
    return ProcessView(
        label=ctx.label,
        anchor=urls.process_anchor(ctx.name),
        headline=_headline(ctx),
        facts=_facts(ctx),
        unfinished=m.ended is None,
        failed=m.status == "failed",
        notes=tuple(m.notes),
        stats=_stats(ctx, tables),
        flowcharts=tuple(
            flowchart(ctx, fn) for fn in roots if function_origin_of(fn) is Origin.USER
        ),
        tables=tables,
        unavailable=tuple((u.artifact, u.reason) for u in m.unavailable),
        other_flowcharts=_other_flowcharts(ctx, roots),
        time_bar=_time_bar(ctx),
    )


def _time_bar(ctx: ProcessContext) -> Markup | None:
    """Where the whole program's compile time went, added up over its compiles."""
    total = added(t for t in (compile_time(c.metrics) for c in ctx.compiles()) if t)
    return time_bar(total, "all compiles") if total else None


def _other_flowcharts(ctx: ProcessContext, roots) -> tuple:
    """Flowcharts of functions that are not the user's, one folded group per origin."""
    groups = []
    called = {
        r for fn in ctx.dump.functions.values() for e in fn.entries for r in e.resume_functions
    }
    for origin in (Origin.THIRD_PARTY, Origin.STDLIB, Origin.TORCH):
        found = [fn for fn in roots if function_origin_of(fn) is origin and fn.id not in called]
        if found:
            summary = f"{_count(len(found), 'function')} in {origin.label}"
            groups.append((summary, tuple(flowchart(ctx, fn) for fn in found)))
    return tuple(groups)


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _headline(ctx: ProcessContext) -> str:
    m = ctx.dump.manifest
    parts = [" ".join(["python", *m.argv]), m.status if m.ended else "did not finish"]
    parts.append(f"torch {m.torch_version}" if m.torch_version else "torch unknown")
    return " · ".join(parts)


def _facts(ctx: ProcessContext) -> tuple[tuple[str, str], ...]:
    m = ctx.dump.manifest
    facts = [
        ("command", " ".join(["python", *m.argv])),
        ("status", m.status if m.ended else f"{m.status} (the capture did not finish)"),
        ("started", m.started),
        ("ended", m.ended or "—"),
        ("pid", str(m.pid)),
        ("Python", m.python_version),
        ("torch", m.torch_version or "unknown"),
        ("platform", m.platform),
    ]
    if m.rank is not None:
        facts.insert(1, ("rank", f"{m.rank} of {m.world_size}"))
    return tuple(facts)


def compile_seconds(record: Compile) -> float:
    """The whole frame's compile time; a longest part when torch did not report it."""
    metrics = record.metrics
    if isinstance(metrics.get("entire_frame_compile_time_s"), int | float):
        return float(metrics["entire_frame_compile_time_s"])
    times = [v for k, v in metrics.items() if k.endswith("_time_s") and isinstance(v, int | float)]
    return float(max(times, default=0.0))


def _stats(ctx: ProcessContext, tables: tuple[Table, ...]) -> tuple[Stat, ...]:
    d = ctx.dump
    by_anchor = {t.anchor: t for t in tables}
    # torch's own functions are left out of the functions table, and so of its count.
    listed = [f for f in d.functions.values() if function_origin_of(f) is not Origin.TORCH]
    resumes = sum(1 for f in listed if f.is_resume)
    breaks = sum(len(ctx.graph_breaks(c)) for c in ctx.compiles())
    guards = sum(guard_count(ctx, e)[0] for f in d.functions.values() for e in f.entries)
    kernels = len(by_anchor[_anchor(ctx, "kernels")].rows)
    seconds = sum(compile_seconds(c) for c in d.compiles.values())

    def stat(label, value, table, concept=None):
        return Stat(label, str(value), urls.fragment(_anchor(ctx, table)), concept)

    return (
        stat(
            f"functions ({resumes} resume)" if resumes else "functions",
            len(listed),
            "functions",
            "resume-function" if resumes else None,
        ),
        stat("compiles", len(ctx.compiles()), "compiles", "cache-entry"),
        stat(
            "recompiles", len(by_anchor[_anchor(ctx, "recompiles")].rows), "recompiles", "recompile"
        ),
        stat("graph breaks", breaks, "graph-breaks", "graph-break"),
        stat("guards", guards, "guards", "guard"),
        stat("graphs", len(d.graphs), "graphs", "compiled-graph"),
        stat("kernels", kernels, "kernels", "aot-stage"),
        stat("compile time", f"{seconds:.2f} s", "compiles"),
    )


def _anchor(ctx: ProcessContext, table: str) -> str:
    return urls.anchor(ctx.name, table)


def _fn_link(ctx: ProcessContext, function_id: str | None, suffix: str = "") -> Link:
    fn = ctx.function(function_id)
    text = function_title(fn, ctx) if fn else (function_id or "—")
    href = ctx.function_href(function_id)
    return Link(text, f"{href}{suffix}" if href else None)


def _table(ctx, name: str, title: str, headers, rows, concept=None) -> Table:
    cells = (tuple(_as_cell(c) for c in r) for r in rows)
    return Table(title, _anchor(ctx, name), tuple(headers), tuple(Row(c) for c in cells), concept)


def _as_cell(value: Link | tuple[Link, ...]) -> tuple[Link, ...]:
    return value if isinstance(value, tuple) else (value,)


def _function_rows(ctx: ProcessContext, functions) -> list:
    return [
        (
            _fn_link(ctx, fn.id),
            Link(f"{fn.filename}:{fn.first_line}", None),
            Link(
                ("resume function in " if fn.is_resume else "") + function_origin_of(fn).label,
                None,
            ),
            Link(str(len(fn.entries)), None),
            Link(str(sum(len(e.graphs) for e in fn.entries)), None),
        )
        for fn in functions
    ]


_FUNCTION_HEADERS = ("function", "where", "whose code", "cache entries", "graphs")


def _functions_table(ctx: ProcessContext) -> Table:
    """The user's functions; torch's own (Dynamo's helpers, an optimizer's step) are
    left out, and the table says how many."""
    mine = [fn for fn in ctx.listed() if function_origin_of(fn) is Origin.USER]
    table = _table(ctx, "functions", "Your functions", _FUNCTION_HEADERS, _function_rows(ctx, mine))
    left_out = ctx.left_out()
    if not left_out:
        return table
    names = ", ".join(sorted({fn.qualname or fn.name for fn in left_out}))
    note = f"Not listed: {_count(len(left_out), 'function')} of torch's own ({names})."
    return dataclasses.replace(table, note=note)


def _other_functions_table(ctx: ProcessContext) -> Table:
    """Functions of third-party libraries and the standard library, folded."""
    others = [fn for fn in ctx.listed() if function_origin_of(fn) is not Origin.USER]
    rows = _function_rows(ctx, others)
    table = _table(ctx, "other-functions", "Functions in libraries", _FUNCTION_HEADERS, rows)
    table = dataclasses.replace(table, empty="None: every function compiled is yours or torch's.")
    return dataclasses.replace(
        table, folded=f"{_count(len(others), 'function')} in libraries and the standard library"
    )


def _counters_table(ctx: ProcessContext) -> Table:
    """Dynamo's own counters for the run, as torch counted them."""
    rows = [
        (
            Link(group, None),
            Link(break_summary(name) if "\n" in name else name, None, name),
            Link(str(count), None),
        )
        for group, counts in sorted(ctx.dump.manifest.counters.items())
        for name, count in sorted(counts.items(), key=lambda kv: (-_number(kv[1]), kv[0]))
    ]
    headers = ("group", "name", "count")
    table = _table(ctx, "counters", "Dynamo's counters", headers, rows)
    return dataclasses.replace(table, empty="None recorded.")


def _number(value) -> float:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _compiles_table(ctx: ProcessContext) -> Table:
    rows = [
        (
            Link(c.id, ctx.compile_href(c.id)),
            _fn_link(ctx, ctx.function_of.get(c.id)),
            _status(ctx, c),
            Link(c.backend or "—", None),
            Link(str(len(c.graphs)), None),
            Link(format_metric("entire_frame_compile_time_s", compile_seconds(c)), None),
        )
        for c in ctx.compiles()
    ]
    headers = ("compile", "function", "status", "backend", "graphs", "time")
    return _table(ctx, "compiles", "Compiles", headers, rows, "cache-entry")


def _status(ctx: ProcessContext, c: Compile) -> Link:
    """A compile's status; a failure links to the whole of it, hints and stack."""
    attempts = len(ctx.attempts(c))
    status = c.status + (f" after {attempts} attempts" if attempts > 1 else "")
    if not c.failure:
        return Link(status, None)
    detail = c.failure_detail
    summary = break_summary(detail.reason, detail.gb_type) if detail else break_summary(c.failure)
    return Link(f"{status}: {summary}", ctx.compile_href(c.id), c.failure)


def recompiles(ctx: ProcessContext) -> list[Compile]:
    """Compiles made because earlier cache entries failed their guards: one each,
    however many entries failed (torch's count of recompiles)."""
    return [c for c in ctx.compiles() if c.recompile_reasons]


def _recompiles_table(ctx: ProcessContext) -> Table:
    rows = [
        (
            Link(c.id, ctx.compile_href(c.id)),
            _fn_link(ctx, ctx.function_of.get(c.id)),
            tuple(
                Link(f"{f.entry}: {f.guard}" if f.entry else f.guard, None, f.reason)
                for f in c.guard_failures
            )
            or (Link(" ".join(c.recompile_reasons[0].split()), None),),
            Link("recompile limit hit" if limit_hit(c) else "", None),
        )
        for c in recompiles(ctx)
    ]
    headers = ("compile", "function", "guard that failed, per earlier cache entry", "")
    return _table(ctx, "recompiles", "Recompiles", headers, rows, "recompile")


def _breaks_table(ctx: ProcessContext) -> Table:
    """Breaks grouped by torch's graph-break type, each place linked to its marked line."""
    lines: dict[str, list[Link]] = defaultdict(list)
    for c in ctx.compiles():
        function_id = ctx.function_of.get(c.id)
        for index, b in enumerate(ctx.graph_breaks(c)):
            line = ctx.break_line(function_id, b)
            shown = line if line is not None else b.line
            where = f"{_short(b.filename)}:{shown}" if shown else "unknown line"
            href = ctx.source_href(function_id, b.filename, line) if line else None
            href = href or ctx.break_href(c.id, index)
            lines[break_summary(b.reason, b.gb_type)].append(
                Link(where, href, _fn_link(ctx, function_id).text)
            )
    rows = [
        (Link(reason, None), Link(str(len(found)), None), tuple(found))
        for reason, found in sorted(lines.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    ]
    headers = ("graph-break type", "count", "where")
    return _table(ctx, "graph-breaks", "Graph breaks by type", headers, rows, "graph-break")


def _short(filename: str | None) -> str:
    return (filename or "?").rsplit("/", 1)[-1]


def _guards_table(ctx: ProcessContext) -> Table:
    rows = [
        (
            _fn_link(ctx, fn.id, urls.fragment(urls.entry_anchor(i))),
            Link(e.compile_id, ctx.compile_href(e.compile_id)),
            Link(str(guard_count(ctx, e)[0]), None, guard_count(ctx, e)[1]),
            Link(", ".join(sorted({g.kind for g in e.guards.guards if g.kind})) or "—", None),
        )
        for fn in ctx.functions()
        for i, e in enumerate(fn.entries)
    ]
    headers = ("cache entry of", "compile", "guards", "kinds")
    return _table(ctx, "guards", "Guards per cache entry", headers, rows, "guard")


def _graphs_table(ctx: ProcessContext) -> Table:
    rows = [
        (
            name_link(g.name, ctx.graph_href(g.id)),
            _fn_link(ctx, g.function),
            Link(g.compile_id, ctx.compile_href(g.compile_id)),
            Link(str(len(g.stages)), None),
            Link(str(sum(len(o.kernels) for o in g.output_code)), None),
        )
        for g in sorted(ctx.dump.graphs.values(), key=graph_order)
    ]
    headers = ("graph", "function", "compile", "stages", "kernels")
    return _table(ctx, "graphs", "Compiled graphs", headers, rows, "compiled-graph")


def _kernels_table(ctx: ProcessContext) -> Table:
    rows = [
        (
            Link(
                k.name,
                urls.with_anchor(
                    urls.output_page(ctx.name, g.id, o.part), urls.kernel_anchor(k.name)
                ),
            ),
            name_link(g.name, ctx.graph_href(g.id)),
            Link(o.part, urls.output_page(ctx.name, g.id, o.part)),
            Link(k.language, None),
        )
        for g in sorted(ctx.dump.graphs.values(), key=graph_order)
        for o in g.output_code
        for k in o.kernels
    ]
    headers = ("kernel", "graph", "code", "language")
    return _table(ctx, "kernels", "Kernels", headers, rows, "aot-stage")
