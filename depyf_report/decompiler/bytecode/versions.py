"""Per-version tables mapping raw opcodes onto the canonical set the decompiler handles.

Only this module and ``instructions.py`` know which Python produced the bytecode.
"""

from __future__ import annotations

import dis
import sys

from . import py310
from .raw import decode

PY = sys.version_info[:2]

# Instructions with no effect on values or control flow once targets are resolved.
DROPPED = {
    "CACHE",
    "EXTENDED_ARG",
    "NOP",
    "RESUME",
    "PRECALL",
    "COPY_FREE_VARS",
    "MAKE_CELL",
    "TO_BOOL",  # 3.13: the conditional jump that follows converts to bool itself
    "GEN_START",
    "ASYNC_GEN_WRAP",
}

# Canonical opcodes whose ``target`` is an instruction index.
JUMPS = {
    "JUMP",
    "POP_JUMP_IF_TRUE",
    "POP_JUMP_IF_FALSE",
    "POP_JUMP_IF_NONE",
    "POP_JUMP_IF_NOT_NONE",
    "JUMP_IF_TRUE_OR_POP",
    "JUMP_IF_FALSE_OR_POP",
    "FOR_ITER",
    "SEND",
    "JUMP_IF_NOT_EXC_MATCH",
}
# Canonical opcodes after which the next instruction does not run.
NO_FALLTHROUGH = {"JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE"}
# py310.py hands 3.10's handlers 3.11's shapes (one exception value, PUSH_EXC_INFO).
LEGACY_EXCEPTIONS = False

RENAMED = {
    "JUMP_FORWARD": "JUMP",
    "JUMP_BACKWARD": "JUMP",
    "JUMP_ABSOLUTE": "JUMP",
    "JUMP_BACKWARD_NO_INTERRUPT": "JUMP",
    "JUMP_NO_INTERRUPT": "JUMP",
    "POP_JUMP_FORWARD_IF_TRUE": "POP_JUMP_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_TRUE": "POP_JUMP_IF_TRUE",
    "POP_JUMP_FORWARD_IF_FALSE": "POP_JUMP_IF_FALSE",
    "POP_JUMP_BACKWARD_IF_FALSE": "POP_JUMP_IF_FALSE",
    "POP_JUMP_FORWARD_IF_NONE": "POP_JUMP_IF_NONE",
    "POP_JUMP_BACKWARD_IF_NONE": "POP_JUMP_IF_NONE",
    "POP_JUMP_FORWARD_IF_NOT_NONE": "POP_JUMP_IF_NOT_NONE",
    "POP_JUMP_BACKWARD_IF_NOT_NONE": "POP_JUMP_IF_NOT_NONE",
    "LOAD_FAST_CHECK": "LOAD_FAST",
    "LOAD_CLASSDEREF": "LOAD_DEREF",
    "LOAD_FROM_DICT_OR_DEREF": "LOAD_FROM_LOCALS",
    "LOAD_FROM_DICT_OR_GLOBALS": "LOAD_FROM_LOCALS",
    "STORE_FAST_MAYBE_NULL": "STORE_FAST",
}

INTRINSICS = {
    "INTRINSIC_PRINT": "PRINT_EXPR",
    "INTRINSIC_IMPORT_STAR": "IMPORT_STAR",
    "INTRINSIC_STOPITERATION_ERROR": "STOPITERATION_ERROR",
    "INTRINSIC_UNARY_POSITIVE": "UNARY_POSITIVE",
    "INTRINSIC_LIST_TO_TUPLE": "LIST_TO_TUPLE",
    "INTRINSIC_PREP_RERAISE_STAR": "PREP_RERAISE_STAR",
}

# 3.13 pushes the NULL of a call after the callable; earlier versions push it before.
NULL_AFTER_CALLABLE = PY >= (3, 13)


def pseudo(opname: str, like):
    """A raw instruction standing in for a collapsed instruction sequence."""
    return like._replace(opname=opname, opcode=-1, arg=None, argval=None, jump_target=None)


def decoded(code) -> list:
    """The raw instructions of ``code`` (EXTENDED_ARG may be left out)."""
    if PY < (3, 11):  # the block walk has decoded them already
        return py310.decoded(code)
    return decode(code)


def expand(ins, code):
    """Canonical (op, arg, argval) triples for one raw instruction."""
    if PY < (3, 11):  # 3.10's opcodes and block stack: py310.py
        return py310.expand(ins, code, _expand)
    return _expand(ins, code)


def _expand(ins, code):
    op = RENAMED.get(ins.opname, ins.opname)
    handler = _EXPANDERS.get(op)
    if handler is not None:
        return handler(ins)
    return ((op, ins.arg, ins.argval),)


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
    if name == "INTRINSIC_ASYNC_GEN_WRAP":
        return []
    op = INTRINSICS.get(name, ins.opname + ":" + name)
    if op in ("IMPORT_STAR", "PRINT_EXPR"):  # the intrinsic leaves a None where 3.11 left none
        return [(op, ins.arg, ins.argval), ("LOAD_CONST", None, None)]
    return [(op, ins.arg, ins.argval)]


# The argval of a RETURN_VALUE that was half of a RETURN_CONST. On 3.12+ the compiler
# fuses every ``return <constant>`` statement, so a constant returned by a separate
# RETURN_VALUE is an arm of a conditional expression whose return was copied.
FUSED_RETURN = "RETURN_CONST"

EXPANDED = _EXPANDERS = {
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
    """(start, end, target, depth, lasti) offsets from the 3.11+ exception table."""
    if PY < (3, 11):
        return py310.exception_entries(code)
    return [(e.start, e.end, e.target, e.depth, e.lasti) for e in dis._parse_exception_table(code)]


# The only opcodes skip_after may drop.
SKIPPED_AFTER = {"POP_TOP", "RETURN_GENERATOR", "END_FOR"}


def skip_after(prev_op: str | None, op: str) -> bool:
    """Whether ``op`` is dead bookkeeping given the raw opcode just before it."""
    if op == "POP_TOP" and prev_op == "RETURN_GENERATOR":
        return True
    if op == "POP_TOP" and prev_op == "END_FOR":
        return PY >= (3, 13)
    return op in ("RETURN_GENERATOR", "END_FOR")
