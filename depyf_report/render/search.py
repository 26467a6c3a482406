"""The offline search index: everything a user may look for by name.

Functions, source lines, guards, graph breaks and recompiles (with their whole
reasons, so a config name in a hint or "size mismatch" finds them), failed
compiles, dynamic-shape symbols, graphs, kernels and what each kernel computes.

It is a data file beside the overview page (deferred.py), which the page loads
when the search box is first used (no fetch, so it works from ``file://``);
every other page's search box opens the overview with the query.
"""

from __future__ import annotations

import json

from markupsafe import Markup

from . import urls
from .context import ProcessContext, break_summary, function_title, graph_order
from .guard_tree import guard_lines_of
from .names import short_name

# Rows are [kind, text, detail, href] and, for a row whose text is a summary,
# [..., more]: searched, never shown. Short lists keep the embedded JSON small.
# A row's text is cut at this many characters, and its hidden text at MORE_TEXT:
# a line of data megabytes long would otherwise sit in the overview a second time.
ROW_TEXT = 300
MORE_TEXT = 2000


def search_rows(ctx: ProcessContext) -> list[list[str]]:
    rows: list[list[str]] = []
    where = f" · {ctx.label}" if ctx.label else ""
    for fn in ctx.functions():
        page = urls.function_page(ctx.name, fn.id)
        title = function_title(fn, ctx)
        rows.append(["function", _cut(title), _cut(f"{fn.filename}:{fn.first_line}{where}"), page])
        source = "" if fn.is_resume else fn.source or ""
        for number, line in enumerate(source.splitlines(), start=fn.first_line):
            text = _cut(line[: ROW_TEXT * 4].strip())  # no copy of a long line
            if text:
                href = urls.with_anchor(page, urls.source_line(number))
                detail = _cut(f"{fn.qualname}:{number}{where}")
                rows.append(["source", text, detail, href])
        for index, entry in enumerate(fn.entries):
            rows += _guard_rows(fn, page, index, entry)
    rows += _compile_rows(ctx, where)
    for graph in sorted(ctx.dump.graphs.values(), key=graph_order):
        rows += _graph_rows(ctx, graph, where)
    return rows


def _guard_rows(fn, page: str, index: int, entry) -> list[list[str]]:
    """A row per guard, linked to its line: the page unfolds the tree there."""
    guards = entry.guards.guards
    lines = guard_lines_of(entry.guards.tree, [g.expression for g in guards])
    detail = _cut(f"{fn.qualname} {entry.compile_id}")
    rows = []
    for guard, line in zip(guards, lines):
        target = urls.entry_line(index, "g", line) if line else urls.entry_anchor(index)
        rows.append(["guard", _cut(guard.expression), detail, urls.with_anchor(page, target)])
    return rows


def _compile_rows(ctx: ProcessContext, where: str) -> list[list[str]]:
    rows = []
    for record in ctx.compiles():
        fn = ctx.function(ctx.function_of.get(record.id))
        href = ctx.compile_href(record.id) or urls.INDEX
        detail = _cut(f"{fn.qualname if fn else ''} {record.id}{where}")
        for brk in record.graph_breaks:
            at = _cut(f"{fn.qualname if fn else brk.filename}:{brk.line}{where}")
            rows.append(_row("graph break", brk.reason, at if brk.line else detail, href))
        for reason in record.recompile_reasons:
            rows.append(_row("recompile", reason, detail, href))
        if record.failure:
            rows.append(_row("failed compile", record.failure, detail, href))
        for symbol in record.dynamic_symbols:
            text = f"{symbol.name} = {symbol.source or '?'}"
            rows.append(["symbol", _cut(text), detail, href])
    return rows


def _graph_rows(ctx: ProcessContext, graph, where: str) -> list[list[str]]:
    fn = ctx.function(graph.function)
    detail = _cut(f"{fn.qualname if fn else ''} {graph.compile_id}{where}")
    shown = short_name(graph.name)  # the whole name is searched when it is longer
    row = ["graph", _cut(shown), detail, urls.graph_page(ctx.name, graph.id)]
    rows = [[*row, _cut(graph.name)] if shown != graph.name else row]
    for out in graph.output_code:
        page = urls.output_page(ctx.name, graph.id, out.part)
        for kernel in out.kernels:
            href = urls.with_anchor(page, urls.kernel_anchor(kernel.name))
            rows.append(["kernel", _cut(kernel.name), detail, href])
        for number, line in _computes(out.source):
            href = urls.with_anchor(page, urls.source_line(number))
            rows.append(["output code", _cut(line), detail, href])
    return rows


# Inductor's comment above each kernel call names what it computes:
# "# Topologically Sorted Source Nodes: [abs_1, add], Original ATen: [aten.abs, aten.add]"
_COMPUTES = "# Topologically Sorted Source Nodes:"


def _computes(source: str):
    """(line number, text) of each line of output code that says what a kernel computes."""
    if _COMPUTES not in source:
        return
    for number, line in enumerate(source.splitlines(), start=1):
        if _COMPUTES in line:
            yield number, line.strip().removeprefix("# ")


def _row(kind: str, reason: str, detail: str, href: str) -> list[str]:
    """A row for a reason: its first line shown, the rest searched when there is more."""
    summary = _cut(break_summary(reason))
    more = " ".join(reason[:MORE_TEXT].split())
    return [kind, summary, detail, href, more] if more != summary else [kind, summary, detail, href]


def _cut(text: str) -> str:
    return text if len(text) <= ROW_TEXT else text[: ROW_TEXT - 1] + "…"


def search_json(rows: list[list[str]]) -> Markup:
    """The index as JSON safe to put inside a script: no "</" can close an element
    early, and ASCII only, as a data file beside the page has no charset of its own.

    A large model has tens of thousands of guard rows that repeat one detail and one
    page, and its cache entries repeat most guards: each distinct text, detail and
    page is written once, in ``strings``, and a row is ``[kind, text number, detail
    number, page number, fragment, more?]``; site.js (searchRows) reads it back."""
    strings: dict[str, int] = {}
    compact = []
    for kind, text, detail, href, *more in rows:
        page, _, fragment = href.partition("#")
        numbers = [strings.setdefault(s, len(strings)) for s in (text, detail, page)]
        compact.append([kind, *numbers, fragment, *more])
    data = {"strings": list(strings), "rows": compact}
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
