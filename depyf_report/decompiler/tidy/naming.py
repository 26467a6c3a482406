"""Names for the temporaries that stay: what each holds, in place of ``_tN``.

A temporary stays where moving its value would change the order in which the code
runs: ``_t4 = torch._dynamo.graph_break`` read before a call that could rebind it.
Named after what it holds, it reads as a person would write it:
``graph_break = torch._dynamo.graph_break``. Only the name changes. The new name is
a fast local like the old one, and it is new to the function: no name the function
reads, binds or could read as a global or builtin.
"""

from __future__ import annotations

import ast
import builtins
import keyword
from collections import Counter

from .facts import SCOPES, statements


def name_temporaries(body: list[ast.stmt], ctx) -> list[ast.stmt]:
    """``body`` with each temporary stored once, and not seen by a nested scope,
    renamed after its value."""
    taken = _names_in(body) | _names_of(ctx.code) | set(dir(builtins))
    stores, nested = _temporaries(body, ctx)
    renames: dict[str, str] = {}
    for stmt in _top_level_assignments(body):
        for target in stmt.targets:
            ident = target.id
            if not ctx.is_temp(ident) or stores[ident] != 1 or ident in nested:
                continue
            hint = _hint(stmt.value, renames)
            if hint is None:
                continue
            new = _fresh(hint, taken)
            taken.add(new)
            renames[ident] = new
    if renames:
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, ast.Name) and node.id in renames:
                node.id = renames[node.id]
    return body


def _hint(value: ast.expr, renames: dict[str, str]) -> str | None:
    """A name for what ``value`` is: an attribute's or a name's, a key's (``args_0``
    for ``args[0]``), or a call's callee followed by ``_result``."""
    if isinstance(value, ast.Attribute):
        return value.attr
    if isinstance(value, ast.Name):
        return renames.get(value.id, value.id)
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant):
        key = value.slice.value
        if isinstance(key, str):
            return key
        inner = _hint(value.value, renames)
        return f"{inner}_{key}" if inner and type(key) is int and key >= 0 else None
    if isinstance(value, ast.NamedExpr):
        return _hint(value.value, renames)
    if isinstance(value, ast.Call):
        callee = _hint(value.func, renames)
        return f"{callee}_result" if callee else None
    return None


def _fresh(hint: str, taken: set[str]) -> str:
    base = hint.strip("_")
    if not base.isidentifier() or keyword.iskeyword(base):
        base = "value"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name


def _top_level_assignments(body: list[ast.stmt]):
    """``name = value`` and ``a = b = value`` statements, in blocks too, nested scopes
    left out."""
    for stmt in statements(body):
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            yield stmt


def _temporaries(body: list[ast.stmt], ctx) -> tuple[Counter, set[str]]:
    """How often each name is stored, and the names a nested scope mentions."""
    stores: Counter = Counter()
    nested: set[str] = set()

    def visit(node, inside: bool) -> None:
        if isinstance(node, ast.Name):
            if inside:
                nested.add(node.id)
            elif isinstance(node.ctx, (ast.Store, ast.Del)):
                stores[node.id] += 1
            return
        inside = inside or isinstance(node, SCOPES)
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    for stmt in body:
        visit(stmt, False)
    return stores, nested


def _names_in(body: list[ast.stmt]) -> set[str]:
    found = set()
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            found.update(node.names)
    return found


def _names_of(code) -> set[str]:
    """The local, cell and free names of ``code`` and its nested code objects (the
    globals they read are names in the decompiled body)."""
    names, stack = set(), [code]
    while stack:
        c = stack.pop()
        names.update(c.co_varnames, c.co_cellvars, c.co_freevars)
        stack.extend(k for k in c.co_consts if hasattr(k, "co_code"))
    return names
