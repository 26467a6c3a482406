"""3.12+ inlined comprehensions whose variable is a cell, for the state machine.

Such a comprehension (``[lambda: i for i in y]``) gets a fresh cell for ``i`` each
time it runs (LOAD_FAST_AND_CLEAR saves the old one, MAKE_CELL makes a new one, the
end restores the old one). A state machine writing its loop over the function's own
``i`` would share one cell between runs, and closures made in an earlier run would
see later values. So the machine hands the comprehension's region to the structured
walk, and writes what comes back as a comprehension expression again, which has
its own scope and so a fresh cell each run, as the original."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from ..bytecode.instructions import Instr
from ..graph.cfg import Graph
from ..simulation import markers as m
from ..simulation.machine import CodeContext
from ..simulation.unsupported import Unsupported
from .walk import Walk

# What an inlined comprehension runs between saving its variables and its loop.
_SETUP = {"SWAP", "BUILD_LIST", "BUILD_SET", "BUILD_MAP"}

# What an inlined comprehension's end runs between its loop and the last restoring
# store: the result stored (``x = [...]``, before the restore), dropped, or swapped.
_BETWEEN = {"END_FOR", "POP_TOP", "SWAP", "STORE_FAST", "END_ASYNC_FOR", "NOP"}

# Folds the walk's statements into a comprehension: (statements, the region's own
# variables, its walrus targets) -> the same with no loop left, or None
# (``tidy.cleanup.region_value``).
Fold = Callable[[list[ast.stmt], frozenset, frozenset], "list[ast.stmt] | None"]


def cell_regions(instrs: list[Instr], cellvars) -> dict[int, int]:
    """The outermost inlined comprehensions that save a cell variable: first
    instruction (its first LOAD_FAST_AND_CLEAR) -> the instruction after its last
    restoring store. One whose end is not found raises: written as a loop, its
    closures would share one cell."""
    regions: dict[int, int] = {}
    i, n = 0, len(instrs)
    while i < n:
        if instrs[i].op != "LOAD_FAST_AND_CLEAR":
            i += 1
            continue
        start = i
        while i < n and instrs[i].op == "LOAD_FAST_AND_CLEAR":
            i += 1
        saved = {ins.argval for ins in instrs[start:i]}
        if not saved & set(cellvars):
            continue
        end = _region_end(instrs, start, i, saved)
        if end is None:
            raise Unsupported("an inlined comprehension with a cell, its end not found")
        regions[start] = end
        i = end
    return regions


def _region_end(instrs, start: int, run_end: int, saved: set) -> int | None:
    """Where the comprehension whose saving run is [start, run_end) has restored every
    saved local on its way out; None where its end is not the compiler's usual."""
    outer = instrs[start].handler
    cleanup = next(
        (ins.handler for ins in instrs[run_end : run_end + 4] if ins.handler not in (None, outer)),
        None,
    )
    if cleanup is None or _restored_by(instrs, cleanup.target) != saved:
        return None
    head = next((ins for ins in instrs[run_end:] if ins.op not in _SETUP), None)
    if head is not None and head.op == "FOR_ITER":
        leaves = head.target  # (the item loop's exit)
    elif head is not None and head.op == "GET_ANEXT" and head.handler is not None:
        leaves = head.handler.target  # (END_ASYNC_FOR, where ``async for`` ends)
    else:
        return None
    remaining, pos = set(saved), leaves
    for _ in range(16):
        ins = instrs[pos]
        if ins.op == "JUMP":  # (3.12 may jump from the loop's exit to the restore)
            pos = ins.target
            continue
        if ins.op not in _BETWEEN:
            return None
        if ins.op == "STORE_FAST":
            remaining.discard(ins.argval)
            if not remaining:
                return pos + 1
        pos += 1
    return None


def _restored_by(instrs, target: int) -> set | None:
    """The locals a comprehension's cleanup handler restores before it re-raises."""
    names = set()
    for ins in instrs[target : target + 16]:
        if ins.op == "RERAISE":
            return names
        if ins.op == "STORE_FAST":
            names.add(ins.argval)
        elif ins.op not in ("SWAP", "POP_TOP"):
            return None
    return None


@dataclass
class InlinedComprehensions:
    """The regions of one code object the state machine writes as comprehensions."""

    regions: dict[int, int]  # first instruction -> instruction after the region
    graph: Graph  # the structured walk's graph of the same instructions
    fold: Fold

    def value(self, ctx: CodeContext, start: int, stack: list) -> tuple[list, list]:
        """The statements and stack the region starting at ``start`` leaves, its loop
        folded into a comprehension; raises Unsupported where that cannot be done."""
        end = self.regions[start]
        walker = CodeContext(ctx.code, ctx.nested, structured=True)
        walker.counter = ctx.counter
        walk = Walk(walker, self.graph)
        first = self.graph.at(start)
        try:
            active = frozenset(walk.regions.chain(first))  # a try around it is open
            stmts, after = walk.seq(first, self.graph.at(end), list(stack), None, active=active)
        finally:
            ctx.counter = walker.counter
        if after is None:
            raise Unsupported("an inlined comprehension that does not end")
        ctx.helpers |= walker.helpers
        ctx.stored_globals |= walker.stored_globals
        ctx.stored_free |= walker.stored_free
        instrs = self.graph.instrs[start:end]
        saved = {i.argval for i in instrs if i.op == "LOAD_FAST_AND_CLEAR"}
        # (a module or class body's are renamed, its cells not: both are its own)
        saved |= {ctx.shown_local(n) for n in saved if ctx.is_hidden_local(n)}
        stores = ("STORE_FAST", "STORE_DEREF", "STORE_NAME", "STORE_GLOBAL")
        walrus = frozenset(i.argval for i in instrs if i.op in stores) - saved
        stmts, after = _accumulators_named(ctx, stmts, after)
        folded = self.fold(stmts, frozenset(saved), walrus)
        if folded is None:
            raise Unsupported("an inlined comprehension with a cell not folded")
        return folded, after


def _accumulators_named(ctx, stmts, stack) -> tuple[list, list]:
    """An accumulator the region leaves on the stack goes to a temporary of its own,
    which the folding fills with the comprehension: ``_t2 = []; for ...; _t3 = _t2``."""
    assigned = {
        t.id
        for s in stmts
        if isinstance(s, ast.Assign)
        for t in s.targets
        if isinstance(t, ast.Name)
    }
    out, after = list(stmts), []
    for value in stack:
        if isinstance(value, ast.Name) and value.id in assigned and m.is_temporary(value):
            kept = m.name(ctx.temp(), True)
            out.append(ast.Assign(targets=[kept], value=m.name(value.id)))
            value = m.name(kept.id)
        after.append(value)
    return out, after
