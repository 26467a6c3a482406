"""Handler regions: which user-visible handlers protect each block, and which blocks
each handler protects. A block under a handler whose statement is not open yet starts
that try or with statement (``trys.py``)."""

from __future__ import annotations

from ..simulation.unsupported import Unsupported


class Regions:
    def __init__(self, graph, an):
        self.graph, self.an = graph, an
        self._chains: dict[int, tuple] = {}
        self._regions: dict[int, set[int]] | None = None

    def chain(self, x: int) -> tuple:
        """User-visible handler blocks protecting block ``x``, innermost first."""
        if x in self._chains:
            return self._chains[x]
        out, seen = [], {x}
        hb = self.graph.handler_block(self.graph.blocks[x])
        while hb is not None and hb not in seen:
            seen.add(hb)
            if hb not in self.an.transparent and not self.starts_with(hb, "END_ASYNC_FOR"):
                out.append(hb)
            hb = self.graph.handler_block(self.graph.blocks[hb])
        self._chains[x] = tuple(out)
        return self._chains[x]

    def starts_with(self, b: int, *ops) -> bool:
        instrs = self.graph.instrs
        i = self.graph.blocks[b].start
        found = [instrs[j].op for j in range(i, min(i + 3, len(instrs)))]
        return any(op in found for op in ops)

    def opens(self, b: int, active) -> int | None:
        """The outermost handler protecting block ``b`` whose statement is not open yet
        (``active``: the handlers of the statements being walked), or None."""
        pending = [h for h in self.chain(b) if h not in active]
        return pending[-1] if pending else None

    def region(self, h) -> set[int]:
        """Blocks protected by handler block ``h``, directly or through inner handlers."""
        if self._regions is None:
            self._regions = {}
            for x in self.graph.blocks:
                for handler in self.chain(x.id):
                    self._regions.setdefault(handler, set()).add(x.id)
        return self._regions.get(h, set())

    def first_protected(self, h):
        """The first block handler ``h`` protects."""
        region = self.region(h)
        if not region:
            raise Unsupported("handler protects nothing")
        return min(region)
