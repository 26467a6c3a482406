"""Returns in a module or class body, which cannot say ``return``.

Such a body ends with ``return None``, and 3.12+ copy that small block to the jumps
that go to it: leaving a last ``while True`` loop reads back as a ``return`` inside it.
Where the loop is the last thing the body runs, running on after it is the body's end,
so that ``return`` is the loop's ``break``.
"""

from __future__ import annotations

import ast

from ..structuring.trys import TRIES

_LOOPS = (ast.While, ast.For, ast.AsyncFor)


def returns_as_breaks(stmts: list[ast.stmt]) -> None:
    """Turn ``return None`` inside a loop that ends ``stmts`` (the whole body, or a
    part whose end is the body's end) into ``break``, in place."""
    last = stmts[-1] if stmts else None
    if isinstance(last, _LOOPS):
        last.body = [_Breaks().visit(s) for s in last.body]
        returns_as_breaks(last.orelse)  # (after the loop ran out: still the end)
    elif isinstance(last, ast.If):
        returns_as_breaks(last.body)
        returns_as_breaks(last.orelse)
    elif isinstance(last, (ast.With, ast.AsyncWith)):
        returns_as_breaks(last.body)
    elif isinstance(last, TRIES):
        # (a finally body also ends an exception's way out, which a break would stop;
        # running off a try body with an else clause runs that clause next)
        returns_as_breaks(last.orelse if last.orelse else last.body)
        for handler in last.handlers:
            returns_as_breaks(handler.body)
    elif isinstance(last, ast.Match):
        for case in last.cases:
            returns_as_breaks(case.body)


class _Breaks(ast.NodeTransformer):
    """``return None`` as ``break`` in one loop's own statements (not in loops or
    scopes inside it, where a break would mean something else)."""

    def visit_Return(self, node):
        if node.value is None or (
            isinstance(node.value, ast.Constant) and node.value.value is None
        ):
            return ast.copy_location(ast.Break(), node)
        return node

    def _own_scope(self, node):
        return node

    visit_While = visit_For = visit_AsyncFor = _own_scope
    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _own_scope
