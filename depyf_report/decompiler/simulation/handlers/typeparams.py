"""PEP 695 generics (3.12+): ``def f[T]``, ``class C[T]``, ``type A[T] = ...``.

The compiler builds a generic definition inside a hidden function,
``<generic parameters of NAME>``, and calls it at once: it makes each type parameter
(CALL_INTRINSIC_1 TYPEVAR, ...), then the function, class or alias, and returns it.
That body is straight-line code. Simulated here with its locals standing for their
values, it gives back the definition, carrying its ``type_params``, for the caller
to store as usual. Bounds, constraints, defaults and alias values are lazily
evaluated: each is a small function whose one ``return`` is the expression.
"""

from __future__ import annotations

import ast

from ...bytecode import opcodes
from ...bytecode.instructions import normalize
from .. import markers as m
from ..machine import CodeContext, Sim
from ..registry import HANDLERS, handles
from ..unsupported import Unsupported

GENERIC_PREFIX = "<generic parameters of "
# Instructions of the hidden function that only manage its own frame.
_FRAME = {"RESUME", "MAKE_CELL", "COPY_FREE_VARS", "NOP"}
_PARAM = object()  # what a hidden local holding a type parameter stands for


class GenericBase(m.Marker):
    """``Generic[*type_params]``, the base the compiler adds to a generic class."""

    def __init__(self, params):
        super().__init__()
        self.params = params


class TypeAlias(m.Marker):
    """A ``type`` statement's value: its name, type parameters and lazy value."""

    def __init__(self, name: str, params: list, value: ast.expr):
        super().__init__()
        self.name, self.params, self.value = name, params, value


def is_generic(func) -> bool:
    return isinstance(func, m.Function) and func.code.co_name.startswith(GENERIC_PREFIX)


def generic_definition(sim: Sim, func: m.Function, args: list):
    """The function, class or alias the hidden function returns, with its type params."""
    code = func.code
    inner = Sim(CodeContext(code, sim.ctx.nested, structured=True), normalize(code), [])
    names = dict(zip(code.co_varnames, args))  # .defaults and .kwdefaults, passed in
    result = None
    while result is None:
        if inner.pos >= len(inner.instrs):
            raise Unsupported("a generic definition that returns nothing")
        ins = inner.instrs[inner.pos]
        if ins.op in ("STORE_FAST", "STORE_DEREF"):
            value = inner.pop()
            names[ins.argval] = _PARAM if _is_param(value) else value
        elif ins.op in ("LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE") and ins.argval in names:
            value = names[ins.argval]  # a type parameter reads as its name, a new node each time
            inner.push(m.name(ins.argval) if value is _PARAM else value)
        elif ins.op == "COPY":  # a new type parameter, kept and stored: no temporary
            inner.push(inner.peek(ins.arg))
        elif ins.op == "SWAP":  # the function under its type parameters: nothing to spill
            stack = inner.stack
            stack[-1], stack[-ins.arg] = stack[-ins.arg], stack[-1]
        elif ins.op == "RETURN_VALUE":
            result = inner.pop()
        elif ins.target is not None or ins.op not in HANDLERS:
            raise Unsupported(f"{ins.op} in a generic definition")
        elif ins.op not in _FRAME:
            HANDLERS[ins.op](inner, ins)  # may consume the next instructions too (skip)
        inner.pos += 1 + inner.skip
        inner.skip = 0
    if inner.out:
        raise Unsupported("statements in a generic definition")
    if isinstance(result, m.Class):
        generic = [b for b in result.bases if isinstance(b, GenericBase)]
        result.bases = [b for b in result.bases if not isinstance(b, GenericBase)]
        result.type_params = generic[0].params if generic else []
    return result


def _is_param(value) -> bool:
    return isinstance(value, (ast.TypeVar, ast.ParamSpec, ast.TypeVarTuple))


def _params(value) -> list:
    if isinstance(value, ast.Constant) and value.value is None:
        return []
    if isinstance(value, ast.Tuple) and all(_is_param(p) for p in value.elts):
        return list(value.elts)
    raise Unsupported("type parameters that are not a tuple of them")


def lazy_value(sim, fn) -> ast.expr:
    """The expression a lazily evaluated bound, default or alias value returns."""
    if not isinstance(fn, m.Function):
        raise Unsupported("a lazy type expression that is not a function")
    body = sim.ctx.nested.structured_body(fn.code)
    if not body or len(body) != 1 or not isinstance(body[0], ast.Return):
        raise Unsupported("a lazy type expression that is not one return")
    return body[0].value


def _name(sim) -> str:
    name = sim.pop()
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        raise Unsupported("a type parameter without a constant name")
    return name.value


def _one(kind):
    def make(sim, ins):
        sim.push(kind(name=_name(sim)))

    return make


if hasattr(ast, "TypeVar"):  # 3.12+; earlier Pythons have no such opcodes either
    handles(opcodes.TYPEVAR)(_one(ast.TypeVar))
    handles(opcodes.PARAMSPEC)(_one(ast.ParamSpec))
    handles(opcodes.TYPEVARTUPLE)(_one(ast.TypeVarTuple))


@handles(opcodes.TYPEVAR_WITH_BOUND, opcodes.TYPEVAR_WITH_CONSTRAINTS)
def typevar_with_bound(sim, ins):
    bound = lazy_value(sim, sim.pop())
    sim.push(ast.TypeVar(name=_name(sim), bound=bound))


@handles(opcodes.SET_TYPEPARAM_DEFAULT)
def set_typeparam_default(sim, ins):
    default = lazy_value(sim, sim.pop())
    param = sim.peek()
    if not _is_param(param):
        raise Unsupported("a default for something that is not a type parameter")
    param.default_value = default


@handles(opcodes.SET_FUNCTION_TYPE_PARAMS)
def set_function_type_params(sim, ins):
    params = _params(sim.pop())
    fn = sim.peek()
    if not isinstance(fn, m.Function):
        raise Unsupported("type parameters for something that is not a function")
    fn.type_params = params


@handles(opcodes.SUBSCRIPT_GENERIC)
def subscript_generic(sim, ins):
    sim.push(GenericBase(_params(sim.pop())))


@handles(opcodes.TYPEALIAS)
def type_alias(sim, ins):
    parts = sim.pop()  # the raw (name, type params, value function) BUILD_TUPLE left
    if not isinstance(parts, tuple) or len(parts) != 3:
        raise Unsupported("a type alias not built from its three parts")
    name, params, value = parts
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        raise Unsupported("a type alias without a constant name")
    sim.push(TypeAlias(name.value, _params(params), lazy_value(sim, value)))


def type_alias_statement(alias: TypeAlias, ident: str) -> ast.stmt:
    return ast.TypeAlias(name=m.name(ident, True), type_params=alias.params, value=alias.value)
