"""Basic blocks and the control-flow graph over canonical instructions."""

from __future__ import annotations

from dataclasses import dataclass, field

from .instructions import Handler, Instr

NO_FALLTHROUGH = {"JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE"}
TWO_WAY = {
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


@dataclass(eq=False)
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

    def __init__(self, instrs: list[Instr]):
        self.instrs = instrs
        self.blocks = _split(instrs)
        self.block_at = {b.start: b.id for b in self.blocks}
        for b in self.blocks:
            b.succs = self._successors(b)
            for s in b.succs:
                self.blocks[s].preds.append(b.id)

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
