"""Returns in a module or class body, which cannot say ``return``.

Such a body ends with ``return None``, and the compiler copies that small block to
the jumps that go to it (3.12+; 3.10 too, into the clauses of a try whose else ends
the body). Leaving a last ``while True`` loop reads back as a ``return`` inside it:
where the loop is the last thing the body runs, running on after it is the body's
end, so that ``return`` is the loop's ``break``. A clause that returns before the
statements after its try: those statements are the try's ``else``.
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
        if _is_none(node.value):
            return ast.copy_location(ast.Break(), node)
        return node

    def _own_scope(self, node):
        return node

    visit_While = visit_For = visit_AsyncFor = _own_scope
    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _own_scope


def returns_as_else(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` (a module or class body) with each ``try`` whose clauses all end in
    ``return None`` and that code follows read as ``try``/``else``: the clauses end the
    body, so what follows runs only after the try body. Not past a ``finally``, which
    runs before an else's statements but after those that follow the try."""
    for i, stmt in enumerate(stmts[:-1]):
        if not isinstance(stmt, TRIES) or stmt.finalbody or not stmt.handlers:
            continue
        if not all(_returns_none(h.body[-1:]) and _no_return(h.body[:-1]) for h in stmt.handlers):
            continue
        for handler in stmt.handlers:
            handler.body = handler.body[:-1] or [ast.Pass()]
        stmt.orelse = stmt.orelse + stmts[i + 1 :]
        return stmts[: i + 1]
    return stmts


def _returns_none(stmts: list[ast.stmt]) -> bool:
    return len(stmts) == 1 and isinstance(stmts[0], ast.Return) and _is_none(stmts[0].value)


def _is_none(value) -> bool:
    return value is None or (isinstance(value, ast.Constant) and value.value is None)


def _no_return(stmts: list[ast.stmt]) -> bool:
    """Whether no statement of ``stmts`` returns (scopes inside them aside)."""
    todo = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            return False
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))
    return True
