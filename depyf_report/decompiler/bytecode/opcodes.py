"""The one table of opcodes the decompiler works with after ``normalize``.

``normalize`` (``instructions.py``, with the per-version code in ``versions.py`` and
``py310.py``) turns each Python's raw opcodes into the names below: some are renamed
(``RENAMED``), some split into several (``versions.EXPANDERS``), some dropped
(``DROPPED``), and a few instruction sequences are collapsed into one pseudo-opcode.
Every later layer compares ``Instr.op`` with names from here; a pseudo-opcode is never
spelled as a string literal anywhere else.
"""

from __future__ import annotations

# -- pseudo-opcodes -----------------------------------------------------------------
# No Python has these: the decompiler writes each in place of what it has read.
CALL_PLAIN = "CALL_PLAIN"
CALL_PLAIN_KW = "CALL_PLAIN_KW"
CALL_FUNCTION_EX_PLAIN = "CALL_FUNCTION_EX_PLAIN"
YIELD_FROM = "YIELD_FROM"
MATCH_CASE = "MATCH_CASE"
CHECK_STAR_MATCH = "CHECK_STAR_MATCH"

PSEUDO: dict[str, str] = {
    CALL_PLAIN: "bytecode/py310.py: 3.10's CALL_FUNCTION, which has no NULL under the callable",
    CALL_PLAIN_KW: "bytecode/py310.py: 3.10's CALL_FUNCTION_KW, names on top and no NULL",
    CALL_FUNCTION_EX_PLAIN: "bytecode/py310.py: 3.10's CALL_FUNCTION_EX, with no NULL",
    YIELD_FROM: "bytecode/instructions.py: a whole SEND loop (await / yield from); 3.10's own"
    " YIELD_FROM with the LOAD_CONST None before it",
    MATCH_CASE: "rewrites/patterns.py: every test of one case pattern, argval its Case",
    CHECK_STAR_MATCH: "rewrites/star.py: the split of an exception group by one except* clause",
}

# -- named intrinsics ---------------------------------------------------------------
# CALL_INTRINSIC_1/2 of a function with no opcode of its own (3.12+), named
# ``CALL_INTRINSIC_<n>:<function>`` by versions.py; the others become the opcodes that
# earlier Pythons had for them (INTRINSICS).


def intrinsic(arity: int, function: str) -> str:
    """The canonical opcode of CALL_INTRINSIC_<arity> calling ``function``."""
    return f"CALL_INTRINSIC_{arity}:{function}"


TYPEVAR = intrinsic(1, "INTRINSIC_TYPEVAR")
PARAMSPEC = intrinsic(1, "INTRINSIC_PARAMSPEC")
TYPEVARTUPLE = intrinsic(1, "INTRINSIC_TYPEVARTUPLE")
SUBSCRIPT_GENERIC = intrinsic(1, "INTRINSIC_SUBSCRIPT_GENERIC")
TYPEALIAS = intrinsic(1, "INTRINSIC_TYPEALIAS")
TYPEVAR_WITH_BOUND = intrinsic(2, "INTRINSIC_TYPEVAR_WITH_BOUND")
TYPEVAR_WITH_CONSTRAINTS = intrinsic(2, "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS")
SET_FUNCTION_TYPE_PARAMS = intrinsic(2, "INTRINSIC_SET_FUNCTION_TYPE_PARAMS")
SET_TYPEPARAM_DEFAULT = intrinsic(2, "INTRINSIC_SET_TYPEPARAM_DEFAULT")  # 3.13+

NAMED_INTRINSICS = frozenset(
    {
        TYPEVAR,
        PARAMSPEC,
        TYPEVARTUPLE,
        SUBSCRIPT_GENERIC,
        TYPEALIAS,
        TYPEVAR_WITH_BOUND,
        TYPEVAR_WITH_CONSTRAINTS,
        SET_FUNCTION_TYPE_PARAMS,
        SET_TYPEPARAM_DEFAULT,
    }
)

# Intrinsic functions that replaced an opcode of an earlier Python: that opcode.
INTRINSICS = {
    "INTRINSIC_PRINT": "PRINT_EXPR",
    "INTRINSIC_IMPORT_STAR": "IMPORT_STAR",
    "INTRINSIC_STOPITERATION_ERROR": "STOPITERATION_ERROR",
    "INTRINSIC_UNARY_POSITIVE": "UNARY_POSITIVE",
    "INTRINSIC_LIST_TO_TUPLE": "LIST_TO_TUPLE",
    "INTRINSIC_PREP_RERAISE_STAR": "PREP_RERAISE_STAR",
}
# An intrinsic with no effect on the decompiled code: dropped.
DROPPED_INTRINSICS = {"INTRINSIC_ASYNC_GEN_WRAP"}

# -- canonical opcodes --------------------------------------------------------------
# Real opcodes of some Python, as normalize hands them on (3.11's shapes: a NULL under
# a callable, PUSH_EXC_INFO at a handler, BINARY_OP with its operator as argval).
CANONICAL = frozenset(
    {
        # loads and stores
        "LOAD_CONST",
        "LOAD_FAST",
        "LOAD_FAST_AND_CLEAR",
        "LOAD_DEREF",
        "LOAD_CLOSURE",
        "LOAD_GLOBAL",
        "LOAD_NAME",
        "LOAD_LOCALS",
        "LOAD_FROM_LOCALS",
        "LOAD_ATTR",
        "LOAD_METHOD",
        "LOAD_SUPER_ATTR",
        "LOAD_ASSERTION_ERROR",
        "LOAD_BUILD_CLASS",
        "STORE_FAST",
        "STORE_DEREF",
        "STORE_GLOBAL",
        "STORE_NAME",
        "STORE_ATTR",
        "STORE_SUBSCR",
        "STORE_SLICE",
        "DELETE_FAST",
        "DELETE_DEREF",
        "DELETE_GLOBAL",
        "DELETE_NAME",
        "DELETE_ATTR",
        "DELETE_SUBSCR",
        "IMPORT_NAME",
        "IMPORT_FROM",
        "IMPORT_STAR",
        "SETUP_ANNOTATIONS",
        # the stack
        "POP_TOP",
        "PUSH_NULL",
        "COPY",
        "SWAP",
        # operators
        "UNARY_NOT",
        "UNARY_NEGATIVE",
        "UNARY_POSITIVE",
        "UNARY_INVERT",
        "BINARY_OP",
        "BINARY_SUBSCR",
        "BINARY_SLICE",
        "BUILD_SLICE",
        "COMPARE_OP",
        "IS_OP",
        "CONTAINS_OP",
        "FORMAT_VALUE",
        "CONVERT_VALUE",
        # displays
        "BUILD_TUPLE",
        "BUILD_LIST",
        "BUILD_SET",
        "BUILD_MAP",
        "BUILD_CONST_KEY_MAP",
        "BUILD_STRING",
        "LIST_APPEND",
        "LIST_EXTEND",
        "LIST_TO_TUPLE",
        "SET_ADD",
        "SET_UPDATE",
        "MAP_ADD",
        "DICT_UPDATE",
        "DICT_MERGE",
        "UNPACK_SEQUENCE",
        "UNPACK_EX",
        # calls and functions
        "KW_NAMES",
        "CALL",
        "CALL_KW",
        "CALL_FUNCTION_EX",
        "MAKE_FUNCTION",
        "SET_FUNCTION_ATTRIBUTE",
        # iteration, generators, coroutines
        "GET_ITER",
        "FOR_ITER",
        "GET_YIELD_FROM_ITER",
        "GET_AWAITABLE",
        "GET_AITER",
        "GET_ANEXT",
        "END_ASYNC_FOR",
        "SEND",
        "END_SEND",
        "CLEANUP_THROW",
        "YIELD_VALUE",
        "STOPITERATION_ERROR",
        # control flow
        "JUMP",
        "POP_JUMP_IF_TRUE",
        "POP_JUMP_IF_FALSE",
        "POP_JUMP_IF_NONE",
        "POP_JUMP_IF_NOT_NONE",
        "JUMP_IF_TRUE_OR_POP",
        "JUMP_IF_FALSE_OR_POP",
        "RETURN_VALUE",
        "RAISE_VARARGS",
        "RERAISE",
        "PRINT_EXPR",
        # exceptions and with
        "PUSH_EXC_INFO",
        "POP_EXCEPT",
        "CHECK_EXC_MATCH",
        "CHECK_EG_MATCH",
        "PREP_RERAISE_STAR",
        "BEFORE_WITH",
        "BEFORE_ASYNC_WITH",
        "WITH_EXCEPT_START",
        # pattern matching (what a MATCH_CASE could not collapse)
        "MATCH_MAPPING",
        "MATCH_SEQUENCE",
        "MATCH_KEYS",
        "MATCH_CLASS",
        "GET_LEN",
        "COPY_DICT_WITHOUT_KEYS",
    }
)

# Every opcode an instruction may carry once normalized.
OPCODES = CANONICAL | set(PSEUDO) | NAMED_INTRINSICS

# -- what normalize does to raw opcodes ---------------------------------------------
# Raw opcodes with no effect on values or control flow once targets are resolved.
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

# Raw opcodes of 3.11+ renamed onto one canonical opcode.
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

# Raw opcodes that ``versions.skip_after`` may drop, given the raw opcode before them.
SKIPPED_AFTER = {"POP_TOP", "RETURN_GENERATOR", "END_FOR"}
# Raw opcodes of the ``await`` / ``yield from`` loop that normalize collapses into one
# YIELD_FROM, or that only set a generator up or end a loop (SKIPPED_AFTER).
COLLAPSED = {"SEND", "END_SEND", "CLEANUP_THROW", "RETURN_GENERATOR", "END_FOR"}

# -- sets of canonical opcodes ------------------------------------------------------
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
}
# Canonical opcodes after which the next instruction does not run.
NO_FALLTHROUGH = {"JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE"}
# Jumps, which cannot raise, that 3.13 leaves out of the exception table.
GAP_OPS = {
    "JUMP",
    "POP_JUMP_IF_TRUE",
    "POP_JUMP_IF_FALSE",
    "POP_JUMP_IF_NONE",
    "POP_JUMP_IF_NOT_NONE",
}
