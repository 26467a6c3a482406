"""Handlers for exception, with-statement and pattern-matching opcodes, as plain
operations on explicit values. The structured builder recognizes these regions before they
get here; these handlers keep the state-machine fallback exact."""

from __future__ import annotations

import ast

from . import markers as m
from .expressions import value_of
from .sim import Unsupported, handles


def _attr(value, name: str) -> ast.Attribute:
    return ast.Attribute(value=value, attr=name, ctx=ast.Load())


def _method_call(value, name: str, args=()) -> ast.Call:
    return m.call(_attr(value, name), args)


@handles("PUSH_EXC_INFO")
def push_exc_info(sim, ins):
    exc = sim.pop()
    if sim.ctx.structured:
        sim.push(m.HandledBefore())  # only POP_EXCEPT uses it
        return sim.push(exc)
    handled = sim.ctx.prefix + "handled"  # what a bare ``raise`` re-raises
    sim.spill()
    previous = sim.assign_temp(m.name(handled))
    exc = sim.materialize(exc)
    sim.emit(ast.Assign(targets=[m.name(handled, True)], value=exc))
    sim.push(previous)
    sim.push(exc)


@handles("POP_EXCEPT")
def pop_except(sim, ins):
    previous = sim.pop()
    if not sim.ctx.structured:
        handled = m.name(sim.ctx.prefix + "handled", True)
        sim.emit(ast.Assign(targets=[handled], value=value_of(sim, previous)))


@handles("CHECK_EXC_MATCH")
def check_exc_match(sim, ins):
    kinds = value_of(sim, sim.pop())
    exc = sim.peek()
    exc = exc if isinstance(exc, m.Exception_) else value_of(sim, exc)
    sim.push(m.call(sim.ctx.builtin("isinstance"), [exc, kinds]))


@handles("CHECK_EG_MATCH")
def check_eg_match(sim, ins):
    kinds, group = value_of(sim, sim.pop()), sim.pop()
    sim.spill()
    split = sim.assign_temp(_method_call(_as_group(sim, group), "split", [kinds]))
    sim.push(ast.Subscript(value=split, slice=m.const(1), ctx=ast.Load()))
    sim.push(ast.Subscript(value=split, slice=m.const(0), ctx=ast.Load()))


def _as_group(sim, exc) -> ast.expr:
    wrapped = m.call(
        sim.ctx.builtin("BaseExceptionGroup"), [m.const(""), ast.List(elts=[exc], ctx=ast.Load())]
    )
    test = m.call(sim.ctx.builtin("isinstance"), [exc, sim.ctx.builtin("BaseExceptionGroup")])
    return ast.IfExp(test=test, body=exc, orelse=wrapped)


@handles("PREP_RERAISE_STAR")
def prep_reraise_star(sim, ins):
    """What ``except*`` re-raises: nothing, the one group left (it keeps the original's
    message when it is what a split left over), or a new group of several."""
    raised, original = value_of(sim, sim.pop()), value_of(sim, sim.pop())
    del original
    pick = ast.comprehension(target=m.name("_e", True), iter=raised, ifs=[m.name("_e")], is_async=0)
    sim.spill()
    left = sim.assign_temp(ast.ListComp(elt=m.name("_e"), generators=[pick]))
    one = ast.Compare(
        left=m.call(sim.ctx.builtin("len"), [left]), ops=[ast.Eq()], comparators=[m.const(1)]
    )
    first = ast.Subscript(value=left, slice=m.const(0), ctx=ast.Load())
    several = m.call(sim.ctx.builtin("BaseExceptionGroup"), [m.const(""), left])
    value = ast.IfExp(test=one, body=first, orelse=several)
    sim.push(ast.IfExp(test=left, body=value, orelse=m.const(None)))


@handles("BEFORE_WITH", "BEFORE_ASYNC_WITH")
def before_with(sim, ins):
    is_async = ins.op == "BEFORE_ASYNC_WITH"
    if sim.ctx.structured:
        exit_ = m.WithExit(value_of(sim, sim.pop()), is_async)
        sim.push(exit_)
        sim.push(m.Entered(exit_))  # GET_AWAITABLE follows for ``async with``
        return
    sim.spill()
    manager = sim.materialize(sim.pop())
    sim.push(sim.assign_temp(_attr(manager, "__aexit__" if is_async else "__exit__")))
    sim.push(_method_call(manager, "__aenter__" if is_async else "__enter__"))


@handles("WITH_EXCEPT_START")
def with_except_start(sim, ins):
    exc = value_of(sim, sim.peek())
    exit_ = value_of(sim, sim.peek(4))
    args = [m.call(sim.ctx.builtin("type"), [exc]), exc, _attr(exc, "__traceback__")]
    sim.push(m.call(exit_, args))


@handles("END_ASYNC_FOR")
def end_async_for(sim, ins):
    exc = value_of(sim, sim.pop())
    sim.pop()
    test = ast.UnaryOp(
        op=ast.Not(),
        operand=m.call(sim.ctx.builtin("isinstance"), [exc, sim.ctx.builtin("StopAsyncIteration")]),
    )
    sim.emit(ast.If(test=test, body=[ast.Raise(exc=exc, cause=None)], orelse=[]))


@handles("END_SEND")
def end_send(sim, ins):
    value = sim.pop()
    sim.pop()
    sim.push(value)


@handles("CLEANUP_THROW", "STOPITERATION_ERROR", "SEND")
def unsupported(sim, ins):
    raise Unsupported(f"{ins.op} outside a yield-from loop")


@handles("GET_LEN")
def get_len(sim, ins):
    sim.push(m.call(sim.ctx.builtin("len"), [value_of(sim, sim.peek())]))


@handles("MATCH_MAPPING", "MATCH_SEQUENCE")
def match_kind(sim, ins):
    abc = ast.Attribute(value=m.call("__import__", [m.const("collections.abc")]), attr="abc")
    kind = "Mapping" if ins.op == "MATCH_MAPPING" else "Sequence"
    subject = value_of(sim, sim.peek())
    test = m.call(sim.ctx.builtin("isinstance"), [subject, _attr(abc, kind)])
    if kind == "Sequence":
        plain = ast.Tuple(elts=[m.name(n) for n in ("str", "bytes", "bytearray")], ctx=ast.Load())
        not_text = ast.UnaryOp(
            op=ast.Not(), operand=m.call(sim.ctx.builtin("isinstance"), [subject, plain])
        )
        test = ast.BoolOp(op=ast.And(), values=[test, not_text])
    sim.push(test)


@handles("MATCH_KEYS")
def match_keys(sim, ins):
    keys, subject = value_of(sim, sim.peek()), value_of(sim, sim.peek(2))
    key = m.name("_k")
    present = ast.Compare(left=key, ops=[ast.In()], comparators=[subject])
    item = ast.Subscript(value=subject, slice=key, ctx=ast.Load())
    gen = [ast.comprehension(target=m.name("_k", True), iter=keys, ifs=[], is_async=0)]
    values = ast.ListComp(elt=item, generators=gen)
    all_present = m.call(sim.ctx.builtin("all"), [ast.GeneratorExp(elt=present, generators=gen)])
    sim.push(
        ast.IfExp(
            test=all_present, body=m.call(sim.ctx.builtin("tuple"), [values]), orelse=m.const(None)
        )
    )


@handles("COPY_DICT_WITHOUT_KEYS")
def copy_dict_without_keys(sim, ins):
    """3.10's ``**rest`` of a mapping pattern whose keys are computed: the subject's
    items but those keys (the subject stays below)."""
    keys, subject = value_of(sim, sim.pop()), value_of(sim, sim.peek())
    key, item = m.name("_k"), m.name("_v")
    pair = ast.Tuple(elts=[m.name("_k", True), m.name("_v", True)], ctx=ast.Store())
    items = ast.Call(func=_attr(subject, "items"), args=[], keywords=[])
    kept = ast.Compare(left=key, ops=[ast.NotIn()], comparators=[keys])
    gen = ast.comprehension(target=pair, iter=items, ifs=[kept], is_async=0)
    sim.push(ast.DictComp(key=key, value=item, generators=[gen]))


@handles("MATCH_CLASS")
def match_class(sim, ins):
    names, cls, subject = (value_of(sim, sim.pop()) for _ in range(3))
    helper = m.name(sim.ctx.prefix + "match_class")
    sim.ctx.helpers.add("match_class")
    sim.push(m.call(helper, [subject, cls, m.const(ins.arg), names]))


def helper_defs(ctx) -> list[ast.stmt]:
    """Definitions of the helpers the emitted code calls, to put before it."""
    if "match_class" not in ctx.helpers:
        return []
    return ast.parse(MATCH_CLASS_HELPER.format(name=ctx.prefix + "match_class")).body


# The class-pattern test of a match statement, as a function the emitted code calls.
MATCH_CLASS_HELPER = """
def {name}(subject, cls, count, names):
    if not isinstance(subject, cls):
        return None
    own = (bool, bytearray, bytes, dict, float, frozenset, int, list, set, str, tuple)
    if count == 1 and cls in own and not hasattr(cls, "__match_args__"):
        found = [subject]
    else:
        wanted = getattr(cls, "__match_args__", ())[:count] if count else ()
        if len(wanted) < count:
            raise TypeError(f"{{cls.__name__}}() accepts {{len(wanted)}} positional sub-patterns")
        found = []
        for attr in wanted:
            if not hasattr(subject, attr):
                return None
            found.append(getattr(subject, attr))
    for attr in names:
        if not hasattr(subject, attr):
            return None
        found.append(getattr(subject, attr))
    return tuple(found)
"""
