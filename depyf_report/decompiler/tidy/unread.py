"""Temporaries stored and never read, written as their value alone.

The bytecode keeps a value for a way out that may never use it: a ``return v`` whose
``finally: break`` throws the value away comes back as ``_t3 = v`` before the break.
Where nothing reads ``_t3``, the statement ``v`` evaluates the same (a constant, no
statement at all), and the function's locals gain no name of the decompiler's.
"""

from __future__ import annotations

import ast
from collections import Counter


def unread_temporaries(stmts: list[ast.stmt], is_temp) -> list[ast.stmt]:
    """``stmts`` with each ``T = v`` of a temporary ``T`` (``is_temp``) that no code
    reads, deletes or binds another way written as ``v`` (and ``a = T = v`` as
    ``a = v``). A temporary is the decompiler's own name for a stack value, never a
    cell: every use is in ``stmts``."""
    plain, other = Counter(), Counter()
    for node in ast.walk(ast.Module(body=stmts, type_ignores=[])):
        if isinstance(node, ast.Assign):
            plain.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Name) and is_temp(node.id):
            other[node.id] += 1
    unread = {ident for ident, stores in plain.items() if other[ident] == stores}
    if not unread:
        return stmts
    return _rewritten(stmts, unread)


def _kept_targets(stmt: ast.Assign, unread: set[str]) -> list[ast.expr]:
    """The targets of ``stmt`` but the unread temporaries: ``z = _t1 = v`` (a walrus
    returned through a ``finally: continue``) stores ``v`` in ``z`` alone."""
    return [t for t in stmt.targets if not (isinstance(t, ast.Name) and t.id in unread)]


def _rewritten(stmts: list[ast.stmt], unread: set[str]) -> list[ast.stmt]:
    out = []
    for stmt in stmts:
        kept = _kept_targets(stmt, unread) if isinstance(stmt, ast.Assign) else None
        if kept:
            if len(kept) < len(stmt.targets):
                stmt = ast.copy_location(ast.Assign(targets=kept, value=stmt.value), stmt)
        elif kept is not None:
            if not isinstance(stmt.value, ast.Constant):  # a constant: no effect, no docstring
                out.append(ast.copy_location(ast.Expr(value=stmt.value), stmt))
            continue
        inner = [stmt, *getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]
        for node in inner:
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list) and block:
                    setattr(node, field, _rewritten(block, unread) or _empty(field))
        out.append(stmt)
    return out


def _empty(field: str) -> list[ast.stmt]:
    return [] if field == "orelse" else [ast.Pass()]
