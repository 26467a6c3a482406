"""Trial runs: a block simulated on a copy of the stack, to see whether it only tests
or only computes a value, before the walk takes it as part of a condition or an
expression."""

from __future__ import annotations

from ..bytecode.opcodes import MATCH_CASE
from ..simulation.machine import Sim
from ..simulation.unsupported import Unsupported

NOT_A_CONDITION = {
    "STORE_FAST",
    "STORE_NAME",
    "STORE_GLOBAL",
    "STORE_DEREF",
    "STORE_ATTR",
    "STORE_SUBSCR",
    "POP_TOP",
    "LOAD_BUILD_CLASS",
    MATCH_CASE,  # binds the pattern's names
    # These extend a display on the stack in place: a trial run would extend it twice.
    "LIST_APPEND",
    "LIST_EXTEND",
    "SET_ADD",
    "SET_UPDATE",
    "MAP_ADD",
    "DICT_UPDATE",
    "DICT_MERGE",
}


def trial_run(w, block, stack, allow=frozenset()) -> Sim | None:
    """``block`` simulated on a copy of ``stack``, or None where it cannot be part of
    a condition (``allow``: instructions that may still be in it)."""
    instrs = w.graph.instrs
    if any(
        ins.op in NOT_A_CONDITION and ins.op not in allow and not _walrus_store(instrs, ins)
        for ins in instrs[block.start : block.end]
    ):
        return None  # a trial run must not decompile nested functions or emit stores
    sim = Sim(w.ctx, w.graph.instrs, list(stack))
    try:
        sim.run(block.start, block.end)
    except Unsupported:
        return None
    return sim


def _walrus_store(instrs, ins) -> bool:
    """Whether ``ins`` stores a copy of the value it leaves: ``(name := value)``, which a
    condition may hold (a trial run that emits a statement is refused all the same)."""
    before = instrs[ins.index - 1] if ins.index else None
    return (
        ins.op in WALRUS_STORES and before is not None and before.op == "COPY" and before.arg == 1
    )


WALRUS_STORES = {"STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF"}
