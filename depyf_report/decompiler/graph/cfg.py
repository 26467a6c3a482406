"""Basic blocks and the control-flow graph over canonical instructions."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..bytecode.instructions import Handler, Instr, SourceLines
from ..bytecode.opcodes import JUMPS, NO_FALLTHROUGH
from ..rewrites.clause_tails import (
    copied_chain_ends,
    copied_clause_tails,
    copied_loop_exits,
    copied_value_tails,
    copied_while_exits,
    copied_with_exits,
)
from ..rewrites.rotation import RepeatedTest, repeated_tests

# Conditional jumps: every canonical jump but the unconditional one.
TWO_WAY = JUMPS - {"JUMP"}


@dataclass(eq=False, slots=True)
class Block:
    """Instructions [start, end) that run straight through; ``succs`` are normal edges."""

    id: int
    start: int
    end: int
    handler: Handler | None
    succs: list[int] = field(default_factory=list)  # fallthrough first, then jump target
    preds: list[int] = field(default_factory=list)

    @property
    def last(self) -> int:
        return self.end - 1


class Graph:
    """Blocks of one code object, with the block holding each instruction index."""

    def __init__(
        self,
        instrs: list[Instr],
        unrotate: bool = False,
        lines: SourceLines | None = None,
        leaders: frozenset[int] = frozenset(),
        inlined: dict[int, int] | None = None,
    ):
        """``leaders``: instructions that must start a block of their own (where the
        state machine hands a region to the structured walk). ``inlined``: copies of
        blocks 3.13 inlined into jumps (``inlined_copies``), each sent to its original
        as a break's copy is."""
        self.instrs, self.lines = instrs, lines
        tests = repeated_tests(instrs) if unrotate else []
        copies, breaks = {}, {}
        if unrotate:
            copies = {
                **copied_clause_tails(instrs, lines),
                **copied_loop_exits(instrs),
                **copied_chain_ends(instrs),
                **copied_value_tails(instrs),
            }
            if lines is not None:
                breaks = copied_while_exits(instrs, lines)
                breaks.update(inlined or {})
                breaks = {c: o for c, o in breaks.items() if c not in copies}
                breaks.update(copied_with_exits(instrs, lines))
        leaders = {test.top for test in tests} | {*copies, *copies.values(), *leaders}
        leaders |= {*breaks, *breaks.values()}
        self.blocks = _split(instrs, leaders)
        self.block_at = {b.start: b.id for b in self.blocks}
        self.rotated: dict[int, int] = {}  # block -> the loop test its tail repeats
        self.repeated: set[int] = set()  # the loop tests some tail repeats
        self.copy_starts: dict[int, int] = {}  # a rotated block -> where its test's copy starts
        for b in self.blocks:
            b.succs = self._successors(b)
        self._unrotate(tests)
        for copy, original in copies.items():  # the clause goes on to the original
            self.blocks[self.block_at[copy] - 1].succs = [self.block_at[original]]
        if breaks:  # every way to a copy goes to the original: a break out of the loop
            to = {self.block_at[c]: self.block_at[o] for c, o in breaks.items()}
            for b in self.blocks:
                b.succs = [to.get(s, s) for s in b.succs]
        live = self._reachable()
        for b in self.blocks:
            if b.id not in live:  # code nothing runs (the handler of ``try: pass``)
                b.succs = []  # leads nowhere: no second way into the code that runs
            for s in b.succs:
                self.blocks[s].preds.append(b.id)

    def _reachable(self) -> set[int]:
        """Blocks that run: reached from the entry by jumps or by exceptions."""
        seen, todo = {0}, [0]
        while todo:
            b = self.blocks[todo.pop()]
            handler = self.handler_block(b)
            for s in [*b.succs, *([handler] if handler is not None else [])]:
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return seen

    def _unrotate(self, tests: list[RepeatedTest]) -> None:
        """The body's end goes to the loop test at the top, not to its repeated copy."""
        starts = [b.start for b in self.blocks]
        for test in tests:
            x = self.blocks[bisect.bisect_right(starts, test.bottom) - 1]
            self.rotated[x.id] = self.block_at[test.top]
            self.copy_starts[x.id] = test.bottom
            self.repeated.add(self.block_at[test.top])
            x.succs = [self.block_at[test.top]]

    def at(self, index: int) -> int:
        return self.block_at[index]

    def line_at(self, index: int) -> int | None:
        """The source line of instruction ``index``, where known."""
        return self.lines.at(self.instrs[index].offset) if self.lines is not None else None

    def handler_block(self, block: Block) -> int | None:
        return self.block_at[block.handler.target] if block.handler else None

    def is_for_header(self, b: int) -> bool:
        """Whether block ``b`` takes a for loop's next item: FOR_ITER, or the await of
        ``anext`` under the END_ASYNC_FOR handler that ends an ``async for``."""
        return (
            self.instrs[self.blocks[b].start].op == "FOR_ITER" or self.async_for_end(b) is not None
        )

    def async_for_end(self, b: int) -> int | None:
        """The END_ASYNC_FOR block that ends the ``async for`` whose header is block ``b``."""
        block = self.blocks[b]
        hb = self.handler_block(block)
        if self.instrs[block.start].op != "GET_ANEXT" or hb is None:
            return None
        return hb if self.instrs[self.blocks[hb].start].op == "END_ASYNC_FOR" else None

    def _successors(self, b: Block) -> list[int]:
        last = self.instrs[b.last]
        out = []
        if last.op not in NO_FALLTHROUGH and b.end < len(self.instrs):
            out.append(self.block_at[b.end])
        if last.target is not None and last.target < len(self.instrs):
            out.append(self.block_at[last.target])
        return out


def _split(instrs: list[Instr], leaders: set[int]) -> list[Block]:
    leaders = {0, *leaders}
    for ins in instrs:
        if ins.target is not None:
            leaders.add(ins.target)
        if ins.handler is not None:
            leaders.add(ins.handler.target)
        if ins.op in NO_FALLTHROUGH or ins.op in TWO_WAY or ins.op == "END_ASYNC_FOR":
            leaders.add(ins.index + 1)
        if ins.index and instrs[ins.index - 1].handler != ins.handler:
            leaders.add(ins.index)
        if ins.op == "FOR_ITER":  # a loop header, even where nothing jumps back to it
            leaders.add(ins.index)
    starts = sorted(i for i in leaders if i < len(instrs))
    ends = [*starts[1:], len(instrs)]
    return [Block(n, s, e, instrs[s].handler) for n, (s, e) in enumerate(zip(starts, ends))]
