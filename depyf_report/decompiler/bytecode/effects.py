"""Stack effects of the instructions that only compute values, for the scans that look
at a run of instructions before simulating it (a repeated loop test, the targets of a
chained assignment)."""

from __future__ import annotations

from .instructions import Instr
from .opcodes import CALL_FUNCTION_EX_PLAIN, CALL_PLAIN, CALL_PLAIN_KW

VALUE_EFFECTS = {
    "LOAD_FAST": 1,
    "LOAD_GLOBAL": 1,
    "LOAD_NAME": 1,
    "LOAD_DEREF": 1,
    # a class body's read of a name its function holds in a cell (3.12+): the class
    # namespace, then the name looked up in it or the cell
    "LOAD_LOCALS": 1,
    "LOAD_FROM_LOCALS": 0,
    "LOAD_CONST": 1,
    "PUSH_NULL": 1,
    "LOAD_ATTR": 0,
    "LOAD_METHOD": 1,
    "UNARY_NOT": 0,
    "UNARY_NEGATIVE": 0,
    "UNARY_INVERT": 0,
    "UNARY_POSITIVE": 0,
    "CONVERT_VALUE": 0,  # (3.13: an f-string field's ``!r``, before its format)
    "KW_NAMES": 0,  # (3.12: the names of the next call's keywords)
    # a starred item, ``[*a]``, ``(a, *b)``, ``{**d}``: added to what is built below it
    "LIST_EXTEND": -1,
    "SET_UPDATE": -1,
    "DICT_UPDATE": -1,
    "DICT_MERGE": -1,
    "LIST_TO_TUPLE": 0,
    "COMPARE_OP": -1,
    "IS_OP": -1,
    "CONTAINS_OP": -1,
    "BINARY_OP": -1,
    "BINARY_SUBSCR": -1,
    "BINARY_SLICE": -2,
}


def value_effect(ins: Instr) -> int | None:
    """How ``ins`` changes the stack's depth, or None when it does more than compute."""
    if ins.op == "CALL":
        return -1 - ins.arg
    if ins.op == CALL_PLAIN:  # 3.10: no NULL under the callable
        return -ins.arg
    if ins.op in KEYWORD_CALLS:  # the keywords' names on top
        return KEYWORD_CALLS[ins.op] - ins.arg
    if ins.op in STAR_CALLS:  # ``f(*a)``, ``f(*a, **k)``: a tuple and a dict of arguments
        return STAR_CALLS[ins.op] - (ins.arg & 1)
    if ins.op == "BUILD_CONST_KEY_MAP":  # the values, then a tuple of the keys
        return -ins.arg
    if ins.op in BUILDS:  # ``lines[r:]``, ``c in ("q", "Q")`` with a computed item
        return 1 - ins.arg
    if ins.op == "BUILD_MAP":  # a key and a value for each pair
        return 1 - 2 * ins.arg
    if ins.op == "FORMAT_VALUE":  # an f-string's field: its format spec popped too
        return -1 if ins.arg & 4 else 0
    return VALUE_EFFECTS.get(ins.op)


BUILDS = {"BUILD_SLICE", "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_STRING"}
KEYWORD_CALLS = {CALL_PLAIN_KW: -1, "CALL_KW": -2}  # (3.10; 3.13: a NULL under the callable)
STAR_CALLS = {CALL_FUNCTION_EX_PLAIN: -1, "CALL_FUNCTION_EX": -2}  # (3.10; 3.11+)
