"""with statements: the body, up to where it ends, and what runs after the statement
when the body never ends normally, found where ``__exit__`` suppressing an exception
goes on."""

from __future__ import annotations

import ast

from ..bytecode.constants import value_key
from ..bytecode.versions import LINELESS_BLOCKS_INLINED
from ..rewrites.clause_tails import LONGEST_COPY
from ..simulation import markers as m
from ..simulation import nodes
from ..simulation.machine import Sim
from ..simulation.unsupported import Unsupported
from . import branches
from .clauses import SCOPES
from .loops import loop_nodes

# What a with statement's handler pops when ``__exit__`` suppresses the exception.
_TRY_STAR = getattr(ast, "TryStar", None)  # 3.11+
TRIES = (ast.Try, _TRY_STAR) if _TRY_STAR else (ast.Try,)
_SUPPRESS_CLEANUP = {"POP_TOP", "POP_EXCEPT", "NOP"}
_STEPS_TO_AFTER = 8


def with_statement(w, stack, body, body_stack, follow, after=None, walk=(None, frozenset(), None)):
    """The with statement whose walked ``body`` ended with ``body_stack`` at ``follow``
    (``after``: what runs after it when the body never ends normally, see
    ``with_end``; ``walk``: the loop, active handlers and stop of the walk around it):
    (statements, stack after it or None, where the walk goes on)."""
    if len(stack) < 2 or not isinstance(stack[-2], m.WithExit):
        raise Unsupported("with body without a context manager")
    exit_ = stack[-2]
    target = None
    if body and isinstance(body[0], ast.Assign) and _entered(body[0].value):
        target, body = body[0].targets[0], body[1:]
    body = _break_to_code_after(w, body, exit_, *walk[:2])
    body = _exits_settled(body, exit_)
    item = ast.withitem(context_expr=exit_.manager, optional_vars=target)
    kind = ast.AsyncWith if exit_.is_async else ast.With
    node = kind(items=[item], body=body or [ast.Pass()])
    if after is not None and body_stack is None:
        base = list(stack[:-2])
        if isinstance(after, int):
            return [node], base, after
        return _code_after([node], w, base, after, *walk)
    if body_stack is None:
        return [node], None, None
    return [node], body_stack, follow


def _code_after(stmts, w, stack, after, loop, active, stop):
    """The statements ``stmts`` followed by the code after the with statement that
    starts inside its handler's last block, the instructions ``after`` (only
    ``__exit__`` suppressing gets there): (statements, stack, where the walk goes on)."""
    start, end = after
    blocks = w.graph.blocks  # (numbered in layout order: the one before the next)
    if end in w.graph.block_at:
        b = w.graph.at(end) - 1
    elif end < len(w.graph.instrs):  # (up to a rotated loop test's copy: seed 6677)
        b = next(x for x, at in w.graph.copy_starts.items() if at == end)
    else:
        b = len(blocks) - 1
    w.visit(b)
    tail = Sim(w.ctx, w.graph.instrs, stack)
    tail.run(start, end)  # (up to a rotated loop test's copy, ``suppressed``)
    kind = tail.branch.kind if tail.branch is not None else "goto"
    succs = blocks[b].succs
    if kind in ("return", "raise"):
        return [*stmts, *tail.out], None, None
    if _next_round(w, b, loop, active, tail, stack):
        return [*stmts, *tail.out, nodes.Continue(falls_off=True)], None, None
    # (otherwise, inside a loop or a try the walk goes on from the tail's block as
    # from any other: a return's copy of ``__exit__`` is no way out of the loop,
    # ``whiles.py``; a loop's repeated test reached elsewhere is refused below)
    if kind == "goto" and len(succs) == 1:
        return [*stmts, *tail.out], tail.stack, succs[0]
    if kind in ("cond", "keep") and len(succs) == 2:
        out, after_stack, nxt, done = branches.two_way(w, b, tail, loop, active, stop)
        return [*stmts, *out], (None if done else after_stack), (None if done else nxt)
    raise Unsupported("the code after a with statement runs on")


def _break_to_code_after(w, body, exit_, loop, active):
    """``body`` with the code after its ``__exit__`` that ends it turned into a break,
    where that code is what runs after the endless while loop the with is in, the
    walk of the loop writing it there (``whiles.py``): nothing but the with lies
    between the two (no for loop, no try), and nothing else leaves the loop, so the
    compiler laid that code out right after the break's call of ``__exit__``."""
    if loop is None or w.graph.is_for_header(loop.header):
        return body
    if any(loop.header not in w.regions.region(a) for a in active):
        return body
    if loop.follow is not None:
        return _break_to_copied_follow(w, body, exit_, loop.follow)
    found = list(_code_after_exits(body, exit_))
    if len(found) != 1:
        return body
    stmts, at = found[0]
    w.after_loop[loop.header] = stmts[at + 1 :]
    stmts[at + 1 :] = [ast.Break()]
    return body


def _break_to_copied_follow(w, body, exit_, follow):
    """``body`` with the code after its ``__exit__`` that is the code of the loop's
    ``follow``, a small return (3.10 and 3.12+ copy it to a break's jump, right after
    the break's call of ``__exit__``), turned into that break: a return written there
    computes its value before ``__exit__`` runs, so it reads otherwise."""
    after = _small_return(w, follow)
    for stmts, at in list(_code_after_exits(body, exit_)) if after else ():
        if m.same(stmts[at + 1 :], after):
            stmts[at + 1 :] = [ast.Break()]
    return body


def _small_return(w, b):
    """The statements of block ``b`` where it only computes a value and returns it,
    in no more instructions than the compiler copies to a jump; else None."""
    block, counter = w.graph.blocks[b], w.ctx.counter
    instrs = [i for i in w.graph.instrs[block.start : block.end] if i.op != "NOP"]
    if block.succs or not instrs or len(instrs) > LONGEST_COPY:
        return None
    sim = Sim(w.ctx, w.graph.instrs, [])
    try:
        sim.run(block.start, block.end)
    except Unsupported:
        return None
    finally:
        w.ctx.counter = counter
    out = sim.out
    return out if len(out) == 1 and isinstance(out[0], ast.Return) else None


def _code_after_exits(stmts, exit_):
    """(statement list, index) of each exit mark of ``exit_`` in ``stmts`` followed
    by code that runs after the loop, in ifs, cases and inner with bodies (no try, no
    loop: the break leaves nothing else)."""
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, m.ExitedWith) and stmt.exit is exit_:
            if _runs_after_the_loop(stmts[i + 1 :], stmt.carried):
                yield stmts, i
            return
        if isinstance(stmt, (ast.If, ast.With, ast.AsyncWith, ast.Match)):
            for part in [stmt, *getattr(stmt, "cases", ())]:
                yield from _code_after_exits(part.body, exit_)
                yield from _code_after_exits(getattr(part, "orelse", []), exit_)


def _runs_after_the_loop(after, carried) -> bool:
    """Whether the statements ``after`` an exit mark are code that runs after the loop:
    more than a plain way out, ending in a return or raise, with no exit of a with
    around (which the break leaves first) and no break or continue of the loop (it
    goes on in the loop)."""
    if _only_leaves(after, carried) or any(isinstance(s, m.ExitedWith) for s in after):
        return False
    if not isinstance(after[-1], (ast.Return, ast.Raise)):
        return False  # (it goes on: where, the walk of the loop does not know)
    return not any(isinstance(n, (ast.Break, ast.Continue)) for s in after for n in loop_nodes(s))


def _next_round(w, b, loop, active, tail, stack) -> bool:
    """Whether the code after the with statement, in block ``b``, is the rest of the
    body of ``loop``, going on to its repeated test: the next round, on the same side
    of every try around the with (``active``) as the loop's header."""
    return (
        loop is not None
        and w.graph.rotated.get(b) == loop.header
        and all((b in w.regions.region(a)) == (loop.header in w.regions.region(a)) for a in active)
        and tail.branch is None
        and len(tail.stack) == len(stack)
    )


def with_end(w, h, exits, follow):
    """Which exit of a with body is where the statement ends, when every exit
    leaves (returns, raises, breaks or continues): the one that goes on as the
    statement does when ``__exit__`` suppresses an exception. Where none does, the
    body leaves on every path and something else runs after the statement:
    (None, the block it starts at) or (None, (start, end) of the instructions that
    the compiler copied into the suppressing path). (follow, None) where that path
    cannot be read."""
    after = suppressed(w, h, alone=True)
    if after is None:
        return follow, None
    same = [x for x in sorted(exits) if _goes_on_like(w, x, after) and not _leaves_loops(w, x)]
    if not same:
        return None, after
    return (follow if follow in same else same[-1]), None


def suppressed(w, h, alone=False):
    """Where the code after a with statement starts, as its handler reaches it when
    ``__exit__`` returns true: a block, or a (start, end) run of instructions left in
    the handler's last block; None where the handler has another shape. ``alone``:
    no way through the body gets to that code, which only this way out runs."""
    blocks, instrs = w.graph.blocks, w.graph.instrs
    test = blocks[h]
    if len(test.succs) != 2 or instrs[test.last].op != "POP_JUMP_IF_TRUE":
        return None
    x, seen, popped = test.succs[-1], set(), False
    while x not in seen:
        if x in w.fences:  # the end of the try body around: the with ends it
            return x
        if seen and len(blocks[x].preds) > 1 and not only_the_test(w, x):
            # where the body's end joins it, whatever runs there (an enclosing
            # clause's own POP_EXCEPT, code before a loop's repeated test)
            return x
        seen.add(x)
        block = blocks[x]
        for i in range(block.start, block.end):
            op = instrs[i].op
            if op == "JUMP":
                return block.succs[0]
            # the handler pops one exception: a second POP_EXCEPT ends an enclosing
            # clause (3.13 runs on into it where it copied the clause's end there;
            # every Python where the body never gets to it, the with ending the
            # clause; 3.10 copies it into each way out of a with whose body ends)
            ends = op == "POP_EXCEPT" and popped and (alone or LINELESS_BLOCKS_INLINED)
            if op not in _SUPPRESS_CLEANUP or ends:
                if x in w.graph.rotated and i >= w.graph.copy_starts[x]:
                    return w.graph.rotated[x]  # the loop's test, repeated: the next round
                if x in w.graph.rotated:  # code, then the next round (seed 6677)
                    return i, w.graph.copy_starts[x]
                return x if i == block.start and x not in w.regions.region(h) else (i, block.end)
            popped = popped or op == "POP_EXCEPT"
        if len(block.succs) != 1:
            return None
        x = block.succs[0]
    return None


def only_the_test(w, x) -> bool:
    """Whether block ``x`` is a copy of a loop's test and nothing before it."""
    return w.graph.copy_starts.get(x) == w.graph.blocks[x].start


def ending_as_suppressing(w, h, exits, follow):
    """The exit of the with body of handler ``h`` where it ends: ``follow`` where the
    code after the statement is there, as it is where ``__exit__`` suppressing an
    exception goes on (or that way cannot be read); else the last exit that goes on
    so, the body's own ``__exit__`` being laid out after the copies of the continues,
    breaks and returns inside it (``follow`` was one: in a finally body's copy for an
    exception, which re-raises after the with, a continue stays inside the walk
    around); None where no exit goes on so."""
    if goes_on_as_suppressing(w, h, follow):
        return follow
    after = suppressed(w, h)
    same = [x for x in sorted(exits) if _goes_on_like(w, x, after) and not _leaves_loops(w, x)]
    return same[-1] if same else None


def goes_on_as_suppressing(w, h, x) -> bool:
    """Whether exit ``x`` of the with body of handler ``h`` goes on, after
    ``__exit__``, as ``__exit__`` suppressing an exception does (or that way cannot
    be read)."""
    after = suppressed(w, h)
    return after is None or _goes_on_like(w, x, after)


def _leaves_loops(w, x, steps=4) -> bool:
    """Whether the one way into block ``x`` comes out of a loop as no way to the end
    of a with body is written: out of two loops at once, out of a for loop other
    than by its end (a break jumps, and the loop's end leads there too), or out of
    an except clause inside a loop. ``x`` is then a return's copy of ``__exit__``."""
    if _ends_raising(w, x):
        return False  # (no jump runs __exit__ and raises: the code after the with does)
    loops, clause = w.an.loops, False
    for _ in range(steps):
        preds = w.graph.blocks[x].preds
        if not preds:  # a clause's entry: inside the loops of the code it protects
            preds, clause = sorted(w.regions.region(x)), True
        left = {p: [h for h, body in loops.items() if p in body and x not in body] for p in preds}
        if any(left.values()):
            return all(hs and (clause or _leaves_early(w, p, hs)) for p, hs in left.items())
        if len(preds) != 1:
            return False
        x = preds[0]
    return False


def _ends_raising(w, x) -> bool:
    """Whether the straight path from block ``x`` ends in a raise."""
    blocks = w.graph.blocks
    for _ in range(_STEPS_TO_AFTER):
        if len(blocks[x].succs) != 1:
            break
        x = blocks[x].succs[0]
    block = blocks[x]
    return not block.succs and w.graph.instrs[block.last].op in ("RAISE_VARARGS", "RERAISE")


def _leaves_early(w, p, left) -> bool:
    """Whether block ``p`` leaving the loops ``left`` is no break: it leaves two at
    once, or a for loop other than at its header, where the loop ends."""
    for_loops = [h for h in left if w.graph.is_for_header(h) and h != p]
    return len(left) > 1 or bool(for_loops)


def _goes_on_like(w, x, after) -> bool:
    """Whether exit ``x`` goes on, after ``__exit__``, as ``after`` does: reaching the
    same block or a copy of it, or running a copy of the same instructions (3.13
    copies the end of an except clause, up to its jump, that a with ends)."""
    blocks = w.graph.blocks
    # (3.10 sends a jump to a lone jump on, as ``after`` may be, to where that goes)
    on = w.joins.jumped_to(after) if isinstance(after, int) else after
    for _ in range(_STEPS_TO_AFTER):  # to ``after``, or to the block that ends the path
        if x in (after, on):
            return True
        if isinstance(after, int) and w.joins.same_block(x, after):
            # (3.10 copies the exit of a with around this one to each way out of
            # this one's body, the way __exit__ suppressing goes on included)
            return True
        if len(blocks[x].succs) != 1:
            break
        if not isinstance(after, int) and _copies_on(w, x, after):
            return True
        x = blocks[x].succs[0]
    if isinstance(after, int):
        if blocks[after].succs:
            return False
        after = blocks[after].start, blocks[after].end  # only a block that ends is copied
    return _ends_with_copy(w, x, after)


def _copies_on(w, x, after) -> bool:
    """Whether block ``x`` ends with a copy of the instructions ``after`` and goes on
    as they do: both jump to the same block, or one falls into where the other jumps,
    or both fall into it."""
    block = w.graph.blocks[x]
    jumps = w.graph.instrs[block.last].op == "JUMP"
    return (jumps or _same_way_on(w, block, after[1])) and _ends_with_copy(w, x, after)


def _ends_with_copy(w, x, after) -> bool:
    """Whether block ``x`` ends with a copy of the instructions ``after`` (start, end),
    but for the jumps that go on as the other does (``_unjumped_ends``)."""
    instrs = w.graph.instrs
    start = after[0]
    block = w.graph.blocks[x]
    last, end = _unjumped_ends(w, block, after[1])
    size = end - start
    if last - block.start < size:
        return False
    mine = instrs[last - size : last]
    return all(
        a.op == b.op and value_key(a.argval) == value_key(b.argval)
        for a, b in zip(mine, instrs[start:end])
    )


def _unjumped_ends(w, block, end):
    """The ends of ``block`` and of the instructions up to ``end`` without a jump of
    either that goes on as the other does: to where the other falls into (3.10 copies
    the code after a with that ends a module, up to its return, to the way
    ``__exit__`` suppressing goes on, and the end of an except clause that a with
    ends, clearing its name, jumping on to the original's return), or with the
    other's to a copy of the same end (3.10 copies the return after the try too)."""
    instrs, graph = w.graph.instrs, w.graph
    mine, theirs = instrs[block.last].op == "JUMP", instrs[end - 1].op == "JUMP"
    if mine != theirs and _same_way_on(w, block, end):
        return block.end - mine, end - theirs
    if mine and theirs and end in graph.block_at:
        copy = graph.blocks[graph.at(end) - 1].succs[0]
        if copy != block.succs[0] and w.joins.same_exit(copy, block.succs[0]):
            return block.end - 1, end - 1
    return block.end, end


def _same_way_on(w, block, end) -> bool:
    """Whether ``block`` goes on to the blocks that the instructions up to ``end``, the
    end of a block, go on to."""
    graph = w.graph
    return end in graph.block_at and graph.blocks[graph.at(end) - 1].succs == block.succs


def _exits_settled(body, exit_, in_try=False):
    """Drop the exit marks inside a with body, checking that nothing but a jump out of
    it (return of a computed value, break, continue) runs after ``__exit__``. Where
    other code does, the mark stays, pending: a copy of the finally body of a try
    around the with runs there, which that try drops (``settle_pending_exits``).
    Not inside a try in the with body (``in_try``): that try's own copy, before the
    exit, was kept from being dropped by the code after it, and would run twice."""
    out = []
    for i, stmt in enumerate(body):
        if isinstance(stmt, m.ExitedWith):
            if stmt.pending:  # (an inner with's, checked at the end)
                out.append(stmt)
            elif stmt.exit is exit_ and not _only_leaves(body[i + 1 :], stmt.carried):
                if in_try:
                    raise Unsupported("code runs after __exit__ inside the with body")
                stmt.pending = True
                out.append(stmt)
            # (a jump out of with statements around this one exits each of them in
            # turn: what follows this one's exit was checked with it)
            continue
        if not isinstance(stmt, SCOPES):
            # (a try without a finally body runs nothing of its own on a way out)
            inside = in_try or (isinstance(stmt, TRIES) and bool(stmt.finalbody))
            for part in [stmt, *getattr(stmt, "handlers", ())]:
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(part, field, None)
                    if isinstance(inner, list) and inner:
                        inner = _exits_settled(inner, exit_, inside)
                        setattr(part, field, inner or [ast.Pass()])
        out.append(stmt)
    return out


def settle_pending_exits(stmts):
    """``stmts`` without the pending exit marks (``_exits_settled``) once the tries
    around them have dropped their finally bodies' copies: then only a jump out may
    follow each."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, m.ExitedWith) and stmt.pending:
            if not _only_leaves(stmts[i + 1 :], stmt.carried):
                raise Unsupported("code runs after __exit__ inside the with body")
            continue
        if not isinstance(stmt, SCOPES):
            for part in [stmt, *getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]:
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(part, field, None)
                    if isinstance(inner, list) and inner:
                        setattr(part, field, settle_pending_exits(inner) or [ast.Pass()])
        out.append(stmt)
    return out


def _only_leaves(rest, carried) -> bool:
    """Whether the statements ``rest`` after a with's ``__exit__`` only leave the body:
    past the exits of the with statements around it, and the unbinding of the name of
    an ``except E as name`` clause that a return leaves (the clause drops that where
    it ends: ``clauses.py``), a plain jump out or nothing."""
    rest = _unbinding_dropped([s for s in rest if not isinstance(s, m.ExitedWith)])
    return not rest or (len(rest) == 1 and _plain_exit(rest[0], carried))


def _unbinding_dropped(stmts):
    """``stmts`` without the ``name = None; del name`` pairs in them."""
    out, i = [], 0
    while i < len(stmts):
        first, second = stmts[i], stmts[i + 1] if i + 1 < len(stmts) else None
        if (
            isinstance(first, ast.Assign)
            and isinstance(second, ast.Delete)
            and len(first.targets) == len(second.targets) == 1
            and isinstance(first.targets[0], ast.Name)
            and isinstance(second.targets[0], ast.Name)
            and first.targets[0].id == second.targets[0].id
            and isinstance(first.value, ast.Constant)
            and first.value.value is None
        ):
            i += 2
            continue
        out.append(first)
        i += 1
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
