"""Recover if/else, loops, try and with from the control-flow graph.

``Builder.seq`` walks blocks from an entry to a stop block, simulating each one. A
conditional block splits into two walks that meet at its join (``join_of``): its
immediate post-dominator (inside a loop: within the loop's body, where going back to the
header or leaving ends a path; inside a try body or for a value: along normal edges,
since the way through a handler is no way to the join); where an early return, continue
or break leaves no post-dominator, the last block only it leads to that several paths
reach; else the enclosing join. Short-circuit tests and chained comparisons fold into
one condition first. A loop header starts a loop whose body is walked until control
returns to the header (continue) or reaches the loop's follow block (break). Anything
the walk cannot place raises ``Unsupported`` and the caller uses the state machine
instead.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..bytecode.versions import JUMPS
from ..graph.analysis import Analysis, _dominators
from ..graph.cfg import TWO_WAY
from ..rewrites.clause_tails import copied_after_endless_loop, copy_length, same_instruction
from ..simulation import markers as m
from ..simulation import nodes
from ..simulation.machine import Branch, Sim
from ..simulation.unsupported import Unsupported
from .conditions import negate
from .loops import loop_nodes
from .trystmt import TryBuilder

NOT_A_CONDITION = {
    "STORE_FAST",
    "STORE_NAME",
    "STORE_GLOBAL",
    "STORE_DEREF",
    "STORE_ATTR",
    "STORE_SUBSCR",
    "POP_TOP",
    "LOAD_BUILD_CLASS",
    "MATCH_CASE",  # binds the pattern's names
    # These extend a display on the stack in place: a trial run would extend it twice.
    "LIST_APPEND",
    "LIST_EXTEND",
    "SET_ADD",
    "SET_UPDATE",
    "MAP_ADD",
    "DICT_UPDATE",
    "DICT_MERGE",
}


# How far ``_passed_by`` follows a branch that runs straight on.
_STRAIGHT_STEPS = 4

# The compiler copies an exit block of at most four instructions into the blocks that
# jump to it; a tail may also carry a NOP or two left from line numbers.
_MAX_COPIED_TAIL = 6
_MAX_NESTED_ARMS = 8


@dataclass(frozen=True)
class Loop:
    header: int
    follow: int | None
    body: frozenset
    outer: Loop | None
    breaks: frozenset = frozenset()  # blocks other than ``follow`` that a break goes to
    else_start: int | None = None  # a while loop's else clause, where its test leaves for


def structured_body(ctx, graph) -> list[ast.stmt]:
    builder = Builder(ctx, graph)
    stmts, _ = builder.seq(0, None, [], None)
    return stmts


class Builder:
    def __init__(self, ctx, graph):
        self.ctx, self.graph = ctx, graph
        self.blocks = graph.blocks
        self.an = Analysis(graph)
        self.visited: set[int] = set()
        self.visit_log: list[int] = []  # order of first visits, to undo a trial walk
        self.open_loops: set[int] = set()
        self.fences: set[int] = set()  # follows of the with/try bodies being walked
        self.ended_at = None
        self.tries = TryBuilder(self)
        self._joins: dict[int, dict[int, int | None]] = {}
        self._dominated: dict[int, list[int]] | None = None  # dominator-tree children
        self._tested: set[int] = set()  # the blocks of the last condition merged
        self._breaks_to: dict[int, int] = {}  # a copy of a loop's follow -> the follow
        self._exit_copies: dict[int, int] = {}  # a copy of where a chain fails -> that block
        self._with_raises: dict[int, int | None] | None = None
        self._merging_in = (None, frozenset())  # (loop, active) of the merge under way

    # -- the walk -------------------------------------------------------------
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
            leaves = loop is not None and b == loop.follow  # a fence the loop is inside
            if b is None or b == stop or (b in self.fences and not leaves):
                self.ended_at = b
                return out, stack
            if b != entering:
                # the end of the body, through the test's repeated copy: no
                # ``continue`` was written here
                jump = self._loop_edge(b, loop, falls_off=came_from in self.graph.rotated)
                if jump is not None:
                    out.append(jump)
                    return out, None
            entering = None
            if b in self.an.loops and b not in self.open_loops and not self._try_around(b, active):
                stmts, stack, b = self.loop(b, stack, loop, active, stop)
                out += stmts
                if b is None:
                    return out, None
                continue
            opened = self.tries.opens(b, active)
            if opened is not None:
                stmts, stack, b = self.tries.build(opened, b, stack, loop, active, stop)
                out += stmts
                if stack is None:
                    return out, None
                continue
            came_from = b
            stmts, stack, b, done = self.block(b, stack, loop, active, stop)
            out += stmts
            if done:
                return out, None

    def _try_around(self, header, active) -> bool:
        """Whether a try statement starts at loop ``header`` and holds the whole loop
        (``try: while c: ...``): then the try opens first, the loop inside its body."""
        opened = self.tries.opens(header, active)
        if opened is None:
            return False
        region = self.tries.region(opened)
        # (3.12+ leave a jump to the rotated test that nothing reaches outside the try)
        return all(x in region or not self.blocks[x].preds for x in self.an.loops[header])

    def _loop_edge(self, b, loop, falls_off):
        if loop is not None and loop.follow not in (None, b) and self.jumped_to(loop.follow) == b:
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
        sim.run(block.start, block.end)
        if again and (sim.out or (sim.branch and sim.branch.kind != "goto")):
            raise Unsupported(f"block {b} reached twice")  # only pure expression tails may repeat
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
        return self.two_way(b, sim, loop, active, stop)

    # -- conditionals ------------------------------------------------------------
    def two_way(self, b, sim, loop, active, stop=None):
        branch, (fall, jump) = sim.branch, self.blocks[b].succs
        stack = sim.stack
        if branch.kind == "keep":
            value = stack[-1]
            jump_stack, fall_stack, test = stack, stack[:-1], value
        else:
            jump_stack = fall_stack = stack
            test = branch.test
        true_b, false_b = (jump, fall) if branch.jump_when else (fall, jump)
        chained = None
        if branch.kind == "cond":
            chained = self._chained(test, true_b, false_b, stack)
            if chained is not None:
                test, true_b, false_b, stack, taken = chained
                jump_stack = fall_stack = stack
                self._unspill_middle(sim, test, stack)
            test, true_b, false_b = self.merge_conditions(
                b, test, true_b, false_b, stack, loop, active
            )
            if chained is not None:
                self._tested |= taken
                for x in taken:
                    self.visit(x)
            fused = self._fused_keep(test, true_b, false_b, stack)
            if fused is not None:
                branch, stack, (fall, jump) = fused
                jump_stack, fall_stack, test = stack, stack[:-1], stack[-1]
                true_b, false_b = (jump, fall) if branch.jump_when else (fall, jump)
            else:
                copied = self._copied_tail(b, test, true_b, false_b, stack)
                if copied is not None:
                    value, leaf, size = copied
                    tail = Sim(self.ctx, self.graph.instrs, [*stack, value])
                    tail.run(self.blocks[leaf].end - size, self.blocks[leaf].end)
                    return [*sim.out, *tail.out], None, None, True
        # The fall-through is the if body, as it was written (a lone jump out of the loop
        # is a written ``break``); not a jump back to the loop's header laid out there
        # (3.12+), which is the end of the body
        falls = {fall}
        if branch.kind == "cond":  # the tests' fall-throughs, after a merge
            falls = self._fall_throughs(self._tested)
        flip = branch.kind == "cond" and false_b in falls and true_b not in falls
        flip = flip and (
            loop is None
            or self.jumped_to(false_b) != loop.header
            or self._written_continue(false_b, loop)
        )
        join = self.join_of(b, loop, stack, stop, self._tested if branch.kind == "cond" else {b})
        if join is None and chained is not None:
            # 3.12+ copy a returning join into the chain's first failure: the comparison
            # that ends the chain still reaches it (the block popping the middle operand
            # only goes on to where the chain fails: that says nothing)
            compares = [x for x in chained[4] if len(self.blocks[x].succs) == 2]
            joins = {self.join_of(x, loop, stack, stop) for x in compares} - {None}
            join = joins.pop() if len(joins) == 1 else None
        only_tested = branch.kind == "cond" and set(self.blocks[fall].preds) <= self._tested
        if join == fall and jump > fall and only_tested:
            # Only the test leads to the fall-through, so it is no join: it is the if body,
            # which returns, and the other branch (laid out after it) never gets there.
            join = stop
        true_stack = jump_stack if true_b == jump else fall_stack
        false_stack = jump_stack if false_b == jump else fall_stack
        mark, counter = len(self.visit_log), self.ctx.counter
        t_out, t_stack = self.seq(true_b, join, list(true_stack), loop, active=active)
        t_end = self.ended_at
        f_out, f_stack = self.seq(false_b, join, list(false_stack), loop, active=active)
        f_end = self.ended_at
        ends = {e for e, st in ((t_end, t_stack), (f_end, f_stack)) if st is not None}
        # (3.13 sends one branch's jump past the end of the with/try body, a lone jump)
        ends = {self._fence_before(e, ends) for e in ends}
        if len(ends) == 1 and join not in ends:
            join = ends.pop()  # both stopped at the end of the enclosing with/try body
        elif len(ends) > 1:
            raise Unsupported("branches leave a region at different places")
        merged = self._value_merge(test, stack, t_out, t_stack, f_out, f_stack, flip)
        if merged is not None:
            merged[-1] = self._chained_value(sim, merged[-1], merged)
            return sim.out, merged, join, join is None
        if any(not sim.is_pure(v) for v in stack) and (t_out or f_out):
            self.unvisit(mark)
            self.ctx.counter = counter
            held = list(stack)
            sim.spill()
            stack = sim.stack
            # the test may read a value the stack also holds (``COPY``): read its temporary
            test = _substitute(test, {id(a): b for a, b in zip(held, stack) if a is not b})
            t_out, t_stack = self.seq(true_b, join, list(stack), loop, active=active)
            f_out, f_stack = self.seq(false_b, join, list(stack), loop, active=active)
        if branch.kind == "keep":
            raise Unsupported("value-keeping jump used as a statement")
        if t_stack is not None and f_stack is not None:
            t_stack = f_stack = self._settle_values(t_out, t_stack, f_out, f_stack)
        if flip and f_out:  # the fall-through is the if body, as it was written
            node = nodes.If(test=negate(test), body=f_out, orelse=t_out, orelse_falls=False)
        else:
            body = t_out or [ast.Pass()]
            node = nodes.If(test=test, body=body, orelse=f_out, orelse_falls=false_b in falls)
        after = t_stack if t_stack is not None else f_stack
        return [*sim.out, node], after, join, after is None or join is None

    def _fence_before(self, end, ends):
        """The end of the enclosing with/try body among ``ends`` that only jumps on to
        ``end``, else ``end``."""
        return next((f for f in ends if f in self.fences and self.jumped_to(f) == end), end)

    def _fall_throughs(self, tested) -> set[int]:
        """Where the tests of a merged condition fall through to, seeing through the jump
        that ends a chained comparison (over the block that pops its middle operand,
        which is no test's fall-through) and through the copy of where it fails."""
        falls = set()
        for x in tested:
            succs = self.blocks[x].succs
            if len(succs) == 2:
                fall = succs[0]
                if fall in tested:
                    fall = self._exit_copies.get(fall, self.jumped_to(fall))
                falls.add(fall)
        return falls

    def _fused_keep(self, test, true_b, false_b, stack):
        """``a and b or c`` (``(a or b) and c``): 3.10/3.11 send ``a``'s failure (success)
        straight to ``c``, where ``b``'s value-keeping jump falls through too. Tested
        together, ``a and b`` is that jump's value: (branch, stack, successors) or None."""
        shapes = (
            (true_b, false_b, ast.And, "JUMP_IF_TRUE_OR_POP"),
            (false_b, true_b, ast.Or, "JUMP_IF_FALSE_OR_POP"),
        )
        for inner, other, op, keeps in shapes:
            block = self.blocks[inner]
            instrs = self.graph.instrs[block.start : block.end]
            if instrs[-1].op != keeps or block.succs[:1] != [other] or inner in self.visited:
                continue
            if not set(block.preds) <= self._tested:
                continue
            sim = self._trial_run(block, stack)
            if sim is None:
                return None
            kept = sim.stack[:-1]
            if sim.out or len(kept) != len(stack) or any(x is not y for x, y in zip(kept, stack)):
                return None
            self._tested.add(inner)
            self.visit(inner)
            value = _boolop(op, test, sim.stack[-1])
            return Branch("keep", value, sim.branch.jump_when), [*stack, value], block.succs
        return None

    def _copied_tail(self, b, test, true_b, false_b, stack):
        """``return f(a, b if c else d)``: 3.10 and 3.12+ copy a short tail that returns
        or raises (here the call and the return) into each arm of the conditional
        expression, so the arms never meet. Where the test is inside an expression and
        each arm pushes one value before the same tail, that is the one expression,
        written once: (value, block whose tail to run, tail length), or None."""
        if all(isinstance(v, m.Marker) for v in stack):
            # between statements (an iterator, a handled exception, a with's exit below),
            # ``if c: return x`` reads as well and is exact
            return None
        tested = self._tested | {b}
        yes = self._arm_values(true_b, stack, tested)
        no = yes and self._arm_values(false_b, stack, tested)
        shared = yes.keys() & no.keys()
        if not shared:
            return None
        # The longest: the copied block starts right where the expression ends. Where a
        # shorter one also fits (``(a if c else b).x`` against ``a.x if c else b.x``),
        # both readings compile to the same bytecode.
        tail = max(shared, key=len)
        (t_value, leaf, t_blocks), (f_value, _, f_blocks) = yes[tail], no[tail]
        for x in t_blocks | f_blocks:
            self.visit(x)
        return ast.IfExp(test=test, body=t_value, orelse=f_value), leaf, len(tail)

    def _arm_values(self, b, stack, tested, depth=0) -> dict:
        """For each tail, returning or raising, that arm ``b`` can end with: (the one
        value the arm pushes before it, the block holding the tail, the arm's blocks);
        only ``tested`` blocks may lead to the arm. A nested conditional expression is
        an arm whose own arms end with the same tail."""
        block = self.blocks[b]
        if b in self.visited or not set(block.preds) <= tested or depth > _MAX_NESTED_ARMS:
            return {}
        # A tail may drop a value: ``log.append(a if c else b)`` ends the function
        sim = self._trial_run(block, stack, allow={"POP_TOP"})
        if sim is None or sim.branch is None:
            return {}
        if sim.branch.kind == "cond" and len(block.succs) == 2:
            kept = len(sim.stack) == len(stack) and all(x is y for x, y in zip(sim.stack, stack))
            if sim.out or not kept:
                return {}
            fall, jump = block.succs
            true_b, false_b = (jump, fall) if sim.branch.jump_when else (fall, jump)
            yes = self._arm_values(true_b, stack, {b}, depth + 1)
            no = yes and self._arm_values(false_b, stack, {b}, depth + 1)
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
        instrs = self.graph.instrs
        found = {}
        for size in range(1, min(block.end - block.start, _MAX_COPIED_TAIL + 1)):
            value = self._one_value(block.start, block.end - size, stack)
            if value is not None:
                key = tuple((i.op, repr(i.argval)) for i in instrs[block.end - size : block.end])
                found[key] = (value, b, {b})
        return found

    def _one_value(self, start, end, stack):
        """The value instructions [start, end) push on ``stack``, where they push just one
        and emit nothing; else None."""
        sim = Sim(self.ctx, self.graph.instrs, list(stack))
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

    def _written_continue(self, b, loop) -> bool:
        """Whether ``b`` only jumps to the loop's test at the top, where the end of the
        body goes to the test's repeated copy instead: a ``continue`` as written."""
        return b not in self.graph.rotated and loop.header in self.graph.repeated

    def _settle_values(self, t_out, t_stack, f_out, f_stack) -> list:
        """One stack after an if whose branches leave different values: each branch
        assigns its value to the same temporary at its end."""
        if len(t_stack) != len(f_stack):
            raise Unsupported("branches leave stacks of different depths")
        merged = []
        for yes, no in zip(t_stack, f_stack):
            if yes is no or _same_constant_or_name(yes, no):
                merged.append(yes)
                continue
            if isinstance(yes, m.Marker) or isinstance(no, m.Marker):
                raise Unsupported("branches leave different markers")
            ident = self.ctx.temp()
            t_out.append(ast.Assign(targets=[m.name(ident, True)], value=yes))
            f_out.append(ast.Assign(targets=[m.name(ident, True)], value=no))
            merged.append(m.name(ident))
        return merged

    def _value_merge(self, test, stack, t_out, t_stack, f_out, f_stack, flip):
        if t_out or f_out or t_stack is None or f_stack is None:
            return None
        # Each branch leaves one value: pushed by both, or (3.12's ``COPY 1`` before the
        # test) the tested value kept by one branch and replaced by the other. In a
        # chained comparison both branches also consume the shared middle operand,
        # which a COPY already spilled, so their stacks end one shorter.
        if len(t_stack) != len(f_stack) or not len(stack) - 1 <= len(t_stack) <= len(stack) + 1:
            return None
        base = len(t_stack) - 1
        if not base < len(t_stack) or (
            len(t_stack) == len(stack) and not _keeps(t_stack, f_stack, test)
        ):
            return None
        if any(t_stack[i] is not f_stack[i] for i in range(base)):
            return None
        yes, no = t_stack[-1], f_stack[-1]
        if yes is test:
            value = _boolop(ast.Or, test, no)
        elif no is test:
            value = _boolop(ast.And, test, yes)
        elif flip:  # the fall-through is the value written first, as for a statement
            value = ast.IfExp(test=negate(test), body=no, orelse=yes)
        else:
            value = ast.IfExp(test=test, body=yes, orelse=no)
        return [*t_stack[:base], value]

    def _chained(self, test, true_b, false_b, stack):
        """A chained comparison used as a condition, ``a < x < b``: the first comparison
        keeps ``x`` on the stack; where it fails, a block pops ``x`` and goes on to where
        the whole chain fails; where it holds, the next comparison consumes ``x``. Returns
        (test, true, false, stack, blocks) or None."""
        middle = stack[-1] if stack else None
        taken, failed = set(), None
        while isinstance(test, ast.Compare) and middle is not None:
            if test.comparators[-1] is not middle or true_b in self.visited:
                return None
            nxt = self._next_comparison(true_b, false_b, stack)
            if nxt is None:
                return None
            compare, t2, f2, rest = nxt
            keeps = len(rest) == len(stack)  # another middle value: the chain goes on
            target = self._popped_to(false_b, None if keeps else f2)
            if target is None or (failed is not None and target != failed):
                return None
            failed = target
            taken |= {true_b, false_b}
            if not keeps and f2 != failed and self.jumped_to(f2) == failed:
                taken.add(f2)  # the last comparison's failure jumps on to the chain's
            elif not keeps and f2 != failed and self._same_exit(f2, failed):
                taken.add(f2)  # or runs its own copy of it
                self._exit_copies[f2] = failed
            test = ast.Compare(
                left=test.left,
                ops=[*test.ops, *compare.ops],
                comparators=[*test.comparators, *compare.comparators],
            )
            true_b, false_b = t2, f2
            if not keeps:
                return test, true_b, failed, rest, taken
            middle, stack = rest[-1], rest
        return None

    def _chained_value(self, sim, value, stack):
        """A chained comparison used as a value, ``a < x < b``: the first comparison's
        value where it fails, else the next one's, which reads the ``x`` the first kept
        on the stack. Merged, that is ``a < x and x < b`` with one ``x``: the chain."""
        if not (isinstance(value, ast.BoolOp) and isinstance(value.op, ast.And)):
            return value
        if len(value.values) != 2:
            return value
        first, second = value.values
        if not (isinstance(first, ast.Compare) and isinstance(second, ast.Compare)):
            return value
        if second.left is not first.comparators[-1]:
            return value  # ``a < x and x < b`` as written: ``x`` is read twice
        chain = ast.Compare(
            left=first.left,
            ops=[*first.ops, *second.ops],
            comparators=[*first.comparators, *second.comparators],
        )
        self._unspill_middle(sim, chain, stack)
        return chain

    def _unspill_middle(self, sim, test, stack) -> None:
        """The chain's first middle operand, and its left one where that was not a plain
        name, were computed into temporaries by the ``SWAP`` between them: put them back
        in the comparison, each evaluated once, in order. So were the values below them
        on the stack, computed earlier: put back too, they are still computed in order."""
        if not self._spilled_last(sim, test.comparators[0], stack):
            return
        test.comparators[0] = sim.out.pop().value
        if self._spilled_last(sim, test.left, stack):
            test.left = sim.out.pop().value
        while sim.out and isinstance(sim.out[-1], ast.Assign):
            target = sim.out[-1].targets[0]
            at = [i for i, v in enumerate(stack) if isinstance(v, ast.Name) and v.id == target.id]
            if len(at) != 1 or not self._spilled_last(sim, target, stack[at[0] + 1 :]):
                return
            reads = sum(
                isinstance(n, ast.Name) and n.id == target.id for v in stack for n in ast.walk(v)
            )
            if reads != 1:
                return
            stack[at[0]] = sim.out.pop().value

    def _spilled_last(self, sim, operand, stack) -> bool:
        """Whether the block's last statement assigns ``operand``, a temporary that
        nothing on the stack still reads."""
        last = sim.out[-1] if sim.out else None
        if not (
            isinstance(operand, ast.Name)
            and self.ctx.is_temp(operand.id)
            and isinstance(last, ast.Assign)
            and len(last.targets) == 1
            and isinstance(last.targets[0], ast.Name)
            and last.targets[0].id == operand.id
        ):
            return False
        return not any(isinstance(v, ast.Name) and v.id == operand.id for v in stack)

    def _next_comparison(self, b, failing, stack):
        """(comparison, true, false, stack) for block ``b`` comparing the stack's top."""
        if b in self.an.loops or self.an.handler_of(b) != self.an.handler_of(failing):
            return None
        block = self.blocks[b]
        if any(i.op in NOT_A_CONDITION for i in self.graph.instrs[block.start : block.end]):
            return None
        sim = Sim(self.ctx, self.graph.instrs, list(stack))
        try:
            sim.run(block.start, block.end)
        except Unsupported:
            return None
        br, rest = sim.branch, sim.stack
        if sim.out or br is None or br.kind != "cond" or len(block.succs) != 2:
            return None
        compare = br.test
        if not isinstance(compare, ast.Compare) or compare.left is not stack[-1]:
            return None
        if not len(stack) - 1 <= len(rest) <= len(stack):
            return None
        if any(x is not y for x, y in zip(rest[: len(stack) - 1], stack)):
            return None
        if len(rest) == len(stack) and rest[-1] is stack[-1]:
            return None
        fall, jump = block.succs
        t2, f2 = (jump, fall) if br.jump_when else (fall, jump)
        return compare, t2, f2, rest

    def _popped_to(self, b, failed):
        """Where block ``b`` goes when all it does is pop the top of the stack: on, or
        (3.12+) into its own copy of the block ``failed`` that ends the function."""
        block = self.blocks[b]
        instrs = self.graph.instrs[block.start : block.end]
        if not instrs or instrs[0].op != "POP_TOP":
            return None
        if [i.op for i in instrs] in (["POP_TOP"], ["POP_TOP", "JUMP"]) and len(block.succs) == 1:
            found = block.succs[0]
            if failed is None or self._same_target(found, failed) or self._same_exit(found, failed):
                return found
            return None
        if failed is None or block.succs or self.blocks[failed].succs:
            return None
        copy = self.graph.instrs[self.blocks[failed].start : self.blocks[failed].end]
        return failed if _same_instructions(copy, instrs[1:]) else None

    def _same_exit(self, a, b) -> bool:
        """Whether blocks ``a`` and ``b`` both end the function, alike: 3.12+ copy such a
        small block to the jumps to it, so one chain can fail into several copies."""
        x, y = self.blocks[a], self.blocks[b]
        if x.succs or y.succs or x.handler != y.handler:
            return False
        instrs = self.graph.instrs
        return _same_instructions(instrs[x.start : x.end], instrs[y.start : y.end])

    def merge_conditions(self, b, test, true_b, false_b, stack, loop=None, active=frozenset()):
        """Fold short-circuit conditions (``a and b``, ``a or not b``) into one test."""
        merged = {b}
        self._conditions = {}  # candidate block -> its folded condition, for this merge only
        self._merging_in = (loop, active)  # where a condition's own value is walked
        test, true_b, false_b = self._merge(test, true_b, false_b, stack, merged)
        self._tested = merged
        for x in merged:
            self.visit(x)
        return test, true_b, false_b

    def _merge(self, test, true_b, false_b, stack, merged):
        while True:
            for cand, on_true in ((false_b, False), (true_b, True)):
                inner = self._pure_condition(cand, merged, stack)
                if inner is None:
                    continue
                c2, t2, f2, taken = inner
                same = self._same_target
                if not on_true and same(t2, true_b):
                    test, false_b = _boolop(ast.Or, test, c2), f2
                elif not on_true and same(f2, true_b):
                    test, false_b = _boolop(ast.Or, test, negate(c2)), t2
                elif on_true and same(f2, false_b):
                    test, true_b = _boolop(ast.And, test, c2), t2
                elif on_true and same(t2, false_b):
                    test, true_b = _boolop(ast.And, test, negate(c2)), f2
                else:
                    continue
                merged |= taken
                break
            else:
                chosen = self._chosen_condition(test, true_b, false_b, stack, merged)
                if chosen is None:
                    return test, true_b, false_b
                test, true_b, false_b = chosen

    def _chosen_condition(self, test, true_b, false_b, stack, merged):
        """``if (a if c else b):``: each branch of ``c`` tests a condition of its own, and
        the two go on to the same places. (test, true, false) or None."""
        yes = self._pure_condition(true_b, merged, stack)
        no = yes and self._pure_condition(false_b, merged | yes[3], stack)
        if not no:
            return None
        (a, t1, f1, taken_a), (b, t2, f2, taken_b) = yes, no
        same = self._same_target
        if same(t1, t2) and same(f1, f2):
            value = ast.IfExp(test=test, body=a, orelse=b)
        elif same(t1, f2) and same(f1, t2):
            value = ast.IfExp(test=test, body=a, orelse=negate(b))
        else:
            return None
        hops = {x for x in (t1, f1) if self.jumped_to(x) != x}  # lone jumps on to the targets
        merged |= taken_a | taken_b | hops
        return value, self.jumped_to(t1), self.jumped_to(f1)

    def _same_target(self, a, b) -> bool:
        """Whether going to ``a`` and to ``b`` is the same, seeing through blocks that only
        jump on (3.12+ lay out such a jump to the loop header after each failed test), and
        through the blocks a break goes to besides the loop's follow."""
        a, b = self.jumped_to(a), self.jumped_to(b)
        return a == b or self._breaks_to.get(a, a) == self._breaks_to.get(b, b)

    def _same_return(self, a, b) -> bool:
        x = self.blocks[a]
        if x.end - x.start > 4 or self.graph.instrs[x.last].op != "RETURN_VALUE":
            return False
        return self._same_exit(a, b)

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

    def _pure_condition(self, cand, merged, stack):
        """(test, true, false, blocks) when ``cand`` only tests a condition, or only
        jumps to one (3.11 ends a chained comparison so)."""
        if cand in self.visited or cand in merged or cand in self.an.loops:
            return None
        hop = self.jumped_to(cand)
        if hop != cand and self.blocks[hop].preds == [cand]:
            found = self._pure_condition(hop, merged | {cand}, stack)
            return found and (*found[:3], found[3] | {cand})
        if cand not in self._conditions:
            self._conditions[cand] = None  # guards against cycles while it is computed
            self._conditions[cand] = self._fold_condition(cand, merged, stack)
        found = self._conditions[cand]
        if found is None or not set(self.an._preds(cand)) <= merged | found[3]:
            return None
        return found

    def _trial_run(self, block, stack, allow=frozenset()) -> Sim | None:
        """``block`` simulated on a copy of ``stack``, or None where it cannot be part of
        a condition (``allow``: instructions that may still be in it)."""
        instrs = self.graph.instrs
        if any(
            ins.op in NOT_A_CONDITION and ins.op not in allow and not _walrus_store(instrs, ins)
            for ins in instrs[block.start : block.end]
        ):
            return None  # a trial run must not decompile nested functions or emit stores
        sim = Sim(self.ctx, self.graph.instrs, list(stack))
        try:
            sim.run(block.start, block.end)
        except Unsupported:
            return None
        return sim

    def _fold_condition(self, cand, merged, stack):
        block = self.blocks[cand]
        if self.an.handler_of(cand) != self.an.handler_of(min(merged)):
            return None
        sim = self._trial_run(block, stack)
        if sim is None:
            return None
        br = sim.branch
        if br is not None and br.kind == "keep" and not sim.out:
            return self._value_tested(cand, stack)
        if br is None or br.kind != "cond" or len(block.succs) != 2:
            return None  # (two successors: not a loop test redirected to the header)
        fall, jump = block.succs
        t2, f2 = (jump, fall) if br.jump_when else (fall, jump)
        test, taken = br.test, {cand}
        if len(sim.stack) == len(stack) + 1:  # ``lo <= x < hi`` as one of the conditions
            chained = self._chained(test, t2, f2, sim.stack)
            if chained is None:
                return self._value_tested(cand, stack) if not sim.out else None
            test, t2, f2, rest, chain_blocks = chained
            self._unspill_middle(sim, test, rest)
            taken |= chain_blocks
            if len(rest) != len(stack):
                return None
        elif len(sim.stack) != len(stack):
            return None
        if sim.out or any(a is not b for a, b in zip(sim.stack, stack)):
            return None
        test, t2, f2 = self._merge(test, t2, f2, stack, taken)
        return test, t2, f2, frozenset(taken)

    def _value_tested(self, cand, stack):
        """A condition that tests a value of its own making, ``a or (b or c) is d``:
        ``cand`` starts the value (``b or c``) and the block where its parts meet tests
        it. The value is walked as the walk would, then undone, as the merge visits its
        blocks itself. (test, true, false, blocks) or None."""
        succs = self.blocks[cand].succs
        if len(succs) != 2 or len(self.blocks[succs[1]].succs) != 2:
            return None  # where the value's first part goes, nothing tests it: no condition
        mark, counter = len(self.visit_log), self.ctx.counter
        saved = self._conditions, self._tested, self._merging_in, self.ended_at
        loop, active = self._merging_in
        try:
            out, after, nxt, done = self.block(cand, list(stack), loop, active)
        except Unsupported:
            return None
        finally:
            taken = set(self.visit_log[mark:])
            self.unvisit(mark)
            self.ctx.counter = counter
            self._conditions, self._tested, self._merging_in, self.ended_at = saved
        if out or done or nxt is None or after is None or len(after) != len(stack) + 1:
            return None
        if any(a is not b for a, b in zip(after, stack)) or nxt in self.an.loops:
            return None
        block = self.blocks[nxt]
        if not set(block.preds) <= taken:
            return None
        sim = self._trial_run(block, after)
        if sim is None or sim.branch is None or sim.branch.kind != "cond" or sim.out:
            return None
        if len(block.succs) != 2 or len(sim.stack) != len(stack):
            return None
        if any(a is not b for a, b in zip(sim.stack, stack)):
            return None
        fall, jump = block.succs
        t2, f2 = (jump, fall) if sim.branch.jump_when else (fall, jump)
        taken.add(nxt)
        test, t2, f2 = self._merge(sim.branch.test, t2, f2, stack, taken)
        return test, t2, f2, frozenset(taken)

    def join_of(self, b, loop, stack, stop=None, tested=frozenset()):
        """Where the two branches of ``b`` meet again, or None when they never do."""
        join = self.an.ipdom.get(b)
        if not _between_statements(stack):
            # Inside an expression: the branches meet where the value is used, which may
            # be a raise (``raise E(a if c else b)``), along normal edges (raising drops
            # the value: in a try body, the path through the handler is no way there).
            along = self._raising_joins().get(b)
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
        if join is None and stop is not None and self._inside(stop, loop):
            join = stop  # every path that does not leave meets the enclosing join
        if join is None and loop is not None:
            # Not where the loop goes on: a branch that gets there breaks on its own.
            outer = self.an.ipdom.get(b)
            if outer in loop.body:
                join = outer
        return join

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
            self._with_raises = self.an._postdominators_to(ends, normal=True)
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
            if outside and (self.blocks[x].succs or _is_loop_edge(x, loop)):
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

    # -- loops --------------------------------------------------------------------
    def loop(self, h, stack, outer, active, stop=None):
        body = frozenset(self.an.loops[h])
        header = self.blocks[h]
        instrs = self.graph.instrs
        is_for = instrs[header.start].op == "FOR_ITER"
        exits = self._dead_ends_dropped(self._exits(h, body), h, body)
        self.open_loops.add(h)
        keep = stack[-1:] if is_for else []
        spill = Sim(self.ctx, self.graph.instrs, stack[: len(stack) - len(keep)])
        spill.spill()  # values that live through the loop are computed once, before it
        stack = spill.stack + keep
        if is_for:
            stmts, stack, follow = self._for_loop(h, stack, outer, active, body, exits, stop)
            return spill.out + stmts, stack, follow
        done = self._async_for_exit(h)
        if done is not None:
            stmts, stack, follow = self._async_for(h, stack, outer, active, body, done)
            return spill.out + stmts, stack, follow
        # A lone RETURN_VALUE returns what the loop computed (3.11+ leave it out of the
        # try around the return): no code after the loop
        exits = {x for x in exits if self.graph.instrs[self.blocks[x].start].op != "RETURN_VALUE"}
        own = [s for s in self.blocks[h].succs if s in exits]
        if len(own) == 1:
            # a break's own cleanup (a with's ``__exit__``) on its way out, or the rest
            # of a round that only breaks (``if c: x = f(); break``), which the natural
            # loop leaves out: both go on only to where the test leaves
            exits = {x for x in exits if x == own[0] or not self._only_reaches(x, own[0])}
        follow = min(exits) if exits else None
        if len(self.blocks[h].succs) < 2 and follow is not None:  # no test: while True
            follow = self._past_jump_out(h, follow)
        if follow is None:
            # A loop that never ends but leaves the with or try body it is in ends there:
            # getting there is a break, and that body goes on there as written
            fenced = {s for x in body for s in self.blocks[x].succs if s in self.fences}
            fenced = fenced or self._clauses_reach_fences(body)
            follow = fenced.pop() if len(fenced) == 1 else self._written_after(body)
        copies, else_start = frozenset(), None
        if self._ends_outer_body(exits, outer):
            follow = outer.header
        elif own and all(self._same_return(x, own[0]) for x in exits):
            # 3.12+ copy the return that ends the function to every way out: the test's
            # own is where the loop goes on, the others are breaks
            follow, copies = own[0], frozenset(exits) - {own[0]}
            self._breaks_to.update(dict.fromkeys(copies, follow))
        elif own == [follow] and len(exits) == 2:
            # while ... else: the test leaves for the else clause, which a break skips
            else_start, follow = follow, max(exits)
        loop = Loop(h, follow, body, outer, copies, else_start)
        stmts, rest = self.seq(h, None, list(stack), loop, entering=h, active=active)
        _check_body_ends(rest)
        if else_start is not None:
            node = self._while_else(stmts, stack, outer, active, else_start, follow)
        else:
            node = ast.While(test=m.const(True), body=stmts, orelse=[])
        return [*spill.out, node], stack, follow

    def _only_reaches(self, x, end, steps=8) -> bool:
        """Whether every path from block ``x`` gets to block ``end`` within a few blocks,
        without returning or raising first."""
        todo, seen = [x], {x}
        while todo:
            b = todo.pop()
            if b == end:
                continue
            steps -= 1
            succs = self.blocks[b].succs
            if steps < 0 or not succs:
                return False
            todo += [s for s in succs if s not in seen]
            seen.update(succs)
        return True

    def _past_jump_out(self, h, follow) -> int:
        """Where the lone jump ``follow`` goes, when only the loop at ``h`` gets there:
        ``while True: try: ... except A: pass ... break``, where the body's way out
        and the clause's (which the loop's body does not hold) jump to the code after
        the loop."""
        target = self.jumped_to(follow)
        if target in (follow, h):
            return follow
        if all(self.an.dominates(h, p) for p in self.blocks[target].preds):
            return target
        return follow

    def _clauses_reach_fences(self, body, steps=8) -> set[int]:
        """The ends of enclosing with or try bodies that the except clauses of the tries
        inside a loop go to: ways out of the loop, as the natural loop leaves the
        clauses out of its body."""
        chain, region = self.tries.chain, self.tries.region
        todo = list({h for x in body for h in chain(x) if region(h) <= body})
        seen, found = set(todo), set()
        while todo and steps > 0:
            steps -= 1
            for s in self.blocks[todo.pop()].succs:
                if s in self.fences:
                    found.add(s)
                elif s not in seen and s not in body:
                    seen.add(s)
                    todo.append(s)
        return found

    def _written_after(self, body) -> int | None:
        """The one small exit of a loop that never ends, when it is the code written
        after the loop, which the compiler copied to the loop's break."""
        outside = {s for x in body for s in self.blocks[x].succs if s not in body}
        if len(outside) != 1 or self.graph.lines is None:
            return None
        [x] = outside
        if self.blocks[x].succs:
            return None

        def span(b):
            return range(self.blocks[b].start, self.blocks[b].end)

        graph, raw = self.graph, self.ctx.code.co_code
        copied = copied_after_endless_loop(graph.instrs, graph.lines, raw, span(x), map(span, body))
        return x if copied else None

    def _while_else(self, stmts, stack, outer, active, else_start, follow) -> ast.While:
        """``while c: body else: clause`` from the loop's statements, which must begin
        with the test, one branch of it leaving for the clause, and leave for it nowhere
        else: the test runs before every round, and only its failing ends the loop there."""
        split = _test_leaving_for_else(stmts[0]) if stmts else None
        leaving = sum(isinstance(n, m.LeftForElse) for s in stmts for n in loop_nodes(s))
        if split is None or leaving != 1:
            raise Unsupported("a while loop leaves for its else clause other than by its test")
        test, body = split
        orelse, _ = self.seq(else_start, follow, list(stack), outer, active=active)
        return ast.While(test=test, body=[*body, *stmts[1:]] or [ast.Pass()], orelse=orelse)

    def _ends_outer_body(self, exits, outer) -> bool:
        """Whether a way out of a loop only jumps back to the header of the loop around
        it (3.12+ jump straight there): the loop ends that loop's body, and going there
        from inside it is a break."""
        return outer is not None and any(self.jumped_to(x) == outer.header for x in exits)

    def _async_for_exit(self, h):
        """The END_ASYNC_FOR block that ends an ``async for`` whose header is ``h``."""
        hb = self.graph.handler_block(self.blocks[h])
        if hb is not None and self.graph.instrs[self.blocks[hb].start].op == "END_ASYNC_FOR":
            return hb
        return None

    def _async_for(self, h, stack, outer, active, body, done):
        if not stack or not isinstance(stack[-1], m.Iter):
            raise Unsupported("async for without an iterator")
        follow = self.blocks[done].succs[-1] if self.blocks[done].succs else None
        self.visit(done)
        loop = Loop(h, follow, body, outer)
        stmts, _ = self.seq(h, None, list(stack), loop, entering=h, active=active | {done})
        first = stmts[0] if stmts else None
        if not (isinstance(first, ast.Assign) and isinstance(first.value, ast.Await)):
            raise Unsupported("async for without a target")
        node = ast.AsyncFor(
            target=first.targets[0], iter=stack[-1].value, body=stmts[1:] or [ast.Pass()], orelse=[]
        )
        return [node], stack[:-1], follow

    def _dead_ends_dropped(self, exits, h, body) -> set[int]:
        """Exits that raise on the spot (3.12+ lay such blocks out after the loop) are
        reached from inside it, not where it goes on to: unless the loop's own exit
        leads there too."""
        raising = {e for e in exits if self._raises_at_once(e) and not self._after_break(e, h)}
        if not raising:  # the walk below covers the rest of the code: only when needed
            return exits
        reached, todo = set(), [s for s in self.blocks[h].succs if s not in body]
        while todo and not raising <= reached:
            x = todo.pop()
            if x not in reached and x not in body:
                reached.add(x)
                todo += self.blocks[x].succs
        kept = {e for e in exits if e in reached or e not in raising}
        return kept or exits

    def _after_break(self, b, h) -> bool:
        """Whether only breaks out of the for loop at ``h`` reach block ``b``: blocks
        that pop the iterator and jump (a raise written in the loop pops nothing)."""
        instrs = self.graph.instrs
        if instrs[self.blocks[h].start].op != "FOR_ITER":
            return False
        preds = [self.blocks[p] for p in self.blocks[b].preds]
        return bool(preds) and all(
            instrs[p.start].op == "POP_TOP"
            and {i.op for i in instrs[p.start : p.end]} <= {"POP_TOP", "JUMP"}
            for p in preds
        )

    def _raises_at_once(self, b) -> bool:
        block = self.blocks[b]
        return not block.succs and self.graph.instrs[block.last].op in ("RAISE_VARARGS", "RERAISE")

    def _exits(self, h, body) -> set[int]:
        """Blocks after the loop's layout extent that control leaves the loop for. That
        extent ends with the last block reached from the header without raising: except
        clauses may be laid out after the code that follows the loop."""
        reached, todo = {h}, [h]
        while todo:
            for s in self.blocks[todo.pop()].succs:
                if s in body and s not in reached:
                    reached.add(s)
                    todo.append(s)
        last = max(reached)
        found = {s for x in range(h, last + 1) for s in self.blocks[x].succs if s > last}
        # Except clauses inside the loop are laid out last on 3.12+: what only they lead
        # to is part of the loop (a clause that returns), not where it is left for.
        contexts = self._contexts(h)

        def inside_clause(x):  # under a clause's cleanup handler, not a try body's
            handler = self.blocks[x].handler
            if handler is None or handler in contexts:
                return False
            return self.graph.at(handler.target) in self.an.transparent

        return {
            s
            for s in found
            if not inside_clause(s) and not all(inside_clause(p) for p in self.blocks[s].preds)
        }

    def _contexts(self, b) -> set:
        """The handlers block ``b`` runs under, its own and the ones around it."""
        out, handler = set(), self.blocks[b].handler
        while handler is not None and handler not in out:
            out.add(handler)
            handler = self.blocks[self.graph.at(handler.target)].handler
        return out

    def _own_exit(self, x) -> bool:
        block = self.blocks[x]
        if block.succs:
            return self._falls_into_return(x)
        ops = [i.op for i in self.graph.instrs[block.start : block.end]]
        # ``return <constant>`` in a for loop pops the iterator before loading the
        # constant, as a break's copy of it would: read as written, a return
        return ops[0] != "POP_TOP" or ops[1:] == ["LOAD_CONST", "RETURN_VALUE"]

    def _falls_into_return(self, x, steps=4) -> bool:
        """Whether block ``x`` falls, through blocks only it leads to, into a return: a
        return inside a with pops the iterator under the with's handler, and its copy of
        ``__exit__`` runs outside it (a break jumps to the code after the loop)."""
        ops = [i.op for i in self.graph.instrs[self.blocks[x].start : self.blocks[x].end]]
        if ops[-1:] != ["POP_TOP"] or (len(ops) > 1 and ops[-2] not in ("SWAP", "ROT_TWO")):
            return False  # (the value returned stays under the iterator)
        for _ in range(steps):
            succs = self.blocks[x].succs
            if not succs:
                return self.graph.instrs[self.blocks[x].last].op == "RETURN_VALUE"
            if len(succs) != 1 or succs[0] != x + 1 or self.blocks[x + 1].preds != [x]:
                return False
            if self.graph.instrs[self.blocks[x].last].op in JUMPS:
                return False
            x += 1
        return False

    def _still_iterating(self, h, body, exits, done):
        """(body, exits) with the for loop's body grown by the blocks 3.12+ lay out after
        it that still run with the iterator on the stack: an if that goes on to break (a
        block that pops the iterator first) or to return is the loop's own code."""
        body, exits = set(body), set(exits)
        grown = True
        while grown:
            grown = False
            for x in sorted(exits):
                block = self.blocks[x]
                if (
                    x >= done
                    or not block.succs
                    or (self.graph.instrs[block.start].op == "POP_TOP" and not self._pops_copy(x))
                    # (a loop inside, such as an inlined comprehension, comes back to x)
                    or not all(p in body or self.an.dominates(x, p) for p in block.preds)
                ):
                    continue
                body.add(x)
                exits.discard(x)
                exits |= {s for s in block.succs if s not in body}
                grown = True
        return frozenset(body), exits

    def _pops_copy(self, x) -> bool:
        """Whether block ``x`` starts by popping the copy of a value that each way to it
        tested (3.12+ ``a or b``: COPY 1, then a jump that keeps it), not the iterator."""
        instrs, preds = self.graph.instrs, self.blocks[x].preds
        return bool(preds) and all(
            instrs[self.blocks[p].last].op in TWO_WAY
            and instrs[self.blocks[p].last - 1].op == "COPY"
            and instrs[self.blocks[p].last - 1].arg == 1
            for p in preds
        )

    def _popped_to_outer(self, h, done, outer) -> set[int]:
        """Blocks that pop a for loop's iterator and go back to the header of the loop
        around it: 3.12+ lay out a break so, one for each, before the loop's end, when
        the loop ends that loop's body."""
        if outer is None:
            return set()
        found = set()
        for s in range(h + 1, done):
            block = self.blocks[s]
            ops = [i.op for i in self.graph.instrs[block.start : block.end]]
            if ops == ["POP_TOP", "JUMP"] and block.succs == [outer.header]:
                found.add(s)
        return {s for s in found if self.an.dominates(h, s)}

    def _for_loop(self, h, stack, outer, active, body, exits, stop=None):
        if not stack:
            raise Unsupported("for loop without an iterator")
        self.visit(h)
        iterator, base = stack[-1], stack[:-1]
        if not isinstance(iterator, m.Iter):
            iterator = m.Iter(iterator)
        fall, done = self.blocks[h].succs
        body, exits = self._still_iterating(h, body, exits, done)
        # A block laid out before the loop's end that only returns or raises is the loop's
        # own code (3.12+ put it there), not where a break goes: a break pops the iterator
        # (so does a return; when the loop ends where the enclosing walk stops, it has
        # no else for a break to skip, and such a block is a return too)
        breaks = {
            x
            for x in exits - {done}
            if x > done or not (self._own_exit(x) or (done == stop and not self.blocks[x].succs))
        }
        breaks |= self._copied_breaks(body, exits, done)
        again = self._popped_to_outer(h, done, outer)
        breaks |= again
        follow = min(breaks) if breaks else done
        else_start = done if follow != done else None
        # other breaks that pop the iterator and go where the follow's pop goes (3.11
        # lets the last break fall into the code after the loop)
        end = self._past_pop(follow)
        leaving = {s for x in body for s in self.blocks[x].succs if s not in body}
        alike = {x for x in leaving - {follow} if x != end and self._past_pop(x) == end}
        loop = Loop(h, follow, body, outer, frozenset(again | alike))
        stmts, rest = self.seq(fall, None, [*stack, m.NextItem()], loop, active=active)
        _check_body_ends(rest)
        if not stmts or not _is_target_store(stmts[0]):
            raise Unsupported("for loop without a target")
        target = stmts[0].targets[0]
        orelse = []
        if else_start is not None:
            orelse, _ = self.seq(
                else_start, self._past_pop(follow), list(base), outer, active=active
            )
        kind = ast.AsyncFor if iterator.kind == "aiter" else ast.For
        node = kind(
            target=target, iter=iterator.value, body=stmts[1:] or [ast.Pass()], orelse=orelse
        )
        if follow != done and self.graph.instrs[self.blocks[follow].start].op == "POP_TOP":
            return [node], stack, follow  # 3.12+: breaks land on the iterator's POP_TOP
        return [node], base, follow

    def _copied_breaks(self, body, exits, done) -> set[int]:
        """Blocks inside the loop's layout that pop the iterator, then return or raise:
        the code after the loop, which only a break reaches, copied to that break (a
        ``return`` written in the loop pops the iterator after computing its value)."""
        instrs, found = self.graph.instrs, set()
        for s in {s for x in body for s in self.blocks[x].succs} - body - exits - {done}:
            block = self.blocks[s]
            if block.succs or instrs[block.start].op != "POP_TOP":
                continue
            length = block.end - block.start - 1
            if length and copy_length(instrs, block.start + 1) == length:
                found.add(s)
        return found

    def _past_pop(self, follow):
        """Where an else ends: at the loop's follow, or past the follow when the follow
        only pops the iterator that the breaks leave (3.12+), as the else has none."""
        block = self.blocks[follow]
        ops = [i.op for i in self.graph.instrs[block.start : block.end]]
        if ops[0] == "POP_TOP" and set(ops) <= {"POP_TOP", "JUMP"} and len(block.succs) == 1:
            return block.succs[0]
        return follow


def _substitute(node, values: dict):
    """``node`` with every sub-expression that is a key of ``values`` (by identity) replaced."""
    if id(node) in values:
        return values[id(node)]
    if not values or not isinstance(node, ast.AST):
        return node
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            setattr(node, field, [_substitute(v, values) for v in value])
        elif isinstance(value, ast.AST):
            setattr(node, field, _substitute(value, values))
    return node


def _test_leaving_for_else(stmt):
    """(the loop's test, the statements of a round it lets run) when ``stmt`` is an
    ``if`` with one branch leaving for the loop's else clause; else None."""
    if not isinstance(stmt, ast.If):
        return None
    for leaves, stays, test in ((stmt.body, stmt.orelse, negate(stmt.test)),
                                (stmt.orelse, stmt.body, stmt.test)):  # fmt: skip
        if len(leaves) == 1 and isinstance(leaves[0], m.LeftForElse):
            # a lone pass is the branch's placeholder: the rest of the round follows
            return test, [] if [type(s) for s in stays] == [ast.Pass] else stays
    return None


def _check_body_ends(stack) -> None:
    """Every path through a loop body goes back, leaves or returns: one that stopped at
    the end of an enclosing with/try body instead would lose the rest of the loop."""
    if stack is not None:
        raise Unsupported("loop body stops at the end of an enclosing region")


def _same_constant_or_name(a, b) -> bool:
    if isinstance(a, ast.Constant) and isinstance(b, ast.Constant):
        return type(a.value) is type(b.value) and repr(a.value) == repr(b.value)
    return isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id


def loop_postdominators(an, header, body) -> dict[int, int | None]:
    nodes = sorted(body)
    end = len(an.succs)  # one virtual exit past every block
    preds: dict[int, list[int]] = {x: [] for x in [*nodes, end]}
    for x in nodes:
        # Normal edges only: an if's branches inside a try body meet where they do,
        # not where raising would take them.
        for s in an.graph.blocks[x].succs:
            inside = s in body and s != header
            preds[s if inside else end].append(x)
        if (
            not an.graph.blocks[x].succs
            and an.graph.instrs[an.graph.blocks[x].last].op == "RETURN_VALUE"
        ):
            preds[end].append(x)
    idom = _dominators([end], _Reversed(preds))
    return {x: (None if d in (end, None) else d) for x, d in idom.items() if x != end}


class _Reversed:
    """Successors in the reversed graph: a block's predecessors, by index."""

    def __init__(self, preds):
        self.preds = preds

    def __getitem__(self, x):
        return self.preds.get(x, ())


# What statements leave on the stack for the ones after them: a for loop's iterator, a
# with statement's exit, a handler's exception, the one handled before it (and the
# offset it was raised at).
CARRIED = (m.Iter, m.WithExit, m.Exception_, m.HandledBefore)


def _walrus_store(instrs, ins) -> bool:
    """Whether ``ins`` stores a copy of the value it leaves: ``(name := value)``, which a
    condition may hold (a trial run that emits a statement is refused all the same)."""
    before = instrs[ins.index - 1] if ins.index else None
    return (
        ins.op in WALRUS_STORES and before is not None and before.op == "COPY" and before.arg == 1
    )


WALRUS_STORES = {"STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF"}


def _between_statements(stack) -> bool:
    """Whether a branch with ``stack`` under it is a statement, not part of an expression."""
    return all(
        isinstance(v, CARRIED) or (isinstance(v, ast.Constant) and v.value == -1) for v in stack
    )


def _keeps(t_stack, f_stack, test) -> bool:
    return t_stack[-1] is test or f_stack[-1] is test


def _is_target_store(stmt) -> bool:
    return (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.value, m.NextItem)
    )


def _is_loop_edge(x, loop) -> bool:
    """Whether block ``x`` is where ``loop`` or a loop around it starts or goes on."""
    while loop is not None:
        if x in (loop.header, loop.follow) or x in loop.breaks:
            return True
        loop = loop.outer
    return False


def _same_instructions(xs, ys) -> bool:
    return len(xs) == len(ys) and all(map(same_instruction, xs, ys))


def _boolop(op, left, right):
    values = []
    for side in (left, right):
        if isinstance(side, ast.BoolOp) and isinstance(side.op, op):
            values.extend(side.values)
        else:
            values.append(side)
    return ast.BoolOp(op=op(), values=values)
