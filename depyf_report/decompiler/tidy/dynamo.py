"""Readable code for what Dynamo wrote: its profiling hooks as one comment, then the
stack's lists evaluated away (``stack_lists``), temporaries used once inlined
(``temporaries``), and the temporaries that stay named after what they hold
(``naming``).

Around each graph call Dynamo writes

    tmp_2 = (tmp_1 := __import_torch_dot__dynamo_dot_utils.record_pregraph_bytecode_enter)()
    (tmp_3 := __import_torch_dot__dynamo_dot_utils.record_pregraph_bytecode_exit)(tmp_2)
    ...
    del tmp_1
    del tmp_3

which records a "Pregraph bytecode" range for the torch profiler around the code
Dynamo runs before the graph (often none). That exact shape, its three names read
nowhere else, becomes one comment where the enter was; the code between stays. This is the one step here that changes what runs: code that
runs this source (``prepare_debug``) records no such profiler range.
"""

from __future__ import annotations

import ast
import re

from ..structuring.fallback import comment
from .facts import SCOPES, Names
from .naming import name_temporaries
from .stack_lists import evaluate_lists
from .temporaries import inline_temporaries

PROFILER_MODULE = "__import_torch_dot__dynamo_dot_utils"
GRAPH_CALL = "__compiled_fn_"
GRAPH_OUTPUT = re.compile(r"graph_out_\d+")
CACHED_VALUE = re.compile(r"tmp_\d+")
PROFILER_NOTE = "profiler hooks of Dynamo: record_pregraph_bytecode_enter() / _exit()"


def simplify(body: list[ast.stmt], ctx, lines) -> list[ast.stmt]:
    """``body`` of code Dynamo wrote, as a person would write it."""
    body = _without_profiler_hooks(body, Names(body, ctx))
    body = evaluate_lists(body, ctx, lines)
    body = inline_temporaries(body, ctx, lines)  # the graph's name, into its call
    names = Names(body, ctx)
    outputs = graph_outputs(body, names)
    body = _without_deletes(body, outputs | cached_values(body, names))
    if outputs:
        body = inline_temporaries(body, ctx, lines, outputs)
    _without_empty_unpacking(body)
    return name_temporaries(body, ctx)


def _without_empty_unpacking(body: list[ast.stmt]) -> None:
    """``f(*[], **{})`` is ``f()``: unpacking an empty display passes nothing."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Call):
            node.args = [a for a in node.args if not _empty_star(a)]
            node.keywords = [
                k
                for k in node.keywords
                if not (k.arg is None and isinstance(k.value, ast.Dict) and not k.value.keys)
            ]


def _empty_star(arg: ast.expr) -> bool:
    return (
        isinstance(arg, ast.Starred)
        and isinstance(arg.value, (ast.List, ast.Tuple))
        and not arg.value.elts
    )


def cached_values(body: list[ast.stmt], names: Names) -> frozenset[str]:
    """Dynamo's ``tmp_N``, which hold a value its code reads twice while building the
    graph's arguments: each bound once, by a ``(tmp_N := ...)`` walrus, and deleted
    after. Only their ``del`` goes, so they are freed at the return instead."""
    bound = [
        node.target.id
        for stmt in body
        for node in ast.walk(stmt)
        if isinstance(node, ast.NamedExpr) and CACHED_VALUE.fullmatch(node.target.id)
    ]
    return frozenset(
        ident
        for ident in bound
        if names.stores[ident] == 1 and ident in names.ctx.fast and ident not in names.nested_loads
    )


def graph_outputs(body: list[ast.stmt], names: Names) -> frozenset[str]:
    """The names that hold what a compiled graph returned (``facts``): each stored
    once, by ``graph_out_N = __compiled_fn_...(...)`` at the function's top level."""
    found = set()
    for stmt in body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            continue
        target, value = stmt.targets[0], stmt.value
        if (
            isinstance(target, ast.Name)
            and GRAPH_OUTPUT.fullmatch(target.id)
            and names.stores[target.id] == 1
            and target.id in names.ctx.fast
            and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id.startswith(GRAPH_CALL)
        ):
            found.add(target.id)
    return frozenset(found)


def _without_deletes(stmts: list[ast.stmt], idents: frozenset[str]) -> list[ast.stmt]:
    """``stmts`` without ``del`` of ``idents``. Only when their objects are freed changes:
    at the return, as the frame is cleared, instead of before the resume call."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Delete) and all(
            isinstance(t, ast.Name) and t.id in idents for t in stmt.targets
        ):
            continue
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list) and inner and not isinstance(stmt, SCOPES):
                setattr(stmt, name, _without_deletes(inner, idents) or [ast.Pass()])
        for handler in getattr(stmt, "handlers", None) or ():
            handler.body = _without_deletes(handler.body, idents) or [ast.Pass()]
        out.append(stmt)
    return out


def _without_profiler_hooks(stmts: list[ast.stmt], names: Names) -> list[ast.stmt]:
    out = list(stmts)
    for stmt in out:
        if isinstance(stmt, ast.If):
            stmt.body = _without_profiler_hooks(stmt.body, names)
            stmt.orelse = _without_profiler_hooks(stmt.orelse, names)
    at = 0
    while at + 1 < len(out):
        found = _pair(out, at)
        hooks, leave = found if found else (None, None)
        dels = _deletes(out, leave + 1, hooks[1:]) if hooks else None
        if hooks is None or dels is None or not _read_only_there(hooks, names):
            at += 1
            continue
        for index in sorted([*dels, leave], reverse=True):
            del out[index]
        out[at] = comment(PROFILER_NOTE)
        at += 1
    return out


def _pair(stmts: list[ast.stmt], at: int):
    """(names, index of the exit) when ``stmts[at]`` enters and a later one exits; the
    statements between are Dynamo's pre-graph code, which stays."""
    for leave in range(at + 1, len(stmts)):
        hooks = _hook_names(stmts[at], stmts[leave])
        if hooks is not None:
            return hooks, leave
    return None


def _hook_names(enter: ast.stmt, leave: ast.stmt) -> tuple[str, str, str] | None:
    """(token, enter's name, exit's name) when the two statements are the pair."""
    if not (
        isinstance(enter, ast.Assign)
        and len(enter.targets) == 1
        and isinstance(enter.targets[0], ast.Name)
        and isinstance(leave, ast.Expr)
    ):
        return None
    token = enter.targets[0].id
    entered = _hook_call(enter.value, "record_pregraph_bytecode_enter", [])
    left = _hook_call(leave.value, "record_pregraph_bytecode_exit", [token])
    if entered is None or left is None:
        return None
    return token, entered, left


def _hook_call(node, function: str, args: list[str]) -> str | None:
    """The name ``(name := MODULE.function)(*args)`` binds, or None."""
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    if [a.id if isinstance(a, ast.Name) else None for a in node.args] != args:
        return None
    walrus = node.func
    if not (isinstance(walrus, ast.NamedExpr) and isinstance(walrus.value, ast.Attribute)):
        return None
    attr = walrus.value
    if attr.attr != function or not (
        isinstance(attr.value, ast.Name) and attr.value.id == PROFILER_MODULE
    ):
        return None
    return walrus.target.id


def _deletes(stmts: list[ast.stmt], start: int, idents) -> list[int] | None:
    """Where ``del`` of each of ``idents`` is, in this order, later in ``stmts``."""
    found = []
    for ident in idents:
        for index in range(start, len(stmts)):
            stmt = stmts[index]
            if (
                isinstance(stmt, ast.Delete)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id == ident
            ):
                found.append(index)
                start = index + 1
                break
        else:
            return None
    return found


def _read_only_there(hooks: tuple[str, str, str], names: Names) -> bool:
    """The pair's names: each stored once, the token read once, the others never."""
    token, entered, left = hooks
    if any(names.stores[n] != 1 for n in hooks) or names.deletes[token]:
        return False
    return names.loads[token] == 1 and not names.loads[entered] and not names.loads[left]
