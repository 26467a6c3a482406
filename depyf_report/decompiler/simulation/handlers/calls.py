"""Handlers for calls and function creation (CALL, CALL_FUNCTION_EX, MAKE_FUNCTION)."""

from __future__ import annotations

import ast

from ...bytecode.opcodes import CALL_FUNCTION_EX_PLAIN, CALL_PLAIN, CALL_PLAIN_KW
from .. import markers as m
from ..registry import handles
from .expressions import COMPREHENSIONS, value_of
from .typeparams import generic_definition, is_generic


@handles("KW_NAMES")
def kw_names(sim, ins):
    sim.kwnames = tuple(ins.argval)


@handles("CALL")
def call(sim, ins):
    args = sim.popn(ins.arg)
    names, sim.kwnames = sim.kwnames, ()
    finish_call(sim, args, names)


@handles("CALL_KW")
def call_kw(sim, ins):
    names = sim.pop().value
    finish_call(sim, sim.popn(ins.arg), tuple(names))


def _callable(sim, args):
    """Pop the callable pair under the arguments; drop whichever half is NULL."""
    upper, lower = sim.pop(), sim.pop()
    if isinstance(upper, m.Null):
        return lower, args
    if isinstance(lower, m.Null):
        return upper, args
    return lower, [upper, *args]  # an unbound method and its self


def finish_call(sim, args, names) -> None:
    func, args = _callable(sim, list(args))
    if isinstance(func, m.WithExit):
        exited = m.ExitedWith(func)
        sim.emit(exited)
        exited.carried = list(sim.stack)  # what a return inside the with computed before
        return sim.push(m.WithDone())
    split = len(args) - len(names)
    positional, kwvalues = args[:split], args[split:]
    if isinstance(func, m.BuildClass) and positional:
        body, name = positional[0], positional[1].value
        keywords = [ast.keyword(arg=k, value=v) for k, v in zip(names, kwvalues)]
        return sim.push(m.Class(body, name, positional[2:], keywords))
    if is_generic(func) and not names:
        return sim.push(generic_definition(sim, func, positional))
    if _is_comprehension(func, positional, names):
        return sim.push(sim.ctx.nested.comprehension(func, positional[0], sim))
    if _is_decorator(sim, func, positional, names):
        return sim.push(m.Decorated(func, positional[0]))
    keywords = [ast.keyword(arg=k, value=value_of(sim, v)) for k, v in zip(names, kwvalues)]
    args = [value_of(sim, v) for v in positional]
    sim.push(ast.Call(func=value_of(sim, func), args=args, keywords=keywords))


def _is_comprehension(func, positional, names) -> bool:
    return (
        isinstance(func, m.Function)
        and func.code.co_name in COMPREHENSIONS
        and len(positional) == 1
        and not names
    )


def _is_decorator(sim, func, positional, names) -> bool:
    if names or len(positional) != 1:
        return False
    target = positional[0]
    if isinstance(target, m.Function):
        name = target.code.co_name
        if not name.isidentifier() or name == "<lambda>":
            return False
    elif not isinstance(target, (m.Class, m.Decorated)):
        return False
    return _is_decorator_expr(func)


def _is_decorator_expr(node) -> bool:
    """Decorators are names, attribute chains or calls of them: pure enough to hoist."""
    while isinstance(node, (ast.Attribute, ast.Call)):
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return isinstance(node, ast.Name)


@handles("CALL_FUNCTION_EX")
def call_function_ex(sim, ins):
    kwargs = sim.pop() if ins.arg & 1 else None
    star = sim.pop()
    func, extra = _callable(sim, [])
    args = [value_of(sim, v) for v in extra] + _star_args(value_of(sim, star))
    keywords = _star_kwargs(value_of(sim, kwargs)) if kwargs is not None else []
    sim.push(ast.Call(func=value_of(sim, func), args=args, keywords=keywords))


def _star_args(node) -> list:
    if isinstance(node, (ast.Tuple, ast.List)):
        return list(node.elts)
    if isinstance(node, ast.Constant) and isinstance(node.value, tuple):
        return [m.const(v) for v in node.value]
    return [ast.Starred(value=node, ctx=ast.Load())]


def _star_kwargs(node) -> list:
    if isinstance(node, ast.Dict):
        out = []
        for k, v in zip(node.keys, node.values):
            if k is None:
                out.append(ast.keyword(arg=None, value=v))
            elif (
                isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.isidentifier()
            ):
                out.append(ast.keyword(arg=k.value, value=v))
            else:
                out.append(ast.keyword(arg=None, value=ast.Dict(keys=[k], values=[v])))
        return out
    return [ast.keyword(arg=None, value=node)]


# -- function objects -------------------------------------------------------------
FLAG_DEFAULTS, FLAG_KWDEFAULTS, FLAG_ANNOTATIONS, FLAG_CLOSURE = 1, 2, 4, 8


@handles("MAKE_FUNCTION")
def make_function(sim, ins):
    fn = sim.pop()
    if not isinstance(fn, m.Function):  # 3.10 pushes the qualified name last
        fn = sim.pop()
    flags = ins.arg or 0
    for flag in (FLAG_CLOSURE, FLAG_ANNOTATIONS, FLAG_KWDEFAULTS, FLAG_DEFAULTS):
        if flags & flag:
            set_attribute(sim, fn, flag, sim.pop())
    sim.push(fn)


@handles("SET_FUNCTION_ATTRIBUTE")
def set_function_attribute(sim, ins):
    fn = sim.pop()
    set_attribute(sim, fn, ins.arg, sim.pop())
    sim.push(fn)


def set_attribute(sim, fn: m.Function, flag: int, value) -> None:
    if flag == FLAG_DEFAULTS:
        fn.defaults = _elements(sim, value)
    elif flag == FLAG_KWDEFAULTS:
        value = value_of(sim, value)
        fn.kwdefaults = {k.value: v for k, v in zip(value.keys, value.values)}
    elif flag == FLAG_ANNOTATIONS:
        items = _elements(sim, value)
        if isinstance(value, ast.Dict):
            items = [x for pair in zip(value.keys, value.values) for x in pair]
        fn.annotations = {k.value: v for k, v in zip(items[0::2], items[1::2])}
    elif flag == FLAG_CLOSURE:
        fn.closure = value


def _elements(sim, value) -> list:
    value = value_of(sim, value)
    if isinstance(value, ast.Tuple):
        return list(value.elts)
    if isinstance(value, ast.Constant) and isinstance(value.value, tuple):
        return [m.const(v) for v in value.value]
    if isinstance(value, ast.Dict):
        return []
    return [ast.Starred(value=value, ctx=ast.Load())]


# -- 3.10's calls, which have no NULL under the callable ---------------------------
@handles(CALL_PLAIN)
def call_plain(sim, ins):

    args = sim.popn(ins.arg)
    _null_below_callable(sim)
    finish_call(sim, args, ())


@handles(CALL_PLAIN_KW)
def call_plain_kw(sim, ins):

    names = sim.pop().value
    args = sim.popn(ins.arg)
    _null_below_callable(sim)
    finish_call(sim, args, tuple(names))


def _null_below_callable(sim) -> None:
    """The NULL that 3.11+ push below a callable, which 3.10's plain calls lack."""
    callable_ = sim.pop()
    sim.push(m.Null())
    sim.push(callable_)


@handles(CALL_FUNCTION_EX_PLAIN)
def call_function_ex_plain(sim, ins):

    keep = [sim.pop() for _ in range(1 + (ins.arg & 1))][::-1]
    sim.push(m.Null())
    sim.stack.extend(keep)
    call_function_ex(sim, ins)
