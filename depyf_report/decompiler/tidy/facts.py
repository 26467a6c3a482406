"""What the passes over Dynamo's code may assume about a function's names.

A *fixed* name always holds the same value once read: a parameter (a fast local)
the body never stores or deletes, or a temporary of the decompiler's stored once,
outside any loop, never deleted and read by no nested scope. Reading one cannot raise (it was read before, or is a parameter)
and no call can change it (fast locals only: a cell could be rebound by a closure).
An *inert* expression is made of constants, fixed names and displays of them: it has
no effect, cannot raise, and gives the same value wherever it is evaluated.

A *graph output* is Dynamo's ``graph_out_N = __compiled_fn_N_<uuid>(...)``: the tuple
a compiled graph returns, which only this frame holds, with one entry for each index
Dynamo's code reads. Once ``dynamo.simplify`` has dropped its ``del``, it is fixed like
a temporary, and reading an entry at a constant index is inert.

Dynamo's own globals are fixed too: ``__compiled_fn_*``, ``__resume_at_*``,
``__import_*`` and ``__builtins_dict___*``, which it installs in the module's globals
under names no program uses, and never rebinds; so is a constant key of its builtins
dict, which it fills before the code runs and never changes.
"""

from __future__ import annotations

import ast
from collections import Counter

from ..structuring.fallback import MARK

DYNAMO_GLOBALS = ("__compiled_fn_", "__resume_at_", "__import_", "__builtins_dict___")

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
# A name inside one of these is in a scope of its own.
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


class Names:
    """Stores, deletes and loads of each name in one function body."""

    def __init__(self, body: list[ast.stmt], ctx, outputs: frozenset = frozenset()) -> None:
        self.ctx = ctx
        self.outputs = outputs  # graph outputs (above)
        self.stores: Counter = Counter()
        self.deletes: Counter = Counter()
        self.loads: Counter = Counter()
        self.nested_loads: set[str] = set()  # read inside a nested scope
        for stmt in body:
            self._count(stmt, in_loop=False, nested=False)
        code = ctx.code
        self.params = set(code.co_varnames[: _arg_count(code)])
        positional = code.co_argcount + code.co_kwonlyargcount
        # ``*args``: always a tuple, so unpacking it runs no code of the program's
        self.varargs = code.co_varnames[positional] if code.co_flags & 0x04 else None

    def _count(self, node, in_loop: bool, nested: bool) -> None:
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                self.stores[node.id] += 2 if in_loop else 1
            elif isinstance(node.ctx, ast.Del):
                self.deletes[node.id] += 1
            else:
                self.loads[node.id] += 1
                if nested:
                    self.nested_loads.add(node.id)
            return
        in_loop = in_loop or isinstance(node, (*_LOOPS, ast.comprehension))
        nested = nested or isinstance(node, SCOPES)
        for child in ast.iter_child_nodes(node):
            self._count(child, in_loop, nested)

    def is_temp(self, ident: str) -> bool:
        return self.ctx.is_temp(ident) or ident in self.outputs

    def single(self, ident: str) -> bool:
        """A temporary stored once, outside loops, never deleted."""
        return self.is_temp(ident) and self.stores[ident] == 1 and not self.deletes[ident]

    def fixed(self, ident: str) -> bool:
        if self.is_temp(ident):  # invented, so a fast local unless a nested scope reads it
            return self.single(ident) and ident not in self.nested_loads
        if ident.startswith(DYNAMO_GLOBALS) and not self.stores[ident]:
            return ident not in self.ctx.fast and ident not in self.ctx.cells
        if ident not in self.ctx.fast or ident not in self.params:
            return False
        return not self.stores[ident] and not self.deletes[ident]

    def inert(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.Name):
            return self.fixed(node.id)
        if isinstance(node, (ast.List, ast.Tuple)):
            return all(self.inert(e) for e in node.elts)
        if isinstance(node, ast.Starred):
            value = node.value
            return isinstance(value, ast.Name) and value.id == self.varargs and self.fixed(value.id)
        return self.output_entry(node) or self.cell(node)

    def cell(self, node: ast.expr) -> bool:
        """``(lambda: x).__closure__[0]``: the cell of ``x``, as the decompiler writes
        LOAD_CLOSURE; the same cell object wherever it is read."""
        return (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value == 0
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "__closure__"
            and isinstance(node.value.value, ast.Lambda)
            and isinstance(node.value.value.body, ast.Name)
            and node.value.value.body.id in self.ctx.cells
        )

    def output_entry(self, node: ast.expr) -> bool:
        """``graph_out_N[k]`` of a fixed graph output, ``k`` a constant index, or
        ``__builtins_dict___N['print']``."""
        if not (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and isinstance(node.slice, ast.Constant)
        ):
            return False
        ident, key = node.value.id, node.slice.value
        if ident in self.outputs:
            return self.fixed(ident) and type(key) is int
        return ident.startswith(DYNAMO_GLOBALS[3]) and self.fixed(ident) and type(key) is str


def _arg_count(code) -> int:
    count = code.co_argcount + code.co_kwonlyargcount
    return count + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)


def statements(stmts: list[ast.stmt]):
    """Every statement of ``stmts`` and of the blocks inside them, nested scopes left out."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, SCOPES):
            continue
        for name in ("body", "orelse", "finalbody"):
            yield from statements(getattr(stmt, name, None) or [])
        for handler in getattr(stmt, "handlers", None) or ():
            yield from statements(handler.body)


def is_comment(stmt: ast.stmt) -> bool:
    """A statement that prints as a ``#`` comment (``fallback.comment``)."""
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
        and stmt.value.value.startswith(MARK)
    )


def names_loaded(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
