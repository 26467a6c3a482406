"""try/except/else/finally and with statements, recovered from the handler regions of the
exception table."""

from __future__ import annotations

import ast
import copy
import weakref

from ..bytecode.versions import JUMPS, LEGACY_EXCEPTIONS
from ..graph.analysis import BOOKKEEPING
from ..rewrites.clause_tails import WITH_EXIT_CALL
from ..rewrites.star import STAR_TEST
from ..simulation import markers as m
from ..simulation import nodes
from ..simulation.machine import Sim
from ..simulation.unsupported import Unsupported

ENDS = -1  # where a path that returns or raises goes, for ``TryBuilder._way_out``
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
CLAUSE_TESTS = ("CHECK_EXC_MATCH", STAR_TEST)
TRY_STAR = getattr(ast, "TryStar", None)  # 3.11+, where star.py gives except* clauses
TRIES = (ast.Try, TRY_STAR) if TRY_STAR else (ast.Try,)


class TryBuilder:
    def __init__(self, builder):
        # The builder owns this one; a strong reference back would make a cycle that
        # keeps the whole graph alive until the next collection (decompile runs with
        # gc off), and on a long function that is most of the memory it touches.
        self.b = weakref.proxy(builder)
        self.graph = builder.graph
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
            if hb not in self.b.an.transparent and not self._starts_with(hb, "END_ASYNC_FOR"):
                out.append(hb)
            hb = self.graph.handler_block(self.graph.blocks[hb])
        self._chains[x] = tuple(out)
        return self._chains[x]

    def _starts_with(self, b: int, *ops) -> bool:
        instrs = self.graph.instrs
        i = self.graph.blocks[b].start
        found = [instrs[j].op for j in range(i, min(i + 3, len(instrs)))]
        return any(op in found for op in ops)

    def opens(self, b: int, active) -> int | None:
        pending = [h for h in self.chain(b) if h not in active]
        if pending and LEGACY_EXCEPTIONS:
            raise Unsupported("3.10 exception handlers go to the state machine")
        return pending[-1] if pending else None

    def build(self, h, b, stack, loop, active, stop):
        region = self.region(h)
        exits = {s for x in region for s in self.graph.blocks[x].succs if s not in region}
        skip = _loop_edges(loop)
        exits = {x for x in exits if not self._jumps_back_into(x, region - skip)}
        if skip & exits and self._is_finally(h):
            raise Unsupported("break or continue through a finally block")
        exits -= skip
        is_with = self._starts_with(h, "WITH_EXCEPT_START")
        follow = self._normal_exit(b, region, exits, loop, is_with)
        if not is_with and follow is not None:
            follow = self._goes_on_with_clauses(h, exits, follow, loop)
        after_with = None  # what runs after a with whose body never ends normally
        if is_with and follow is None:
            # (every way through the body raises: only __exit__ suppressing goes on)
            after_with = self._suppressed(h)
            if after_with is None:
                raise Unsupported("a with body that always raises goes on unreadably")
        elif is_with and follow is not None and self._way_out(follow, _loop_edges(loop)):
            follow, after_with = self._with_end(h, exits, follow)
        elif is_with and follow is not None and not self._suppressing_goes_on(h, follow):
            # (3.12+ ``try: with m: return f()``: the return is outside the try, and
            # __exit__ suppressing goes on to the code after the try, not to it)
            raise Unsupported("a with body goes on elsewhere than __exit__ suppressing")
        inner = active | {h}
        body, body_stack = self._fenced(
            follow, self.b.seq, b, follow, list(stack), loop, entering=b, active=inner
        )
        if body_stack is not None:  # values computed inside must be computed before leaving
            settle = Sim(self.b.ctx, self.graph.instrs, body_stack)
            settle.spill(strict=True)
            body, body_stack = body + settle.out, settle.stack
        if is_with:
            return self._with(stack, body, body_stack, follow, after_with)
        return self._try(h, stack, body, body_stack, follow, loop, inner, stop)

    def _jumps_back_into(self, x, region, depth=2) -> bool:
        """Whether block ``x`` only jumps, and every way from it goes back into
        ``region`` (which holds no header of a loop around the statement): 3.12+ leave
        the jump back to the header of a loop inside a with body unprotected (3.13 the
        test before it too), no way out of it."""
        block = self.graph.blocks[x]
        instrs = self.graph.instrs[block.start : block.end]
        if not block.succs or any(i.op not in JUMPS for i in instrs):
            return False
        if instrs[-1].op == "JUMP":  # back to a loop's header
            return block.succs[0] in region and block.succs[0] < x
        return all(
            s in region or (depth and self._jumps_back_into(s, region, depth - 1))
            for s in block.succs
        )

    def _fenced(self, end, walk, *args, **kwargs):
        """``walk(*args)`` with every walk nested in it stopping at ``end`` too."""
        fenced = end is not None and end not in self.b.fences
        if fenced:
            self.b.fences.add(end)
        try:
            return walk(*args, **kwargs)
        finally:
            if fenced:
                self.b.fences.discard(end)

    def _with_end(self, h, exits, follow):
        """Which exit of a with body is where the statement ends, when every exit
        leaves (returns, raises, breaks or continues): the one that goes on as the
        statement does when ``__exit__`` suppresses an exception. Where none does, the
        body leaves on every path and something else runs after the statement:
        (None, the block it starts at) or (None, (start, end) of the instructions that
        the compiler copied into the suppressing path). (follow, None) where that path
        cannot be read."""
        after = self._suppressed(h)
        if after is None:
            return follow, None
        same = [
            x for x in sorted(exits) if self._goes_on_like(x, after) and not self._leaves_loops(x)
        ]
        if not same:
            return None, after
        return (follow if follow in same else same[-1]), None

    def _leaves_loops(self, x, steps=4) -> bool:
        """Whether the one way into block ``x`` comes out of a loop as no way to the end
        of a with body is written: out of two loops at once, out of a for loop other
        than by its end (a break jumps, and the loop's end leads there too), or out of
        an except clause inside a loop. ``x`` is then a return's copy of ``__exit__``."""
        loops, clause = self.b.an.loops, False
        for _ in range(steps):
            preds = self.graph.blocks[x].preds
            if not preds:  # a clause's entry: inside the loops of the code it protects
                preds, clause = sorted(self.region(x)), True
            left = {
                p: [h for h, body in loops.items() if p in body and x not in body] for p in preds
            }
            if any(left.values()):
                return all(hs and (clause or self._leaves_early(p, hs)) for p, hs in left.items())
            if len(preds) != 1:
                return False
            x = preds[0]
        return False

    def _leaves_early(self, p, left) -> bool:
        """Whether block ``p`` leaving the loops ``left`` is no break: it leaves two at
        once, or a for loop other than at its header, where the loop ends."""
        instrs, blocks = self.graph.instrs, self.graph.blocks
        for_loops = [h for h in left if instrs[blocks[h].start].op == "FOR_ITER" and h != p]
        return len(left) > 1 or bool(for_loops)

    def _suppressed(self, h):
        """Where the code after a with statement starts, as its handler reaches it when
        ``__exit__`` returns true: a block, or a (start, end) run of instructions left in
        the handler's last block; None where the handler has another shape."""
        blocks, instrs = self.graph.blocks, self.graph.instrs
        test = blocks[h]
        if len(test.succs) != 2 or instrs[test.last].op != "POP_JUMP_IF_TRUE":
            return None
        x, seen = test.succs[-1], set()
        while x not in seen:
            if x in self.b.fences:  # the end of the try body around: the with ends it
                return x
            seen.add(x)
            block = blocks[x]
            for i in range(block.start, block.end):
                op = instrs[i].op
                if op == "JUMP":
                    return block.succs[0]
                if op not in _SUPPRESS_CLEANUP:
                    if x in self.graph.rotated:  # the loop's test, repeated: the next round
                        return self.graph.rotated[x]
                    return x if i == block.start and x not in self.region(h) else (i, block.end)
            if len(block.succs) != 1:
                return None
            x = block.succs[0]
        return None

    def _suppressing_goes_on(self, h, follow) -> bool:
        """Whether the code after the with statement of handler ``h`` is where its body
        ends at ``follow``, as it is where ``__exit__`` suppressing an exception goes
        on (or that way cannot be read)."""
        after = self._suppressed(h)
        return after is None or self._goes_on_like(follow, after)

    def _goes_on_like(self, x, after) -> bool:
        """Whether exit ``x`` goes on, after ``__exit__``, as ``after`` does: reaching the
        same block, or running a copy of the same instructions."""
        blocks, instrs = self.graph.blocks, self.graph.instrs
        for _ in range(_STEPS_TO_AFTER):  # to ``after``, or to the block that ends the path
            if x == after:
                return True
            if len(blocks[x].succs) != 1:
                break
            x = blocks[x].succs[0]
        if isinstance(after, int):
            if blocks[after].succs:
                return False
            after = blocks[after].start, blocks[after].end  # only a block that ends is copied
        start, end = after
        block = blocks[x]
        size = end - start
        if block.end - block.start < size:
            return False
        mine = instrs[block.end - size : block.end]
        return all(
            a.op == b.op and repr(a.argval) == repr(b.argval)
            for a, b in zip(mine, instrs[start:end])
        )

    def _with(self, stack, body, body_stack, follow, after=None):
        if len(stack) < 2 or not isinstance(stack[-2], m.WithExit):
            raise Unsupported("with body without a context manager")
        exit_ = stack[-2]
        target = None
        if body and isinstance(body[0], ast.Assign) and _entered(body[0].value):
            target, body = body[0].targets[0], body[1:]
        body = _exits_settled(body, exit_)
        item = ast.withitem(context_expr=exit_.manager, optional_vars=target)
        kind = ast.AsyncWith if exit_.is_async else ast.With
        node = kind(items=[item], body=body or [ast.Pass()])
        if after is not None and body_stack is None:
            base = list(stack[:-2])
            if isinstance(after, int):
                return [node], base, after
            tail = Sim(self.b.ctx, self.graph.instrs, base)
            tail.run(*after)
            if tail.branch is None or tail.branch.kind not in ("return", "raise"):
                raise Unsupported("the code after a with statement runs on")
            return [node, *tail.out], None, None
        if body_stack is None:
            return [node], None, None
        return [node], body_stack, follow

    def _try(self, h, stack, body, body_stack, follow, loop, active, stop):
        protected = self.graph.instrs[self.graph.blocks[self._first_protected(h)].start].handler
        base = list(stack[: protected.depth])
        exc_stack = base + ([m.const(-1)] if protected.lasti else []) + [m.Exception_()]
        join = self._join(h, loop)
        if loop is not None and join in (None, loop.header, loop.follow) and follow is not None:
            join = self._next_round_join(h, follow, loop) or join
        # Where the body goes on when no clause does (post-dominators leave out a clause
        # that goes on only through an inner try's clause): the code written after the
        # try, when the layout says so or a clause gets there after all, else the else.
        after_try = start = None
        if join is None and follow is not None and body_stack is not None:
            start = self.b.jumped_to(follow)  # 3.11 jumps over the handlers to it
            if self._written_after(h, start, loop, active, stop):
                after_try = start
        end = join if join is not None else start
        h_out, h_stack = self._fenced(end, self.b.seq, h, end, exc_stack, loop, active=active)
        if start is not None and h_stack is not None:
            after_try = start
        handlers, final, star = clauses(h_out)
        kind = TRY_STAR if star else ast.Try
        if final is not None and not self._is_finally(h):
            return self._bare_except_raising_on(
                body, body_stack, final, h_out[-1], follow, loop, active, stop
            )
        if final is not None:
            return self._finally(body, body_stack, final, follow, loop, active, stop)
        orelse, after = [], body_stack
        if after_try is not None:
            if after_try != follow:
                self.b.visit(follow)  # the jump over the handlers
            node = kind(body=body or [ast.Pass()], handlers=handlers, orelse=[], finalbody=[])
            return [node], body_stack, after_try
        # clauses that never go on leave no join: the else ends where the walk around it does
        end = join if join is not None else stop
        if join in _loop_edges(loop) and stop is not None:
            end = stop  # the clauses break or continue: the else ends where the walk does
        elif join not in (None, stop) and stop is not None and self.b._same_return(join, stop):
            end = stop  # the clauses end in a copy of the return the walk stops at (3.10)
        if follow is not None and body_stack is not None:
            orelse, after = self.b.seq(follow, end, body_stack, loop, active=active - {h})
        if after is None:
            after = h_stack
        nxt = end if after is not None else None
        # The else runs on past where the walk stops (the copy of a finally body or of a
        # with's exit that ends the body around it), and the clauses never do: they end
        # the try or start the next round. The code around then ends the else
        # (cleanup.close_else).
        runs_on = nxt is not None and (join is None or _round(join, loop))
        noted = nodes.TryStar if star else nodes.Try
        node = noted(
            body=body or [ast.Pass()],
            handlers=handlers,
            orelse=orelse,
            finalbody=[],
            else_runs_on=runs_on,
        )
        return [node], after, nxt

    def _written_after(self, h, start, loop, active, stop) -> bool:
        """Whether the code the body goes on to, when the clauses never do, was written
        after the try rather than as its else. The compiler lays an else out before the
        handlers and code after the try after them (3.11); 3.12+ move every handler after
        the other code but keep their order, so the handlers of the code's own try and
        with statements tell. With none, either way compiles the same on 3.12+."""
        if start > h:
            return True
        ends = {stop, *self.b.fences}
        while loop is not None:
            ends |= {loop.header, loop.follow}
            loop = loop.outer
        seen, todo = {start}, [start]
        while todo:
            x = todo.pop()
            opened = [c for c in self.chain(x) if c not in active]
            if opened:
                return opened[-1] > h
            for s in self.graph.blocks[x].succs:
                if s not in seen and s not in ends:
                    seen.add(s)
                    todo.append(s)
        return False

    def _normal_exit(self, b, region, exits, loop, is_with):
        """Where the body ends when nothing jumps out. Among its exits, the ones that go
        on to where the enclosing with or try body ends rather than out of it (a break,
        continue or return through them runs its own copy of their cleanup); when each
        leaves, the ones going on to the next round, as a body that ends the loop's
        does and a break does not. Then the block laid out right after the body, else
        the first: for a with body the last, since its own ``__exit__`` is laid out
        after the copies for the continues inside it. 3.12+ lay the clauses of a try
        inside the body out after the body's own exit: then the block after the last
        one the body reaches without an exception.

        Which exit is taken matters: the walk of the body stops there as at its end,
        so a break taken for the end would silently be lost."""
        if not exits:
            return None
        if len(exits) > 1:
            # Where the function falls off its end, when every other exit returns a value
            # pushed before its copy of the cleanup (3.12+ lay one out right after the body)
            returned = {x: self._returned(x) for x in exits}
            ends = [x for x in exits if returned[x] != "kept"]
            if len(ends) == 1 and returned[ends[0]] == "none":
                return ends[0]
        edges = _loop_edges(loop)
        ways = {x: self._way_out(x, edges) for x in exits}
        staying = {x for x, way in ways.items() if way is None}
        rounds = {x for x, way in ways.items() if loop is not None and way == loop.header}
        after = max(region) + 1
        if after not in exits:
            after = max(self._normal_body(b, region)) + 1
        if staying:
            return after if after in staying else min(staying)
        if rounds:
            return after if after in rounds else (max if is_with else min)(rounds)
        return after if after in exits else min(exits)

    def _returned(self, x, steps=8) -> str | None:
        """What the ways on from exit ``x`` return, run on an empty stack (and undone):
        "kept" where a return, after code of the exit's own, finds nothing to return, a
        value pushed before; "none" where each returns None; else None."""
        instrs, counter = self.graph.instrs, self.b.ctx.counter
        todo, seen, returns = [(x, [])], {x}, []
        try:
            while todo:
                b, stack = todo.pop()
                steps -= 1
                block = self.graph.blocks[b]
                if steps < 0 or any(i.op in _DEFINES for i in instrs[block.start : block.end]):
                    return None  # (a trial run must not decompile nested code)
                sim = Sim(self.b.ctx, instrs, stack)
                try:
                    sim.run(block.start, block.end)
                except Unsupported as error:
                    # (a bare return is no cleanup's copy: a try body's own return)
                    ran = b != x or sim.pos > block.start
                    kept = str(error) == "stack underflow" and instrs[sim.pos].op == "RETURN_VALUE"
                    return "kept" if kept and ran else None
                kind = sim.branch.kind if sim.branch is not None else "goto"
                if kind == "return":
                    returns.append(sim.out[-1].value)
                elif kind in ("goto", "cond"):
                    todo += [(s, list(sim.stack)) for s in block.succs if s not in seen]
                    seen.update(block.succs)
                else:
                    return None
            return "none" if returns and all(v is None for v in returns) else None
        finally:
            self.b.ctx.counter = counter

    def _goes_on_with_clauses(self, h, exits, follow, loop):
        """Where every exit of a try body leaves (``try: if c: return x``, where the
        return is no longer covered), the one that goes on to where the except clauses
        go on is the end of the body; the others are its returns and raises."""
        if self._way_out(follow, _loop_edges(loop)) != ENDS:
            return follow
        join = self._join(h, loop)
        if (
            join is None
            and exits == {follow}
            and self._exits_with(follow)
            and not self._reaches(h, follow)
        ):
            # one return, with its copy of a with's __exit__ that the clauses never
            # run: the body never ends, and the clauses go on alone
            return None
        if join is None or follow == join:
            return follow
        going_on = [x for x in sorted(exits) if self.b.runs_into(x, join)]
        return going_on[0] if len(going_on) == 1 else follow

    def _exits_with(self, x) -> bool:
        """Whether block ``x`` starts with a with's ``__exit__(None, None, None)`` (after
        the swap that keeps a returned value under it)."""
        instrs, start = self.graph.instrs, self.graph.blocks[x].start
        ops = [(i.op, i.argval) for i in instrs[start : start + 5]]
        if ops and ops[0][0] in ("SWAP", "ROT_TWO"):
            ops = ops[1:]
        return ops[:4] in (
            [*[("LOAD_CONST", None)] * 3, ("CALL", 2)],
            [*[("LOAD_CONST", None)] * 3, ("PRECALL", 2)],
            WITH_EXIT_CALL[:4],
        )

    def _reaches(self, b, x, steps=12) -> bool:
        """Whether block ``b`` reaches block ``x`` within a few blocks."""
        todo, seen = [b], {b}
        while todo and steps > 0:
            steps -= 1
            for s in self.graph.blocks[todo.pop()].succs:
                if s == x:
                    return True
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return False

    def _normal_body(self, b, region) -> set[int]:
        """The blocks of ``region`` that ``b`` reaches along normal edges."""
        seen, todo = {b}, [b]
        while todo:
            for s in self.graph.blocks[todo.pop()].succs:
                if s in region and s not in seen:
                    seen.add(s)
                    todo.append(s)
        return seen

    def _way_out(self, x, edges, steps=8):
        """The loop edge among ``edges`` that the straight path from block ``x`` reaches,
        or ``ENDS`` for a return or raise, before the end of an enclosing with or try
        body; None when it reaches none of these."""
        blocks = self.graph.blocks
        for _ in range(steps):
            if x in self.b.fences:
                return None
            if x in edges:
                return x
            if not blocks[x].succs:
                return ENDS
            if len(blocks[x].succs) != 1:
                return None
            x = blocks[x].succs[0]
        return None

    def _join(self, h, loop):
        """Where the handler's clauses meet the normal path: the first post-dominator of
        the handler that the handler does not dominate. Where that is outside the
        statements around the try, the clauses and the body may still meet inside them
        when an enclosing handler's path is left out: ``with m: try: ... except E:
        pass; f()`` followed by a return that ``__exit__`` suppressing also reaches."""
        x = self._star_exit(h)
        if x is None:
            x = self._first_undominated(h, self.b.an.ipdom)
            chain = self.chain(self._first_protected(h))
            if x is not None and chain[-1] != h:  # inside an enclosing handler's region
                first = self._first_undominated(h, self.b.an.normal_ipdom)
                if first not in (None, x) and self.b.runs_into(first, x):
                    x = first  # they meet there before the enclosing handler's way out joins
        if x is None:  # the body never ends normally: the clauses end where they leave
            x = self._clause_exit(h)
        if x is not None and x not in _loop_edges(loop) and self._outside_enclosing(h, x):
            x = self._first_undominated(h, self.b.an.normal_ipdom)
            if x is None or self._outside_enclosing(h, x):
                return None  # a clause's copy of an enclosing finally body, then its return
        if x is None or loop is None or x in loop.body or x == loop.follow:
            return x
        return None

    def _first_undominated(self, h, ipdom) -> int | None:
        """The first post-dominator of ``h`` in ``ipdom`` that ``h`` does not dominate."""
        x = ipdom.get(h)
        while x is not None and self.b.an.dominates(h, x):
            x = ipdom.get(x)
        return x

    def _star_exit(self, h) -> int | None:
        """Where the clauses of an except* handler go on: its first test says (star.py),
        as the clauses need not reach it along normal edges, nor the body at all."""
        block = self.graph.blocks[h]
        for ins in self.graph.instrs[block.start : block.end]:
            if ins.op == STAR_TEST:
                return None if ins.argval is None else self.graph.at(ins.argval)
        return None

    def _outside_enclosing(self, h, x) -> bool:
        """Whether block ``x`` is outside a try body that the try of handler ``h`` is
        written in, and is not (a copy of) where that body ends: then it is a clause's own
        way out (its copy of the enclosing finally body and its return), no join."""
        chain = self.chain(self._first_protected(h))
        enclosing = chain[chain.index(h) + 1 :]
        if set(enclosing) <= set(self.chain(x)):
            return False
        return all(self._tail(x) != self._tail(end) for end in self.b.fences)

    def _tail(self, b) -> list:
        """What block ``b`` and the blocks it alone leads to run, up to where they end."""
        out, seen = [], set()
        while b not in seen:
            seen.add(b)
            block = self.graph.blocks[b]
            out += [(i.op, i.argval) for i in self.graph.instrs[block.start : block.end]]
            if len(block.succs) != 1:
                break
            b = block.succs[0]
        return out

    def _next_round_join(self, h, follow, loop) -> int | None:
        """Where the body's end and an except clause meet on their way to the loop's
        next round, when another clause breaks or continues (the post-dominator is then
        where the loop goes on, or its header): the first block of the body end's
        straight path that a clause's straight path also reaches."""
        path = self._straight(follow, loop.header)
        for x in self._clause_exits(h) or ():
            for y in self._straight(x, loop.header):
                if y in path and y != loop.header:
                    return y
        return None

    def _straight(self, x, end, steps=4) -> list[int]:
        """Blocks along the straight path from ``x``, up to ``end``."""
        out = [x]
        for _ in range(steps):
            succs = self.graph.blocks[x].succs
            if x == end or len(succs) != 1:
                break
            x = succs[0]
            out.append(x)
        return out

    def _clause_exit(self, h) -> int | None:
        """The one block the except clauses of handler ``h`` go on to, if they all go on
        to one."""
        exits = self._clause_exits(h)
        return exits.pop() if exits is not None and len(exits) == 1 else None

    def _clause_exits(self, h) -> set[int] | None:
        """The blocks the except clauses of handler ``h`` go on to, None where one is
        not a block of its own: code after their ``POP_EXCEPT`` runs outside the
        clause."""
        exits, seen, todo = set(), {h}, [h]
        while todo:
            block = self.graph.blocks[todo.pop()]
            ops = [i.op for i in self.graph.instrs[block.start : block.end]]
            if "POP_EXCEPT" not in ops:
                todo += [s for s in block.succs if s not in seen]
                seen.update(block.succs)
                continue
            at = ops.index("POP_EXCEPT")
            after = ops[at + 1 :]
            if not set(after[:-1]) <= BOOKKEEPING:  # code after the clause, in this block
                if at:
                    return None
                exits.add(block.id)
            elif after and after[-1] == "JUMP":
                exits.add(block.succs[-1])
            elif not after or after[-1] != "RETURN_VALUE":  # (a return written in the clause)
                exits.update(s for s in block.succs if not self._leaves_outer_clause(s))
        return exits

    def _leaves_outer_clause(self, x) -> bool:
        """Whether block ``x`` starts by leaving the clause this try is written in: a
        return or a jump out of a nested clause pops each handled exception on its way,
        so where it goes is no place the clauses of this try meet."""
        return self.graph.instrs[self.graph.blocks[x].start].op == "POP_EXCEPT"

    def _is_finally(self, h) -> bool:
        """Whether handler block ``h`` starts a finally body: not a bare except (which
        pops the exception), a with's exit, or a clause whose first block ends testing
        the exception against the type it computes (``except (A, B)``, ``mod.Error``)."""
        instrs = self.graph.instrs
        block = self.graph.blocks[h]
        nxt = instrs[block.start + 1].op if block.start + 1 < len(instrs) else None
        tests = any(instrs[i].op in CLAUSE_TESTS for i in range(block.start, block.end))
        return (
            instrs[block.start].op == "PUSH_EXC_INFO"
            and nxt not in ("POP_TOP", "WITH_EXCEPT_START")
            and not tests
        )

    def _first_protected(self, h):
        region = self.region(h)
        if not region:
            raise Unsupported("handler protects nothing")
        return min(region)

    def region(self, h) -> set[int]:
        """Blocks protected by handler block ``h``, directly or through inner handlers."""
        if self._regions is None:
            self._regions = {}
            for x in self.graph.blocks:
                for handler in self.chain(x.id):
                    self._regions.setdefault(handler, set()).add(x.id)
        return self._regions.get(h, set())

    def _bare_except_raising_on(self, body, body_stack, clause, tail, follow, loop, active, stop):
        """``try: ... except: clause`` where the clause and the body both go on to the
        re-raise that ends the copy of an enclosing finally body run on an exception: the
        walk of a bare except then reads like a finally body. The re-raise follows."""
        if follow is None or body_stack is None:
            raise Unsupported("a bare except clause re-raises what it did not handle")
        rest, _ = self.b.seq(follow, stop, body_stack, loop, active=active)
        if not m.same(rest, [tail]):
            raise Unsupported("a bare except clause re-raises what it did not handle")
        handler = ast.ExceptHandler(type=None, name=None, body=clause or [ast.Pass()])
        node = ast.Try(body=body or [ast.Pass()], handlers=[handler], orelse=[], finalbody=[])
        return [node, *rest], None, None

    def _finally(self, body, body_stack, final, follow, loop, active, stop):
        body = _strip_copies(body, final)
        rest, after = [], None
        if follow is not None and body_stack is not None:
            rest, after = self.b.seq(follow, stop, body_stack, loop, active=active)
            n = len(final)
            rest = _copied_tail_hoisted(rest) if len(rest) == n else rest
            if rest[:n] and m.same(rest[:n], final):
                rest = rest[n:]
            else:
                raise Unsupported("finally body not found on the normal path")
            if _returns_kept_value(body, rest):  # ``return v`` in the body: v kept over it
                body, rest = [*body[:-1], ast.Return(value=body[-1].value)], []
        node = ast.Try(
            body=body or [ast.Pass()], handlers=[], orelse=[], finalbody=final or [ast.Pass()]
        )
        if follow is None or body_stack is None:
            return [node], None, None
        return [node, *rest], after, stop


def _copied_tail_hoisted(stmts):
    """``stmts`` with the small return that ends the else and every clause of their last
    try statement written once after it instead: the compiler copies it to each (3.11+
    copy a return of at most four instructions), so the normal path's copy of a finally
    body holding a try has it there, and the copy run on an exception, which re-raises,
    does not."""
    last = stmts[-1] if stmts else None
    if not isinstance(last, ast.Try) or not last.handlers or len(last.orelse) != 1:
        return stmts
    tail = last.orelse
    if not isinstance(tail[0], ast.Return) or not all(
        m.same(h.body[-1:], tail) for h in last.handlers
    ):
        return stmts
    handlers = [
        ast.ExceptHandler(type=h.type, name=h.name, body=h.body[:-1] or [ast.Pass()])
        for h in last.handlers
    ]
    hoisted = ast.Try(body=last.body, handlers=handlers, orelse=[], finalbody=last.finalbody)
    return [*stmts[:-1], hoisted, *tail]


def _returns_kept_value(body, rest) -> bool:
    """Whether the body ends by keeping a value in a temporary that the code after the
    finally body only returns: what the compiler makes of ``return value`` in the body."""
    last = body[-1] if body else None
    return (
        len(rest) == 1
        and isinstance(rest[0], ast.Return)
        and m.is_temporary(rest[0].value)
        and isinstance(last, ast.Assign)
        and len(last.targets) == 1
        and isinstance(last.targets[0], ast.Name)
        and last.targets[0].id == rest[0].value.id
    )


def _round(x, loop) -> bool:
    """Whether going to block ``x`` starts the next round of ``loop``."""
    return loop is not None and x == loop.header


# Instructions that define nested code, which a trial run must not decompile.
_DEFINES = {"MAKE_FUNCTION", "LOAD_BUILD_CLASS"}
# What a with statement's handler pops when ``__exit__`` suppresses the exception.
_SUPPRESS_CLEANUP = {"POP_TOP", "POP_EXCEPT", "NOP"}
_STEPS_TO_AFTER = 8


def _loop_edges(loop) -> set:
    """Where continue and break go in ``loop`` and the loops around it."""
    out = set()
    while loop is not None:
        out |= {loop.header, loop.follow}
        loop = loop.outer
    return out


def _exits_settled(body, exit_):
    """Drop the exit marks inside a with body, checking that nothing but a jump out of
    it (return of a computed value, break, continue) runs after ``__exit__``."""
    out = []
    for i, stmt in enumerate(body):
        if isinstance(stmt, m.ExitedWith):
            rest = body[i + 1 :] if stmt.exit is exit_ else []
            # a jump out of with statements around this one exits each of them in turn
            rest = [s for s in rest if not isinstance(s, m.ExitedWith)]
            if len(rest) > 1 or (rest and not _plain_exit(rest[0], stmt.carried)):
                raise Unsupported("code runs after __exit__ inside the with body")
            continue
        if not isinstance(stmt, SCOPES):
            for part in [stmt, *getattr(stmt, "handlers", ())]:
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(part, field, None)
                    if isinstance(inner, list) and inner:
                        setattr(part, field, _exits_settled(inner, exit_) or [ast.Pass()])
        out.append(stmt)
    return out


def _plain_exit(stmt, carried) -> bool:
    """Whether ``stmt`` only leaves the with body: a break, a continue, or a return of a
    constant or of a value computed before ``__exit__`` ran (``carried``)."""
    if isinstance(stmt, (ast.Break, ast.Continue)):
        return True
    if isinstance(stmt, ast.Return):
        value = stmt.value
        return (
            value is None
            or isinstance(value, ast.Constant)
            or any(value is v for v in carried)
            or m.is_temporary(value)
        )
    return False


def _entered(value) -> bool:
    if isinstance(value, ast.Await):
        value = value.value
    return isinstance(value, m.Entered)


def _is_exc(node) -> bool:
    return isinstance(node, m.Exception_)


def clauses(stmts):
    """Except clauses from the walk of a handler: an if-chain on isinstance(exc, T), or
    on ``StarMatch(T)`` for except* clauses (never mixed, never with a bare except)."""
    handlers, final = _clauses(stmts)
    stars = {isinstance(h.type, m.StarMatch) for h in handlers}
    if stars == {True}:
        if final is not None:
            raise Unsupported("finally inside an except* handler")
        for h in handlers:
            h.type = h.type.kinds
        return handlers, None, True
    if True in stars:
        raise Unsupported("except* clauses among plain ones")
    return handlers, final, False


def _clauses(stmts):
    chain = stmts and isinstance(stmts[0], ast.If) and _exc_test(stmts[0].test)
    if chain and len(stmts) == 2 and isinstance(stmts[1], (ast.Continue, ast.Break)):
        # clauses that go on to the next round or out of the loop, where others return
        # or raise: the walk puts the jump after the chain of tests, once for them all
        stmts = [_jump_ends_open_clauses(stmts[0], stmts[1])]
    if chain:
        node = stmts[0]
        kinds = node.test if isinstance(node.test, m.StarMatch) else node.test.args[1]
        body, name, orelse = list(node.body), None, node.orelse
        if all(isinstance(s, ast.Pass) for s in body):
            body = stmts[1:]  # ``if not isinstance(exc, T): raise`` then the clause body
        elif len(stmts) > 1 and not orelse and isinstance(body[-1], m.TERMINAL):
            orelse = stmts[1:]  # a clause that never goes on: the next clauses follow it
        elif len(stmts) > 1:
            raise Unsupported("statements after an except clause")
        if body and isinstance(body[0], ast.Assign) and _is_exc(body[0].value):
            name, body = body[0].targets[0].id, body[1:]
            body = _drop_name_cleanup(body, name)
        rest, final = _clauses(orelse)
        if final is not None:
            raise Unsupported("finally inside an except chain")
        return [
            ast.ExceptHandler(type=kinds, name=name, body=_bare_raises(body) or [ast.Pass()]),
            *rest,
        ], None
    if len(stmts) == 1 and isinstance(stmts[0], ast.Raise) and _is_exc(stmts[0].exc):
        return [], None
    if stmts and isinstance(stmts[-1], ast.Raise) and _is_exc(stmts[-1].exc):
        return [], _bare_raises(stmts[:-1])
    return [ast.ExceptHandler(type=None, name=None, body=_bare_raises(stmts) or [ast.Pass()])], None


def _jump_ends_open_clauses(node, jump):
    """``node``, a chain of clause tests, with ``jump`` ending each clause that goes on."""
    if not (isinstance(node, ast.If) and _exc_test(node.test)):
        return node
    if not node.body or not isinstance(node.body[-1], m.TERMINAL):
        node.body = [s for s in node.body if not isinstance(s, ast.Pass)] + [copy.copy(jump)]
    if len(node.orelse) == 1:
        node.orelse = [_jump_ends_open_clauses(node.orelse[0], jump)]
    return node


def _exc_test(test) -> bool:
    if isinstance(test, m.StarMatch):
        return True
    return m.calls_builtin(test, "isinstance") and len(test.args) == 2 and _is_exc(test.args[0])


def _drop_name_cleanup(body, name):
    """Remove the ``name = None; del name`` the compiler adds where a clause ends."""
    out, i = [], 0
    while i < len(body):
        if _is_cleanup(body, i, name):
            after = body[i + 2] if i + 2 < len(body) else None
            if after is None or isinstance(after, m.TERMINAL):
                i += 2
                continue
        stmt = body[i]
        if not isinstance(stmt, SCOPES):
            for part in [stmt, *list(getattr(stmt, "handlers", ()))]:
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(part, field, None)
                    if isinstance(inner, list) and inner:
                        setattr(part, field, _drop_name_cleanup(inner, name) or [ast.Pass()])
        out.append(stmt)
        i += 1
    return out


def _is_cleanup(body, i, name) -> bool:
    if i + 1 >= len(body):
        return False
    first, second = body[i], body[i + 1]
    return (
        isinstance(first, ast.Assign)
        and [getattr(t, "id", None) for t in first.targets] == [name]
        and isinstance(first.value, ast.Constant)
        and first.value.value is None
        and isinstance(second, ast.Delete)
        and [getattr(t, "id", None) for t in second.targets] == [name]
    )


def _bare_raises(stmts):
    for s in stmts:
        for node in ast.walk(s):
            if isinstance(node, ast.Raise) and _is_exc(node.exc):
                node.exc = None
    return stmts


def _strip_copies(body, final, clearing=None, pending=()):
    """Drop the copy of the finally body the compiler inlines before return/break/continue;
    ``clearing`` is the name of the ``except ... as`` clause the body is in, ``pending``
    the finally bodies of the tries between, outermost first: their copies run just
    before this one's, which kept them from being dropped with their own try."""
    n = len(final)
    if not n:
        return body
    out = []
    for stmt in body:
        if isinstance(stmt, (ast.Return, ast.Break, ast.Continue)):
            stmt = _dropped_before(out, stmt, final, clearing, pending)
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            around = getattr(stmt, "finalbody", None)
            for part in [stmt, *list(getattr(stmt, "handlers", ()))]:
                name = part.name if isinstance(part, ast.ExceptHandler) else clearing
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(part, field, None)
                    if isinstance(inner, list) and inner:
                        under = (*pending, around) if around and field != "finalbody" else pending
                        stripped = _strip_copies(inner, final, name, under)
                        setattr(part, field, stripped or [ast.Pass()])
        out.append(stmt)
    return out


def _dropped_before(out, stmt, final, clearing, pending):
    """``stmt`` (a return, break or continue), with the copy of ``final`` that ``out``
    ends with before it dropped, and the copies of ``pending`` uncovered then."""
    if isinstance(stmt, ast.Return):
        _hoist_kept_value(out, stmt, final)
    # (the exits of withs inside the try run after the copy, just before leaving)
    exits = 0
    while exits < len(out) and isinstance(out[-1 - exits], m.ExitedWith):
        exits += 1
    end = len(out) - exits
    if not m.same(out[end - len(final) : end], final):
        return stmt
    kept = out[end:]
    del out[end - len(final) :]
    for inner in pending:
        if inner and m.same(out[-len(inner) :], inner):
            del out[-len(inner) :]
    stmt = _kept_return(out, stmt, clearing)
    out += kept
    return stmt


def _hoist_kept_value(out, stmt, final) -> None:
    """``return name`` under a finally body that stores to ``name``: the value is kept
    in a temporary written just before that store, inside the copy of the finally
    body that ``out`` ends with. Moved before the copy, the copy reads as one."""
    value = stmt.value
    if not m.is_temporary(value):
        return
    n = len(final)
    tail = out[-n - 1 :]
    for j, kept in enumerate(tail):
        if (
            j
            and isinstance(kept, ast.Assign)
            and len(kept.targets) == 1
            and isinstance(kept.targets[0], ast.Name)
            and kept.targets[0].id == value.id
            and isinstance(kept.value, (ast.Name, ast.Constant))
            and m.same(tail[:j] + tail[j + 1 :], final)
        ):
            out[-n - 1 :] = [kept, *tail[:j], *tail[j + 1 :]]
            return


def _kept_return(out, stmt, clearing):
    """``stmt``, and ``out`` before it, with what the compiler makes of ``return v`` in an
    ``except ... as name`` clause under a finally body written back: ``v`` kept in a
    temporary over the clearing of the name (and the finally body's copy, gone now)."""
    if clearing is not None and len(out) >= 2 and _is_cleanup(out, len(out) - 2, clearing):
        del out[-2:]  # the clause clears its name on every way out, as written
    if isinstance(stmt, ast.Return) and _returns_kept_value(out, [stmt]):
        return ast.Return(value=out.pop().value)
    return stmt
