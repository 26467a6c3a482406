"""Code after a try that 3.12 copies to the end of its except clauses.

3.12 replaces a jump to a small block that returns or raises (at most four raw
instructions) by a copy of that block. An except clause that goes on to such code
after its try then ends with ``POP_EXCEPT``, the clearing of its ``as`` name, and the
copy. The control-flow graph sends the clause to the original instead, so the clause
and the code after the try meet there, as written. Any original will do for meaning:
both compute what they return or raise from nothing on the stack, under the same
handler. The one laid out last before the clause (3.12 lays handlers out after other
code) that starts a block (it is jumped to, or the try's protection ends there) is
where the try goes on.
"""

from __future__ import annotations

import bisect

from .instructions import Instr

EXITS = {"RETURN_VALUE", "RAISE_VARARGS"}
LONGEST_COPY = 4  # raw instructions the compiler copies
PUSHES = {"LOAD_CONST", "LOAD_FAST", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF", "PUSH_NULL"}
STORES = {"STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"}
DELETES = {"DELETE_FAST", "DELETE_NAME", "DELETE_DEREF", "DELETE_GLOBAL"}


def copied_clause_tails(instrs: list[Instr]) -> dict[int, int]:
    """First instruction of each copy -> first instruction of its original."""
    copies = {}
    for ins in instrs:
        if ins.op == "POP_EXCEPT":
            start = _after_cleanup(instrs, ins.index + 1)
            length = _copy_length(instrs, start)
            # ``return <constant>`` written in the clause compiles to the same: no copy
            if not length or (length <= 2 and instrs[start].op == "LOAD_CONST"):
                continue
            # a finally's copy runs under the handler for the finally, unlike the clause
            if all(i.handler == ins.handler for i in instrs[ins.index : start + length]):
                copies[start] = length
    exits = [ins.index for ins in instrs if ins.op in EXITS]  # where originals end
    targets = {ins.target for ins in instrs if ins.target is not None}
    found = {}
    for start, length in copies.items():
        original = _original(instrs, start, length, copies, exits, targets)
        if original is not None:
            found[start] = original
    return found


def _after_cleanup(instrs, i: int) -> int:
    """Past ``name = None; del name``, which ends a clause that binds a name."""
    while (
        i + 2 < len(instrs)
        and instrs[i].op == "LOAD_CONST"
        and instrs[i].argval is None
        and instrs[i + 1].op in STORES
        and instrs[i + 2].op in DELETES
        and instrs[i + 1].argval == instrs[i + 2].argval
    ):
        i += 3
    return i


def _copy_length(instrs, start: int) -> int:
    """Instructions of the exit starting at ``start`` that computes what it returns or
    raises from nothing on the stack (so any copy of it means the same), or 0."""
    offsets, depth = set(), 0
    for i in range(start, len(instrs)):  # (a slice would copy the rest: quadratic)
        ins = instrs[i]
        offsets.add(ins.offset)
        effect = _effect(ins)
        if len(offsets) > LONGEST_COPY or effect is None or ins.target is not None:
            return 0
        depth += effect
        if depth < 0:
            return 0
        if ins.op in EXITS:
            return ins.index + 1 - start if depth == 0 else 0
    return 0


def _effect(ins) -> int | None:
    """Stack effect of the instructions a small exit is made of; None for others."""
    if ins.op in PUSHES:
        return 1
    if ins.op in STORES:
        return -1
    return {
        "LOAD_ATTR": 0,
        "CALL": -1 - (ins.arg or 0),
        "BUILD_TUPLE": 1 - (ins.arg or 0),
        "BINARY_OP": -1,
        "RETURN_VALUE": -1,
        "RAISE_VARARGS": -ins.arg if ins.arg else None,  # (a bare raise depends on where)
    }.get(ins.op)


def _original(instrs, start: int, length: int, copies, exits, targets) -> int | None:
    copy = instrs[start : start + length]
    for end in reversed(exits[: bisect.bisect_left(exits, start)]):
        j = end + 1 - length
        if j <= 0 or j in copies:
            continue
        starts = j in targets or instrs[j - 1].handler != instrs[j].handler
        if starts and all(map(_same, instrs[j : end + 1], copy)):
            return j
    return None


def _same(a: Instr, b: Instr) -> bool:
    return a.op == b.op and repr(a.argval) == repr(b.argval) and a.handler == b.handler
