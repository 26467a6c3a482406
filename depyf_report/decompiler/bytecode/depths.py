"""How many values are on the stack where each instruction starts, as the compiler
counted them: for the structuring scans that must tell what a ``POP_TOP`` pops before
any block is simulated (a loop's iterator, or a match subject or a comprehension's
value above it)."""

from __future__ import annotations

import dis

from . import versions
from .raw import decode

# Instructions after which the next one is not reached from them.
_NO_FALL = {
    "RETURN_VALUE",
    "RETURN_CONST",
    "RAISE_VARARGS",
    "RERAISE",
    "JUMP_FORWARD",
    "JUMP_ABSOLUTE",
    "JUMP_BACKWARD",
    "JUMP_BACKWARD_NO_INTERRUPT",
    "JUMP",
    "JUMP_NO_INTERRUPT",
}


def stack_depths(code) -> dict[int, int]:
    """Raw offset -> the stack's depth before the instruction there runs, for each
    instruction a path reaches (3.10's SETUP_* lead to their handlers; 3.11+'s
    exception table to theirs). Where two paths disagree, the first one found wins."""
    raw = decode(code)
    at = {ins.offset: n for n, ins in enumerate(raw)}
    handlers: dict[int, list[tuple[int, int]]] = {}  # covered offset -> (target, depth)
    if not versions.BLOCK_STACK:
        for start, end, target, depth, lasti, _ in versions.exception_entries(code):
            for ins in raw[at[start] : at.get(end, len(raw))]:
                handlers.setdefault(ins.offset, []).append((target, depth + lasti + 1))
    depths: dict[int, int] = {}
    # (a generator starts with the value sent to start it on the stack: 3.10 pops it
    # with GEN_START, 3.11+ with the POP_TOP after RETURN_GENERATOR, which ``dis``
    # before 3.13 counts as pushing nothing)
    todo = [(0, int(bool(raw) and raw[0].opname == "GEN_START"))]
    while todo:
        offset, depth = todo.pop()
        if offset in depths or offset not in at:
            continue
        depths[offset] = depth
        ins = raw[at[offset]]
        todo += handlers.get(offset, ())
        if ins.jump_target is not None:
            todo.append((ins.jump_target, depth + _effect(ins, jump=True)))
        if ins.opname not in _NO_FALL and at[offset] + 1 < len(raw):
            todo.append((raw[at[offset] + 1].offset, depth + _effect(ins, jump=False)))
    return depths


def _effect(ins, jump: bool) -> int:
    if ins.opname == "RETURN_GENERATOR":
        return 1
    arg = ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None
    return dis.stack_effect(ins.opcode, arg, jump=jump)
