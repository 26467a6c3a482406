"""A function's page: its source, cache entries, guards, transformed code, compiles."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePath

from ..model import CacheEntry, Compile, DebugSource, Function
from . import urls
from .codeview import code_lines, guard_lines
from .context import ProcessContext, break_summary, function_title
from .views import BreakView, CompileView, EntryView, FunctionPage, Link, Mark

_RESUME_NAME = re.compile(r"__resume_at_(\d{1,9})_\d+")  # int() refuses thousands of digits


def build_function_page(
    ctx: ProcessContext, fn: Function, crumbs: tuple[Link, ...]
) -> FunctionPage:
    path = urls.function_page(ctx.name, fn.id)
    return FunctionPage(
        path=path,
        title=function_title(fn),
        crumbs=(*crumbs, Link(function_title(fn), None)),
        process=ctx.label,
        name=fn.name,
        qualname=fn.qualname,
        location=f"{fn.filename}:{fn.first_line}",
        is_resume=fn.is_resume,
        resume=_resume_links(ctx, fn),
        resumes=tuple(_function_link(ctx, r.id) for r in ctx.resumes_of.get(fn.id, [])),
        source=code_lines(
            fn.source,
            anchor=urls.source_line,
            first_line=fn.first_line,
            marks=_source_marks(ctx, fn),
        ),
        resume_code=code_lines(
            fn.original.decompiled if fn.is_resume else None, anchor=urls.resume_code_line
        ),
        entries=tuple(_entry_view(ctx, fn, i, e) for i, e in enumerate(fn.entries)),
        compiles=tuple(_compile_view(ctx, fn, c) for c in ctx.compiles_of.get(fn.id, [])),
        original_dis=fn.original.dis,
        story=urls.function_story(ctx.name, fn.id),
    )


def _function_link(ctx: ProcessContext, function_id: str | None) -> Link:
    fn = ctx.function(function_id)
    if fn is None:
        return Link(function_id or "unknown function", None, "not in the dump")
    return Link(function_title(fn), ctx.function_href(function_id))


def _resume_links(ctx: ProcessContext, fn: Function) -> tuple[Link, ...]:
    if not fn.resume:
        return ()
    parent = ctx.function(fn.resume.parent)
    # Break and resume lines are lines of the user function this code continues.
    original = fn.resume.original or fn.resume.parent
    parent_page = ctx.function_href(original)

    def line_link(line: int | None, what: str) -> Link:
        if line is None or not parent_page:
            return Link(f"{what}: unknown", None)
        return Link(f"{what}: line {line}", urls.with_anchor(parent_page, urls.source_line(line)))

    return (
        Link(
            function_title(parent) if parent else "unknown function",
            ctx.function_href(fn.resume.parent),
        ),
        line_link(fn.resume.break_line, "graph break"),
        line_link(fn.resume.resume_line, "resumes at"),
    )


def _source_marks(ctx: ProcessContext, fn: Function) -> dict[int, tuple[Mark, ...]]:
    marks: dict[int, list[Mark]] = defaultdict(list)
    for record in ctx.compiles_of.get(fn.id, []):
        for brk in record.graph_breaks:
            if brk.line is not None and _same_file(brk.filename, fn.filename):
                href = urls.fragment(urls.compile_anchor(record.id))
                marks[brk.line].append(Mark("break", "graph break", href))
    for child in ctx.resumes_of.get(fn.id, []):
        if child.resume.resume_line is not None:
            href = ctx.function_href(child.id)
            marks[child.resume.resume_line].append(Mark("resume", f"resumes in {child.name}", href))
    if fn.resume and fn.resume.resume_line is not None:
        marks[fn.resume.resume_line].append(Mark("resume", "this function starts here"))
    return {line: tuple(found) for line, found in marks.items()}


def _same_file(a: str | None, b: str) -> bool:
    if not a:
        return True
    return a == b or PurePath(a).name == PurePath(b).name


def _entry_view(ctx: ProcessContext, fn: Function, index: int, entry: CacheEntry) -> EntryView:
    last = fn.first_line + len((fn.source or "").splitlines())

    def source_href(filename: str, line: int) -> str | None:
        if fn.source and _same_file(filename, fn.filename) and fn.first_line <= line < last:
            return urls.fragment(urls.source_line(line))
        return None

    return EntryView(
        index=index,
        anchor=urls.entry_anchor(index),
        compile=Link(entry.compile_id, ctx.compile_href(entry.compile_id)),
        guard_count=len(entry.guards.guards) + len(entry.guards.shape_guards),
        guard_lines=guard_lines(
            entry.guards.tree,
            anchor=lambda n: urls.entry_line(index, "g", n),
            source_href=source_href,
        ),
        shape_guards=tuple(entry.guards.shape_guards),
        transformed=code_lines(
            entry.code.decompiled,
            anchor=lambda n: urls.entry_line(index, "t", n),
            link=code_name_links(ctx, entry).get,
        ),
        decompile_error=entry.code.decompile_error,
        dis=entry.code.dis,
        graphs=tuple(_graph_link(ctx, g) for g in entry.graphs),
        resume_functions=tuple(_function_link(ctx, r) for r in entry.resume_functions),
        **_debug_fields(ctx.debug_of.get(entry.compile_id)),
    )


def _debug_fields(source: DebugSource | None) -> dict:
    """Where a debugger stops in this entry's code, for a prepare_debug dump."""
    if source is None:
        return {}
    if source.substituted:
        return {"breakpoint": f"{source.file}:{source.line}"}
    return {"debug_note": source.reason or "no faithful replacement could be made"}


def _graph_link(ctx: ProcessContext, graph_id: str) -> Link:
    graph = ctx.graph(graph_id)
    return Link(graph.name if graph else graph_id, ctx.graph_href(graph_id))


def code_name_links(ctx: ProcessContext, entry: CacheEntry) -> dict[str, str]:
    """``__compiled_fn_*`` and ``__resume_at_*`` names in transformed code -> pages."""
    links = {}
    for graph_id in entry.graphs:
        graph = ctx.graph(graph_id)
        if graph:
            links[graph.name] = ctx.graph_href(graph_id)
    for name, function_id in resume_names(ctx, entry).items():
        links[name] = ctx.function_href(function_id)
    return {name: href for name, href in links.items() if href}


def resume_names(ctx: ProcessContext, entry: CacheEntry) -> dict[str, str]:
    """Each ``__resume_at_<offset>_<n>`` name the code calls -> a resume function id.

    The offset names the resume point in the original code, so it picks the
    function whose resume offset matches; names left over go in call order.
    """
    names = list(
        dict.fromkeys(m.group(0) for m in _RESUME_NAME.finditer(entry.code.decompiled or ""))
    )
    candidates = [ctx.function(r) for r in entry.resume_functions]
    unmatched = [fn for fn in candidates if fn]
    found = {}
    for name in names:
        offset = int(_RESUME_NAME.fullmatch(name)[1])
        match = next((fn for fn in unmatched if fn.resume and fn.resume.offset == offset), None)
        match = match or (unmatched[0] if unmatched else None)
        if match:
            unmatched.remove(match)
            found[name] = match.id
    return found


def _compile_view(ctx: ProcessContext, fn: Function, record: Compile) -> CompileView:
    breaks = tuple(
        BreakView(
            summary=break_summary(b.reason),
            reason=b.reason,
            where=Link(
                f"{b.filename or fn.filename}:{b.line}" if b.line else "unknown line",
                ctx.source_href(fn.id, b.filename, b.line),
            ),
            stack=tuple(f"{s.filename}:{s.line} in {s.name}: {s.code or ''}" for s in b.user_stack),
        )
        for b in record.graph_breaks
    )
    entry_href = ctx.entry_href(record.id)
    return CompileView(
        id=record.id,
        anchor=urls.compile_anchor(record.id),
        status=record.status,
        failure=record.failure,
        failure_summary=break_summary(record.failure) if record.failure else None,
        backend=record.backend or "",
        graph_breaks=breaks,
        recompile_reasons=tuple(record.recompile_reasons),
        symbols=tuple(
            (s.name, s.source or "", s.lower or "", s.upper or "", s.hint or "")
            for s in record.dynamic_symbols
        ),
        metrics=tuple((k, format_metric(k, v)) for k, v in sorted(record.metrics.items())),
        graphs=tuple(_graph_link(ctx, g) for g in record.graphs),
        entry=Link("cache entry" if entry_href else "no cache entry", entry_href),
    )


def format_metric(key: str, value) -> str:
    if isinstance(value, float) and key.endswith("_s"):
        return f"{value:.3f} s"
    return str(value)
