"""Handlers for opcodes that only compute values: loads, operators, displays, calls."""

from __future__ import annotations

import ast

from ...bytecode.opcodes import TYPEALIAS, YIELD_FROM
from .. import markers as m
from .. import nodes
from ..concrete import concrete
from ..registry import handles

BINARY = {
    "+": ast.Add,
    "-": ast.Sub,
    "*": ast.Mult,
    "@": ast.MatMult,
    "/": ast.Div,
    "//": ast.FloorDiv,
    "%": ast.Mod,
    "**": ast.Pow,
    "<<": ast.LShift,
    ">>": ast.RShift,
    "&": ast.BitAnd,
    "|": ast.BitOr,
    "^": ast.BitXor,
}
COMPARE = {
    "<": ast.Lt,
    "<=": ast.LtE,
    "==": ast.Eq,
    "!=": ast.NotEq,
    ">": ast.Gt,
    ">=": ast.GtE,
}
UNARY = {
    "UNARY_NEGATIVE": ast.USub,
    "UNARY_POSITIVE": ast.UAdd,
    "UNARY_INVERT": ast.Invert,
    "UNARY_NOT": ast.Not,
}
COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")


@handles("LOAD_CONST")
def load_const(sim, ins):
    value = ins.argval
    if hasattr(value, "co_code"):
        sim.push(m.Function(value))  # 3.13 MAKE_FUNCTION finds the code here
    elif m.is_literal(value):
        sim.push(m.const(value))
    else:  # an object Dynamo put in co_consts: bound by the enclosing function
        sim.push(m.name(sim.ctx.objects.name_for(value)))


@handles("LOAD_FAST", "LOAD_DEREF", "LOAD_GLOBAL", "LOAD_NAME")
def load_name(sim, ins):
    if _past_the_class(sim, ins):
        # ``(lambda: x)()``: a function in a class body reads ``x`` as the inlined
        # comprehension did, past the class's namespace (which may hold its own ``x``)
        no_args = ast.arguments(
            posonlyargs=[],
            args=[],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        )
        return sim.push(m.call(ast.Lambda(args=no_args, body=m.name(ins.argval))))
    sim.push(m.name(ins.argval))


def _past_the_class(sim, ins) -> bool:
    """Whether a class body written as a state machine reads a name as a 3.12+
    comprehension inlined in it does: a free variable's cell (LOAD_DEREF) or a global
    (LOAD_GLOBAL), never the class's own namespace. Written by name, the read would
    look in the namespace first (LOAD_NAME); the structured walk writes the
    comprehension itself, whose reads skip the class. Names the class declares
    ``nonlocal`` or ``global`` (it stores them so) are read so by name too."""
    if not sim.ctx.is_class or sim.ctx.structured:
        return False
    if ins.op == "LOAD_DEREF" and ins.argval not in sim.ctx.code.co_freevars:
        return False
    if ins.op not in ("LOAD_DEREF", "LOAD_GLOBAL"):
        return False
    return ins.argval not in sim.ctx.declared_outside(sim.instrs)


@handles("LOAD_CLOSURE")
def load_closure(sim, ins):
    sim.push(m.Cells([ins.argval], is_tuple=False))


@handles("LOAD_FAST_AND_CLEAR")
def load_and_clear(sim, ins):
    if sim.ctx.structured:
        return sim.push(m.Saved(m.safe(ins.argval)))
    # The state machine saves the value for real: in a function, a mark where it was
    # unbound, which the restoring store deletes again (statements.store_name); None
    # in a module or class body, whose hidden locals are its own invented names.
    get = ast.Attribute(value=m.call(sim.ctx.builtin("locals")), attr="get", ctx=ast.Load())
    key = [m.const(sim.ctx.namespace_key(m.safe(ins.argval)))]
    if sim.ctx.is_function:
        key.append(m.name(sim.ctx.unbound_mark))
    sim.push(m.call(get, key))


@handles("LOAD_LOCALS")
def load_locals(sim, ins):
    sim.push(m.Locals())


@handles("LOAD_FROM_LOCALS")
def load_from_locals(sim, ins):
    sim.pop()
    # A generic class body reads its hidden ``.type_params``; functions.class_def drops
    # the one statement that does, so a name the probe can compile is enough.
    sim.push(m.name("__type_params__" if ins.argval == ".type_params" else ins.argval))


@handles("LOAD_ASSERTION_ERROR")
def load_assertion_error(sim, ins):
    # ``if not c: raise AssertionError`` is an assert statement
    node = nodes.Name(id="AssertionError", ctx=m.LOAD, from_assert=True)
    sim.push(node)


@handles("LOAD_BUILD_CLASS")
def load_build_class(sim, ins):
    sim.push(m.BuildClass())


@handles("PUSH_NULL")
def push_null(sim, ins):
    sim.push(m.Null())


@handles("LOAD_ATTR")
def load_attr(sim, ins):
    value = _signed(value_of(sim, sim.pop()))
    sim.push(ast.Attribute(value=value, attr=ins.argval, ctx=ast.Load()))


def _signed(value):
    """A negative number as ``-n``: printed bare, ``-1 .real`` and ``-1 ** x`` would apply
    the minus last. The compiler folds it back into the constant."""
    number = isinstance(value, ast.Constant) and type(value.value) in (int, float)
    if number and (value.value < 0 or str(value.value).startswith("-")):
        return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-value.value))
    return value


@handles("LOAD_METHOD")
def load_method(sim, ins):
    load_attr(sim, ins)
    sim.push(m.Null())


@handles("LOAD_SUPER_ATTR")
def load_super_attr(sim, ins):
    self_, cls, sup = sim.pop(), sim.pop(), sim.pop()
    args = [cls, self_] if ins.arg & 2 else []
    sim.push(ast.Attribute(value=m.call(sup, args), attr=ins.argval, ctx=ast.Load()))
    if ins.arg & 1:
        sim.push(m.Null())


@handles("BINARY_OP")
def binary_op(sim, ins):
    right, left = operand(sim), operand(sim)
    text = ins.argval
    if text.endswith("=") and text not in COMPARE:
        sim.push(m.InPlace(left, BINARY[text[:-1]](), right))
    else:
        op = BINARY[text]()
        sim.push(
            ast.BinOp(left=_signed(left) if isinstance(op, ast.Pow) else left, op=op, right=right)
        )


@handles("BINARY_SUBSCR")
def binary_subscr(sim, ins):
    key = operand(sim)
    sim.push(ast.Subscript(value=value_of(sim, sim.pop()), slice=key, ctx=ast.Load()))


@handles("BINARY_SLICE")
def binary_slice(sim, ins):
    stop, start = operand(sim), operand(sim)
    container = value_of(sim, sim.pop())
    sim.push(ast.Subscript(value=container, slice=make_slice(start, stop), ctx=ast.Load()))


@handles("BUILD_SLICE")
def build_slice(sim, ins):
    step = operand(sim) if ins.arg == 3 else None
    stop, start = operand(sim), operand(sim)
    sim.push(make_slice(start, stop, step))


def make_slice(start, stop, step=None) -> ast.Slice:
    def part(v):
        return None if isinstance(v, ast.Constant) and v.value is None else v

    return ast.Slice(lower=part(start), upper=part(stop), step=part(step) if step else None)


@handles("COMPARE_OP")
def compare_op(sim, ins):
    right, left = operand(sim), operand(sim)
    sim.push(ast.Compare(left=left, ops=[COMPARE[ins.argval]()], comparators=[right]))


@handles("IS_OP")
def is_op(sim, ins):
    right, left = operand(sim), operand(sim)
    op = ast.IsNot() if ins.arg else ast.Is()
    sim.push(ast.Compare(left=left, ops=[op], comparators=[right]))


@handles("CONTAINS_OP")
def contains_op(sim, ins):
    right, left = _set_display(operand(sim)), operand(sim)
    op = ast.NotIn() if ins.arg else ast.In()
    sim.push(ast.Compare(left=left, ops=[op], comparators=[right]))


def _set_display(value):
    """The set display the compiler made a frozenset constant of, where only its items
    matter (``x in {1, 2}``, ``for x in {1, 2}``)."""
    if isinstance(value, ast.Constant) and type(value.value) is frozenset and value.value:
        return ast.Set(elts=[m.const(item) for item in value.value])
    return value


@handles(*UNARY)
def unary(sim, ins):
    sim.push(ast.UnaryOp(op=UNARY[ins.op](), operand=operand(sim)))


@handles("GET_ITER")
def get_iter(sim, ins):
    sim.push(m.Iter(_set_display(operand(sim))))


@handles("GET_YIELD_FROM_ITER")
def get_yield_from_iter(sim, ins):
    sim.push(m.Iter(sim.pop(), "yield_from"))


@handles("GET_AWAITABLE")
def get_awaitable(sim, ins):
    sim.push(m.Iter(sim.pop(), "await"))


@handles(YIELD_FROM)
def yield_from(sim, ins):
    source = sim.pop()
    if isinstance(source, m.Iter) and isinstance(source.value, m.WithDone):
        sim.push(source.value)
    elif isinstance(source, m.Iter) and source.value in sim.ctx.awaited_by_caller:
        sim.push(source.value)  # an async comprehension: the await is part of the syntax
    elif isinstance(source, m.Iter) and source.kind == "await":
        sim.push(ast.Await(value=source.value))
    elif isinstance(source, m.Iter):
        sim.push(ast.YieldFrom(value=source.value))
    else:
        sim.push(ast.YieldFrom(value=value_of(sim, source)))


@handles("YIELD_VALUE")
def yield_value(sim, ins):
    value = operand(sim)
    none = isinstance(value, ast.Constant) and value.value is None
    sim.push(ast.Yield(value=None if none else value))


@handles("BUILD_TUPLE")
def build_tuple(sim, ins):
    items = sim.popn(ins.arg)
    after = sim.next_instr()
    if after is not None and after.op == TYPEALIAS:
        return sim.push(tuple(items))  # its parts, read by typeparams.type_alias
    if items and all(isinstance(v, m.Cells) and not v.is_tuple for v in items):
        return sim.push(m.Cells([v.names[0] for v in items], is_tuple=True))  # a closure
    sim.push(ast.Tuple(elts=[value_of(sim, v) for v in items], ctx=ast.Load()))


@handles("BUILD_LIST")
def build_list(sim, ins):
    sim.push(ast.List(elts=[value_of(sim, v) for v in sim.popn(ins.arg)], ctx=ast.Load()))


@handles("BUILD_SET")
def build_set(sim, ins):
    elts = [value_of(sim, v) for v in sim.popn(ins.arg)]
    if elts:
        return sim.push(ast.Set(elts=elts))
    # a display that SET_UPDATE fills: ``{'a', 'b', 'c'}``, ``{*x}``
    empty = nodes.Call(func=sim.ctx.builtin("set"), args=[], keywords=[], set_display=True)
    sim.push(empty)


@handles("BUILD_MAP")
def build_map(sim, ins):
    flat = [value_of(sim, v) for v in sim.popn(2 * ins.arg)]
    sim.push(ast.Dict(keys=flat[0::2], values=flat[1::2]))


@handles("BUILD_CONST_KEY_MAP")
def build_const_key_map(sim, ins):
    keys = sim.pop()
    values = [value_of(sim, v) for v in sim.popn(ins.arg)]
    sim.push(ast.Dict(keys=[m.const(k) for k in keys.value], values=values))


@handles("BUILD_STRING")
def build_string(sim, ins):
    parts = []
    for v in sim.popn(ins.arg):
        if isinstance(v, ast.JoinedStr):
            parts.extend(v.values)
        elif isinstance(v, ast.Constant):
            parts.append(v)
        else:  # a formatted piece spilled to a temporary: already a str
            parts.append(ast.FormattedValue(value=v, conversion=-1, format_spec=None))
    sim.push(ast.JoinedStr(values=parts))


@handles("CONVERT_VALUE")
def convert_value(sim, ins):
    sim.push(m.Converted(sim.pop(), ins.argval))


@handles("FORMAT_VALUE")
def format_value(sim, ins):
    conversion, has_spec = ins.argval
    spec = operand(sim) if has_spec else None
    value = sim.pop()
    if isinstance(value, m.Converted):
        value, conversion = value.value, value.conversion
    if spec is not None and not isinstance(spec, ast.JoinedStr):
        spec = ast.JoinedStr(values=[spec])
    code = ord(conversion) if conversion else -1
    sim.push(
        ast.JoinedStr(values=[ast.FormattedValue(value=value, conversion=code, format_spec=spec)])
    )


@handles("LIST_TO_TUPLE")
def list_to_tuple(sim, ins):
    value = operand(sim)
    if isinstance(value, ast.List):
        sim.push(ast.Tuple(elts=value.elts, ctx=ast.Load()))
    else:
        sim.push(m.call(sim.ctx.builtin("tuple"), [value]))


@handles("LIST_EXTEND", "SET_UPDATE")
def list_extend(sim, ins):
    items = sim.pop()
    target = sim.peek(ins.arg)
    if nodes.set_display(target) and not isinstance(items, m.Marker):
        target = sim.stack[-ins.arg] = ast.Set(elts=[])
    if isinstance(target, (ast.List, ast.Set)) and not isinstance(items, m.Marker):
        if isinstance(items, ast.Constant) and isinstance(items.value, (tuple, frozenset)):
            target.elts.extend(m.const(v) for v in items.value)
        else:
            target.elts.append(ast.Starred(value=items, ctx=ast.Load()))
        return
    method = "extend" if ins.op == "LIST_EXTEND" else "update"
    call_method(sim, target, method, items)


@handles("DICT_UPDATE", "DICT_MERGE")
def dict_update(sim, ins):
    items = sim.pop()
    target = sim.peek(ins.arg)
    if isinstance(target, ast.Dict):
        if isinstance(items, ast.Dict):
            target.keys.extend(items.keys)
            target.values.extend(items.values)
        else:
            target.keys.append(None)
            target.values.append(items)
        return
    call_method(sim, target, "update", items)


@handles("LIST_APPEND", "SET_ADD")
def list_append(sim, ins):
    item = sim.pop()
    target = sim.peek(ins.arg)
    if isinstance(target, (ast.List, ast.Set)) and not isinstance(item, m.Marker):
        target.elts.append(item)
        return
    method = "append" if ins.op == "LIST_APPEND" else "add"
    call_method(sim, target, method, item)


@handles("MAP_ADD")
def map_add(sim, ins):
    value, key = operand(sim), operand(sim)
    target = sim.peek(ins.arg)
    if isinstance(target, ast.Dict):  # a display built one pair at a time (3.11+: > 16 pairs)
        target.keys.append(key)
        target.values.append(value)
        return
    sub = ast.Subscript(value=_spilled(sim, target), slice=key, ctx=ast.Store())
    sim.emit(ast.Assign(targets=[sub], value=value))


def call_method(sim, target, method: str, arg) -> None:
    attr = ast.Attribute(value=_spilled(sim, target), attr=method, ctx=ast.Load())
    sim.emit(ast.Expr(value=m.call(attr, [value_of(sim, arg)])))


def _spilled(sim, target):
    """``target``, a value on the stack, as the name it has once the stack is spilled."""
    if isinstance(target, ast.Name):
        return target
    index = next(i for i, v in enumerate(sim.stack) if v is target)
    sim.spill()
    return sim.stack[index]


def operand(sim):
    """The top of the stack, popped, as a plain expression."""
    return value_of(sim, sim.pop())


def value_of(sim, value):
    """A plain expression for a stack value that is about to be used as an operand."""
    return concrete(sim, value) if isinstance(value, m.Marker) else value
