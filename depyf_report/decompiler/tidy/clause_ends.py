"""The ``name = None; del name`` an ``except ... as name`` clause runs on its way out.

The compiler clears the clause's name wherever the clause is left. Where a return
leaves it past a finally body's copy or a with's ``__exit__``, structuring cannot
tell that clearing from the clause's own statements, and it comes back written out,
the returned value kept in a temporary across it: ``_t1 = v; e = None; del e;
return _t1``. The return clears the name itself, so that is ``return v``.

3.12+ copy a small end of the function (the code after the try, and its return)
past the clearing as well, to the end of the clause, where the end of the try body
runs the original: the walk reads that original as the try's else, and the clause
as going on to the clearing and the copy after the try. Those are one code.
"""

from __future__ import annotations

import ast

from ..simulation import markers as m
from ..structuring.clauses import clears_name, never_goes_on
from ..structuring.trys import TRIES

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def without_clearing(body: list[ast.stmt], name: str) -> list[ast.stmt]:
    """``body``, an except clause's for ``name``, with each clearing of ``name`` that a
    return follows left to the return."""
    out: list[ast.stmt] = []
    i = 0
    while i < len(body):
        stmt = body[i]
        if clears_name(body, i, name) and _returns_after(body[i + 2 :], name):
            i += 2
            continue
        if not isinstance(stmt, _SCOPES):
            _inner_bodies(stmt, name)
        out.append(stmt)
        i += 1
    return out


def _inner_bodies(stmt: ast.stmt, name: str) -> None:
    for part in [stmt, *getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(part, field, None)
            if isinstance(inner, list) and inner:
                setattr(part, field, without_clearing(inner, name))


def _returns_after(rest: list[ast.stmt], name: str) -> bool:
    """Whether a return that reads no ``name`` (it is gone) follows, past the exits of
    the withs it leaves."""
    rest = [s for s in rest if not isinstance(s, m.ExitedWith)]
    return (
        bool(rest)
        and isinstance(rest[0], ast.Return)
        and (rest[0].value is None or not m.reads(name, rest[0].value))
    )


def else_copied_after_clearing(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` where a try (no finally) whose only clause that goes on is named is
    followed by nothing but the clearing of that name and a copy of the try's else:
    the try with no else, and the else after it. Its body's end then runs the same
    code, and the clause clears its name itself."""
    for i, stmt in enumerate(stmts[:-2]):
        if not isinstance(stmt, TRIES) or stmt.finalbody or not stmt.orelse:
            continue
        open_clauses = [h for h in stmt.handlers if not never_goes_on(h.body)]
        if len(open_clauses) != 1 or not open_clauses[0].name:
            continue
        rest = stmts[i + 1 :]
        if clears_name(rest, 0, open_clauses[0].name) and m.same(rest[2:], stmt.orelse):
            stmt.orelse, after = [], stmt.orelse
            return [*stmts[: i + 1], *after]
    return stmts


def runs_after_clearing(stmts: list[ast.stmt]) -> bool:
    """Whether an ``except ... as name`` clause in ``stmts`` holds code after its own
    clearing of ``name`` (other than a jump, or a return of a constant): the compiler
    clears the name after the clause's ``POP_EXCEPT``, so that code runs once the
    exception is no longer handled, and written in the clause it would see it (a
    raise there chained to it)."""
    for node in ast.walk(ast.Module(body=stmts, type_ignores=[])):
        if isinstance(node, ast.ExceptHandler) and node.name and _past(node.body, node.name):
            return True
    return False


def _past(body: list[ast.stmt], name: str) -> bool:
    """Whether ``body`` or a block of its statements (not a nested clause's, which
    ``runs_after_clearing`` reads apart, nor a scope's) runs code after clearing
    ``name``."""
    for i, stmt in enumerate(body):
        if clears_name(body, i, name):
            return any(not _only_leaves(s) for s in body[i + 2 :])
        if isinstance(stmt, _SCOPES):
            continue
        for part in [stmt, *getattr(stmt, "cases", ())]:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(part, field, None)
                if isinstance(inner, list) and inner and _past(inner, name):
                    return True
    return False


def _only_leaves(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Return):
        return stmt.value is None or isinstance(stmt.value, ast.Constant)
    return isinstance(stmt, (ast.Break, ast.Continue, ast.Pass, m.ExitedWith))
