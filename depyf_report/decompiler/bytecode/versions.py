"""How each Python's raw opcodes map onto the canonical ones of ``opcodes.py``, and the
facts about the running Python that later layers may test.

Only the bytecode layer reads ``sys.version_info``; every other layer imports a fact
from here, named for what differs rather than for a version.
"""

from __future__ import annotations

import dis
import sys

from . import opcodes, py310
from .raw import decode

PY = sys.version_info[:2]


# -- facts about the running Python, named for what differs -------------------------
# The compiler sets up try blocks with SETUP_* opcodes and a block stack (3.10), not an
# exception table; py310.py translates that bytecode.
BLOCK_STACK = PY < (3, 11)
# A call between Python functions also takes C stack (3.10), so a deep recursion in the
# decompiler needs a lower recursion limit to stay clear of a C stack overflow.
PYTHON_CALLS_USE_C_STACK = PY < (3, 11)
# The compiler fuses every ``return <constant>`` into RETURN_CONST (3.12+); see
# FUSED_RETURN below.
CONSTANT_RETURNS_FUSED = PY >= (3, 12)
# A try's else is laid out after its clauses and compiled like the code after the try
# (3.10), so the two read alike when every clause leaves.
ELSE_COMPILED_AS_CODE_AFTER_TRY = PY < (3, 11)
# 3.13 pushes the NULL of a call after the callable; earlier versions push it before.
NULL_AFTER_CALLABLE = PY >= (3, 13)
# 3.13 copies a block with no source line that does not fall through (an except
# clause's end) into each unconditional jump to it (``rewrites.clause_tails``).
LINELESS_BLOCKS_INLINED = PY >= (3, 13)


def decoded(code) -> list:
    """The raw instructions of ``code`` (EXTENDED_ARG may be left out)."""
    if BLOCK_STACK:  # the block walk has decoded them already
        return py310.decoded(code)
    return decode(code)


def _expand(ins, code):
    """Canonical (op, arg, argval) triples for one raw instruction."""
    op = opcodes.RENAMED.get(ins.opname, ins.opname)
    handler = EXPANDERS.get(op)
    if handler is not None:
        return handler(ins)
    return ((op, ins.arg, ins.argval),)


def _expand_block_stack(ins, code):
    """The same for 3.10, whose block stack py310.py rewrites first."""
    return py310.expand(ins, code, _expand)


# Chosen once: normalize calls it for every instruction.
expand = _expand_block_stack if BLOCK_STACK else _expand


def _load_global(ins):
    if PY >= (3, 11) and ins.arg & 1:
        pair = [("LOAD_GLOBAL", ins.arg, ins.argval), ("PUSH_NULL", None, None)]
        return pair if NULL_AFTER_CALLABLE else pair[::-1]
    return [("LOAD_GLOBAL", ins.arg, ins.argval)]


def _load_attr(ins):
    if PY >= (3, 12) and ins.arg & 1:
        return [("LOAD_METHOD", ins.arg, ins.argval)]
    return [("LOAD_ATTR", ins.arg, ins.argval)]


def _format_value(ins):
    conv = {0: None, 1: "s", 2: "r", 3: "a"}[ins.arg & 3]
    return [("FORMAT_VALUE", ins.arg, (conv, bool(ins.arg & 4)))]


def _convert_value(ins):
    return [("CONVERT_VALUE", ins.arg, {1: "s", 2: "r", 3: "a"}[ins.arg])]


def _fast_pair(first: str, second: str):
    def split(ins):
        a, b = ins.argval
        return [(first, ins.arg >> 4, a), (second, ins.arg & 15, b)]

    return split


def _compare(ins):
    text = str(ins.argval)
    if text.startswith("bool(") and text.endswith(")"):
        text = text[5:-1]
    return [("COMPARE_OP", ins.arg, text)]


def _intrinsic(ins):
    name = str(ins.argrepr)
    if name in opcodes.DROPPED_INTRINSICS:
        return []
    arity = 1 if ins.opname == "CALL_INTRINSIC_1" else 2
    op = opcodes.INTRINSICS.get(name) or opcodes.intrinsic(arity, name)
    if op in ("IMPORT_STAR", "PRINT_EXPR"):  # the intrinsic leaves a None where 3.11 left none
        return [(op, ins.arg, ins.argval), ("LOAD_CONST", None, None)]
    return [(op, ins.arg, ins.argval)]


# The argval of a RETURN_VALUE that was half of a RETURN_CONST. On 3.12+ the compiler
# fuses every ``return <constant>`` statement, so a constant returned by a separate
# RETURN_VALUE is an arm of a conditional expression whose return was copied.
FUSED_RETURN = "RETURN_CONST"

# Raw opcodes (after RENAMED) split or rewritten into canonical ones.
EXPANDERS = {
    "LOAD_GLOBAL": _load_global,
    "LOAD_ATTR": _load_attr,
    "FORMAT_VALUE": _format_value,
    "CONVERT_VALUE": _convert_value,
    "FORMAT_SIMPLE": lambda ins: [("FORMAT_VALUE", 0, (None, False))],
    "FORMAT_WITH_SPEC": lambda ins: [("FORMAT_VALUE", 4, (None, True))],
    "LOAD_FAST_LOAD_FAST": _fast_pair("LOAD_FAST", "LOAD_FAST"),
    "STORE_FAST_LOAD_FAST": _fast_pair("STORE_FAST", "LOAD_FAST"),
    "STORE_FAST_STORE_FAST": _fast_pair("STORE_FAST", "STORE_FAST"),
    "RETURN_CONST": lambda ins: [
        ("LOAD_CONST", ins.arg, ins.argval),
        ("RETURN_VALUE", 0, FUSED_RETURN),
    ],
    "COMPARE_OP": _compare,
    "BINARY_OP": lambda ins: [("BINARY_OP", ins.arg, ins.argrepr)],
    "CALL_INTRINSIC_1": _intrinsic,
    "CALL_INTRINSIC_2": _intrinsic,
}


def exception_entries(code):
    """(start, end, target, depth, lasti, pops) offsets from the 3.11+ exception table
    (``pops``: handled exceptions restored on the way, only ever on 3.10)."""
    if BLOCK_STACK:
        return py310.exception_entries(code)
    table = dis._parse_exception_table(code)
    return [(e.start, e.end, e.target, e.depth, e.lasti, 0) for e in table]


def skip_after(prev_op: str | None, op: str) -> bool:
    """Whether ``op`` is dead bookkeeping given the raw opcode just before it."""
    if op == "POP_TOP" and prev_op == "RETURN_GENERATOR":
        return True
    if op == "POP_TOP" and prev_op == "END_FOR":
        return PY >= (3, 13)
    return op in ("RETURN_GENERATOR", "END_FOR")


def derefs_free_variable(code, arg: int) -> bool:
    """Whether the cell index ``arg`` of a ``*_DEREF`` instruction in ``code`` is one
    of its free variables, not a cell of its own. A class body (3.12+) can hold both
    under one name: a free ``i`` read by a nested scope, and the cell of an inlined
    comprehension's own ``i`` that a lambda in it closes over."""
    if BLOCK_STACK:  # indices into co_cellvars + co_freevars
        return arg >= len(code.co_cellvars)
    own = len(code.co_varnames) + len(set(code.co_cellvars) - set(code.co_varnames))
    return arg >= own
