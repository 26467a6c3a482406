"""Handlers for exception, with-statement and pattern-matching opcodes, as plain
operations on explicit values. The structured builder recognizes these regions before they
get here; these handlers keep the state-machine fallback exact."""

from __future__ import annotations

import ast

from ...bytecode.opcodes import CHECK_STAR_MATCH
from .. import markers as m
from ..registry import handles
from ..unsupported import Unsupported
from .expressions import value_of


def _attr(value, name: str) -> ast.Attribute:
    return ast.Attribute(value=value, attr=name, ctx=ast.Load())


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


@handles(CHECK_STAR_MATCH)
def check_star_match(sim, ins):
    """An ``except*`` clause's test in the plain form ``star.py`` gives the handler."""
    sim.push(m.StarMatch(value_of(sim, sim.pop())))


@handles("CHECK_EG_MATCH")
def check_eg_match(sim, ins):
    """An except* clause's split of what is left of the group, as CPython splits it; the
    part taken becomes the exception being handled, which a bare ``raise`` re-raises."""
    kinds, group = value_of(sim, sim.pop()), value_of(sim, sim.pop())
    sim.spill()
    split = sim.assign_temp(_helper(sim, "eg_match", [group, kinds]))
    match = ast.Subscript(value=split, slice=m.const(1), ctx=ast.Load())
    if not sim.ctx.structured:
        taken = ast.Compare(left=match, ops=[ast.IsNot()], comparators=[m.const(None)])
        handled = ast.Assign(targets=[m.name(sim.ctx.prefix + "handled", True)], value=match)
        sim.emit(ast.If(test=taken, body=[handled], orelse=[]))
    sim.push(ast.Subscript(value=split, slice=m.const(0), ctx=ast.Load()))
    sim.push(match)


@handles("PREP_RERAISE_STAR")
def prep_reraise_star(sim, ins):
    """What an except* handler re-raises once its clauses ran: nothing, or what they
    raised and left, combined as CPython combines them."""
    raised, original = value_of(sim, sim.pop()), value_of(sim, sim.pop())
    sim.push(_helper(sim, "prep_reraise_star", [original, raised]))


def _helper(sim, name: str, args) -> ast.Call:
    sim.ctx.helpers.add(name)
    return m.call(m.name(sim.ctx.prefix + name), args)


@handles("BEFORE_WITH", "BEFORE_ASYNC_WITH")
def before_with(sim, ins):
    is_async = ins.op == "BEFORE_ASYNC_WITH"
    if sim.ctx.structured:
        exit_ = m.WithExit(value_of(sim, sim.pop()), is_async)
        sim.push(exit_)
        sim.push(m.Entered(exit_))  # GET_AWAITABLE follows for ``async with``
        return
    # the methods looked up on the manager's type, as the interpreter does: a manager
    # without them raises the interpreter's own error
    sim.spill()
    manager = value_of(sim, sim.pop())
    methods = sim.assign_temp(_helper(sim, "context_methods", [manager, m.const(is_async)]))
    sim.push(sim.assign_temp(ast.Subscript(value=methods, slice=m.const(0), ctx=ast.Load())))
    sim.push(m.call(ast.Subscript(value=methods, slice=m.const(1), ctx=ast.Load()), []))


@handles("WITH_EXCEPT_START")
def with_except_start(sim, ins):
    exc = value_of(sim, sim.peek())
    exit_ = value_of(sim, sim.peek(4))
    args = [m.call(sim.ctx.builtin("type"), [exc]), exc, _attr(exc, "__traceback__")]
    sim.push(m.call(exit_, args))


@handles("GET_AITER")
def get_aiter(sim, ins):
    if sim.ctx.structured:
        return sim.push(m.Iter(sim.pop(), "aiter"))
    sim.push(_helper(sim, "async_iterator", [value_of(sim, sim.pop())]))


@handles("GET_ANEXT")
def get_anext(sim, ins):
    source = sim.peek()
    if sim.ctx.structured:
        source = source if isinstance(source, m.Iter) else value_of(sim, source)
        return sim.push(m.Iter(m.call(sim.ctx.builtin("anext"), [source]), "await"))
    sim.push(m.Iter(_helper(sim, "next_awaitable", [value_of(sim, source)]), "await"))


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
    sim.push(_helper(sim, "match_class", [subject, cls, m.const(ins.arg), names]))


def helper_defs(ctx) -> list[ast.stmt]:
    """Definitions of the helpers the emitted code calls, to put before it."""
    return [
        stmt
        for name, text in HELPERS.items()
        if name in ctx.helpers
        for stmt in ast.parse(text.format(name=ctx.prefix + name)).body
    ]


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

# CHECK_EG_MATCH as CPython's exception_group_match: (rest, match).
EG_MATCH_HELPER = """
def {name}(exc, kinds):
    for kind in kinds if isinstance(kinds, tuple) else (kinds,):
        if not (isinstance(kind, type) and issubclass(kind, BaseException)):
            raise TypeError(
                "catching classes that do not inherit from BaseException is not allowed"
            )
        if issubclass(kind, BaseExceptionGroup):
            raise TypeError(
                "catching ExceptionGroup with except* is not allowed. Use except instead."
            )
    if exc is None:
        return None, None
    if isinstance(exc, kinds):
        if isinstance(exc, BaseExceptionGroup):
            return None, exc
        return None, BaseExceptionGroup("", (exc,))
    if isinstance(exc, BaseExceptionGroup):
        match, rest = exc.split(kinds)
        return rest, match
    return exc, None
"""

# PREP_RERAISE_STAR as CPython's _PyExc_PrepReraiseStar: what the clauses raised, with
# what they re-raised or left of the original kept in the original's shape.
PREP_RERAISE_STAR_HELPER = """
def {name}(original, excs):
    if not excs:
        return None
    if not isinstance(original, BaseExceptionGroup):
        return excs[0]  # a naked exception: one clause at most ran
    raised, kept = [], set()
    for exc in excs:
        if exc is None:
            continue
        same = all(
            getattr(exc, attr, None) is getattr(original, attr, None)
            for attr in ("__notes__", "__traceback__", "__cause__", "__context__")
        )
        if not same:
            raised.append(exc)
            continue
        todo = [exc]
        while todo:
            leaf = todo.pop()
            if isinstance(leaf, BaseExceptionGroup):
                todo.extend(leaf.exceptions)
            else:
                kept.add(id(leaf))
    left = original.split(lambda leaf: id(leaf) in kept)[0]
    if left is not None:
        raised.append(left)
    if not raised:
        return None
    return raised[0] if len(raised) == 1 else BaseExceptionGroup("", raised)
"""

# BEFORE_WITH / BEFORE_ASYNC_WITH: (bound exit, bound enter), both looked up on the
# manager's type. Where one is missing, a with statement of its own raises the error
# this Python raises: it looks both up before it calls either.
CONTEXT_METHODS_HELPER = """
def {name}(manager, is_async):
    kind = type(manager)
    found = []
    for method in ("__aenter__", "__aexit__") if is_async else ("__enter__", "__exit__"):
        for owner in kind.__mro__:
            if method in vars(owner):
                value = vars(owner)[method]
                bind = getattr(type(value), "__get__", None)
                found.append(value if bind is None else bind(value, manager, kind))
                break
        else:
            if is_async:
                async def probe():
                    async with manager:
                        pass
                probe().send(None)
            with manager:
                pass
    return found[1], found[0]
"""

# GET_AITER: the async iterator an async for takes, __aiter__ looked up on the type.
# Where there is none, or it has no __anext__, an async for of its own raises the
# error this Python raises (given the iterator already made: __aiter__ runs once).
ASYNC_ITERATOR_HELPER = """
def {name}(iterable):
    def special(value, method):
        for owner in type(value).__mro__:
            if method in vars(owner):
                found = vars(owner)[method]
                bind = getattr(type(found), "__get__", None)
                return found if bind is None else bind(found, value, type(value))
        return None

    make = special(iterable, "__aiter__")
    source = iterable
    if make is not None:
        iterator = make()
        if special(iterator, "__anext__") is not None:
            return iterator

        class Source:
            def __aiter__(self):
                return iterator

        source = Source()

    async def probe():
        async for _ in source:
            pass

    probe().send(None)
"""

# GET_ANEXT: what __anext__ returns, looked up on the type; where that cannot be
# awaited, an async for of its own raises the error this Python raises.
NEXT_AWAITABLE_HELPER = """
def {name}(iterator):
    import inspect

    for owner in type(iterator).__mro__:
        if "__anext__" in vars(owner):
            found = vars(owner)["__anext__"]
            bind = getattr(type(found), "__get__", None)
            step = (found if bind is None else bind(found, iterator, type(iterator)))()
            break
    else:
        return anext(iterator)
    if inspect.isawaitable(step):
        return step

    class Source:
        def __aiter__(self):
            return self

        def __anext__(self):
            return step

    async def probe():
        async for _ in Source():
            pass

    probe().send(None)
"""

HELPERS = {
    "async_iterator": ASYNC_ITERATOR_HELPER,
    "next_awaitable": NEXT_AWAITABLE_HELPER,
    "context_methods": CONTEXT_METHODS_HELPER,
    "match_class": MATCH_CLASS_HELPER,
    "eg_match": EG_MATCH_HELPER,
    "prep_reraise_star": PREP_RERAISE_STAR_HELPER,
}
