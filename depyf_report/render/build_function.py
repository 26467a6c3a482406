"""A function's page: its source, cache entries, guards, transformed code, compiles."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

from markupsafe import Markup

from ..dump import CacheEntry, Compile, DebugSource, FrameSummary, Function, GraphBreak
from ..origin import Origin, origin_of
from . import urls
from .build_provenance import function_graphs, made_marks
from .codeview import code_line, code_lines, guard_lines
from .compile_time import compile_time, time_bar
from .context import (
    ProcessContext,
    break_anchor,
    break_summary,
    function_title,
    same_file,
)
from .guard_tree import depths
from .metrics import metric_rows
from .names import name_link
from .recompiles import LIMIT_REMEDY, failed_guard_line, limit_hit, remedy
from .views import (
    BreakView,
    CompileView,
    EntryView,
    Frames,
    FunctionPage,
    GuardTree,
    Link,
    Mark,
    RecompileView,
)

_RESUME_NAME = re.compile(r"__resume_at_(\d{1,9})_\d+")  # int() refuses thousands of digits


def _why_no_source(ctx: ProcessContext) -> str:
    """What the page says where it shows no source: the dump's own reason (a
    converted TORCH_TRACE log names it, with the command that records it), if any."""
    reasons = [u.reason for u in ctx.dump.manifest.unavailable if u.artifact.startswith("source")]
    return f"No source: {reasons[0]}." if reasons else "The source was not captured."


def build_function_page(
    ctx: ProcessContext, fn: Function, crumbs: tuple[Link, ...]
) -> FunctionPage:
    path = urls.function_page(ctx.name, fn.id)
    source_href = _guard_source_href(fn)  # one for all entries: guard_link caches by it
    return FunctionPage(
        path=path,
        title=function_title(fn, ctx),
        crumbs=(*crumbs, Link(function_title(fn, ctx), None)),
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
        no_source=_why_no_source(ctx),
        resume_code=code_lines(
            fn.original.decompiled if fn.is_resume else None, anchor=urls.resume_code_line
        ),
        entries=tuple(_entry_view(ctx, fn, i, e, source_href) for i, e in enumerate(fn.entries)),
        compiles=tuple(_compile_view(ctx, fn, c) for c in ctx.compiles_of.get(fn.id, [])),
        original_dis=fn.original.dis,
        story=urls.function_story(ctx.name, fn.id),
    )


def _function_link(ctx: ProcessContext, function_id: str | None) -> Link:
    fn = ctx.function(function_id)
    if fn is None:
        return Link(function_id or "unknown function", None, "not in the dump")
    return Link(function_title(fn, ctx), ctx.function_href(function_id))


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
            function_title(parent, ctx) if parent else "unknown function",
            ctx.function_href(fn.resume.parent),
        ),
        line_link(fn.resume.break_line, "graph break"),
        line_link(fn.resume.resume_line, "resumes at"),
    )


def _source_marks(ctx: ProcessContext, fn: Function) -> dict[int, tuple[Mark, ...]]:
    """Every break and resume point in this source, also those its resume
    functions reached; each links to its reason or to the resume function."""
    marks: dict[int, list[Mark]] = defaultdict(list)
    for member in ctx.family(fn):
        for record in ctx.compiles_of.get(member.id, []):
            for index, brk in enumerate(ctx.graph_breaks(record)):
                line = ctx.break_line(member.id, brk)
                if line is not None:
                    label = f"graph break: {break_summary(brk.reason, brk.gb_type)}"
                    href = ctx.break_href(record.id, index)
                    if member.id == fn.id and href:
                        href = urls.fragment(break_anchor(record.id, index))
                    marks[line].append(Mark("break", _short(label), href))
        if member.id != fn.id and member.resume.resume_line is not None:
            href = ctx.function_href(member.id)
            title = f"continues in {function_title(member, ctx)}"
            marks[member.resume.resume_line].append(Mark("resume", _short(title), href))
    if fn.resume and fn.resume.resume_line is not None:
        marks[fn.resume.resume_line].append(Mark("resume", "this function starts here"))
    for member in ctx.family(fn):
        for graph in function_graphs(ctx, member):
            for line, mark in made_marks(ctx, graph).items():
                marks[line].append(mark)
    return {line: tuple(found) for line, found in marks.items()}


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _guard_source_href(fn: Function) -> Callable[[str, int], str | None]:
    """Where a guard's "file:line" comment links: that line of ``fn``'s source."""
    last = fn.first_line + len((fn.source or "").splitlines())

    def source_href(filename: str, line: int) -> str | None:
        if fn.source and same_file(filename, fn.filename) and fn.first_line <= line < last:
            return urls.fragment(urls.source_line(line))
        return None

    return source_href


def _entry_view(
    ctx: ProcessContext,
    fn: Function,
    index: int,
    entry: CacheEntry,
    source_href: Callable[[str, int], str | None],
) -> EntryView:
    count, note = guard_count(ctx, entry)
    lines = guard_lines(
        entry.guards.tree,
        anchor=lambda n: urls.entry_line(index, "g", n),
        source_href=source_href,
    )
    lines, failed = _mark_failed(ctx, fn, entry, lines)
    return EntryView(
        index=index,
        anchor=urls.entry_anchor(index),
        compile=Link(entry.compile_id, ctx.compile_href(entry.compile_id)),
        guard_count=count,
        guard_note=note,
        guards=GuardTree(lines, depths(entry.guards.tree), tuple(failed)),
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


def tree_checks(entry: CacheEntry) -> int:
    """Checks in the guard tree, each shape guard once (the tree holds some of them)."""
    in_tree = {g.expression for g in entry.guards.guards}
    return len(entry.guards.guards) + sum(1 for s in entry.guards.shape_guards if s not in in_tree)


def guard_count(ctx: ProcessContext, entry: CacheEntry) -> tuple[int, str]:
    """Torch's guard_count for the entry where it gave one, and how it relates to the tree."""
    checks = tree_checks(entry)
    record = ctx.compile(entry.compile_id)
    torch_count = record.metrics.get("guard_count") if record else None
    if not isinstance(torch_count, int) or isinstance(torch_count, bool):
        return checks, ""
    if torch_count == checks:
        return torch_count, ""
    return torch_count, (
        f"torch's guard_count (the guards Dynamo built); the tree below holds {checks} "
        "checks, as one guard may become several checks in the tree (a tensor's "
        "TENSOR_MATCH adds its dimension-marking checks) or none"
    )


def _mark_failed(
    ctx: ProcessContext, fn: Function, entry: CacheEntry, lines: tuple
) -> tuple[tuple, list[int]]:
    """Highlight the guard lines whose failure made a later compile; and their numbers."""
    marks: dict[int, list[Mark]] = defaultdict(list)
    for record in ctx.compiles_of.get(fn.id, []):
        for failure in record.guard_failures:
            if failure.entry != entry.compile_id:
                continue
            line = failed_guard_line(entry.guards.tree, failure)
            if line is not None:
                href = urls.fragment(urls.compile_anchor(record.id))
                marks[line].append(Mark("failed", f"failed: recompiled as {record.id}", href))
    if not marks:
        return lines, []
    marked = tuple(
        code_line(line.number, line.anchor, line.html, tuple(marks[line.number]))
        if line.number in marks
        else line
        for line in lines
    )
    return marked, sorted(marks)


def _debug_fields(source: DebugSource | None) -> dict:
    """Where a debugger stops in this entry's code, for a prepare_debug dump."""
    if source is None:
        return {}
    if source.substituted:
        return {"breakpoint": f"{source.file}:{source.line}"}
    return {"debug_note": source.reason or "no faithful replacement could be made"}


def _graph_link(ctx: ProcessContext, graph_id: str) -> Link:
    graph = ctx.graph(graph_id)
    return name_link(graph.name if graph else graph_id, ctx.graph_href(graph_id))


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


def break_view(ctx: ProcessContext, fn: Function, anchor: str, brk: GraphBreak) -> BreakView:
    """A break as torch explains it, with the user's line that caused it."""
    where = f"{brk.filename or fn.filename}:{brk.line}" if brk.line else "unknown line"
    href = _cause_href(ctx, fn, brk)
    link = urls.torch_doc(brk.link)
    return BreakView(
        anchor=anchor,
        summary=break_summary(brk.reason, brk.gb_type),
        reason=brk.reason,
        where=Link(where, href),
        stack=stack_frames(brk.user_stack),
        explanation=brk.explanation or "",
        hints=tuple(brk.hints),
        context=brk.context or "",
        link=Link(brk.link, link) if brk.link else None,
        wrapper=brk.wrapper or "",
        call=_call_link(ctx, fn, brk),
    )


def stack_frames(stack: list[FrameSummary]) -> tuple[Frames, ...]:
    """The stack in runs of one origin: the user's frames shown, the rest folded."""
    runs: list[tuple[str, list[str]]] = []
    for frame in stack:
        origin = origin_of(frame.filename)
        label = "" if origin is Origin.USER else origin.label
        text = f"{frame.filename}:{frame.line} in {frame.name}: {frame.code or ''}"
        if runs and runs[-1][0] == label:
            runs[-1][1].append(text)
        else:
            runs.append((label, [text]))
    return tuple(Frames(label, tuple(lines)) for label, lines in runs)


def _call_link(ctx: ProcessContext, fn: Function, brk: GraphBreak) -> Link | None:
    """Where this source calls the function the break happened in, if not the same line."""
    line = ctx.break_line(fn.id, brk)
    if line is None or line == brk.line:
        return None
    return Link(f"line {line}", ctx.source_href(fn.id, None, line))


def _cause_href(ctx: ProcessContext, fn: Function, brk: GraphBreak) -> str | None:
    """The cause's line on the page of a function whose source holds it."""
    href = ctx.source_href(fn.id, brk.filename, brk.line)
    if href or brk.line is None:
        return href
    for other in ctx.dump.functions.values():
        if not other.is_resume and same_file(brk.filename, other.filename):
            found = ctx.source_href(other.id, brk.filename, brk.line)
            if found:
                return found
    return None


def _recompile_views(ctx: ProcessContext, fn: Function, record: Compile) -> tuple:
    entries = {e.compile_id: (i, e) for i, e in enumerate(fn.entries)}
    views = []
    for failure in record.guard_failures:
        index, entry = entries.get(failure.entry, (None, None))
        line = failed_guard_line(entry.guards.tree, failure) if entry else None
        entry_link = Link(
            f"cache entry {index} (compile {failure.entry})" if entry else str(failure.entry),
            urls.fragment(urls.entry_anchor(index)) if entry else None,
        )
        guard_link = Link(
            f"guard line {line}" if line else "guard line not found in the tree",
            urls.fragment(urls.entry_line(index, "g", line)) if line else None,
        )
        views.append(
            RecompileView(entry_link, failure.guard, guard_link, failure.reason, remedy(failure))
        )
    return tuple(views)


def _compile_view(ctx: ProcessContext, fn: Function, record: Compile) -> CompileView:
    breaks = tuple(
        break_view(ctx, fn, break_anchor(record.id, i), b)
        for i, b in enumerate(ctx.graph_breaks(record))
    )
    detail = record.failure_detail
    entry_href = ctx.entry_href(record.id)
    return CompileView(
        id=record.id,
        anchor=urls.compile_anchor(record.id),
        status=record.status,
        failure=record.failure,
        failure_summary=(
            break_summary(detail.reason, detail.gb_type)
            if detail
            else break_summary(record.failure)
            if record.failure
            else None
        ),
        backend=record.backend or "",
        graph_breaks=breaks,
        recompiles=_recompile_views(ctx, fn, record),
        failure_detail=(
            break_view(ctx, fn, urls.anchor("failure", record.id), detail) if detail else None
        ),
        limit_note=LIMIT_REMEDY if limit_hit(record) else "",
        attempts=tuple(
            (a.id, "; ".join(break_summary(r) for r in record.restart_reasons) or a.status)
            for a in ctx.attempts(record)
            if a.id != record.id
        ),
        symbols=tuple(
            (s.name, s.source or "", s.lower or "", s.upper or "", s.hint or "")
            for s in record.dynamic_symbols
        ),
        time_bar=_time_bar(record),
        metrics=metric_rows(record.metrics),
        graphs=tuple(_graph_link(ctx, g) for g in record.graphs),
        entry=Link(_entry_label(record, entry_href), entry_href),
    )


def _entry_label(record: Compile, entry_href: str | None) -> str:
    if entry_href:
        return "cache entry"
    if record.status == "ok" and record.metrics and "guard_count" not in record.metrics:
        # torch builds no guards for a frame it skips, e.g. a resume function whose
        # first call breaks: that frame runs as plain Python from then on.
        return "no cache entry: Dynamo skipped this frame, which runs as plain Python"
    return "no cache entry"


def _time_bar(record: Compile) -> Markup | None:
    time = compile_time(record.metrics)
    return time_bar(time, f"compile {record.id}") if time else None
