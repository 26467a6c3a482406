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
    reads, deletes or binds another way written as ``v``. A temporary is the
    decompiler's own name for a stack value, never a cell: every use is in ``stmts``."""
    plain, other = Counter(), Counter()
    for node in ast.walk(ast.Module(body=stmts, type_ignores=[])):
        if isinstance(node, ast.Assign):  # (``z = T = v`` too: a walrus's value kept)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    plain[target.id] += 1
        elif isinstance(node, ast.Name) and is_temp(node.id):
            other[node.id] += 1
    unread = {ident for ident, stores in plain.items() if other[ident] == stores}
    if not unread:
        return stmts
    return _rewritten(stmts, unread)


def _unread(target, unread: set[str]) -> bool:
    return isinstance(target, ast.Name) and target.id in unread


def _rewritten(stmts: list[ast.stmt], unread: set[str]) -> list[ast.stmt]:
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Assign) and any(_unread(t, unread) for t in stmt.targets):
            stmt.targets = [t for t in stmt.targets if not _unread(t, unread)]
            if stmt.targets:
                out.append(stmt)
            elif not isinstance(stmt.value, ast.Constant):  # a constant: no effect
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
