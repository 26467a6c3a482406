"""Basic blocks and the control-flow graph over canonical instructions."""

from __future__ import annotations

from dataclasses import dataclass, field

from .instructions import Handler, Instr
from .versions import JUMPS

CONDITIONS = {"POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE"}
# Stack effects of the instructions a self-contained loop test may be made of.
TEST_EFFECTS = {
    "LOAD_FAST": 1,
    "LOAD_GLOBAL": 1,
    "LOAD_NAME": 1,
    "LOAD_DEREF": 1,
    "LOAD_CONST": 1,
    "PUSH_NULL": 1,
    "LOAD_ATTR": 0,
    "LOAD_METHOD": 1,
    "UNARY_NOT": 0,
    "UNARY_NEGATIVE": 0,
    "COMPARE_OP": -1,
    "IS_OP": -1,
    "CONTAINS_OP": -1,
    "BINARY_OP": -1,
    "BINARY_SUBSCR": -1,
}
NO_FALLTHROUGH = {"JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE"}
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

    def __init__(self, instrs: list[Instr], unrotate: bool = False):
        self.instrs = instrs
        self.blocks = _split(instrs)
        self.block_at = {b.start: b.id for b in self.blocks}
        self.rotated: dict[int, int] = {}  # block -> the loop test its tail repeats
        for b in self.blocks:
            b.succs = self._successors(b)
        if unrotate:
            self._unrotate()
        for b in self.blocks:
            for s in b.succs:
                self.blocks[s].preds.append(b.id)

    def _unrotate(self) -> None:
        """3.11+ repeat a while loop's test at the end of its body and jump back past the
        test at the top. A block whose tail is exactly such a test block goes to that
        test instead, so the loop has one header and ``continue`` stays a continue."""
        tests = {}
        for b in self.blocks:
            last = self.instrs[b.last]
            if last.op in CONDITIONS and len(b.succs) == 2 and self._self_contained(b):
                key = (self._test_key(b.start, b.end), self._exits(b))
                tests.setdefault(key, []).append(b)
        sizes = sorted({len(body) + 1 for body, _ in tests})  # instructions per test
        for x in self.blocks:
            last = self.instrs[x.last]
            if last.op not in CONDITIONS or len(x.succs) != 2:
                continue
            for y in self._tests_ending(x, tests, sizes):
                if y.id < x.id:
                    self.rotated[x.id] = y.id
                    x.succs = [y.id]
                    break

    def _self_contained(self, b) -> bool:
        """Whether the block computes its test from nothing left on the stack before it."""
        if b.end - b.start > 8:
            return False
        depth = 0
        for ins in self.instrs[b.start : b.last]:
            effect = TEST_EFFECTS.get(ins.op)
            if effect is None and ins.op == "CALL":
                effect = -1 - ins.arg
            if effect is None:
                return False
            depth += effect
            if depth < 0:
                return False
        return depth == 1

    def _tests_ending(self, x, tests, sizes):
        exits = self._exits(x)
        for size in sizes:
            if size > x.end - x.start:
                return
            found = tests.get((self._test_key(x.end - size, x.end), exits), ())
            yield from found[:1]  # the earliest such test: the loop's own

    def _test_key(self, start: int, end: int) -> tuple:
        body = tuple((i.op, repr(i.argval)) for i in self.instrs[start : end - 1])
        return body

    def at(self, index: int) -> int:
        return self.block_at[index]

    def handler_block(self, block: Block) -> int | None:
        return self.block_at[block.handler.target] if block.handler else None

    def _successors(self, b: Block) -> list[int]:
        last = self.instrs[b.last]
        out = []
        if last.op not in NO_FALLTHROUGH and b.end < len(self.instrs):
            out.append(self.block_at[b.end])
        if last.target is not None and last.target < len(self.instrs):
            out.append(self.block_at[last.target])
        return out

    def _exits(self, b) -> tuple:
        """(what is tested, where it goes when that holds, where it goes otherwise)."""
        op = self.instrs[b.last].op
        fall, jump = b.succs
        tested = "none" if op.endswith("NONE") else "truth"
        jumps_when = op in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE")
        return (tested, jump, fall) if jumps_when else (tested, fall, jump)


def _split(instrs: list[Instr]) -> list[Block]:
    leaders = {0}
    for ins in instrs:
        if ins.target is not None:
            leaders.add(ins.target)
        if ins.handler is not None:
            leaders.add(ins.handler.target)
        if ins.op in NO_FALLTHROUGH or ins.op in TWO_WAY or ins.op == "END_ASYNC_FOR":
            leaders.add(ins.index + 1)
        if ins.index and instrs[ins.index - 1].handler != ins.handler:
            leaders.add(ins.index)
    starts = sorted(i for i in leaders if i < len(instrs))
    ends = [*starts[1:], len(instrs)]
    return [Block(n, s, e, instrs[s].handler) for n, (s, e) in enumerate(zip(starts, ends))]
