"""Joins: where the two branches of a conditional block meet again.

That is its immediate post-dominator (inside a loop: within the loop's body, where going
back to the header or leaving ends a path; inside a try body or for a value: along
normal edges, since the way through a handler is no way to the join); where an early
return, continue or break leaves no post-dominator, the last block only it leads to that
several paths reach; else the enclosing join. Also here: where the compiler copied the
tail both branches end with into each (``copied_tail``), so that they never meet, or
into one of them, the other falling into the original (``tail_met``).
"""

from __future__ import annotations

import ast

from ..bytecode.constants import value_key
from ..bytecode.opcodes import CHECK_STAR_MATCH
from ..rewrites.clause_tails import LONGEST_COPY, same_instruction
from ..simulation import markers as m
from ..simulation.machine import Sim
from ..simulation.unsupported import Unsupported
from .loops import is_loop_edge, loop_postdominators
from .trials import trial_run

# How far ``Joins._passed_by`` follows a branch that runs straight on.
_STRAIGHT_STEPS = 4

# The compiler copies an exit block of at most four instructions into the blocks that
# jump to it; a tail may also carry a NOP or two left from line numbers.
_MAX_COPIED_TAIL = 6
_MAX_NESTED_ARMS = 8
# How many blocks ``Joins._bypassed`` looks through (past that, no way around is seen).
_BYPASS_STEPS = 64

# What statements leave on the stack for the ones after them: a for loop's iterator, a
# with statement's exit, a handler's exception, the one handled before it (and the
# offset it was raised at).
CARRIED = (m.Iter, m.WithExit, m.Exception_, m.HandledBefore)


class Joins:
    """Where paths through the graph meet, and where a lone jump goes: questions about
    the graph alone, with their answers kept."""

    def __init__(self, graph, an):
        self.graph, self.an = graph, an
        self.blocks = graph.blocks
        self._joins: dict[int, dict[int, int | None]] = {}  # per loop header
        self._dominated: dict[int, list[int]] | None = None  # dominator-tree children
        self._with_raises: dict[int, int | None] | None = None
        self._breaks_to: dict[int, int] = {}  # a copy of a loop's follow -> the follow

    def note_break_copies(self, copies, follow) -> None:
        """Blocks ``copies`` are where breaks go, each a copy of the loop's ``follow``."""
        self._breaks_to.update(dict.fromkeys(copies, follow))

    def same_target(self, a, b) -> bool:
        """Whether going to ``a`` and to ``b`` is the same, seeing through blocks that only
        jump on (3.12+ lay out such a jump to the loop header after each failed test), and
        through the blocks a break goes to besides the loop's follow."""
        if self._lands(a) == self._lands(b):
            return True  # (a lone jump to a lone jump: seed 209)
        a, b = self.jumped_to(a), self.jumped_to(b)
        return a == b or self._breaks_to.get(a, a) == self._breaks_to.get(b, b)

    def _lands(self, b, steps=4):
        """Where going to block ``b`` gets, through a few blocks that only jump on."""
        for _ in range(steps):
            nxt = self.jumped_to(b)
            if nxt == b:
                break
            b = nxt
        return b

    def join_of(self, b, loop, stack, stop=None, tested=frozenset()):
        """Where the two branches of ``b`` meet again, or None when they never do."""
        join = self.an.ipdom.get(b)
        along = self._raising_joins().get(b) if not between_statements(stack) else None
        if along is not None or (join is not None and not between_statements(stack)):
            # Inside an expression: the branches meet where the value is used, which may
            # be a raise (``raise E(a if c else b)``), along normal edges (raising drops
            # the value: in a try body, the path through the handler is no way there).
            # (Branches that never meet so are statements over a value kept below them:
            # a match subject under a capture's guard, ``case a if g:``)
            join = along if along is not None else join
            if loop is None or join in loop.body or join == loop.follow:
                return join
            # outside the loop's body: a break's copy of the code after the loop, which
            # only this expression's branches reach (``f(a or b); break`` at the end)
            if join is not None and all(self.an.dominates(b, p) for p in self.blocks[join].preds):
                return join
            return None
        if loop is not None:
            # Every path in a loop ends at its header or leaves it, so the function's
            # post-dominator is no join: look for one inside the loop.
            join = self._loop_joins(loop).get(b)
        elif self.an.handler_of(b) is not None:
            join = self.an.normal_ipdom.get(b)  # the handler's way is no path to a join
        if join is not None and self._passed_by(join, tested or {b}):
            join = None
        if join is None:
            join = self._merge_point(b, loop, tested, stop)
            if join is not None and stop is not None and self.runs_into(stop, join):
                join = stop  # past the end of the statement around: they meet there first
        if join is not None and self._bypassed(b, join, stop, loop):
            # a join found by leaving out the paths that raise (``if c: return x``
            # before the raise that ends a finally body's exception copy): a branch
            # gets to the enclosing join without passing it, so it is no join but the
            # if body, and the branches meet where the walk around stops (seed 1085)
            join = stop
        leaving = loop is not None and b not in loop.body  # (a handler's copy inside)
        if (
            join is None
            and stop is not None
            and (self._inside(stop, loop) or (leaving and not is_loop_edge(stop, loop)))
        ):
            join = stop  # every path that does not leave meets the enclosing join
        if join is None and stop is not None and stop in self.blocks[b].succs:
            # a branch straight to where the walk around stops (a clause's break to a
            # copy of the return after the loop, 3.13) writes nothing: it meets the
            # other there, if that one goes on at all
            join = stop
        if join is None and loop is not None:
            # Not where the loop goes on: a branch that gets there breaks on its own.
            outer = self.an.ipdom.get(b)
            if outer in loop.body:
                join = outer
        return join

    def _bypassed(self, b, join, stop, loop) -> bool:
        """Whether a path from block ``b`` gets to ``stop``, the join of the walk
        around, without passing ``join`` (going back to a loop's header, leaving it or
        ending the with or try body around ends a path)."""
        if stop is None or stop == join or is_loop_edge(stop, loop):
            return False
        todo, seen = [b], {b, join}
        while todo and len(seen) < _BYPASS_STEPS:
            for s in self.blocks[todo.pop()].succs:
                if s == stop:
                    return True
                if s not in seen and not is_loop_edge(s, loop):
                    seen.add(s)
                    todo.append(s)
        return False

    def _passed_by(self, join, tested) -> bool:
        """Whether a branch goes past ``join`` to code that ``join`` also leads to (the
        raise both end in: post-dominators leave out the paths that raise), so that the
        branches do not meet there."""
        for x in tested:
            for s in self.blocks[x].succs:
                if s == join or s in tested:
                    continue
                came_from = x
                for _ in range(_STRAIGHT_STEPS):  # along the branch while it runs straight
                    preds = self.blocks[s].preds
                    if any(
                        p not in tested and p != came_from and self.an.dominates(join, p)
                        for p in preds
                    ):
                        return True
                    succs = self.blocks[s].succs
                    if len(succs) != 1 or succs[0] == join:
                        break
                    came_from, s = s, succs[0]
        return False

    def _raising_joins(self) -> dict[int, int | None]:
        """Immediate post-dominators along normal edges, raising paths counted as ends."""
        if self._with_raises is None:
            ends = ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE")
            self._with_raises = self.an.postdominators_to(ends, normal=True)
        return self._with_raises

    def _inside(self, x, loop) -> bool:
        return loop is None or (x in loop.body and x != loop.header)

    def _merge_point(self, b, loop, tested=frozenset(), stop=None) -> int | None:
        """Where ``b``'s branches meet when one of them returns, continues or breaks: the
        last block that only ``b`` leads to and that more than one path reaches
        (Cifuentes' follow of a two-way conditional), short of the end of the statement
        around (``stop``): past it, an enclosing with's ``__exit__`` suppressing is
        another way in."""
        if self._dominated is None:
            self._dominated = {}
            for x, parent in self.an.idom.items():
                self._dominated.setdefault(parent, []).append(x)
        found = None
        leaving = loop is not None and b not in loop.body  # on a way out, written inside
        for x in self._dominated.get(b, ()):
            # (a raise or return both reach, and no loop goes on to, ends the loop's
            # body, written inside it)
            outside = not self._inside(x, loop) and not leaving
            if outside and (self.blocks[x].succs or is_loop_edge(x, loop)):
                continue
            if stop is not None and x != stop and self.runs_into(stop, x):
                continue
            # the tests of one condition count once: where it goes is no meeting place
            entries = {
                -1 if p in tested else p
                for p in self.blocks[x].preds
                if not self.an.dominates(x, p)
            }
            if len(entries) > 1 and (found is None or x > found):
                found = x
        return found

    def _loop_joins(self, loop) -> dict[int, int | None]:
        """Immediate post-dominators within ``loop``'s body, where going back to the
        header, leaving the loop or returning all end the walk."""
        if loop.header not in self._joins:
            self._joins[loop.header] = loop_postdominators(self.an, loop.header, loop.body)
        return self._joins[loop.header]

    def runs_into(self, x, end, steps=4) -> bool:
        """Whether the straight path from block ``x`` gets to block ``end``."""
        for _ in range(steps):
            if x == end:
                return True
            if len(self.blocks[x].succs) != 1:
                return False
            x = self.blocks[x].succs[0]
        return x == end

    def jumped_to(self, b):
        block = self.blocks[b]
        if block.end - block.start == 1 and self.graph.instrs[block.start].op == "JUMP":
            return block.succs[0]
        return b

    def same_exit(self, a, b) -> bool:
        """Whether blocks ``a`` and ``b`` both end the function, alike: 3.12+ copy such a
        small block to the jumps to it, so one chain can fail into several copies."""
        return not self.blocks[a].succs and self.same_block(a, b)

    def same_block(self, a, b) -> bool:
        """Whether blocks ``a`` and ``b`` run the same instructions, under the same
        handler, on to the same blocks (one by a jump, the other falling into it):
        either one does what the other does."""
        x, y = self.blocks[a], self.blocks[b]
        if x.succs != y.succs or x.handler != y.handler:
            return False
        return same_instructions(self.unjumped(x), self.unjumped(y))

    def unjumped(self, block):
        """The instructions of ``block`` but a jump that ends it."""
        end = block.end - (self.graph.instrs[block.last].op == "JUMP")
        return self.graph.instrs[block.start : end]

    def same_return(self, a, b) -> bool:
        x = self.blocks[a]
        if x.end - x.start > 4 or self.graph.instrs[x.last].op != "RETURN_VALUE":
            return False
        return self.same_exit(a, b)


def same_way_to_an_end(w, x, y, steps=40) -> bool:
    """Whether blocks ``x`` and ``y`` run the same instructions, block by block, on to
    ends of the function alike; each block after the first taking nothing from the way
    in (so neither ends returning a value kept under them). 3.10 and 3.12+ copy a
    small block that ends the function to the jumps to it, and 3.13 a block with no
    line too, so such ways are copies of one another; so are two copies of a finally
    body holding a loop (3.12+ inline a comprehension as one), walked as pairs of
    blocks, each pair's successors and handlers paired in turn."""
    pairs, todo = {x: y}, [(x, y)]
    # (where the compiler counted no value on the stack at either start, no block on
    # the way can take one from the way in: so a way that branches (a loop's blocks
    # take what the blocks before them pushed) need not run alone, block by block; a
    # straight way still does, as before)
    empty = w.depth_at(w.blocks[x].start) == w.depth_at(w.blocks[y].start) == 0
    empty = empty and _branches_on(w, y, steps)
    while todo:
        a, b = todo.pop()
        if a != x and not (empty or runs_alone(w, b)):
            return False
        if w.joins.same_exit(a, b):
            continue
        if a == b and x in w.an.loops.get(a, ()):
            return False  # (both go round a loop around them: on, to no end)
        paired = _paired_on(w, a, b)
        if paired is None:
            return False
        for s, t in paired:
            if s in pairs:
                if pairs[s] != t:
                    return False
                continue
            pairs[s] = t
            todo.append((s, t))
        if len(pairs) > steps:
            return False
    return True


def _branches_on(w, b, steps) -> bool:
    """Whether the way from block ``b`` comes to a block with more than one way on
    before it ends."""
    for _ in range(steps):
        succs = w.blocks[b].succs
        if len(succs) != 1:
            return len(succs) > 1
        b = succs[0]
    return False


def _paired_on(w, a, b):
    """Where blocks ``a`` and ``b`` go on, pair by pair (their successors, and their
    handlers where these differ: a re-raise goes there), where both run the same
    instructions, jumps aside; None where they do not."""
    x, y = w.blocks[a], w.blocks[b]
    if len(x.succs) != len(y.succs):
        return None
    if (x.handler is None) != (y.handler is None):
        return None
    xs, ys = w.joins.unjumped(x), w.joins.unjumped(y)
    if len(xs) != len(ys) or not all(map(_same_but_where, xs, ys)):
        return None
    pairs = list(zip(x.succs, y.succs))
    # (an except* clause's test names where the clauses go on: a place to pair too)
    pairs += [
        (w.graph.at(i.argval), w.graph.at(j.argval))
        for i, j in zip(xs, ys)
        if i.op == CHECK_STAR_MATCH and i.argval is not None
    ]
    if x.handler != y.handler:
        h, k = x.handler, y.handler
        if (h.depth, h.lasti, h.pops) != (k.depth, k.lasti, k.pops):
            return None
        pairs.append((w.graph.handler_block(x), w.graph.handler_block(y)))
    return pairs


def _same_but_where(i, j) -> bool:
    """Whether instructions ``i`` and ``j`` do the same, but for where a jump goes and
    which handler covers them (the pairing of blocks answers for those)."""
    if i.op != j.op:
        return False
    if i.op == CHECK_STAR_MATCH:
        return (i.argval is None) == (j.argval is None)
    return i.target is not None or value_key(i.argval) == value_key(j.argval)


def written_out(w, b, steps=4) -> bool:
    """Whether block ``b`` runs straight on to a return through more instructions than
    the compiler copies to a jump, some with a line: the code a return written there
    runs (its copy of a finally body or of ``__exit__``), however like the code at
    another way out (the end of the with or try body around) it is."""
    graph, at = w.graph, []
    for _ in range(steps):
        block = graph.blocks[b]
        at += [i for i in range(block.start, block.end) if graph.instrs[i].op != "NOP"]
        if len(block.succs) != 1:
            break
        b = block.succs[0]
    block = graph.blocks[b]
    if block.succs or graph.instrs[block.last].op != "RETURN_VALUE":
        return False
    return len(at) > LONGEST_COPY and any(graph.line_at(i) is not None for i in at)


def runs_alone(w, x) -> bool:
    """Whether block ``x`` runs on an empty stack: it takes no value from the way in,
    so each copy of it does the same (a kept return value differs on each way); or
    ends re-raising the exception an enclosing finally body or clause handles, which
    no value is ever kept over, its code before taking nothing from the way in (3.10
    copies the end of a finally body's exception copy, ``f(); RERAISE``)."""
    block, instrs, counter = w.graph.blocks[x], w.graph.instrs, w.ctx.counter
    end = block.end - (instrs[block.last].op == "RERAISE")
    if any(i.op in DEFINES for i in instrs[block.start : end]):
        return False  # (a trial run must not decompile nested code)
    sim = Sim(w.ctx, instrs, [])
    try:
        sim.run(block.start, end)
    except Unsupported:
        return False
    finally:
        w.ctx.counter = counter
    return end == block.end or not sim.stack


# Instructions that define nested code, which a trial run must not decompile.
DEFINES = {"MAKE_FUNCTION", "LOAD_BUILD_CLASS"}


def between_statements(stack) -> bool:
    """Whether a branch with ``stack`` under it is a statement, not part of an expression."""
    return all(
        isinstance(v, CARRIED) or (isinstance(v, ast.Constant) and v.value == -1) for v in stack
    )


def same_instructions(xs, ys) -> bool:
    return len(xs) == len(ys) and all(map(same_instruction, xs, ys))


def copied_tail(w, b, test, true_b, false_b, stack):
    """``return f(a, b if c else d)``: 3.10 and 3.12+ copy a short tail that returns
    or raises (here the call and the return) into each arm of the conditional
    expression, so the arms never meet. Where the test is inside an expression and
    each arm pushes one value before the same tail, that is the one expression,
    written once: (value, block whose tail to run, tail length), or None."""
    if all(isinstance(v, m.Marker) for v in stack):
        # between statements (an iterator, a handled exception, a with's exit below),
        # ``if c: return x`` reads as well and is exact
        return None
    tested = w.merge.tested | {b}
    yes = _arm_values(w, true_b, stack, tested)
    no = yes and _arm_values(w, false_b, stack, tested)
    shared = yes.keys() & no.keys()
    if not shared:
        return None
    # The longest: the copied block starts right where the expression ends. Where a
    # shorter one also fits (``(a if c else b).x`` against ``a.x if c else b.x``),
    # both readings compile to the same bytecode.
    tail = max(shared, key=len)
    (t_value, leaf, t_blocks), (f_value, _, f_blocks) = yes[tail], no[tail]
    for x in t_blocks | f_blocks:
        w.visit(x)
    return ast.IfExp(test=test, body=t_value, orelse=f_value), leaf, len(tail)


def tail_met(w, b, test, true_b, false_b, stack):
    """``x = a or (b if c else d)`` then a return: 3.10 and 3.12+ copy the tail (the
    store and the return) into the arm that would jump to it, while the other arm
    falls into it, where the ``or`` jumps to it with its kept value too. That tail,
    reached another way as well, takes the arm's value: the conditional expression
    goes on to it, read once, not an if whose arms keep the value in temporaries
    (seed 4988). (value, the tail's block) or None."""
    for copying, falling in ((true_b, false_b), (false_b, true_b)):
        met = _falls_into_a_tail(w, falling, b, stack)
        if met is None:
            continue
        value, tail = met
        copied = _value_before_a_copy(w, copying, b, tail, stack)
        if copied is None:
            return None
        w.visit(copying)
        w.visit(falling)
        t_value, f_value = (copied, value) if copying == true_b else (value, copied)
        return ast.IfExp(test=test, body=t_value, orelse=f_value), tail
    return None


def _falls_into_a_tail(w, b, branch, stack):
    """(the one value arm ``b`` pushes, the block it goes on to) where that block ends
    the function and another way than the arm reaches it; else None."""
    block = w.blocks[b]
    if b in w.visited or set(block.preds) != {branch} or len(block.succs) != 1:
        return None
    tail = block.succs[0]
    after = w.blocks[tail]
    if after.succs or set(after.preds) <= {b} or tail in w.visited or tail in w.fences:
        return None
    value = _arm_value(w, block.start, block.start + len(w.joins.unjumped(block)), stack)
    return None if value is None else (value, tail)


def _value_before_a_copy(w, b, branch, tail, stack):
    """The one value arm ``b`` pushes before its own copy of block ``tail``; or None."""
    block, copy = w.blocks[b], w.blocks[tail]
    if b in w.visited or set(block.preds) != {branch} or block.succs:
        return None
    if block.handler != copy.handler:
        return None
    instrs, size = w.graph.instrs, copy.end - copy.start
    if block.end - block.start <= size or size > _MAX_COPIED_TAIL:
        return None
    if not same_instructions(instrs[block.end - size : block.end], instrs[copy.start : copy.end]):
        return None
    return _arm_value(w, block.start, block.end - size, stack)


def _arm_value(w, start, end, stack):
    """``_one_value`` of an arm, where it defines no nested code (which reading it
    would decompile, and a reading that then fails would throw away)."""
    if any(i.op in DEFINES for i in w.graph.instrs[start:end]):
        return None
    return _one_value(w, start, end, stack)


def _arm_values(w, b, stack, tested, depth=0) -> dict:
    """For each tail, returning or raising, that arm ``b`` can end with: (the one
    value the arm pushes before it, the block holding the tail, the arm's blocks);
    only ``tested`` blocks may lead to the arm. A nested conditional expression is
    an arm whose own arms end with the same tail."""
    block = w.blocks[b]
    if b in w.visited or not set(block.preds) <= tested or depth > _MAX_NESTED_ARMS:
        return {}
    # A tail may drop a value: ``log.append(a if c else b)`` ends the function
    sim = trial_run(w, block, stack, allow={"POP_TOP"})
    if sim is None or sim.branch is None:
        return {}
    if sim.branch.kind == "cond" and len(block.succs) == 2:
        kept = len(sim.stack) == len(stack) and all(x is y for x, y in zip(sim.stack, stack))
        if sim.out or not kept:
            return {}
        fall, jump = block.succs
        true_b, false_b = (jump, fall) if sim.branch.jump_when else (fall, jump)
        yes = _arm_values(w, true_b, stack, {b}, depth + 1)
        no = yes and _arm_values(w, false_b, stack, {b}, depth + 1)
        return {
            tail: (
                ast.IfExp(test=sim.branch.test, body=yes[tail][0], orelse=no[tail][0]),
                yes[tail][1],
                yes[tail][2] | no[tail][2] | {b},
            )
            for tail in yes.keys() & no.keys()
        }
    if sim.branch.kind not in ("return", "raise"):
        return {}
    instrs = w.graph.instrs
    found = {}
    for size in range(1, min(block.end - block.start, _MAX_COPIED_TAIL + 1)):
        value = _one_value(w, block.start, block.end - size, stack)
        if value is not None:
            key = tuple((i.op, value_key(i.argval)) for i in instrs[block.end - size : block.end])
            found[key] = (value, b, {b})
    return found


def _one_value(w, start, end, stack):
    """The value instructions [start, end) push on ``stack``, where they push just one
    and emit nothing; else None."""
    sim = Sim(w.ctx, w.graph.instrs, list(stack))
    try:
        sim.run(start, end)
    except Unsupported:
        return None
    pushed = sim.stack[len(stack) :]
    if sim.out or sim.branch is not None or len(pushed) != 1:
        return None
    if any(a is not b for a, b in zip(sim.stack, stack)):
        return None
    return pushed[0]
