"""The program's dynamic shapes: one table of every symbol torch made.

Each symbol is shown once per compile that made it (torch reuses names such as
``s77`` for unrelated sizes in other frames), with what it stands for, its
range, what torch merged it with, and every guard and specialization that
constrains it. Merges come from two places: an equality guard between symbols
(``Eq(2*s77, s15)``: torch replaces one by the other), and duck sizing, where
two sizes equal at the first call share one symbol from the start; the cache
entry's shape guards name those as ``L['y'].size()[0] == L['x'].size()[0]``.
"""

from __future__ import annotations

import re

from ..dump import Compile, DynamicSymbol, SymbolGuard
from .context import ProcessContext
from .views import Link, Row, Table

_SYMBOL = re.compile(r"\b[su]\d+\b")
_NUMBER = re.compile(r"^-?\d+$")
_EQUALITY = re.compile(r"^Eq\((?P<a>.+), (?P<b>.+)\)$")
# A size, as a source names it: L['x'].size()[0], L['self'].w.size()[1], ...
_SIZE = r"[A-Za-z_]\S*?\.size\(\)\[\d+\]"
_SAME_SIZE = re.compile(rf"^(?P<a>{_SIZE}) == (?P<b>{_SIZE})$")

HEADERS = ("symbol", "stands for", "range", "made by compile", "merged with", "constrained by")


def symbols_table(ctx: ProcessContext, anchor: str) -> Table:
    rows = [
        Row(tuple(_row(ctx, record, symbol)))
        for record in ctx.compiles()
        for symbol in record.dynamic_symbols
    ]
    return Table(
        "Dynamic shapes: every symbol",
        anchor,
        HEADERS,
        tuple(rows),
        "guard",
        empty="No symbolic sizes: every shape was static.",
    )


def _row(ctx: ProcessContext, record: Compile, symbol: DynamicSymbol) -> list[tuple[Link, ...]]:
    function_id = ctx.function_of.get(record.id)
    made = f"made at line {symbol.line}: {symbol.code}" if symbol.line else ""
    kind = " (unbacked: from data, no hint)" if symbol.unbacked else ""
    return [
        (Link(symbol.name + kind, _line_href(ctx, function_id, symbol), made),),
        (Link(symbol.source or "?", None),),
        (Link(_range(symbol), None),),
        (Link(record.id, ctx.compile_href(record.id)),),
        tuple(merged_with(ctx, record, symbol)) or (Link("—", None),),
        tuple(constraints(ctx, record, symbol)) or (Link("its range only", None),),
    ]


def _range(symbol: DynamicSymbol) -> str:
    text = f"[{symbol.lower or '?'}, {symbol.upper or '?'}]"
    return f"{text}, first seen {symbol.hint}" if symbol.hint else text


def merged_with(ctx: ProcessContext, record: Compile, symbol: DynamicSymbol) -> list[Link]:
    """Equalities with other symbols, and sizes duck-sized onto this symbol."""
    function_id = ctx.function_of.get(record.id)
    found = [
        _guard_link(ctx, function_id, guard, f"{equality[0]} == {equality[1]}")
        for guard in record.symbol_guards
        if (equality := _merge(guard.expression)) and _mentions(guard.expression, symbol.name)
    ]
    for other in _same_sizes(ctx, record, symbol.source):
        found.append(Link(f"{other} (equal at the first call: one symbol)", None))
    return found


def constraints(ctx: ProcessContext, record: Compile, symbol: DynamicSymbol) -> list[Link]:
    """The guards on this symbol that are not merges, and its specializations."""
    function_id = ctx.function_of.get(record.id)
    fixed = [s for s in record.specializations if s.symbol == symbol.name]
    found = [
        Link(
            f"specialized to {s.value}" + (f" at line {s.line}" if s.line else ""),
            _line_href(ctx, function_id, s),
            f"{s.reason}: {s.code}" if s.code else s.reason,
        )
        for s in fixed
    ]
    for guard in record.symbol_guards:
        text = guard.expression
        if not _mentions(text, symbol.name) or _merge(text):
            continue
        if fixed and _constant_equality(text):
            continue  # the specialization above, as a guard
        found.append(_guard_link(ctx, function_id, guard, text))
    return found


def _guard_link(ctx, function_id, guard: SymbolGuard, text: str) -> Link:
    where = f" (line {guard.line})" if guard.line else ""
    return Link(text + where, _line_href(ctx, function_id, guard), guard.code or "")


def _line_href(ctx: ProcessContext, function_id: str | None, found) -> str | None:
    if not found.line:
        return None
    return ctx.source_href(function_id, found.filename, found.line)


def _mentions(expression: str, name: str) -> bool:
    return name in _SYMBOL.findall(expression)


def _merge(expression: str) -> tuple[str, str] | None:
    """An equality between symbols: torch replaces one side with the other."""
    found = _EQUALITY.match(expression)
    if found is None:
        return None
    a, b = found["a"], found["b"]
    both = _SYMBOL.search(a) and _SYMBOL.search(b)
    return (a, b) if both and not (_NUMBER.match(a) or _NUMBER.match(b)) else None


def _constant_equality(expression: str) -> bool:
    found = _EQUALITY.match(expression)
    return bool(found and (_NUMBER.match(found["a"]) or _NUMBER.match(found["b"])))


def _same_sizes(ctx: ProcessContext, record: Compile, source: str | None) -> list[str]:
    """Sizes the cache entry's shape guards hold equal to ``source``: duck sizing."""
    if not source:
        return []
    entry = _entry(ctx, record)
    others = []
    for guard in entry.guards.shape_guards if entry else []:
        found = _SAME_SIZE.match(guard.strip())
        if found and source in (found["a"], found["b"]):
            other = found["b"] if found["a"] == source else found["a"]
            if other not in others:
                others.append(other)
    return others


def _entry(ctx: ProcessContext, record: Compile):
    fn = ctx.function(ctx.function_of.get(record.id))
    attempts = {a.id for a in ctx.attempts(record)}
    return next((e for e in fn.entries if e.compile_id in attempts), None) if fn else None
