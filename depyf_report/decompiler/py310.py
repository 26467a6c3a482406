"""Python 3.10: opcodes renamed onto the canonical set, the block stack turned into
per-instruction handlers, and the few operations whose stack shape differs (a handled
exception is three values, calls have no NULL)."""

from __future__ import annotations

import ast
import dis

from . import markers as m
from .expressions import value_of
from .sim import Branch, handles

OPERATORS = {
    "ADD": "+",
    "SUBTRACT": "-",
    "MULTIPLY": "*",
    "MATRIX_MULTIPLY": "@",
    "TRUE_DIVIDE": "/",
    "FLOOR_DIVIDE": "//",
    "MODULO": "%",
    "POWER": "**",
    "LSHIFT": "<<",
    "RSHIFT": ">>",
    "AND": "&",
    "OR": "|",
    "XOR": "^",
}
RENAMED = {
    "CALL_METHOD": "CALL",
    "CALL_FUNCTION": "CALL_PLAIN",
    "CALL_FUNCTION_KW": "CALL_PLAIN_KW",
    "CALL_FUNCTION_EX": "CALL_FUNCTION_EX_PLAIN",
    "POP_EXCEPT": "POP_EXCEPT_LEGACY",
    "RERAISE": "RERAISE_LEGACY",
    "WITH_EXCEPT_START": "WITH_EXCEPT_START_LEGACY",
    "END_ASYNC_FOR": "END_ASYNC_FOR_LEGACY",
    "SETUP_WITH": "BEFORE_WITH",
}
BLOCK_SETUPS = {"SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"}
DROPPED = {"SETUP_FINALLY", "SETUP_ASYNC_WITH", "POP_BLOCK"}
EXCEPT_HANDLER = "except-handler"


def expand(ins):
    """Canonical (op, arg, argval) triples for one 3.10 instruction, or None if unchanged."""
    name = ins.opname
    for prefix, suffix in (("BINARY_", ""), ("INPLACE_", "=")):
        if name.startswith(prefix) and name[len(prefix) :] in OPERATORS:
            return [("BINARY_OP", ins.arg, OPERATORS[name[len(prefix) :]] + suffix)]
    if name == "DUP_TOP":
        return [("COPY", 1, 1)]
    if name == "DUP_TOP_TWO":
        return [("COPY", 2, 2), ("COPY", 2, 2)]
    rotations = {"ROT_TWO": 2, "ROT_THREE": 3, "ROT_FOUR": 4, "ROT_N": ins.arg}
    if name in rotations:
        return [("SWAP", n, n) for n in range(rotations[name], 1, -1)]
    if name in DROPPED:
        return []
    if name in RENAMED:
        return [(RENAMED[name], ins.arg, ins.argval)]
    return None


def handlers(code) -> dict[int, tuple[int, int]]:
    """Offset -> (handler offset, stack level) from a walk of the block stack."""
    raw = [i for i in dis.get_instructions(code) if i.opname != "EXTENDED_ARG"]
    at = {ins.offset: n for n, ins in enumerate(raw)}
    start = 1 if raw and raw[0].opname == "GEN_START" else 0  # it pops the first sent value
    states: dict[int, tuple[int, tuple]] = {0: (start, ())}
    todo = [0]
    out: dict[int, tuple[int, int]] = {}
    while todo:
        n = todo.pop()
        depth, blocks = states[n]
        ins = raw[n]
        active = [b for b in blocks if b != EXCEPT_HANDLER]
        if active:
            out[ins.offset] = active[-1]
        for index, state in _next_states(ins, depth, blocks, at, raw):
            if index is not None and index not in states:
                states[index] = state
                todo.append(index)
    return out


def _next_states(ins, depth, blocks, at, raw):
    op, arg = ins.opcode, ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None
    following = at.get(ins.offset + 2) if ins.offset + 2 in at else _after(ins, raw, at)
    if ins.opname in BLOCK_SETUPS:
        level = depth + dis.stack_effect(op, arg, jump=True) - 6
        target = at[ins.argval]
        yield target, (level + 6, (*blocks, EXCEPT_HANDLER))
        yield following, (depth + dis.stack_effect(op, arg, jump=False), (*blocks, (ins.argval, level)))
        return
    if ins.opname == "POP_BLOCK" or ins.opname == "POP_EXCEPT":
        yield following, (depth + dis.stack_effect(op, arg), blocks[:-1])
        return
    if ins.opname in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
        return
    if ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs:
        yield at.get(ins.argval), (depth + dis.stack_effect(op, arg, jump=True), blocks)
        if ins.opname in ("JUMP_FORWARD", "JUMP_ABSOLUTE"):
            return
        yield following, (depth + dis.stack_effect(op, arg, jump=False), blocks)
        return
    yield following, (depth + dis.stack_effect(op, arg), blocks)


def _after(ins, raw, at):
    n = at[ins.offset] + 1
    return n if n < len(raw) else None


# -- handlers for the 3.10 stack shapes ---------------------------------------------
@handles("CALL_PLAIN")
def call_plain(sim, ins):
    from .calls import finish_call

    args = sim.popn(ins.arg)
    sim.push(m.Null())
    sim.stack[-1], sim.stack[-2] = sim.stack[-2], sim.stack[-1]
    finish_call(sim, args, ())


@handles("CALL_PLAIN_KW")
def call_plain_kw(sim, ins):
    from .calls import finish_call

    names = sim.pop().value
    args = sim.popn(ins.arg)
    sim.push(m.Null())
    sim.stack[-1], sim.stack[-2] = sim.stack[-2], sim.stack[-1]
    finish_call(sim, args, tuple(names))


@handles("CALL_FUNCTION_EX_PLAIN")
def call_function_ex_plain(sim, ins):
    from .calls import call_function_ex

    keep = [sim.pop() for _ in range(1 + (ins.arg & 1))][::-1]
    sim.push(m.Null())
    sim.stack.extend(keep)
    call_function_ex(sim, ins)


@handles("JUMP_IF_NOT_EXC_MATCH")
def jump_if_not_exc_match(sim, ins):
    kinds, kind = value_of(sim, sim.pop()), value_of(sim, sim.pop())
    sim.branch = Branch("cond", m.call("issubclass", [kind, kinds]), False)


@handles("POP_EXCEPT_LEGACY")
def pop_except_legacy(sim, ins):
    previous = sim.popn(3)[1]
    handled = m.name(sim.ctx.prefix + "handled", True)
    sim.emit(ast.Assign(targets=[handled], value=value_of(sim, previous)))


@handles("RERAISE_LEGACY")
def reraise_legacy(sim, ins):
    exc = sim.popn(3)[1]
    sim.emit(ast.Raise(exc=value_of(sim, exc), cause=None))
    sim.branch = Branch("raise")


@handles("WITH_EXCEPT_START_LEGACY")
def with_except_start_legacy(sim, ins):
    kind, exc, tb = (value_of(sim, sim.peek(n)) for n in (1, 2, 3))
    sim.push(m.call(value_of(sim, sim.peek(7)), [kind, exc, tb]))


@handles("END_ASYNC_FOR_LEGACY")
def end_async_for_legacy(sim, ins):
    values = sim.popn(7)
    exc = value_of(sim, values[5])
    stop = m.call("isinstance", [exc, m.name("StopAsyncIteration")])
    raise_ = ast.Raise(exc=exc, cause=None)
    sim.emit(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=stop), body=[raise_], orelse=[]))


@handles("COPY_DICT_WITHOUT_KEYS")
def copy_dict_without_keys(sim, ins):
    keys, subject = value_of(sim, sim.pop()), value_of(sim, sim.peek())
    pairs = ast.comprehension(
        target=ast.Tuple(elts=[m.name("_k", True), m.name("_v", True)], ctx=ast.Store()),
        iter=m.call(ast.Attribute(value=subject, attr="items", ctx=ast.Load())),
        ifs=[ast.Compare(left=m.name("_k"), ops=[ast.NotIn()], comparators=[keys])],
        is_async=0,
    )
    sim.push(ast.DictComp(key=m.name("_k"), value=m.name("_v"), generators=[pairs]))
