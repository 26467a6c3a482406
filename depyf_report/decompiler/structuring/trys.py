"""try/except/else/finally statements, recovered from the handler regions of the
exception table; a region whose handler starts with WITH_EXCEPT_START is a with
statement (``withs.py``). The body is walked up to where it ends normally, each walk
inside it stopping there too (a fence); then the handler's walk, read as the except
clauses (``clauses.py``), up to where they meet the body (``clause_joins.py``)."""

from __future__ import annotations

import ast
import dis
import functools

from ..bytecode.opcodes import CHECK_STAR_MATCH, JUMPS
from ..rewrites.clause_tails import WITH_EXIT_CALL
from ..simulation import markers as m
from ..simulation import nodes
from ..simulation.machine import Sim
from ..simulation.unsupported import ReachedTwice, Unsupported
from .clause_joins import clause_join, next_round_join
from .clauses import (
    clauses,
    code_after_clauses,
    code_after_sunk,
    conditionals_joined,
    copied_tail_hoisted,
    else_after_exit_flattened,
    exit_branch_last,
    if_tail_hoisted,
    ifs_joined,
    is_copy,
    returns_kept_value,
    statement_lists,
    strip_copies,
    try_tail_hoisted,
    way_out_copied,
    way_out_of_an_endless_loop,
    ways_out_as_breaks,
)
from .joins import DEFINES, runs_alone, same_way_to_an_end
from .loops import clears_a_name, loop_edges
from .withs import (
    ending_as_suppressing,
    goes_on_as_suppressing,
    only_the_test,
    suppressed,
    with_end,
    with_statement,
)

ENDS = -1  # where a path that returns or raises goes, for ``_way_out``
CLAUSE_TESTS = ("CHECK_EXC_MATCH", CHECK_STAR_MATCH)
TRY_STAR = getattr(ast, "TryStar", None)  # 3.11+, where star.py gives except* clauses
TRIES = (ast.Try, TRY_STAR) if TRY_STAR else (ast.Try,)


def build(w, h, b, stack, loop, active, stop):
    """The try or with statement of handler block ``h``, whose body starts at block
    ``b``: (statements, stack after it or None, where the walk goes on)."""
    region = w.regions.region(h)
    exits = {s for x in region for s in w.graph.blocks[x].succs if s not in region}
    skip = loop_edges(loop)
    exits = {x for x in exits if not _jumps_back_into(w, x, region - skip)}
    if skip & exits and is_finally(w, h):
        raise Unsupported("break or continue through a finally block")
    exits -= skip
    # an exit that only jumps on to another one is the same way out (3.12+ leave the
    # jump at the end of a loop's else clause out of the body's handler)
    exits = {x for x in exits if w.joins.jumped_to(x) not in exits - {x}}
    is_with = w.regions.starts_with(h, "WITH_EXCEPT_START")
    # (a jump written in a with body inside, the with going on elsewhere when
    # ``__exit__`` suppresses, is no end of this body)
    ends = {x for x in exits if not _jumps_out_of_a_with(w, x)}
    # An enclosing body's copies of its end that return are returns in this body: a
    # way out to one runs this body's cleanups first, which the walk reads as copies
    # only where it runs on to the return. (Taken for an end, a return's way out of a
    # loop here was taken for this body's end.) This body's own copies are fenced.
    returns = [c for c in w.fences.copies() if _returns(w, c)]
    with w.fences.walked_through(returns):
        follow = _normal_exit(w, b, region, ends, loop, is_with)
    if not is_with and follow is not None:
        follow = _goes_on_with_clauses(w, h, ends, follow, loop)
    if not is_with and follow is not None and not is_finally(w, h):
        follow = _code_after(w, exits, follow, loop)
        follow = _past_continue(w, exits, follow, loop, active)
    after_with = None  # what runs after a with whose body never ends normally
    if is_with and follow is None:
        # (every way through the body raises: only __exit__ suppressing goes on)
        after_with = suppressed(w, h, alone=True)
        if after_with is None:
            raise Unsupported("a with body that always raises goes on unreadably")
    elif is_with and follow is not None and _leaves_with(w, h, follow, loop_edges(loop)):
        follow, after_with = with_end(w, h, exits, follow)
    elif is_with and follow is not None:
        follow = ending_as_suppressing(w, h, exits, follow)
        if follow is None:
            # (3.12+ ``try: with m: return f()``: the return is outside the try, and
            # __exit__ suppressing goes on to the code after the try, not to it)
            raise Unsupported("a with body goes on elsewhere than __exit__ suppressing")
    # values under the with's manager (or the try's body), computed before it is
    # entered: a return value kept while a copy of a finally body runs the statement
    before, stack = _computed_before(w, stack, 2 if is_with else 0)
    inner = active | {h}
    mark, walked = len(w.fenced_at), len(w.visit_log)
    # (3.10 and 3.12+ copy a small block that returns or raises to the jumps to it:
    # a way out of the body to a copy of where it ends ends it too; so does one that
    # runs the same code straight on to the same end, a with's exit then a finally
    # body's return, as a return of a constant through them does)
    copies = [x for x in ends if follow not in (None, x) and same_way_to_an_end(w, x, follow)]
    copies = copies if copies and (runs_alone(w, follow) or _exits_alone(w, follow)) else []
    copies += [x for x in _copies_of_the_end(w, exits, follow) if x not in copies]
    with w.fences.walked_through(returns), w.fences.around(follow, copies):
        body, body_stack = w.seq(b, follow, list(stack), loop, entering=b, active=inner)
    # (3.13 sends a branch's jump past the body's end when that end only jumps there;
    # an end that is a copy of an enclosing one, a return, is reached as that one)
    ends = {follow}
    if follow is not None:
        ends |= {w.joins.jumped_to(follow), w.fences.reached(follow)}
    if any(x not in ends for x in w.fenced_at[mark:]):
        # a way through the body that ends the statement around it instead: written
        # in the body, it would run on into what follows the body's end
        raise Unsupported("a way out of a try body to where an enclosing one ends")
    del w.fenced_at[mark:]
    if body_stack is not None:  # values computed inside must be computed before leaving
        # (those the body ran over, loaded before it, stay as they are: a return
        # value kept over a copy of a finally body that holds this statement)
        kept = _ran_over(stack, body_stack)
        settle = Sim(w.ctx, w.graph.instrs, body_stack[kept:])
        settle.spill(strict=True)
        body, body_stack = body + settle.out, [*body_stack[:kept], *settle.stack]
    if is_with and body_stack is None and after_with is None:
        after_with = _next_round_on_suppressing(w, h, loop)
    if is_with:
        stmts, after, nxt = with_statement(
            w, stack, body, body_stack, follow, after_with, (loop, active, stop)
        )
        return before + stmts, after, nxt
    if not is_finally(w, h) and _runs_after_in_body(w, h, b, w.visit_log[walked:]):
        raise Unsupported("code that runs after a try body read into it, under its clauses")
    # (what runs on the ways out of the body, unprotected: copies of cleanups)
    copies = any(x not in region and not _plain_exit(w, x) for x in w.visit_log[walked:])
    stmts, after, nxt = _try(w, h, stack, body, body_stack, follow, loop, inner, stop, copies)
    return before + stmts, after, nxt


def _next_round_on_suppressing(w, h, loop):
    """The header of ``loop`` where ``__exit__`` suppressing an exception in the with
    body of handler ``h`` goes straight on to it, the body never ending normally (its
    ways out each leave, a ``continue`` among them): that way is a ``continue`` after
    the statement, not a fall into what the walk around writes after it (a later
    case's test 3.12+ lay out there: seed 49673). Else None."""
    if loop is None or suppressed(w, h) != loop.header:
        return None
    return loop.header


def _returns(w, x) -> bool:
    """Whether block ``x`` ends in a return."""
    block = w.graph.blocks[x]
    return not block.succs and w.graph.instrs[block.end - 1].op == "RETURN_VALUE"


def _copies_of_the_end(w, exits, follow) -> list[int]:
    """The ways out of a try or with body other than ``follow`` that run what it
    does, on to the same blocks: lone jumps to where it jumps, or copies of it (3.13
    keeps a branch's jump a block of its own under an enclosing clause's cleanup, and
    copies that clause's end, ``POP_EXCEPT`` and its jump, to each way out of a try
    inside it). Each is where the body ends too: a walk getting there must stop, not
    run on into the code after the statement. Only such blocks, which run no code of
    their own (a continue's copy of a finally body, going round as the body's end
    does, stays a continue); copies of an end of the function are
    ``same_way_to_an_end``'s (a return may return a value each way keeps its own)."""
    if follow is None or not w.graph.blocks[follow].succs:
        return []
    return [x for x in exits if x != follow and _leaves_clauses(w, x) and _copy_of(w, x, follow)]


def _computed_before(w, stack, own):
    """(statements, stack): the values a with or try statement's body runs over (a
    return value kept while a copy of a finally body runs the statement), below the
    ``own`` values of its own, assigned to temporaries before it; else the first
    statement of its body would compute them, in place of binding the ``as`` target,
    and under the try's handler, which the handler's walk computes again."""
    under = len(stack) - own
    sim = Sim(w.ctx, w.graph.instrs, stack[:under])
    if any(isinstance(v, m.Marker) and not sim.is_pure(v) for v in sim.stack):
        return [], stack  # (a marker that has no Python form stays as it is)
    sim.spill()
    return sim.out, [*sim.stack, *stack[under:]]


def _ran_over(before, after) -> int:
    """How many values at the bottom of stack ``after`` are the very ones of stack
    ``before``: the body left them untouched (a store to a name held there spills it)."""
    kept = 0
    for old, new in zip(before, after):
        if old is not new:
            break
        kept += 1
    return kept


def _runs_after_in_body(w, h, b, visited) -> bool:
    """Whether the walk of the body of handler ``h`` took in a block that the
    statement around the try protects but ``h`` does not, and that could raise: code
    written after the try (its else), which in the body would run under its clauses.
    (Copies of an enclosing finally body or with exit lie outside that statement; a
    copy of a loop's test is a continue, the test running at the top.)"""
    chain = w.regions.chain(b)
    around = chain[chain.index(h) + 1 :] if h in chain else None
    region = w.regions.region(h)
    return around is not None and any(
        x not in region
        and w.regions.chain(x) == around
        and not _leaves_clauses(w, x)
        and not only_the_test(w, x)
        and not _cannot_raise(w, x)
        for x in visited
    )


# what cannot raise: under the clauses or not, such code runs the same
_NEVER_RAISE = {"LOAD_CONST", "BUILD_TUPLE", "RETURN_VALUE", "JUMP", "NOP", "POP_TOP"}
# and tests for None; 3.13 tests a bool, which its TO_BOOL (dropped) before made
_NEVER_RAISE |= {"POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE"}
if "TO_BOOL" in dis.opmap:
    _NEVER_RAISE |= {"POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE"}


def _cannot_raise(w, x) -> bool:
    """Whether block ``x`` runs only code that cannot raise: constants, locals that
    3.12+ know are bound (a ``LOAD_FAST``, never ``LOAD_FAST_CHECK``), tuples of them,
    then a return or a jump (3.12+ copy such a return after a loop to its breaks), or
    a conditional jump that cannot raise (3.13 leaves the jump of an if inside a try
    in a loop's body out of the try around, past the test's TO_BOOL)."""
    block = w.graph.blocks[x]
    bound = _bound_loads(w.ctx.code)
    return all(
        i.op in _NEVER_RAISE or (i.op == "LOAD_FAST" and i.offset in bound)
        for i in w.graph.instrs[block.start : block.end]
    )


@functools.lru_cache(maxsize=32)
def _bound_loads(code) -> frozenset[int]:
    """The offsets of ``code``'s loads of a local the compiler knows is bound (3.12+
    check the others: ``LOAD_FAST_CHECK``; earlier Pythons check every load)."""
    if "LOAD_FAST_CHECK" not in dis.opmap:
        return frozenset()
    return frozenset(i.offset for i in dis.get_instructions(code) if i.opname == "LOAD_FAST")


def _leaves_clauses(w, x) -> bool:
    """Whether block ``x`` only leaves the except clauses it is written in, running
    no code of its own: pops the exception each handles, clears its name (``e =
    None; del e``), then returns or jumps. (The compiler copies the end of an except
    clause to each way out of a try inside it: a return's, or the function's end.)"""
    block = w.graph.blocks[x]
    ops, at = w.graph.instrs[block.start : block.end], 0
    while at < len(ops):
        if clears_a_name(ops, at):
            at += 3
        elif ops[at].op in _PLAIN or ops[at].op == "POP_EXCEPT":
            at += 1
        else:
            return False
    return True


def _jumps_back_into(w, x, region, depth=2) -> bool:
    """Whether block ``x`` only jumps, and every way from it goes back into
    ``region`` (which holds no header of a loop around the statement): 3.12+ leave
    the jump back to the header of a loop inside a with body unprotected (3.13 the
    test before it too), no way out of it."""
    block = w.graph.blocks[x]
    instrs = w.graph.instrs[block.start : block.end]
    if not block.succs or any(i.op not in JUMPS for i in instrs):
        return False
    if instrs[-1].op == "JUMP":  # back to a loop's header
        return block.succs[0] in region and block.succs[0] < x
    return all(
        s in region or (depth and _jumps_back_into(w, s, region, depth - 1)) for s in block.succs
    )


def _try(w, h, stack, body, body_stack, follow, loop, active, stop, copies, meet=None):
    """``meet``: where the clauses and the else meet, found by walking them once."""
    protected = w.graph.instrs[w.graph.blocks[w.regions.first_protected(h)].start].handler
    base = list(stack[: protected.depth])
    exc_stack = base + ([m.const(-1)] if protected.lasti else []) + [m.Exception_()]
    join = clause_join(w, h, loop) if meet is None else meet
    retry = len(w.visit_log), w.ctx.counter, len(w.fenced_at)
    if loop is not None and join in (None, loop.header, loop.follow) and follow is not None:
        join = next_round_join(w, h, follow, loop) or join
    # Where the body goes on when no clause does (post-dominators leave out a clause
    # that goes on only through an inner try's clause): the code written after the
    # try, when the layout says so or a clause gets there after all, else the else.
    after_try = start = None
    if join is None and follow is not None and body_stack is not None:
        start = w.joins.jumped_to(follow)  # 3.11 jumps over the handlers to it
        if _written_after(w, h, start, loop, active, stop):
            after_try = start
    end = join if join is not None else start
    own, mark = end not in w.fences, len(w.fenced_at)
    with w.fences.around(end):
        h_out, h_stack = w.seq(h, end, exc_stack, loop, active=active)
    in_clauses = set(w.visit_log[retry[0] :])
    if own:  # (a clause's branch stopping where the clauses meet: no way out of a body)
        w.fenced_at[mark:] = [x for x in w.fenced_at[mark:] if x != end]
    if h_stack is not None and loop is not None and end == loop.follow == w.ended_at and stop:
        # the clauses meet where the loop goes on, and the else ends where the walk
        # around does (below): they break, as they continue where they meet at its
        # header (a break in a finally body, seed 6550)
        h_out, h_stack = [*h_out, ast.Break()], None
    h_end = w.ended_at if h_stack is not None else None  # where the clauses went on
    if start is not None and h_stack is not None and w.ended_at == start:
        after_try = start  # (not where a clause runs on to an enclosing body's end)
    elif after_try is not None and h_stack is not None:
        # the clauses go on elsewhere (3.10: to a copy of the finally body around the
        # try, which the code after the try also goes on to): that code is the else
        after_try = None
    after_clauses = []  # code after a try whose body (or else) never ends normally
    if (follow is None or _else_leaves(w, follow, end, loop)) and not is_finally(w, h):
        h_out, after_clauses = code_after_clauses(h_out)
    if is_finally(w, h) and _only_reraises(h_out, exc_stack[-1]):
        # ``finally: pass``: no copy of it anywhere, the normal path goes on as it is
        node = ast.Try(body=body or [ast.Pass()], handlers=[], orelse=[], finalbody=[ast.Pass()])
        return [node], body_stack, follow
    handlers, final, star = clauses(h_out, exc=exc_stack[-1], finally_body=is_finally(w, h))
    _no_copy_under_clause(w, h, final, star, copies)
    if final is not None and not is_finally(w, h):
        return _bare_except_raising_on(
            w, body, body_stack, final, h_out[-1], follow, loop, active, stop
        )
    if final is not None:
        mark, counter = len(w.visit_log), w.ctx.counter
        around = active - {h}
        alone = not any(
            is_finally(w, a) or w.regions.starts_with(a, "WITH_EXCEPT_START") for a in around
        )
        normal = _after_finally(w, body, body_stack, final, follow, (loop, active, stop), alone)
        if normal is not None:
            last = not any(is_finally(w, a) for a in around)
            return _finally(w, body, body_stack, final, normal, follow, (last, copies))
        # Not a finally after all, only a bare except whose branches each re-raise
        # (``if_tail_hoisted`` read it as one): walk the normal path again after it.
        handlers, final, star = clauses(h_out, hoist=False, exc=exc_stack[-1])
        if final is not None:
            raise Unsupported("finally body not found on the normal path")
        if copies:  # (as above: they would run under the clause read in its place)
            raise Unsupported("a copy of a finally body read as an except clause in the body")
        if _leaves(body):
            # (a way out of the body runs a copy of the finally body, which matched
            # none of its readings: left in the body, an exception inside it would
            # run the clause, the finally body, again)
            raise Unsupported("a copy of a finally body before a way out, read otherwise")
        w.unvisit(mark)
        w.ctx.counter = counter
    kind = TRY_STAR if star else ast.Try
    dropped = star and _clause_jumps_dropped(w, handlers, follow, loop)
    orelse, after = [], body_stack
    if after_try is not None:
        if after_try != follow:
            w.visit(follow)  # the jump over the handlers
        node = kind(body=body or [ast.Pass()], handlers=handlers, orelse=[], finalbody=[])
        return [node], body_stack, after_try
    # clauses that never go on leave no join: the else ends where the walk around it does
    end = join if join is not None else stop
    if follow is None and h_end not in (None, join) and h_end in w.fences:
        # (the body never ends, and the clauses run on to an enclosing end, short of
        # where the post-dominators say they go on)
        end = h_end
    if join in loop_edges(loop) and stop is not None:
        end = stop  # the clauses break or continue: the else ends where the walk does
    elif join not in (None, stop) and stop is not None and w.joins.same_return(join, stop):
        end = stop  # the clauses end in a copy of the return the walk stops at (3.10)
    stopped = h_end  # where the walk of the else, or else of the clauses, stopped
    if (
        follow is not None
        and end is not None
        and _copies_code_after(w, follow, end, body_stack, h_stack)
    ):
        # (3.10 copies the code after the try, a small end of the function such as an
        # enclosing named clause's end and the return after it, to the end of the
        # body: no else, the body goes on to that code as the clauses do)
        pass
    elif follow is not None and body_stack is not None:
        try:
            orelse, after = w.seq(follow, end, body_stack, loop, active=active - {h})
        except ReachedTwice as twice:
            # the else gets to a block a clause wrote: where the clauses go on was
            # found by leaving out the paths that raise (the code after the try
            # always raises), and they meet there: both walked again up to it
            if meet is not None or twice.block not in in_clauses or twice.block == h:
                raise
            w.unvisit(retry[0])
            w.ctx.counter = retry[1]
            del w.fenced_at[retry[2] :]
            args = (w, h, stack, body, body_stack, follow, loop, active, stop, copies)
            return _try(*args, meet=twice.block)
        stopped = w.ended_at if after is not None else h_end
        if _body_goes_to_next_round(w, end, after, h_stack, join, loop):
            # the body goes on to where an enclosing body ends, which only goes on to the
            # next round, the clauses to the code after the try: written after it, that
            # code would run after the body too
            raise Unsupported("a try body and its clauses go on to different places")
        if _stops_at_its_copy(w, end, stop, after, h_stack):
            # (3.13 copies where the walk stops, or its jump, to the clauses: the else
            # ran on to that end itself, the clauses to a copy, the same way on)
            if not m.same(after, h_stack):
                raise Unsupported("a try's else and its clauses go on with different stacks")
            end = stop
        elif _both_end_the_body_around(w, end, after, h_stack, h_end):
            # (3.13 copies an enclosing clause's end to each way out of a try that ends
            # its body: the else and the clauses each ran on to that body's end, short
            # of where the post-dominators say the clauses go on)
            if not m.same(after, h_stack):
                raise Unsupported("a try's else and its clauses go on with different stacks")
            end = h_end
        if _else_stops_short(w, end, after, h_stack, join):
            # (3.10: the else runs on to a copy of an enclosing finally body that ends
            # the body around, the clauses to the code after the try: written after
            # it, that code would run after the else too)
            if not _returns_safely(w, w.ended_at):
                raise Unsupported("a try's else and its clauses go on to different places")
            # (but where the body around ends in a return that cannot raise, the else
            # returns, written inside it: under that body's handler or not, the same)
            orelse, after = _else_returning(w, orelse, after)
            stopped = h_end
    if after is not None and h_stack is not None and _return_apart(w, end, after, h_stack):
        # (``except E as e: return x`` and an else returning another value, meeting
        # at a copy of the return: each returns its own)
        return _returning_apart(w, end, body, handlers, orelse, after, h_stack, kind)
    if after is None:
        if h_stack is not None and not all(map(_reads_only_names, h_stack[len(stack) :])):
            # (a value a clause computed, kept over its POP_EXCEPT for a return through
            # a copy of an enclosing finally body: written after the try, a call in it
            # would no longer see the exception the clause handles)
            raise Unsupported("a value computed in an except clause used after the try")
        after = h_stack
    nxt = end if after is not None else None
    if nxt is None and after is not None:
        # (stopped short, at the end of an enclosing with or try body: the walk goes
        # on there, and the statement around sees where its body ended)
        nxt = stopped
    # The else runs on past where the walk stops (the copy of a finally body or of a
    # with's exit that ends the body around it), and the clauses never do: they end
    # the try or start the next round. The code around then ends the else
    # (cleanup.close_else).
    runs_on = nxt is not None and (join is None or _round(join, loop))
    if runs_on and nxt == stop and _else_ends_elsewhere(w, after, stopped, nxt):
        # (the walk around stops where the try goes on, and writes the code there
        # outside the statement this try ends: the else, falling off, would run it)
        raise Unsupported("a try's else runs on to where an enclosing body ends, past code")
    noted = nodes.TryStar if star else nodes.Try
    node = noted(
        body=body or [ast.Pass()],
        handlers=handlers,
        orelse=orelse,
        finalbody=[],
        else_runs_on=runs_on,
    )
    if dropped and after is None:
        # (the else never goes on either: the next round, or the break, is what follows
        # the try, which the walk around may write otherwise, as an if's else after the if)
        return [node, dropped()], None, None
    returned = star and after is None and _star_returns_taken_out(handlers, orelse)
    if returned:
        return [node, *after_clauses, returned], None, None
    return [node, *after_clauses], after, nxt


def _else_ends_elsewhere(w, after, stopped, nxt) -> bool:
    """Whether the else went on (``after``) to ``stopped``, where an enclosing with
    or try body ends, and the try is said to go on at ``nxt``, which runs code
    before it gets there."""
    if after is None or stopped is None or stopped == nxt or stopped not in w.fences:
        return False
    return w.fences.reached(nxt) != stopped and w.joins.jumped_to(nxt) != stopped


def _star_returns_taken_out(handlers, orelse):
    """No except* clause may return: where clauses end in one return (3.13 copies a
    small one after the try past each clause's end, where the handled exception is
    no longer seen), and the else never goes on, or ends in that return too, that is
    the return after the try. Taken out of them, it is returned; None where there is
    none."""
    ends = [c.body[-1] for c in handlers if c.body and isinstance(c.body[-1], ast.Return)]
    if not ends or any(ast.dump(r) != ast.dump(ends[0]) for r in ends):
        return None
    for clause in handlers:
        if clause.body and clause.body[-1] in ends:
            clause.body = clause.body[:-1] or [ast.Pass()]
    if orelse and ast.dump(orelse[-1]) == ast.dump(ends[0]):
        del orelse[-1]
    return ends[0]


def _reads_only_names(value) -> bool:
    """Whether stack value ``value`` only reads names and constants, or is the
    machine's own marker (the exception handled before, kept under a clause): it is
    the same computed inside an except clause or after it."""
    return isinstance(value, m.Marker) or all(
        isinstance(n, (ast.Constant, ast.Name, ast.Tuple, ast.expr_context))
        for n in ast.walk(value)
    )


def _only_reraises(stmts, exc) -> bool:
    """Whether the walk of a handler only re-raises ``exc``, the exception it handles."""
    return len(stmts) == 1 and isinstance(stmts[0], ast.Raise) and stmts[0].exc is exc


def _else_leaves(w, follow, end, loop) -> bool:
    """Whether the straight path from ``follow``, where the body ends, returns, raises,
    breaks or continues without getting to ``end``, where the clauses go on: only
    they run the code there, which is then written after the try, the else (the
    straight path) never getting to it."""
    way = _way_out(w, follow, loop_edges(loop))
    return way is not None and way != end


def _clause_jumps_dropped(w, handlers, follow, loop):
    """No except* clause may ``continue`` or ``break``: one that ends going on to the
    loop's next round, or leaving the loop, when the try goes on to a lone jump there
    (3.12+ send the clause's jump straight on; ``finally: continue``), falls off the
    try statement instead. The kind of statement dropped, if any was."""
    target = None if loop is None or follow is None else w.joins.jumped_to(follow)
    if target is None:
        return None
    if target == loop.header:
        kind = ast.Continue
    elif target == loop.follow or target in loop.breaks:
        kind = ast.Break
    else:
        return None
    dropped = None
    for clause in handlers:
        if clause.body and isinstance(clause.body[-1], kind):
            clause.body = clause.body[:-1] or [ast.Pass()]
            dropped = kind
    return dropped


def _stops_at_its_copy(w, end, stop, after, h_stack) -> bool:
    """Whether the else walk just done stopped at ``stop``, where the walk around
    stops, and ``end``, where the clauses go on, is a copy of it."""
    if None in (after, h_stack, stop) or end in (None, stop) or w.ended_at != stop:
        return False
    return _copy_of(w, end, stop)


def _returns_safely(w, x) -> bool:
    """Whether block ``x`` ends the function returning, running nothing that could
    raise (a constant, or a value computed before it)."""
    block = w.graph.blocks[x]
    last = w.graph.instrs[block.end - 1]
    return not block.succs and last.op == "RETURN_VALUE" and _cannot_raise(w, x)


def _else_returning(w, orelse, after):
    """The else, ``orelse`` with ``after`` on the stack at the fence it stopped at, a
    block that returns (``_returns_safely``): that return written at its end."""
    ended = w.ended_at
    if ended in w.fenced_at:  # (it no longer stops there)
        del w.fenced_at[len(w.fenced_at) - 1 - w.fenced_at[::-1].index(ended)]
    sim = w.simulate(ended, after)
    if not sim.out or not isinstance(sim.out[-1], ast.Return):
        raise Unsupported("a try's else and its clauses go on to different places")
    return [*orelse, *sim.out], None


def _both_end_the_body_around(w, end, after, h_stack, h_end) -> bool:
    """Whether the else walk just done and the walk of the clauses both stopped at
    ``h_end``, the end of an enclosing with or try body (a fence), short of ``end``."""
    if None in (after, h_stack, h_end) or h_end == end or h_end not in w.fences:
        return False
    return w.ended_at == h_end


def _copy_of(w, x, y) -> bool:
    """Whether block ``x`` runs what block ``y`` does, on to the same blocks: the
    same instructions, or lone jumps to one block."""
    to = w.joins.jumped_to(x)
    return (to not in (x, y) and to == w.joins.jumped_to(y)) or w.joins.same_block(x, y)


def _body_goes_to_next_round(w, end, after, h_stack, join, loop) -> bool:
    """Whether the else walk just done stopped short of ``end``, where the clauses go
    on, at an enclosing body's end that only jumps to the loop's next round."""
    ended = w.ended_at
    if None in (after, h_stack, join, end, loop, ended) or ended in (end, w.joins.jumped_to(end)):
        return False
    return w.joins.jumped_to(ended) == loop.header


def _else_stops_short(w, end, after, h_stack, join) -> bool:
    """Whether the else walk just done ran on to a fence (an enclosing body's end)
    other than ``end``, where the clauses go on."""
    ended = w.ended_at
    if None in (after, h_stack, join, end, ended):
        return False
    # (a copy of that fence, where 3.10 sends the clauses, is the same end)
    same = (end, w.joins.jumped_to(end), w.fences.reached(end))
    return ended not in same and ended in w.fences


def _copies_code_after(w, follow, end, body_stack, h_stack) -> bool:
    """Whether the straight path from ``follow``, where the body ends, is a copy of the
    one from ``end``, where the clauses go on, to an end of the function (each past a
    lone jump to it), run on the same stack: the body goes on to the code after the
    try as the clauses do."""
    if body_stack is None or h_stack is None or not m.same(body_stack, h_stack):
        return False
    way_on, after = w.joins.jumped_to(follow), w.joins.jumped_to(end)
    return way_on != after and same_way_to_an_end(w, way_on, after)


def _return_apart(w, end, after, h_stack) -> bool:
    """Whether block ``end``, where the else and the clauses go on, is a return that
    each reaches with a value of its own."""
    if end is None or w.graph.blocks[end].succs:
        return False
    block = w.graph.blocks[end]
    return w.graph.instrs[block.end - 1].op == "RETURN_VALUE" and not m.same(after, h_stack)


def _returning_apart(w, end, body, handlers, orelse, after, h_stack, kind):
    """The try whose clauses and else go on to one return with different values on
    the stack: the return written at the end of the else and of the one clause
    that goes on, each with its own value."""
    block = w.graph.blocks[end]
    open_clauses = [c for c in handlers if not isinstance(c.body[-1], m.TERMINAL)]
    if len(open_clauses) > 1:
        raise Unsupported("the clauses and the else meet with different values")
    w.visit(end)
    for stmts, stack in ((orelse, after), *((c.body, h_stack) for c in open_clauses)):
        sim = Sim(w.ctx, w.graph.instrs, list(stack))
        sim.run(block.start, block.end)
        returned = sim.out[-1] if sim.out else None
        if not isinstance(returned, ast.Return) or not isinstance(returned.value, ast.expr):
            raise Unsupported("the clauses and the else meet with different values")
        stmts[:] = [s for s in stmts if not isinstance(s, ast.Pass)] + sim.out
    node = kind(body=body or [ast.Pass()], handlers=handlers, orelse=orelse, finalbody=[])
    return [node], None, None


def _no_copy_under_clause(w, h, final, star, copies) -> None:
    """Refuse a finally body read as a bare except clause while the body holds
    copies of it: a copy on a way out of the body, left there, would run under that
    clause. Whatever the handler's walk does (returns, re-raises only in some
    branches, or only from inside an endless loop whose break the compiler wrote as
    the re-raise: seed 2840), the copies were not found."""
    if final is None and not star and is_finally(w, h) and copies:
        raise Unsupported("a copy of a finally body read as an except clause in the body")


def _written_after(w, h, start, loop, active, stop) -> bool:
    """Whether the code the body goes on to, when the clauses never do, was written
    after the try rather than as its else. The compiler lays an else out before the
    handlers and code after the try after them (3.11); 3.12+ move every handler after
    the other code but keep their order, so the handlers of the code's own try and
    with statements tell. With none, either way compiles the same on 3.12+."""
    if start > h:
        return True
    ends = {stop, *w.fences}
    while loop is not None:
        ends |= {loop.header, loop.follow}
        loop = loop.outer
    seen, todo = {start}, [start]
    while todo:
        x = todo.pop()
        opened = [c for c in w.regions.chain(x) if c not in active]
        if opened:
            return opened[-1] > h
        for s in w.graph.blocks[x].succs:
            if s not in seen and s not in ends:
                seen.add(s)
                todo.append(s)
    return False


def _normal_exit(w, b, region, exits, loop, is_with):
    """Where the body ends when nothing jumps out. Among its exits, the ones that go
    on to where the enclosing with or try body ends rather than out of it (a break,
    continue or return through them runs its own copy of their cleanup); when each
    leaves, the ones going on to the next round, as a body that ends the loop's
    does and a break does not. Then the block laid out right after the body, else
    the first; but for a with body going round the last, since its own ``__exit__``
    is laid out after the copies for the continues inside it (the block right after
    the body is one where the body ends in ``if c: continue``). 3.12+ lay the clauses of a try
    inside the body out after the body's own exit: then the block after the last
    one the body reaches without an exception.

    Which exit is taken matters: the walk of the body stops there as at its end,
    so a break taken for the end would silently be lost."""
    # (a lone RETURN_VALUE that only loops in the body reach returns what they pushed:
    # no end of the body, which would end their rounds there too)
    exits = {x for x in exits if not _returns_from_loops(w, x, region)}
    if not exits:
        return None
    ending = exits
    if len(exits) > 1:
        # Where the function falls off its end, when every other exit returns a value
        # pushed before its copy of the cleanup (3.12+ lay one out right after the body)
        returned = {x: _returned(w, x) for x in exits}
        ends = [x for x in exits if returned[x] != "kept"]
        if len(ends) == 1 and returned[ends[0]] == "none":
            return ends[0]
        # (a lone RETURN_VALUE returns a value the body pushed too: 3.11+ leave it out
        # of the try around ``with m: return v``, whose suppressing path falls off)
        computing = [x for x in ends if not _lone_return(w, x)]
        if len(computing) == 1 and returned[computing[0]] == "none" and len(ends) > 1:
            return computing[0]
        if len(ends) == 1 and returned[ends[0]] is None and not is_with:
            return ends[0]  # (what it returns is computed after the cleanup: no return's)
        ending = set(ends) or exits
    edges = loop_edges(loop)
    ways = {x: _way_out(w, x, edges) for x in exits}
    if not is_with:  # (a finally body's copy that branches, before a return)
        ways = {
            x: ENDS if way is None and _ends_every_way(w, x, edges) else way
            for x, way in ways.items()
        }
    staying = {x for x, way in ways.items() if way is None}
    # (a copy of a finally body that branches hides where it goes: one whose every way
    # gets to where the with or try body around ends is the normal one, not the copy
    # a continue runs before going round)
    fenced = {x for x in staying if _fenced_every_way(w, x, edges)}
    staying = fenced or staying
    rounds = {x for x, way in ways.items() if loop is not None and way == loop.header}
    after = max(region) + 1
    if after not in exits:
        after = max(_normal_body(w, b, region)) + 1
    if staying:
        going_on = _runs_on_to_the_same_return(w, staying)
        if going_on is not None:
            return going_on
        return after if after in staying else min(staying)
    if rounds and is_with:  # (the body's own __exit__ after the continues' copies)
        return max(rounds)
    leaves = after in ending and after not in rounds
    if rounds and leaves and _reached_without_raising(w, b, region, after, rounds):
        # (those are continues in the clauses of a try inside, through their copies of
        # the cleanup: the body falls off into the exit laid out after it, which leaves
        # the loop; the shape of seed 61665)
        return after
    rounds = _keeping_nothing(w, rounds, edges)
    going_round = _runs_on_past_a_continue(w, rounds, edges)
    if going_round is not None:
        return going_round
    ending_after = _ends_past_a_continue(w, rounds, ways, edges)
    if ending_after is not None:
        return ending_after
    if rounds:
        return after if after in rounds else min(rounds)
    # Every way out ends the function. A return written in the body returns a value
    # pushed before the cleanup's copy, or a constant; the one way that computes what
    # it returns after the copy runs the code written after the try
    # (not a lone RETURN_VALUE: that returns what the body computed, 3.10-3.11 leave
    # it out of the try around the return)
    computed = [
        x for x in ending if len(exits) > 1 and returned[x] is None and not _lone_return(w, x)
    ]
    if computed and not is_with and _copies_of_one(w, computed):
        # (3.10 copies that code, a small return, to each way the body ends; the one a
        # clause goes on to as well is where the try goes on, and written in the
        # clause the code would run while it handles its exception)
        met = [x for x in computed if not set(w.graph.blocks[x].preds) <= region]
        if len(met) == 1:
            return met[0]
        return after if after in computed else min(computed)
    going_on = _runs_on_past_a_return(w, ending)
    if going_on is not None and not is_with:
        return going_on
    return after if after in ending else min(ending)


def _runs_on_past_a_continue(w, rounds, edges):
    """Of exits that each go round the loop, the one that runs the code each other
    one runs, the same in all, and then more that does not start with it again: the
    code after the try, past the copy of the cleanup that a continue in the body runs
    too (laid out right after the body where the body ends ``if c: continue``). None
    where there is no such one. (Code that starts with the copy again may be the copy
    of another cleanup: a continue from an inner try with the same finally body.)"""
    code = {x: _code_on_the_way(w, x, edges) for x in rounds}
    copies = {tuple(code[x]) for x in rounds}
    for x in rounds:
        others = copies - {tuple(code[x])}
        copy = next(iter(others)) if len(others) == 1 else None
        if not copy or any(tuple(code[y]) != copy for y in rounds if y != x):
            continue
        on, rest = tuple(code[x][: len(copy)]), tuple(code[x][len(copy) :])
        if on == copy and rest and rest[: len(copy)] != copy:
            return x
    return None


def _keeping_nothing(w, rounds, edges) -> set:
    """Exits that go round the loop, but those that run another's code and then only
    pop: they drop a value the body kept over the cleanup (a return's, thrown away by
    a finally body's own ``continue``), which the body's normal end never keeps."""
    code = {x: tuple(_code_on_the_way(w, x, edges)) for x in rounds}
    return {
        x
        for x in rounds
        if not any(
            y != x
            and code[x][: len(code[y])] == code[y]
            and len(code[x]) > len(code[y])
            and all(op == "POP_TOP" for op, _ in code[x][len(code[y]) :])
            for y in rounds
        )
    }


def _ends_past_a_continue(w, rounds, ways, edges):
    """Of exits that go round the loop, each running the same code, and one that
    ends the function, that one where it runs that code and then code of its own that
    could raise, which no way out of the body runs after its copy of the cleanup (a
    return there pushes what it returns before the copy, or loads a constant after
    it): the code after the try, past the cleanup a continue in the body runs too
    (laid out after the continue's copy where the body ends ``if c: continue``). None
    where there is no such one. (3.10 copies that code, a small end, to each way the
    body ends.)"""
    ending = sorted(x for x, way in ways.items() if way == ENDS)
    if not rounds or not ending or len(rounds) + len(ending) != len(ways):
        return None
    copies = {tuple(_code_on_the_way(w, x, edges)) for x in rounds}
    if len(copies) != 1 or not _copies_of_one(w, ending):
        return None
    copy = copies.pop()
    code = _code_on_the_way(w, ending[0], edges, to_the_end=True)
    rest = code[len(copy) :]
    if tuple(code[: len(copy)]) != copy or all(op in _PLAIN for op, _ in rest):
        return None
    return ending[0]


def _code_on_the_way(w, x, edges, steps=8, to_the_end=False):
    """The instructions but jumps and NOPs on the straight path from block ``x`` to
    the loop edge among ``edges`` it reaches (``_way_out``)."""
    blocks, instrs, code = w.graph.blocks, w.graph.instrs, []
    for _ in range(steps):
        on = _past_inner_loop(w, x, edges)
        if on is not None:
            for b in sorted(w.an.loops[x]):  # (each copy's jumps go to its own blocks)
                block = instrs[blocks[b].start : blocks[b].end]
                code += [(i.op, None if i.op in JUMPS else i.argval) for i in block]
            x = on
            continue
        if x in edges or len(blocks[x].succs) > 1:
            break
        block = blocks[x]
        if not block.succs and not to_the_end:
            break
        code += [(i.op, i.argval) for i in instrs[block.start : block.end] if i.op not in _MOVES]
        if not block.succs:
            break
        x = block.succs[0]
    return code


_MOVES = {"JUMP", "NOP"}


def _copies_of_one(w, exits) -> bool:
    """Whether ``exits`` each run the same code straight on to an end of the function."""
    return all(same_way_to_an_end(w, x, exits[0]) for x in exits[1:])


def _runs_on_past_a_return(w, ending):
    """Of exits that each end the function, the one that runs the code each other
    one runs but for its return of a constant, and then more: the code after the
    try, past the copy of the cleanup that a return in the body runs too (which loads
    a constant it returns only after the copy). None where there is no such one."""
    blocks, instrs = w.graph.blocks, w.graph.instrs
    ops = {x: [(i.op, i.argval) for i in instrs[blocks[x].start : blocks[x].end]] for x in ending}
    copies = {x: ops[x][: len(ops[x]) - _constant_return(ops[x])] for x in ending}

    def runs_on_past(x, y) -> bool:  # past the copy before y's return
        copy, rest = copies[y], ops[x][len(copies[y]) :]
        returns = _constant_return(ops[y]) and copy
        return bool(returns) and ops[x][: len(copy)] == copy and len(rest) > _constant_return(rest)

    going_on = [x for x in ending if all(runs_on_past(x, y) for y in ending if y != x)]
    return going_on[0] if len(ending) > 1 and len(going_on) == 1 else None


def _runs_on_to_the_same_return(w, ending):
    """Of exits that each run straight on to the same return of a constant, past the
    same code (the copies of the cleanups around), the one that runs the code each
    other one runs before that and then more: the code after the try. A return of
    None in a try inside another try's body whose finally ends the function has its
    copies of both finally bodies, then the return, the same as the way on past the
    inner try ends. None where there is no such one."""
    paths = {x: _straight_on(w, x) for x in ending}
    if len(ending) < 2 or None in paths.values():
        return None

    def runs_on_past(x, y) -> bool:
        a, b = paths[x], paths[y]
        shared = 0
        while shared < min(len(a), len(b)) and a[-1 - shared] == b[-1 - shared]:
            shared += 1
        if shared < _constant_return(b) or not _constant_return(b):
            return False
        a, b = a[: len(a) - shared], b[: len(b) - shared]
        return len(a) > len(b) and a[: len(b)] == b

    going_on = [x for x in ending if all(runs_on_past(x, y) for y in ending if y != x)]
    return going_on[0] if len(going_on) == 1 else None


def _straight_on(w, x, steps=6) -> list | None:
    """The instructions from block ``x`` straight on to a return (jumps left out),
    where it gets there with no branch on the way; else None."""
    blocks, instrs, ops = w.graph.blocks, w.graph.instrs, []
    for _ in range(steps):
        block = blocks[x]
        ops += [(i.op, i.argval) for i in instrs[block.start : block.end] if i.op not in _GOING]
        if not block.succs:
            return ops if ops and ops[-1][0] == "RETURN_VALUE" else None
        if len(block.succs) != 1:
            return None
        x = block.succs[0]
    return None


_GOING = {"NOP", "JUMP"}  # (a straight way goes on to the block after: no code)


def _constant_return(ops) -> int:
    """How many instructions at the end of ``ops`` return a constant (0 if none)."""
    if ops[-1:] and ops[-1][0] == "RETURN_CONST":
        return 1
    if [op for op, _ in ops[-2:]] == ["LOAD_CONST", "RETURN_VALUE"]:
        return 2
    return 0


_PLAIN = {"LOAD_CONST", "RETURN_VALUE", "JUMP", "NOP", "POP_TOP", "SWAP", "COPY"}


def _exits_alone(w, x) -> bool:
    """Whether block ``x`` starts with a with's ``__exit__(None, None, None)`` on the
    stack the body runs on, no value kept under it: each copy of it (3.10 copies the
    end of a with body that re-raises after it, in a finally body's copy for an
    exception) does the same."""
    first = w.graph.instrs[w.graph.blocks[x].start].op
    return first not in ("SWAP", "ROT_TWO") and _exits_with(w, x)


def _code_after(w, exits, follow, loop):
    """A try/except body's ways out, unprotected, are its returns, breaks and
    continues, which run no code of their own but the copies of enclosing cleanups,
    and where it ends. So where ``follow`` is such a return or jump (or a continue's
    copy of the loop's test: 3.10 and 3.12+) and one other way out raises, code of its
    own, that is where the body ends: ``try: if c: return`` / ``except E: ...`` /
    ``raise E2()``. (A raise written in the body is under its handler.)"""
    if not _plain_exit(w, follow) and not only_the_test(w, follow):
        return follow
    # (3.11 jump from a with's suppressing way out on to the code after the try)
    raising = sorted(x for x in exits if not _plain_exit(w, w.joins.jumped_to(x)) and _raises(w, x))
    # (3.10 copies a small block that raises to each jump to it: one way out)
    if raising and all(w.joins.same_exit(x, raising[0]) for x in raising[1:]):
        return raising[0]
    return follow


def _past_continue(w, exits, follow, loop, active):
    """A try/except body ending in ``if c: continue`` goes to the next round twice:
    by the written continue, a lone jump to the loop's header, and by its end, which
    goes on to the code written after the try. That code, not the continue, is where
    the body ends: walked as part of the body, it would run under the clauses."""
    if loop is None or w.joins.jumped_to(follow) != loop.header:
        return follow
    edges = loop_edges(loop)
    # (a lone jump, or code laid out right there (3.12+), where no finally body inside
    # the loop is open: a break or continue runs its own copies of cleanups first)
    copying = any(is_finally(w, a) and loop.header not in w.regions.region(a) for a in active)
    targets = {x: w.joins.jumped_to(x) for x in exits if x != follow}
    going_on = [
        x
        for x, target in targets.items()
        if (target != x or not (copying or _plain_exit(w, x)))
        and target not in edges
        and not _exits_with(w, target)
    ]
    return going_on[0] if len(going_on) == 1 else follow


def _raises(w, x, steps=8) -> bool:
    """Whether the straight path from block ``x`` ends in a raise, running no with's
    ``__exit__`` on the way."""
    blocks, instrs = w.graph.blocks, w.graph.instrs
    for _ in range(steps):
        if x in w.fences or _exits_with(w, x):
            return False
        if not blocks[x].succs:
            return instrs[blocks[x].end - 1].op in ("RAISE_VARARGS", "RERAISE")
        if len(blocks[x].succs) != 1:
            return False
        x = blocks[x].succs[0]
    return False


def _plain_exit(w, x) -> bool:
    """Whether block ``x`` only returns (a constant, or a value computed before it),
    or only jumps: it runs no code of its own that could raise."""
    block = w.graph.blocks[x]
    return all(i.op in _PLAIN for i in w.graph.instrs[block.start : block.end])


def _returned(w, x, steps=8) -> str | None:
    """What the ways on from exit ``x`` return, run on an empty stack (and undone):
    "kept" where a return, after code of the exit's own, finds nothing to return, a
    value pushed before; "none" where each returns None; "constant" where one
    returns another constant, maybe a return of the body; else None."""
    instrs, counter = w.graph.instrs, w.ctx.counter
    todo, seen, returns = [(x, [])], {x}, []
    try:
        while todo:
            b, stack = todo.pop()
            steps -= 1
            block = w.graph.blocks[b]
            if steps < 0 or any(i.op in DEFINES for i in instrs[block.start : block.end]):
                return None  # (a trial run must not decompile nested code)
            sim = Sim(w.ctx, instrs, stack)
            try:
                sim.run(block.start, block.end)
            except Unsupported as error:
                constant = _returned_past_an_iterator(instrs, sim, error)
                if constant is not None:
                    returns.append(constant)
                    continue
                # (a bare return is no cleanup's copy: a try body's own return; a swap
                # under a clause's exception keeps a value wherever it stands)
                under = _swaps_under_clause(w, b, sim.pos)
                ran = b != x or sim.pos > block.start or under
                kept = str(error) == "stack underflow" and (
                    instrs[sim.pos].op == "RETURN_VALUE"
                    or _swaps_under_exit(w, b, sim.pos)
                    or under
                    or (not sim.stack and _swaps_over_an_iterator(instrs, sim.pos))
                )
                return "kept" if kept and ran else None
            kind = sim.branch.kind if sim.branch is not None else "goto"
            if kind == "return":
                returns.append(sim.out[-1].value)
            elif kind in ("goto", "cond", "keep"):
                # (a value-keeping jump keeps its value only on the jump, the last)
                stacks = [list(sim.stack) for _ in block.succs]
                if kind == "keep":
                    stacks[0].pop()
                todo += [(s, st) for s, st in zip(block.succs, stacks) if s not in seen]
                seen.update(block.succs)
            else:
                return None
        if returns and all(v is None for v in returns):
            return "none"
        return "constant" if any(isinstance(v, ast.Constant) for v in returns) else None
    finally:
        w.ctx.counter = counter


def _lone_return(w, x) -> bool:
    block = w.graph.blocks[x]
    return [i.op for i in w.graph.instrs[block.start : block.end]] == ["RETURN_VALUE"]


def _returns_leaving_clauses(w, x, steps=4) -> bool:
    """Whether block ``x`` goes on, through blocks only it leads to, to return the value
    on top after ending the except clauses around: a POP_EXCEPT under the value for
    each (3.10), or SWAP 2 and a POP_EXCEPT (3.11+, the POP_EXCEPT outside the clause's
    cleanup, a block of its own)."""
    blocks, ops = w.graph.blocks, []
    for _ in range(steps):
        block = blocks[x]
        instrs = w.graph.instrs[block.start : block.end]
        ops += [(i.op, i.arg if i.op == "SWAP" else None) for i in instrs if i.op != "NOP"]
        if not block.succs:
            break
        if len(block.succs) != 1 or blocks[block.succs[0]].preds != [x]:
            return False
        x = block.succs[0]
    else:
        return False
    pops, pop, swap = ops[:-1], ("POP_EXCEPT", None), ("SWAP", 2)
    alone = pops == [pop] * len(pops)  # (3.10)
    paired = pops == [swap, pop] * (len(pops) // 2)  # (3.11+)
    return ops[-1:] == [("RETURN_VALUE", None)] and bool(pops) and (alone or paired)


def _returns_from_loops(w, x, region) -> bool:
    """Whether block ``x`` is a lone RETURN_VALUE that only loops inside ``region``
    lead to (3.10 and 3.12+ leave it out of the try around a return in the loop), each
    way through blocks of the region that only it leads to (the returned value). Not
    from a loop's header: where the loop ends (a for loop's else), the body goes on.
    Inside an except clause the return first ends the clauses around, the value kept
    over each POP_EXCEPT: no end of the body either."""
    inside = set().union(*(w.an.loops[h] - {h} for h in w.an.loops if h in region))
    preds = w.graph.blocks[x].preds
    return (
        (_lone_return(w, x) or _returns_leaving_clauses(w, x))
        and bool(preds)
        and all(_from_a_loop(w, p, inside, region) for p in preds)
    )


def _from_a_loop(w, b, loops, region, steps=6) -> bool:
    """Whether every way to block ``b`` comes from ``loops`` through a few blocks of
    ``region`` (the returned value, an ``if a or b:`` before the return)."""
    seen, todo = {b}, [b]
    while todo:
        x = todo.pop()
        if x not in region or len(seen) > steps:
            return False
        if x in loops:
            continue
        preds = w.graph.blocks[x].preds
        if not preds:
            return False
        todo += [p for p in preds if p not in seen]
        seen.update(preds)
    return True


def _swaps_under_exit(w, b, at) -> bool:
    """Whether instruction ``at`` starts block ``b`` with the swap that keeps a
    returned value under a with's ``__exit__`` call (a return leaving a with body)."""
    block = w.graph.blocks[b]
    return at == block.start and w.graph.instrs[at].op in ("SWAP", "ROT_TWO") and _exits_with(w, b)


def _returned_past_an_iterator(instrs, sim, error):
    """The constant (not None) returned where the run stopped, finding no for loop's
    iterator to pop before loading it: a return of a constant leaving the loop.
    None where it stopped otherwise."""
    ops = instrs[sim.pos : sim.pos + 3]
    if str(error) != "stack underflow" or sim.stack:
        return None
    if [i.op for i in ops] != ["POP_TOP", "LOAD_CONST", "RETURN_VALUE"]:
        return None
    return None if ops[1].argval is None else m.const(ops[1].argval)


def _swaps_over_an_iterator(instrs, at) -> bool:
    """Whether instruction ``at`` is the swap that keeps a returned value over the
    iterator of a for loop, which is popped before the return (a return leaving the
    loop): finding nothing to swap, the value was pushed before the exit."""
    ops = [i.op for i in instrs[at : at + 3]]
    return ops in (["SWAP", "POP_TOP", "RETURN_VALUE"], ["ROT_TWO", "POP_TOP", "RETURN_VALUE"])


def _swaps_under_clause(w, b, at) -> bool:
    """Whether instruction ``at`` of block ``b`` is the swap that keeps a returned
    value under the exception an enclosing except clause handles, which the clause's
    ``POP_EXCEPT`` then drops (a return leaving the clause; 3.11+ end the region of
    a named clause's cleanup between the two, so the swap may be a block alone)."""
    block, instrs = w.graph.blocks[b], w.graph.instrs
    if instrs[at].op not in ("SWAP", "ROT_TWO"):
        return False
    if at + 1 < block.end:
        return instrs[at + 1].op == "POP_EXCEPT"
    succs = block.succs
    return len(succs) == 1 and instrs[w.graph.blocks[succs[0]].start].op == "POP_EXCEPT"


def _goes_on_with_clauses(w, h, exits, follow, loop):
    """Where every exit of a try body leaves (``try: if c: return x``, where the
    return is no longer covered), the one that goes on to where the except clauses
    go on is the end of the body; the others are its returns and raises."""
    if _way_out(w, follow, loop_edges(loop)) != ENDS:
        return follow
    join = clause_join(w, h, loop)
    if join is None and exits == {follow} and _exits_with(w, follow) and not _reaches(w, h, follow):
        # one return, with its copy of a with's __exit__ that the clauses never
        # run: the body never ends, and the clauses go on alone
        return None
    if join is None or follow == join:
        return follow
    going_on = [x for x in sorted(exits) if w.joins.runs_into(x, join)]
    return going_on[0] if len(going_on) == 1 else follow


def _jumps_out_of_a_with(w, x, steps=4) -> bool:
    """Whether exit ``x`` is only reached from the end of a with body inside (its
    ``__exit__(None, None, None)``, then code under the same handlers as ``x``) that
    goes on elsewhere than ``__exit__`` suppressing an exception: a break, continue or
    return written in that body (``with m: continue`` then ``break``), which the
    statement around does not end at, as the with statement would run on into it by
    either way."""
    blocks, chain = w.graph.blocks, w.regions.chain(x)
    for _ in range(steps):
        # (not from inside a loop that starts at ``x``: a copy of a finally body)
        preds = [p for p in blocks[x].preds if not w.an.dominates(x, p)]
        if len(preds) != 1:
            return False
        x = preds[0]
        if _exits_with(w, x):
            break
        if w.regions.chain(x) != chain:  # (code on the way in a statement of its own)
            return False
    else:
        return False
    inside = blocks[x].preds
    withs = {
        h
        for p in inside
        for h in w.regions.chain(p)[:1]
        if x not in w.regions.region(h) and w.regions.starts_with(h, "WITH_EXCEPT_START")
    }
    return len(withs) == 1 and not goes_on_as_suppressing(w, withs.pop(), x)


def _exits_with(w, x) -> bool:
    """Whether block ``x`` starts with a with's ``__exit__(None, None, None)`` (after
    the swap that keeps a returned value under it)."""
    instrs, start = w.graph.instrs, w.graph.blocks[x].start
    ops = [(i.op, i.argval) for i in instrs[start : start + 5]]
    if ops and ops[0][0] in ("SWAP", "ROT_TWO"):
        ops = ops[1:]
    return ops[:4] in (
        [*[("LOAD_CONST", None)] * 3, ("CALL", 2)],
        [*[("LOAD_CONST", None)] * 3, ("PRECALL", 2)],
        WITH_EXIT_CALL[:4],
    )


def _reaches(w, b, x, steps=12) -> bool:
    """Whether block ``b`` reaches block ``x`` within a few blocks."""
    todo, seen = [b], {b}
    while todo and steps > 0:
        steps -= 1
        for s in w.graph.blocks[todo.pop()].succs:
            if s == x:
                return True
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return False


def _reached_without_raising(w, b, region, after, rounds) -> bool:
    """Whether the body from ``b`` gets to ``after`` without an exception, and to
    none of ``rounds``: only an inner try's clauses go round."""
    body = _normal_body(w, b, region)
    reached = {x for x in {after, *rounds} if set(w.graph.blocks[x].preds) & body}
    return reached == {after}


def _normal_body(w, b, region) -> set[int]:
    """The blocks of ``region`` that ``b`` reaches along normal edges."""
    seen, todo = {b}, [b]
    while todo:
        for s in w.graph.blocks[todo.pop()].succs:
            if s in region and s not in seen:
                seen.add(s)
                todo.append(s)
    return seen


def _way_out(w, x, edges, steps=8, short_of=None):
    """The loop edge among ``edges`` that the straight path from block ``x`` reaches,
    or ``ENDS`` for a return or raise, before the end of an enclosing with or try
    body (and before block ``short_of``); None when it reaches none of these."""
    blocks = w.graph.blocks
    for _ in range(steps):
        if x in edges:  # (a loop's follow may end the body around it too: a break)
            return x
        if x in w.fences or x == short_of:
            return None
        if not blocks[x].succs:
            return ENDS
        on = _past_inner_loop(w, x, edges)
        if on is None and len(blocks[x].succs) != 1:
            return None
        x = blocks[x].succs[0] if on is None else on
    return None


def _past_inner_loop(w, x, edges):
    """Where the loop whose header is block ``x`` goes on, when that is its one way
    out: a loop inside a copy of a finally body (3.12+ inline a comprehension as
    one) runs its rounds and goes on there, as straight code would. None where ``x``
    heads no such loop, or one of the loops around (in ``edges``)."""
    body = w.an.loops.get(x)
    if body is None or x in edges:
        return None
    outs = {s for b in body for s in w.graph.blocks[b].succs if s not in body}
    return outs.pop() if len(outs) == 1 else None


def _leaves_with(w, h, x, edges) -> bool:
    """Whether the exit ``x`` of the with body of handler ``h`` leaves: a jump out, or
    a return or raise, on every way on from it, through a copy of a finally body
    around that branches or loops (``try: with m: break`` ``finally: if c: ...``),
    never getting to the code after the with, where ``__exit__`` suppressing goes."""
    # (a way that first gets to where __exit__ suppressing goes on does not leave: the
    # rest of a loop's round after the with, which breaks only after that code)
    after = suppressed(w, h)
    if _way_out(w, x, edges, short_of=after) is not None:  # (block 0 may be a loop's header)
        return True
    # (code run after the with's __exit__ in its body is refused: ``withs.py``)
    return _leaves_every_way(w, x, edges, after)


def _leaves_every_way(w, x, edges, after, steps=16) -> bool:
    """Whether every way on from block ``x`` gets to a loop edge among ``edges``, or
    returns or raises, within a few blocks, before any reaches ``after`` (a block) or
    the end of an enclosing with or try body; jumping back only to a block reached from
    ``x`` (a loop inside these blocks, whose header comes first) or an edge."""
    blocks, todo, seen = w.graph.blocks, [x], {x}
    while todo:
        steps -= 1
        b = todo.pop()
        if b in edges:
            continue
        back = [s for s in blocks[b].succs if s <= b and s not in seen | edges]
        if steps < 0 or b == after or b in w.fences or back:
            return False
        todo += [s for s in blocks[b].succs if s not in seen]
        seen.update(blocks[b].succs)
    return True


def _ends_every_way(w, x, edges, steps=12) -> bool:
    """Whether every way on from block ``x`` returns or raises within a few blocks,
    before any reaches the end of an enclosing with or try body, a loop edge among
    ``edges``, or a jump back (a loop)."""
    blocks, todo, seen = w.graph.blocks, [x], {x}
    while todo:
        steps -= 1
        b = todo.pop()
        if steps < 0 or b in w.fences or b in edges or any(s <= b for s in blocks[b].succs):
            return False
        todo += [s for s in blocks[b].succs if s not in seen]
        seen.update(blocks[b].succs)
    return True


def _fenced_every_way(w, x, edges, steps=12) -> bool:
    """Whether every way on from block ``x`` gets to the end of an enclosing with or
    try body within a few blocks, or returns or raises, and one gets there; none
    reaching a loop edge among ``edges`` or jumping back."""
    blocks, todo, seen, fenced = w.graph.blocks, [x], {x}, False
    while todo:
        steps -= 1
        b = todo.pop()
        if steps < 0 or b in edges:
            return False
        if b in w.fences:
            fenced = True
            continue
        if any(s <= b for s in blocks[b].succs):
            return False
        todo += [s for s in blocks[b].succs if s not in seen]
        seen.update(blocks[b].succs)
    return fenced


def is_finally(w, h) -> bool:
    """Whether handler block ``h`` starts a finally body: not a bare except (which
    pops the exception), a with's exit, or a clause whose first block ends testing
    the exception against the type it computes (``except (A, B)``, ``mod.Error``)."""
    instrs = w.graph.instrs
    block = w.graph.blocks[h]
    nxt = instrs[block.start + 1].op if block.start + 1 < len(instrs) else None
    tests = any(instrs[i].op in CLAUSE_TESTS for i in range(block.start, block.end))
    return (
        instrs[block.start].op == "PUSH_EXC_INFO"
        and nxt not in ("POP_TOP", "WITH_EXCEPT_START")
        and not tests
    )


def _bare_except_raising_on(w, body, body_stack, clause, tail, follow, loop, active, stop):
    """``try: ... except: clause`` where the clause and the body both go on to the
    re-raise that ends the copy of an enclosing finally body run on an exception: the
    walk of a bare except then reads like a finally body. The re-raise follows."""
    if follow is None or body_stack is None:
        raise Unsupported("a bare except clause re-raises what it did not handle")
    rest, _ = w.seq(follow, stop, body_stack, loop, active=active)
    if not m.same(rest, [tail]):
        raise Unsupported("a bare except clause re-raises what it did not handle")
    handler = ast.ExceptHandler(type=None, name=None, body=clause or [ast.Pass()])
    node = ast.Try(body=body or [ast.Pass()], handlers=[handler], orelse=[], finalbody=[])
    return [node, *rest], None, None


def _finally(w, body, body_stack, final, normal, follow, around):
    """The try statement with finally body ``final``; ``normal`` is what the normal
    path runs after the body, the copy of ``final`` taken off (``_after_finally``).
    ``around``: whether no finally body is around the try, whose strip could drop a
    copy of ``final`` left here (a with's exit is a mark of its own), and whether the
    walk of the body ran unprotected code, where copies of ``final`` lie."""
    rest, after, nxt, final = normal
    last, copies = around
    ends = follow is not None and body_stack is not None
    # (where the body never ends normally, a copy of the code after the try may
    # still end it: that code is then written after the try, once)
    body = strip_copies(body, final, after=rest, known=ends, alone=last)
    if copies and _copy_runs_on(body, final):
        # (a copy of the finally body on a way out of the body that was not found, and
        # the code after the try read after it: the finally body would run twice; with
        # no unprotected code walked, code alike is the body's own)
        raise Unsupported("a copy of the finally body left in the try body")
    if ends and returns_kept_value(body, rest):  # ``return v`` in the body: v kept over it
        body, rest = [*body[:-1], ast.Return(value=body[-1].value)], []
    node = ast.Try(
        body=body or [ast.Pass()], handlers=[], orelse=[], finalbody=final or [ast.Pass()]
    )
    if not ends:
        return [node, *rest], None, None
    return [node, *rest], after, nxt


def _copy_runs_on(body, final) -> bool:
    """Whether the body runs a copy of ``final`` and then more code that neither
    returns nor leaves a loop: the code written after the try, read into the body
    behind a copy of the finally body that the walk did not take for one, at its end
    or in a branch of it. (A copy before a return may stay for an enclosing finally's
    strip, with its own copy.)"""
    n = len(final)
    if not n:
        return False
    for stmts in statement_lists(body):
        if not stmts or isinstance(stmts[-1], (ast.Return, ast.Break, ast.Continue)):
            continue
        if any(m.same_up_to_temporaries(stmts[i : i + n], final) for i in range(len(stmts) - n)):
            return True
    return False


def _after_finally(w, body, body_stack, final, follow, around, alone):
    """(statements, stack, where the walk goes on, the finally body to write) after the
    copy of the finally body that the normal path runs; None where that copy is not
    found there. ``around``: the loop, active handlers and stop of the walk;
    ``alone`` as for ``_finally``."""
    loop, active, stop = around
    if follow is None or body_stack is None:
        return [], None, stop, final
    rest, after = w.seq(follow, stop, body_stack, loop, active=active)
    # (the normal path may stop short of ``stop``, at the end of an enclosing with or
    # try body: the walk goes on there, so the statement around sees it end there)
    nxt = w.ended_at if after is not None else stop
    joined = conditionals_joined(final)
    # (with conditional values read as the normal path reads them, and written so)
    for written in (final, joined) if not m.same(joined, final) else (final,):
        for reading, (ours, theirs) in enumerate(_finally_readings(written, rest)):
            n = len(ours)
            if not (theirs[:n] and _is_normal_copy(theirs[:n], ours, theirs[n:])):
                continue
            if reading and _leaves(body) and not alone and not is_copy(theirs[:n], written):
                # (the copies before the body's returns, breaks and continues are found
                # as ``final`` reads as it is, which this copy did not match: alone, a
                # way out with no such copy before it falls back, else its copy stays;
                # one that matches as they are matched, an if's else written after it,
                # says they are found)
                return None
            # (written as the normal path reads it where only that reads ``a and b``)
            alike = m.same_up_to_temporaries(theirs[:n], ours)
            return theirs[n:], after, nxt, written if alike else ifs_joined(written)
    return None


def _is_normal_copy(stmts, final, after) -> bool:
    """Whether ``stmts``, which ``after`` follows on the normal path, are the copy of
    ``final`` there: 3.12+ inline a comprehension into each copy, whose list each
    walk keeps in a temporary of its own, which ``after`` must not read."""
    if m.same(stmts, final):
        return True
    if not m.same_up_to_temporaries(stmts, final):
        # (``if a: if b: ...`` read on the exception's path, ``if a and b: ...`` here)
        return m.same(ifs_joined(stmts), ifs_joined(final))
    stored = {
        n.id
        for n in ast.walk(ast.Module(body=list(stmts), type_ignores=[]))
        if m.is_temporary(n) and isinstance(n.ctx, ast.Store)
    }
    read = {
        n.id for n in ast.walk(ast.Module(body=list(after), type_ignores=[])) if m.is_temporary(n)
    }
    return not stored & read


def _leaves(stmts) -> bool:
    """Whether ``stmts`` hold a way out of them: a return, or a break or continue
    outside the loops they hold (in nested code, none)."""
    todo = [(node, False) for node in stmts]
    while todo:
        node, looped = todo.pop()
        if isinstance(node, ast.Return) or (
            isinstance(node, (ast.Break, ast.Continue)) and not looped
        ):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        # (a break or continue in a loop's body, not its else, stays in that loop)
        inner = looped or isinstance(node, (ast.For, ast.AsyncFor, ast.While))
        for field, value in ast.iter_fields(node):
            for c in value if isinstance(value, list) else [value]:
                if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case)):
                    todo.append((c, inner and (looped or field == "body")))
    return False


def _finally_readings(final, rest):
    """Ways to read the finally body and the normal path's statements alike: with the
    small return the compiler copies into the branches of the copy's last if, or
    into the clauses and else of its last try, written once after it (or, through
    ifs and the code after such a try, once at the end); with the else of an if
    whose body ends in an exit written after it (one walk may find no join for the
    if); with the way out copied into each branch of the copy that goes on, where
    the others return, break or continue on their own, written once after it. Each
    reads the same code."""
    n = len(final)
    hoisted = copied_tail_hoisted(if_tail_hoisted(rest)) if len(rest) == n else rest
    yield final, hoisted
    flat = else_after_exit_flattened(final)
    yield flat, else_after_exit_flattened(hoisted)
    deeper = try_tail_hoisted(rest)
    yield final, deeper
    yield flat, else_after_exit_flattened(deeper)
    yield final, exit_branch_last(rest)
    way_out = way_out_copied(rest, final)
    if way_out is not None:
        yield final, [*final, way_out]
    yield code_after_sunk(final), code_after_sunk(rest)
    yield flat, else_after_exit_flattened(rest)  # (the code after the try in the else)
    broken = ways_out_as_breaks(rest[:n], rest[n], followed=True) if len(rest) > n else None
    if broken is not None:
        yield final, [*broken, *rest[n:]]
    # (a small return after the try copied into the loop ending the copy, for a break)
    restored = way_out_of_an_endless_loop(rest, final) if len(rest) == n else None
    if restored is not None:
        yield final, [*restored[0], restored[1]]
        yield flat, else_after_exit_flattened([*restored[0], restored[1]])


def _round(x, loop) -> bool:
    """Whether going to block ``x`` starts the next round of ``loop``."""
    return loop is not None and x == loop.header
