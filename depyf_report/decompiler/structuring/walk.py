"""The walk over the control-flow graph, and the state its parts share.

``Walk.seq`` walks blocks from an entry to a stop block, simulating each one. A
conditional block splits into two walks that meet at its join (``joins.py``); a loop
header starts a loop (``whiles.py``, ``fors.py``); a block under an exception handler
not yet open starts a try or with statement (``trys.py``, ``withs.py``). Each part is a
set of functions that take the walk, ``w``, first: the graph, its analysis, the blocks
visited so far and the ends of the with and try bodies being walked (``w.fences``).
Anything the walk cannot place raises ``Unsupported`` and the caller uses the state
machine instead.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager

from ..bytecode.depths import stack_depths
from ..bytecode.effects import value_effect
from ..graph.analysis import Analysis
from ..simulation import markers as m
from ..simulation import nodes
from ..simulation.machine import Sim
from ..simulation.unsupported import ReachedTwice, Unsupported
from . import branches, trys, whiles
from .conditions import MergeState
from .joins import Joins, written_out
from .regions import Regions
from .withs import settle_pending_exits


def structured_body(ctx, graph) -> list[ast.stmt]:
    counter = ctx.counter
    try:
        stmts, _ = Walk(ctx, graph).seq(0, None, [], None)
    except ReachedTwice as twice:
        # 3.12+ copy a small return to the jumps to it, so one copy can end paths the
        # walk places apart (a break in one case, the fall-through of a match in
        # another): the return written again where each path gets to it, as a second
        # try, so that code the first walk writes keeps its one return (seed 90)
        if not _lone_return(graph, twice.block):
            raise
        ctx.counter = counter
        walk = Walk(ctx, graph)
        walk.repeat_returns = True
        stmts, _ = walk.seq(0, None, [], None)
    return settle_pending_exits(stmts)


def _lone_return(graph, b) -> bool:
    """Whether block ``b`` only computes a value and returns it: the same wherever a
    path gets to it."""
    block = graph.blocks[b]
    instrs = graph.instrs[block.start : block.end]
    if block.succs or len(instrs) > _MAX_COPIED_RETURN or instrs[-1].op != "RETURN_VALUE":
        return False
    return all(value_effect(i) is not None for i in instrs[:-1])


def _returns_a_constant(graph, b) -> bool:
    """Whether block ``b`` only returns a constant: it cannot raise, so where it runs
    inside a try body makes no difference."""
    block = graph.blocks[b]
    ops = [i.op for i in graph.instrs[block.start : block.end] if i.op != "NOP"]
    return not block.succs and ops == ["LOAD_CONST", "RETURN_VALUE"]


# The longest return block the compiler copies (four instructions), with a NOP or two.
_MAX_COPIED_RETURN = 6


class Fences:
    """The blocks where the with and try bodies being walked end (their follows): every
    walk nested in one stops there too."""

    def __init__(self):
        self._ends: set[int] = set()
        self._copies: dict[int, int] = {}  # a copy of a fence's block -> that fence

    def __contains__(self, b) -> bool:
        return b in self._ends or b in self._copies

    def __iter__(self):
        return iter(self._ends)

    def reached(self, b):
        """The fence that getting to block ``b`` reaches: ``b``, or what it copies."""
        return self._copies.get(b, b)

    def copied(self, b) -> bool:
        """Whether block ``b`` is a copy of a fence, not one itself."""
        return b in self._copies

    def copies(self) -> list[int]:
        return list(self._copies)

    @contextmanager
    def walked_through(self, copies):
        """The walks inside the ``with`` block run on through ``copies`` of fences,
        not stopping there."""
        hidden = {c: self._copies.pop(c) for c in copies if c in self._copies}
        try:
            yield
        finally:
            self._copies.update(hidden)

    @contextmanager
    def around(self, end, copies=()):
        """The walks inside the ``with`` block stop at ``end`` too (None: nowhere new),
        and at ``copies`` of its block, as at ``end`` itself."""
        fenced = end is not None and end not in self._ends
        copies = [c for c in copies if c not in self] if fenced else []
        if fenced:
            self._ends.add(end)
            self._copies.update((c, end) for c in copies)
        try:
            yield
        finally:
            if fenced:
                self._ends.discard(end)
                for c in copies:
                    del self._copies[c]


class Walk:
    """The walk of one code object's graph, and what its parts share. The parts hold
    nothing that refers back to it: such a cycle would keep the whole graph alive until
    the next collection (decompile runs with gc off), and on a long function that is
    most of the memory it touches."""

    def __init__(self, ctx, graph):
        self.ctx, self.graph = ctx, graph
        self.blocks = graph.blocks
        self.an = Analysis(graph)
        self.joins = Joins(graph, self.an)  # where paths meet, with its caches
        self.regions = Regions(graph, self.an)  # the blocks each handler protects
        self.visited: set[int] = set()
        self.visit_log: list[int] = []  # order of first visits, to undo a trial walk
        self.open_loops: set[int] = set()
        self.fences = Fences()
        self.ended_at = None  # where the last walk that ran on to its end stopped
        self.fenced_at: list[int] = []  # the fences walks stopped at short of their stop
        self.merge = MergeState()  # the condition being merged (conditions.py)
        # an endless while loop's header -> the code after it, which the walk of a
        # with inside read after the ``__exit__`` of its break (withs.py)
        self.after_loop: dict[int, list] = {}
        self.repeat_returns = False  # a lone return may be written again (see above)
        self._depths: dict[int, int] | None = None

    def depth_at(self, i) -> int | None:
        """How many values are on the stack before instruction ``i`` runs, as the
        compiler counted them; None where ``i`` is not the first of the instructions
        its raw one became (normalize splits fused ones)."""
        instrs = self.graph.instrs
        if i > 0 and instrs[i - 1].offset == instrs[i].offset:
            return None
        if self._depths is None:
            self._depths = stack_depths(self.ctx.code)
        return self._depths.get(instrs[i].offset)

    def seq(self, b, stop, stack, loop, entering=None, active=frozenset()):
        """Statements from block ``b`` up to ``stop``; returns (stmts, stack at stop or None)."""
        out: list[ast.stmt] = []
        came_from = None
        while True:
            # explicit, as written: ``if c: continue`` (the header is also a fence where
            # a try's clauses meet at the next round, which a branch inside one reaches)
            at_header = loop is not None and b == loop.header and b != entering
            if at_header and (b == stop or b in self.fences):
                out.append(ast.Continue())
                return out, None
            # a fence the loop is inside, or a copy of it (3.12+ copy a short return
            # there to a break: seed 105), or a fence that returns as the code after the
            # loop does, a copy of both (seed 42), or a copy of its follow there, or the
            # fence its follow is a copy of (3.10's finally body copied to the test's way out)
            leaves = loop is not None and (
                b == loop.follow
                or b in loop.breaks
                or self.fences.reached(b) == self.fences.reached(loop.follow)
                or self._same_return(b, loop.follow)
            )
            # (no way out of the loop: a return, its copy of the finally body walked on,
            # the end of a try body around the loop copied there where the loop itself
            # ends elsewhere, inside it (a loop in a finally body's copy on an exception);
            # or the end of a try body around the loop that only returns a constant, or
            # a copy of it: a way out of the loop to it returns there, as written:
            # ``case _: return``)
            around = loop is not None and self.fences.reached(b) in loop.inside
            own_copy = (leaves or around) and self._returns_by_its_own_copy(b, loop)
            constant = around and _returns_a_constant(self.graph, b)
            fenced = b in self.fences and not leaves and not constant
            if not own_copy and (b is None or b == stop or fenced):
                b = self.fences.reached(b)
                self.ended_at = b
                if b != stop:
                    self.fenced_at.append(b)
                return out, stack
            if b != entering and not own_copy:
                # the end of the body, through the test's repeated copy: no
                # ``continue`` was written here
                edge = loop.follow if leaves else b
                jump = self._loop_edge(edge, loop, falls_off=came_from in self.graph.rotated)
                if jump is not None:
                    out += [*self._dropped_at_a_break(jump, edge, stack), jump]
                    return out, None
            entering = None
            if b in self.an.loops and b not in self.open_loops and not self._try_around(b, active):
                stmts, stack, b = whiles.loop(self, b, stack, loop, active, stop)
                out += stmts
                if b is None:
                    return out, None
                continue
            opened = self.regions.opens(b, active)
            if opened is not None:
                stmts, stack, b = trys.build(self, opened, b, stack, loop, active, stop)
                out += stmts
                if stack is None:
                    return out, None
                continue
            came_from = b
            stmts, stack, b, done = self.block(b, stack, loop, active, stop)
            out += stmts
            if done:
                return out, None

    def _dropped_at_a_break(self, jump, follow, stack) -> list[ast.stmt]:
        """The value a way out of a loop keeps above the stack its follow starts
        with, written where it is computed: ``return v`` from a for loop under a
        finally body that never goes on pops the iterator below ``v`` and runs that
        body's copy, where the loop's end goes too (seed 10222's shape, a loop
        around the return): read as a break, that would not compute ``v``."""
        depth = self.depth_at(self.blocks[follow].start) if follow is not None else None
        if not isinstance(jump, ast.Break) or depth is None or len(stack) != depth + 1:
            return []
        value = stack[-1]
        if isinstance(value, m.Marker):
            return []
        return [nodes.Expr(value=value, dropped_return=True)]

    def _returns_by_its_own_copy(self, b, loop) -> bool:
        """Whether getting to block ``b``, a copy of the end of the with or try body
        that ``loop`` ends, is a return written in the loop: that copy (of a finally
        body, then the return) is no copy the compiler makes of a break's jump."""
        if not self.fences.copied(b) or b == loop.follow or b in loop.breaks:
            return False
        return written_out(self, b)

    def _same_return(self, fence, follow) -> bool:
        return (
            fence in self.fences
            and follow is not None
            and fence != follow
            and self.joins.same_return(fence, follow)
        )

    def _try_around(self, header, active) -> bool:
        """Whether a try statement starts at loop ``header`` and holds the whole loop
        (``try: while c: ...``): then the try opens first, the loop inside its body."""
        opened = self.regions.opens(header, active)
        if opened is None:
            return False
        region = self.regions.region(opened)
        # (3.12+ leave a jump to the rotated test that nothing reaches outside the try)
        return all(x in region or not self.blocks[x].preds for x in self.an.loops[header])

    def _loop_edge(self, b, loop, falls_off):
        """The jump that getting to block ``b`` is inside ``loop``: a continue, a break, a
        leaving for the loop's else clause; None where it is none of these."""
        if (
            loop is not None
            and loop.follow not in (None, b)
            and self.joins.jumped_to(loop.follow) == b
        ):
            # where the loop's end only jumps on to (an outer loop's next round): a break,
            # its jump sent straight there (3.12+)
            return ast.Break()
        inner = True
        while loop is not None:
            if b == loop.header:
                if not inner:
                    raise Unsupported("continue to an outer loop")
                return nodes.Continue(falls_off=falls_off)
            if b == loop.follow or b in loop.breaks:
                if not inner:
                    raise Unsupported("break out of an outer loop")
                return ast.Break()
            if b == loop.else_start:
                if not inner:
                    raise Unsupported("an inner loop leaves for an outer loop's else")
                return m.LeftForElse()
            loop, inner = loop.outer, False
        return None

    def visit(self, b) -> None:
        if b not in self.visited:
            self.visited.add(b)
            self.visit_log.append(b)

    def unvisit(self, mark: int) -> None:
        """Undo the walk since ``mark``, so the same blocks can be walked again: the
        loops it opened too, or their headers would read as plain blocks."""
        for b in self.visit_log[mark:]:
            self.visited.discard(b)
            self.open_loops.discard(b)
        del self.visit_log[mark:]

    def simulate(self, b, stack) -> Sim:
        again = b in self.visited
        self.visit(b)
        block = self.blocks[b]
        sim = Sim(self.ctx, self.graph.instrs, list(stack))
        # (a loop's tail stops where its test's copy starts: the test runs at the top)
        sim.run(block.start, self.graph.copy_starts.get(b, block.end))
        # only pure expression tails may repeat (and a lone return, on a second try)
        repeats = not sim.out and (not sim.branch or sim.branch.kind == "goto")
        if again and not repeats and not (self.repeat_returns and _lone_return(self.graph, b)):
            raise ReachedTwice(b)
        return sim

    def block(self, b, stack, loop, active, stop=None):
        """Simulate one block and follow its exit; returns (stmts, stack, next, done)."""
        sim = self.simulate(b, stack)
        branch, succs = sim.branch, self.blocks[b].succs
        if b in self.graph.rotated:  # its test is the loop's own test: go there instead
            return sim.out, sim.stack, self.graph.rotated[b], False
        kind = branch.kind if branch else "goto"
        if kind in ("return", "raise"):
            return sim.out, None, None, True
        if kind == "goto":
            if not succs:
                raise Unsupported("falls off the end")
            return sim.out, sim.stack, succs[-1], False
        if kind == "for":
            raise Unsupported("FOR_ITER outside a loop header")
        return branches.two_way(self, b, sim, loop, active, stop)
