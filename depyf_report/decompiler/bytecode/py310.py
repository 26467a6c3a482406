"""Python 3.10: its opcodes translated onto the canonical (3.11) set, so the rest of the
decompiler never sees 3.10 bytecode. The block stack and the shape of a handled exception
are settled in ``py310_blocks.py``. Calls, which 3.10 makes without a NULL under the
callable, become CALL_PLAIN, CALL_PLAIN_KW and CALL_FUNCTION_EX_PLAIN, handled with the
other calls."""

from __future__ import annotations

from . import opcodes
from .py310_blocks import BlockWalk
from .py310_exits import copied_exits

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
    "CALL_FUNCTION": opcodes.CALL_PLAIN,
    "CALL_FUNCTION_KW": opcodes.CALL_PLAIN_KW,
    "CALL_FUNCTION_EX": opcodes.CALL_FUNCTION_EX_PLAIN,
    "SETUP_WITH": "BEFORE_WITH",
    "JUMP_IF_NOT_EXC_MATCH": "CHECK_EXC_MATCH",  # then POP_JUMP_IF_FALSE
}
BLOCK_SETUPS = {"SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"}
BLOCK_OPS = {"SETUP_FINALLY", "SETUP_ASYNC_WITH", "POP_BLOCK"}
SHUFFLES = {"DUP_TOP", "DUP_TOP_TWO", "ROT_TWO", "ROT_THREE", "ROT_FOUR", "ROT_N"}
# BINARY_ADD -> "+", INPLACE_ADD -> "+=", ...
BINARY_OPS = {
    **{"BINARY_" + name: op for name, op in OPERATORS.items()},
    **{"INPLACE_" + name: op + "=" for name, op in OPERATORS.items()},
}
# Raw 3.10 opcodes this module turns into canonical ones (for the opcode coverage test).
TRANSLATED = set(BINARY_OPS) | set(RENAMED) | BLOCK_OPS | SHUFFLES | {"COPY_DICT_WITHOUT_KEYS"}
PUSH_EXC_INFO = ("PUSH_EXC_INFO", None, None)
# What 3.11 runs when an exception escapes an except clause: restore the handled one.
CLEANUP = (("COPY", 3, 3), ("POP_EXCEPT", None, None), ("RERAISE", 1, 1))


def expand(ins, code, canonical) -> list:
    """Canonical triples for one 3.10 instruction; ``canonical`` expands the opcodes that
    3.10 shares with 3.11."""
    walk = _walk(code)
    if ins.offset in walk.exits:
        return list(walk.exits[ins.offset])
    if ins.offset in walk.cleanups:
        return list(CLEANUP)  # its own work moved to the next instruction
    triples = _translated(walk, ins, code, canonical)
    moved = walk.moved.get(ins.offset)
    if moved is not None:
        triples = _translated(walk, moved, code, canonical) + triples
    if walk.entries.get(ins.offset) in ("except", "with"):
        triples = [PUSH_EXC_INFO, *triples]  # 3.11 saves the handled exception here
    if ins.offset in walk.clause_ends:
        triples = [*triples, ("JUMP", None, walk.clause_ends[ins.offset])]
    return triples


def _translated(walk, ins, code, canonical) -> list:
    triples = walk.triples.get(ins.offset) if walk.opname_at(ins.offset) == ins.opname else None
    if triples is None:
        triples = translate(ins)
    if triples is None:
        triples = canonical(ins, code)
    return list(triples)


def decoded(code) -> list:
    """The raw instructions of ``code``, decoded once for the block walk and normalize."""
    return _walk(code).raw


def exception_entries(code) -> list:
    """(start, end, target, depth, lasti, pops) ranges, as 3.11's exception table has
    them, with the except-handler blocks 3.10 leaves on the way (``BlockWalk.catching``)."""
    walk = _walk(code)
    out = []
    for ins, after in zip(walk.raw, [*walk.raw[1:], None]):
        handler = walk.handlers.get(ins.offset)
        if handler is None:
            continue
        end = after.offset if after is not None else ins.offset + 2
        if out and out[-1][1] == ins.offset and out[-1][2:] == handler:
            out[-1] = (out[-1][0], end, *handler)
        else:
            out.append((ins.offset, end, *handler))
    return out


# (code, its walk), replaced whole so that a thread never pairs one code with another's walk
_last: list = [(None, None)]


def _walk(code) -> BlockWalk:
    """One walk per code object: normalize asks once per instruction, then for handlers."""
    last_code, walk = _last[0]
    if last_code is not code:
        walk = BlockWalk(code)
        walk.exits = copied_exits(walk)
        _last[0] = (code, walk)
    return walk


def translate(ins) -> list | None:
    """The canonical triples for a 3.10-only opcode on its own, or None if 3.11 has it."""
    name = ins.opname
    if name not in TRANSLATED:
        return None
    if name in BINARY_OPS:
        return [("BINARY_OP", ins.arg, BINARY_OPS[name])]
    if name in SHUFFLES:  # only reached in code the block walk never sees
        return _plain_shuffle(name, ins.arg)
    if name == "JUMP_IF_NOT_EXC_MATCH":
        return [("CHECK_EXC_MATCH", None, None), ("POP_JUMP_IF_FALSE", None, ins.argval)]
    if name in BLOCK_OPS:
        return []
    if name in RENAMED:
        return [(RENAMED[name], ins.arg, ins.argval)]
    return None


def _plain_shuffle(name: str, arg) -> list:
    if name == "DUP_TOP":
        return [("COPY", 1, 1)]
    if name == "DUP_TOP_TWO":
        return [("COPY", 2, 2), ("COPY", 2, 2)]
    depth = {"ROT_TWO": 2, "ROT_THREE": 3, "ROT_FOUR": 4}.get(name, arg)
    return [("SWAP", n, n) for n in range(depth, 1, -1)]
