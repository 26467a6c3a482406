"""The offline search index: functions, graphs, guards and source lines.

It is embedded in the overview page as JSON (no fetch, so it works from
``file://``); every other page's search box opens the overview with the query.
"""

from __future__ import annotations

import json

from markupsafe import Markup

from . import urls
from .context import ProcessContext, function_title, graph_order

# Rows are [kind, text, detail, href]; short lists keep the embedded JSON small.
# A row's text is cut at this many characters: a line of data megabytes long
# would otherwise sit in the overview a second time.
ROW_TEXT = 300


def search_rows(ctx: ProcessContext) -> list[list[str]]:
    rows: list[list[str]] = []
    where = f" · {ctx.label}" if ctx.label else ""
    for fn in ctx.functions():
        page = urls.function_page(ctx.name, fn.id)
        title = function_title(fn)
        rows.append(["function", _cut(title), _cut(f"{fn.filename}:{fn.first_line}{where}"), page])
        source = "" if fn.is_resume else fn.source or ""
        for number, line in enumerate(source.splitlines(), start=fn.first_line):
            text = _cut(line[: ROW_TEXT * 4].strip())  # no copy of a long line
            if text:
                href = urls.with_anchor(page, urls.source_line(number))
                detail = _cut(f"{fn.qualname}:{number}{where}")
                rows.append(["source", text, detail, href])
        for index, entry in enumerate(fn.entries):
            href = urls.with_anchor(page, urls.entry_anchor(index))
            for guard in entry.guards.guards:
                detail = _cut(f"{fn.qualname} {entry.compile_id}")
                rows.append(["guard", _cut(guard.expression), detail, href])
    for graph in sorted(ctx.dump.graphs.values(), key=graph_order):
        fn = ctx.function(graph.function)
        detail = f"{fn.qualname if fn else ''} {graph.compile_id}{where}"
        rows.append(["graph", _cut(graph.name), _cut(detail), urls.graph_page(ctx.name, graph.id)])
    return rows


def _cut(text: str) -> str:
    return text if len(text) <= ROW_TEXT else text[: ROW_TEXT - 1] + "…"


def search_json(rows: list[list[str]]) -> Markup:
    """JSON safe to put inside a <script> element: no "</" can close it early."""
    text = json.dumps(rows, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
