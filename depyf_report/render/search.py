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


def search_rows(ctx: ProcessContext) -> list[list[str]]:
    rows: list[list[str]] = []
    where = f" · {ctx.label}" if ctx.label else ""
    for fn in ctx.functions():
        page = urls.function_page(ctx.name, fn.id)
        title = function_title(fn)
        rows.append(["function", title, f"{fn.filename}:{fn.first_line}{where}", page])
        for number, line in enumerate((fn.source or "").splitlines(), start=fn.first_line):
            if line.strip() and not fn.is_resume:
                href = urls.with_anchor(page, urls.source_line(number))
                rows.append(["source", line.strip(), f"{fn.qualname}:{number}{where}", href])
        for index, entry in enumerate(fn.entries):
            href = urls.with_anchor(page, urls.entry_anchor(index))
            for guard in entry.guards.guards:
                rows.append(["guard", guard.expression, f"{fn.qualname} {entry.compile_id}", href])
    for graph in sorted(ctx.dump.graphs.values(), key=graph_order):
        fn = ctx.function(graph.function)
        detail = f"{fn.qualname if fn else ''} {graph.compile_id}{where}"
        rows.append(["graph", graph.name, detail, urls.graph_page(ctx.name, graph.id)])
    return rows


def search_json(rows: list[list[str]]) -> Markup:
    """JSON safe to put inside a <script> element: no "</" can close it early."""
    text = json.dumps(rows, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
