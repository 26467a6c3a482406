"""Plain Python for stack values that are not expressions yet (markers): ``iter(x)``
for a pending GET_ITER, ``__import__(...)`` for a pending import, a definition for a
function or class being built."""

from __future__ import annotations

import ast

from . import markers as m
from .unsupported import Unsupported


def concrete(sim, value):
    """Plain Python for a marker, emitting any statement it needs (a def, a class)."""
    if not isinstance(value, m.Marker):
        return value
    maker = CONCRETE.get(type(value))
    if maker is None and isinstance(value, (m.Function, m.Class, m.Decorated)):
        return sim.ctx.nested.expression(value, sim)
    if maker is None:
        raise Unsupported(f"cannot spill {type(value).__name__}")
    return maker(sim, value)


def _concrete_iter(sim, value):
    fn = {"iter": "iter", "aiter": "aiter", "yield_from": "iter"}.get(value.kind)
    if fn is None:
        return ast.Call(
            func=ast.Attribute(value=value.value, attr="__await__"), args=[], keywords=[]
        )
    return m.call(fn, [value.value])


def _concrete_cells(sim, value):
    """Source has no syntax for a cell itself; a lambda's closure holds the same one."""
    cells = [
        ast.Subscript(
            value=ast.Attribute(
                value=ast.Lambda(args=_NO_ARGS, body=m.name(n)), attr="__closure__"
            ),
            slice=m.const(0),
            ctx=ast.Load(),
        )
        for n in value.names
    ]
    return ast.Tuple(elts=cells, ctx=ast.Load()) if value.is_tuple else cells[0]


_NO_ARGS = ast.arguments(
    posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
)


def _concrete_inplace(sim, value):
    op = {v: k for k, v in _OPS.items()}[type(value.op)]
    fn = ast.Attribute(value=m.call("__import__", [m.const("operator")]), attr="i" + op)
    return m.call(fn, [m.with_ctx(value.target, ast.Load()), value.value])


_OPS = {
    "add": ast.Add,
    "sub": ast.Sub,
    "mul": ast.Mult,
    "matmul": ast.MatMult,
    "truediv": ast.Div,
    "floordiv": ast.FloorDiv,
    "mod": ast.Mod,
    "pow": ast.Pow,
    "lshift": ast.LShift,
    "rshift": ast.RShift,
    "and": ast.BitAnd,
    "or": ast.BitOr,
    "xor": ast.BitXor,
}

CONCRETE = {
    m.Iter: _concrete_iter,
    m.Import: lambda sim, v: import_call(v),
    m.ImportFrom: lambda sim, v: ast.Attribute(value=concrete(sim, v.source), attr=v.name),
    m.Converted: lambda sim, v: m.call(
        {"r": "repr", "s": "str", "a": "ascii"}[v.conversion], [v.value]
    ),
    m.InPlace: _concrete_inplace,
    m.BuildClass: lambda sim, v: sim.ctx.builtin("__build_class__"),
    m.Locals: lambda sim, v: m.call(sim.ctx.builtin("locals")),
    m.Cells: _concrete_cells,
    m.Saved: lambda sim, v: m.const(None),
    m.Null: lambda sim, v: m.const(None),
}


def import_call(value: m.Import) -> ast.expr:
    """``__import__(...)`` as the import statement that ``value`` stands for calls it."""
    args = [m.const(value.module), m.call("globals"), m.call("locals")]
    args += [m.const(value.fromlist), m.const(value.level)]
    return m.call("__import__", args)
