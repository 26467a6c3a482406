"""Loops as the walk meets them: where a loop goes on, and while loops (for loops are
in ``fors.py``). A loop header starts a loop whose body is walked until control returns
to the header (continue) or reaches the loop's follow block (break)."""

from __future__ import annotations

import ast

from ..bytecode.effects import value_effect
from ..rewrites.clause_tails import copied_after_endless_loop
from ..simulation import markers as m
from ..simulation.machine import Sim
from ..simulation.unsupported import Unsupported
from .conditions import negate
from .fors import for_loop
from .loops import (
    Loop,
    check_body_ends,
    clears_a_name,
    dead_ends_dropped,
    else_clause,
    goes_on_unwritten,
    inside_entered,
    loop_nodes,
    starts_above,
)
from .trials import NOT_A_CONDITION
from .trys import is_finally


def loop(w, h, stack, outer, active, stop=None):
    """The loop whose header is ``h``: (statements, stack after it, where it goes on)."""
    body = frozenset(w.an.loops[h])
    is_for = w.graph.is_for_header(h)
    exits = dead_ends_dropped(w, _exits(w, h, body), h, body)
    exits |= _breaks_to_outer_round(w, body, outer)
    # a way out still inside a with or try body entered in the loop is that
    # statement's code, inside the loop (it raises, returns or leaves it first)
    exits = {x for x in exits if not inside_entered(w, h, body, x)}
    # nor is a return or raise where the body left a value of its own (a match subject
    # a case's capture stores): the loop's test is no test of the subject (a break's
    # way out of a with, the exit still there, goes on: that is a way out)
    exits = {x for x in exits if w.blocks[x].succs or not starts_above(w, x, h)}
    exits |= _clauses_rejoin(w, h, body, exits, active)
    w.open_loops.add(h)
    keep = stack[-1:] if is_for else []
    spill = Sim(w.ctx, w.graph.instrs, stack[: len(stack) - len(keep)])
    spill.spill()  # values that live through the loop are computed once, before it
    stack = spill.stack + keep
    if is_for:
        stmts, stack, follow = for_loop(w, h, stack, outer, active, body, exits, stop)
        return spill.out + stmts, stack, follow
    # A lone RETURN_VALUE returns what the loop computed (3.11+ leave it out of the
    # try around the return): no code after the loop. Unless the test leaves for it:
    # then it returns a value kept under the loop (a copy of a finally body ending in
    # the loop, before ``return v``), and the loop ends there.
    succs = w.blocks[h].succs
    tested = [s for s in succs if s in exits] if len(succs) == 2 else []
    exits = {
        x for x in exits if x in tested or w.graph.instrs[w.blocks[x].start].op != "RETURN_VALUE"
    }
    own = [s for s in w.blocks[h].succs if s in exits]
    if len(own) == 1:
        # a break's own cleanup (a with's ``__exit__``) on its way out, or the rest
        # of a round that only breaks (``if c: x = f(); break``), which the natural
        # loop leaves out: both go on only to where the test leaves
        # (an assert or a raise on the way there is still the loop's code: the test's
        # way out never runs it)
        exits = {x for x in exits if x == own[0] or not _only_reaches(w, x, own[0], raising=True)}
        # a way out laid out inside the loop that only ends the function, which the
        # code after the loop never gets to (3.10: a return's copy of a with's
        # ``__exit__``), is that return, written where it is: no break to the loop's
        # end (one laid out after the test's way out is the code after a while-else)
        exits = {x for x in exits if x >= own[0] or not _ends_apart(w, x, own[0])}
    # a way out that ends the function running code the loop's stack cannot (a with
    # inside: its ``__exit__`` called, then a return, or a break's copy of a return
    # after the loop) is that return, written where it is: never the loop's end
    exits = {x for x in exits if x in own or not _ends_inside(w, x, stack)}
    # (and a break's way out of a try or with body that runs a copy of its cleanup
    # holding a loop, then the return copied after it, is that return too)
    exits = {x for x in exits if not _ends_past_a_cleanup(w, x, body)}
    if len(succs) < 2:
        # while True: a return from a with inside, laid out after the loop (its copy of
        # the with's ``__exit__``, then the return), is no way on (seed 236)
        exits = {x for x in exits if not _returns_through_exit(w, x)}
    test_exits = own or (_test_exits(w, h, body, exits) if len(succs) == 2 else [])
    if not own and len(test_exits) == 1:
        # the same for a compound test's one way out (``while a or b:``): a return
        # through a with's ``__exit__`` laid out before it is that return
        [end] = test_exits
        exits = {x for x in exits if x >= end or not _ends_apart(w, x, end)}
    if not own and len(exits) > 1 and _only_tests(w, h):
        # a test of several parts (``while a or b:``) leaves from a block of its own:
        # the rest of a round that breaks goes on there too (seed 65; not ``while
        # True: f(); if c: ...``, whose breaks go anywhere: control-flow seed 77), unless
        # the test leaves for an else clause that goes on there (not a chain's pop);
        # a raise on the way there is still the loop's code, as for a test's own exit
        ends = [
            e for e in exits if all(x == e or _only_reaches(w, x, e, raising=True) for x in exits)
        ]
        plain = all(t in ends or _only_pops(w, t) for t in test_exits)
        exits = set(ends) if len(ends) == 1 and plain else exits
    if not test_exits and len(exits) > 1:
        # ``while True:``: a break's own cleanup (``with m: break``) on its way to
        # where every other way out goes on too is the loop's code, not its end
        ends = [e for e in exits if all(x == e or _only_reaches(w, x, e) for x in exits)]
        exits = set(ends) if len(ends) == 1 else exits
    follow = min(exits) if exits else None
    if len(w.blocks[h].succs) < 2 and follow is not None:  # no test: while True
        follow = _past_jump_out(w, h, follow)
    if follow is None:
        # A loop that never ends but leaves the with or try body it is in ends there:
        # getting there is a break, and that body goes on there as written
        fenced = {s for x in body for s in w.blocks[x].succs if s in w.fences}
        fenced = fenced or _clauses_reach_fences(w, body)
        follow = fenced.pop() if len(fenced) == 1 else _written_after(w, body)
        follow = follow if follow is not None else _lone_way_out(w, h, body)
        follow = None if follow is not None and inside_entered(w, h, body, follow) else follow
    copies, else_start = frozenset(), None
    else_first = test_exits == [follow] and len(exits) == 2
    else_first = else_first and (outer is None or w.joins.jumped_to(follow) != outer.header)
    else_first = else_first and not _only_pops(w, follow)  # (a chained test's end: 3.13)
    if _ends_outer_body(w, exits, outer) and not exits & set(w.fences) and not else_first:
        # (not where the loop's way out ends the with or try body it is in first, nor
        # where the test leaves for an else clause, which the breaks skip)
        follow = outer.header
    elif own and all(w.joins.same_return(x, own[0]) for x in exits):
        # 3.12+ copy the return that ends the function to every way out: the test's
        # own is where the loop goes on, the others are breaks
        follow, copies = own[0], frozenset(exits) - {own[0]}
        w.joins.note_break_copies(copies, follow)
    elif (own == [follow] and len(exits) == 2) or else_first:
        # while ... else: the test leaves for the else clause, which a break skips
        # (a compound test's own exit only where the breaks end an outer loop's body:
        # elsewhere that reading meets finally bodies the walk cannot write yet)
        else_start, follow = follow, max(exits)
    elif (
        exits == {follow}
        and len(succs) == 2
        and not _only_pops(w, follow)  # (a chained test's lone jump on: no else, 3.13)
        and _breaks_to_outer_header(w, body, exits, outer)
    ):
        # ... for the next round of the loop around, whose body the loop ends (3.12+)
        else_start, follow = follow, outer.header
    copies |= _fenced_copies(w, body, follow) | _copies_of_follow(w, exits, follow)
    loop = Loop(h, follow, body, outer, copies, else_start, frozenset(w.fences))
    w.after_loop.pop(h, None)
    stmts, rest = w.seq(h, None, list(stack), loop, entering=h, active=active)
    check_body_ends(rest)
    if else_start is not None:
        node = _while_else(w, stmts, stack, outer, active, else_start, follow)
    else:
        node = ast.While(test=m.const(True), body=stmts, orelse=[])
    after = w.after_loop.pop(h, None)  # (read inside a with that breaks: it ends)
    if after is not None:
        return [*spill.out, node, *after], None, None
    return [*spill.out, node], stack, follow


def _copies_of_follow(w, exits, follow) -> frozenset:
    """Ways out that run what the loop's follow runs, on to where it goes (3.10 lays out
    a compound test's ways out of a loop in a clause each with its own ``POP_EXCEPT``
    and jump to the code after the try): getting there is a break too. (Copies of a
    follow that ends the function are the returns' own readings, and lone jumps those
    of the tests that leave for an else clause.)"""
    block = w.blocks[follow] if follow is not None else None
    if block is None or not block.succs or not w.joins.unjumped(block):
        return frozenset()
    copies = frozenset(x for x in exits if x != follow and w.joins.same_block(x, follow))
    w.joins.note_break_copies(copies, follow)
    return copies


def _fenced_copies(w, body, follow) -> frozenset:
    """Ways out of the loop's body to the end of an enclosing try body that are
    copies of the loop's follow (3.12+ copy a small block that ends the function to
    every jump to it): getting there from inside the loop is a break, not the end of
    that try body. So is getting to such a copy out of a try body inside the loop,
    which the copy is not under (3.10 and 3.12+ copy it to a break there): written
    there, in that try body, it would run under its clauses."""
    if follow is None or w.blocks[follow].succs:
        return frozenset()
    leaving = {(x, w.joins.jumped_to(s)) for x in body for s in w.blocks[x].succs if s not in body}
    return frozenset(
        s
        for x, s in leaving
        if s != follow
        and w.joins.same_exit(s, follow)
        and (s in w.fences or set(w.regions.chain(x)) - set(w.regions.chain(s)))
    )


def _only_tests(w, h) -> bool:
    """Whether loop header ``h`` only computes and tests a value: a loop test."""
    block = w.blocks[h]
    return len(block.succs) == 2 and all(
        i.op not in NOT_A_CONDITION for i in w.graph.instrs[block.start : block.end]
    )


def _only_pops(w, x) -> bool:
    """Whether block ``x`` only drops what a test left (a chained comparison's end)
    and goes on: no else clause."""
    block = w.blocks[x]
    return all(i.op in _POP_OR_JUMP for i in w.graph.instrs[block.start : block.end])


_POP_OR_JUMP = {"POP_TOP", "NOP", "JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP", "JUMP_NO_INTERRUPT"}


def _test_exits(w, h, body, exits) -> list[int]:
    """The exits that a compound test at the loop's header (``while a or b:``) leaves
    for: those its two-way blocks, reached only from one another, jump to."""
    chain, todo = {h}, [h]
    while todo:
        for s in w.blocks[todo.pop()].succs:
            block = w.blocks[s]
            if s in body and s not in chain and len(block.succs) == 2 and set(block.preds) <= chain:
                chain.add(s)
                todo.append(s)
    return sorted({s for x in chain for s in w.blocks[x].succs if s in exits})


def _only_reaches(w, x, end, steps=8, raising=False) -> bool:
    """Whether every path from block ``x`` gets to block ``end`` within a few blocks,
    without returning or raising first (or, with ``raising``, some path gets there and
    the others raise). A copy of ``end`` that ends the function counts as ``end``
    (3.10 and 3.12+ copy a small return, and 3.10 a finally body's copy before it, to
    each jump to it: a break's way to the code after an enclosing try is such a copy;
    ``x`` itself being one is a break, see ``loop``)."""
    todo, seen, got_there = [x], {x}, False
    while todo:
        b = todo.pop()
        if b == end or (b != x and _copy_of(w, b, end)):
            got_there = True
            continue
        steps -= 1
        succs = w.blocks[b].succs
        if raising and not succs and _raises(w, b):
            continue
        if steps < 0 or not succs:
            return False
        todo += [s for s in succs if s not in seen]
        seen.update(succs)
    return got_there


def _copy_of(w, b, end) -> bool:
    """Whether block ``b`` is a copy of ``end`` that ends the function, or the end of an
    enclosing with or try body that ``end`` copies."""
    return w.fences.reached(b) == w.fences.reached(end) or w.joins.same_return(b, end)


def _raises(w, b) -> bool:
    return w.graph.instrs[w.blocks[b].last].op in ("RAISE_VARARGS", "RERAISE")


def _ends_apart(w, x, own, steps=8) -> bool:
    """Whether every path from block ``x`` returns within a few blocks, none of them
    through ``own`` or a block the code from ``own`` reaches, and none a copy of the
    return at ``own`` (3.12+: a break, see ``loop``): the way of a return whose value
    is kept under the cleanups it runs (a with's ``__exit__``, a finally body's copy)."""
    instrs = w.graph.instrs
    if instrs[w.blocks[x].start].op != "SWAP" or w.joins.same_return(x, own):
        return False  # (only a return's own copy of a cleanup)
    after, todo = set(), [own]
    while todo and len(after) < 64:  # (the code after the loop: where a break goes)
        b = todo.pop()
        if b not in after:
            after.add(b)
            todo += w.blocks[b].succs
    if len(after) >= 64:
        return False
    todo, seen = [x], {x}
    while todo:
        b = todo.pop()
        steps -= 1
        if b in after or steps < 0:
            return False
        succs = w.blocks[b].succs
        if not succs and instrs[w.blocks[b].last].op != "RETURN_VALUE":
            return False
        todo += [s for s in succs if s not in seen]
        seen.update(succs)
    return True


def _ends_inside(w, x, stack, steps=4) -> bool:
    """Whether every way from block ``x`` returns or raises within a few blocks, and
    ``x`` cannot run on ``stack``: it takes a value pushed inside the loop's body."""
    blocks, instrs = w.blocks, w.graph.instrs
    todo, seen = [x], {x}
    while todo:
        b = todo.pop()
        steps -= 1
        if steps < 0 or any(s <= b for s in blocks[b].succs):
            return False
        if not blocks[b].succs and instrs[blocks[b].last].op not in _ENDS:
            return False
        todo += [s for s in blocks[b].succs if s not in seen]
        seen.update(blocks[b].succs)
    block, counter = blocks[x], w.ctx.counter
    if any(i.op in _DEFINES for i in instrs[block.start : block.end]):
        return False  # (a trial run must not decompile nested code)
    try:
        Sim(w.ctx, instrs, list(stack)).run(block.start, block.end)
    except Unsupported as error:
        return str(error) == "stack underflow"
    finally:
        w.ctx.counter = counter
    return False


# How a block that ends the function ends; instructions that define nested code.
_ENDS = ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE")
_DEFINES = ("MAKE_FUNCTION", "LOAD_BUILD_CLASS")


def _returns_through_exit(w, x) -> bool:
    """Whether block ``x`` is a return's copy of a with's ``__exit__``: it swaps the
    value to return with the exit under it, calls the exit, returns."""
    block = w.blocks[x]
    first, last = w.graph.instrs[block.start].op, w.graph.instrs[block.last].op
    return not block.succs and first == "SWAP" and last == "RETURN_VALUE"


def _past_jump_out(w, h, follow) -> int:
    """Where the lone jump ``follow`` goes, when only the loop at ``h`` gets there:
    ``while True: try: ... except A: pass ... break``, where the body's way out
    and the clause's (which the loop's body does not hold) jump to the code after
    the loop."""
    target = w.joins.jumped_to(follow)
    if target in (follow, h):
        return follow
    if all(w.an.dominates(h, p) for p in w.blocks[target].preds):
        return target
    return follow


def _ends_with_own_value(w, x, h, steps=32) -> bool:
    """Whether block ``x`` starts with a value the body of the loop at header ``h``
    left on the stack and only returns or raises on every way on, running loops of its
    own on the way (laid out after it): the body's own code (a case's, its subject
    still there, whose try ends in ``finally: break``), never the one way on of an
    endless loop. (As a filter of every loop's exits, it sent 7 of seeds 0-1999 to the
    state machine on 3.13.)"""
    if not starts_above(w, x, h):
        return False
    seen, todo = {x}, [x]
    while todo:
        succs = w.blocks[todo.pop()].succs
        if len(seen) > steps or any(s <= x or s in w.fences for s in succs):
            return False
        todo += [s for s in succs if s not in seen]
        seen.update(succs)
    return True


def _lone_way_out(w, h, body) -> int | None:
    """The one block a loop that never ends leaves its body for, when the code goes on
    from there: laid out inside the loop's extent (3.13 puts an except clause's end,
    which a ``break`` goes to, between the body's blocks), so ``_exits`` left it out.
    Every break goes there, so its code is what runs after the loop."""
    outside = {s for x in body for s in w.blocks[x].succs if s not in body}
    # (a return written in the loop leaves its body too, and goes nowhere on)
    going_on = {
        x
        for x in outside
        if not _only_ends(w, x)
        and not _ends_with_own_value(w, x, h)
        and not _in_inner_for(w, x, body)
        and not _ends_past_a_cleanup(w, x, body)
    }
    # (a lone jump on to another of them is the same way out: an arm of a conditional
    # test jumping to the break that the other arm falls into)
    going_on = [x for x in going_on if w.joins.jumped_to(x) not in going_on - {x}]
    met = _breaks_meet(w, going_on, body)
    if met is not None:
        return met
    if len(going_on) == 1 and len(w.blocks[going_on[0]].succs) == 1:
        [after] = w.blocks[going_on[0]].succs
        if after in outside:
            # two ways out meet right after leaving (3.10 turns a module's copies of
            # its ``return None`` into jumps to the last one): the loop goes on there
            return after
    # (an except clause's test, or a conditional value's arm, is the loop's own code
    # that the natural loop leaves out, not where a statement goes on)
    if len(going_on) != 1 or len(w.blocks[going_on[0]].succs) != 1:
        return None
    if _leaves_a_value(w, going_on[0]):
        return None
    return going_on[0]


def _breaks_meet(w, going_on, body) -> int | None:
    """The block where the ways on out of a loop that never ends all meet, each going
    straight there and writing nothing (a jump, an except clause's exit): breaks, one
    of them in a clause laid out after the loop, which its extent leaves out (seed
    1229; a chained test's jump to the clause's exit before it). That block is what
    runs after the loop."""
    if len(going_on) < 2:
        return None
    ways = [_unwritten_way(w, x) for x in going_on]
    met = set(ways[0]).intersection(*ways[1:]) - body
    return next((x for x in ways[0] if x in met), None)


def _unwritten_way(w, b, steps=4) -> list[int]:
    """The blocks that block ``b`` goes straight on to, each block on the way writing
    nothing (a jump, an except clause's exit)."""
    way = []
    while len(way) < steps and len(w.blocks[b].succs) == 1:
        [after] = w.blocks[b].succs
        if not goes_on_unwritten(w, b, after):
            break
        way.append(after)
        b = after
    return way


def _in_inner_for(w, x, body) -> bool:
    """Whether block ``x`` still runs with the iterator of a for loop inside ``body``
    on the stack: only that loop's body leads there and ``x`` does not pop it first
    (3.12+ lay out an if inside that loop which returns after the loop's code)."""
    if w.graph.instrs[w.blocks[x].start].op in ("POP_TOP", "END_FOR"):
        return False
    preds = w.blocks[x].preds
    return any(
        f in body and w.graph.is_for_header(f) and preds and set(preds) <= w.an.loops[f]
        for f in w.an.loops
    )


def _leaves_a_value(w, x) -> bool:
    """Whether block ``x`` only computes a value and jumps on with it."""
    instrs = w.graph.instrs[w.blocks[x].start : w.blocks[x].end]
    effects = [value_effect(i) for i in instrs if i.op != "JUMP"]
    return None not in effects and sum(effects) > 0


def _only_ends(w, x, steps=4) -> bool:
    """Whether block ``x`` only falls through a few blocks into a return or raise, not
    to the end of an enclosing with or try body (where that body goes on)."""
    for _ in range(steps):
        succs = w.blocks[x].succs
        if x in w.fences:
            return False
        if not succs:
            return True
        if len(succs) != 1 or len(w.blocks[succs[0]].preds) != 1:
            return False
        x = succs[0]
    return False


def _ends_past_a_cleanup(w, x, body, steps=16) -> bool:
    """Whether block ``x`` is a break's way out of a try or with body inside the loop
    (it leaves that body's protection) that only runs on into returns and raises,
    loops of its own among its blocks, which no other way reaches: the break's copy
    of a finally body holding a loop, before the return after the loop that 3.10 and
    3.12+ copy to it. With no code after the loop left, the break is that return, its
    copy read before it in place (seeds 11069, 10561)."""
    chain = w.regions.chain
    left = {h for p in w.blocks[x].preds if p in body for h in set(chain(p)) - set(chain(x))}
    if not any(is_finally(w, h) or w.regions.starts_with(h, "WITH_EXCEPT_START") for h in left):
        return False  # (a break from a try's else, or past its clauses, runs no cleanup)
    seen, todo = set(), [x]
    while todo:
        b = todo.pop()
        if b in seen:
            continue
        if b in w.fences or b in body or len(seen) == steps:
            return False
        seen.add(b)
        todo += w.blocks[b].succs
    return all(set(w.blocks[b].preds) <= seen for b in seen - {x})


def _clauses_reach_fences(w, body, steps=8) -> set[int]:
    """The ends of enclosing with or try bodies that the except clauses of the tries
    inside a loop go to: ways out of the loop, as the natural loop leaves the
    clauses out of its body."""
    chain, region = w.regions.chain, w.regions.region
    todo = list({h for x in body for h in chain(x) if region(h) <= body})
    seen, found = set(todo), set()
    while todo and steps > 0:
        steps -= 1
        for s in w.blocks[todo.pop()].succs:
            if s in w.fences:
                found.add(s)
            elif s not in seen and s not in body:
                seen.add(s)
                todo.append(s)
    return found


# (far enough to pass the tests a clause makes before and after its break)
def _clauses_rejoin(w, h, body, exits, active, steps=32) -> set[int]:
    """Where the except clauses of the tries inside a loop go on to code that the
    loop's other exits get to: a ``break`` in a clause, past the else clause (3.12+
    lay clauses out after the loop, which the natural loop and its extent leave out;
    seed 173; every Python for a for loop's, whose extent ends at its FOR_ITER's way
    out, seed 842). Not those of a try already open, around the loop (``try: while
    c:``)."""
    chain, region = w.regions.chain, w.regions.region
    # (a clause that also goes round again is in the natural loop, off its normal paths)
    normal = _reached_normally(w, h, body)
    # (a try inside the loop: its region's re-raises, which the natural loop leaves
    # out, aside; seed 173 with a with in the try body; not a try the loop is in)
    inside = {
        c
        for x in body
        for c in chain(x)
        if c not in active and all(y in body or not w.blocks[y].succs for y in region(c))
    }
    clauses = _reached(w, inside, normal, steps)
    after = _reached(w, set(exits), body, steps)
    return {
        s
        for s in clauses & after
        if s not in exits and any(p in clauses - after for p in w.blocks[s].preds)
    }


def _reached(w, starts, left_out, steps) -> set[int]:
    """Blocks that ``starts`` lead to within a few steps, not through ``left_out``."""
    seen, todo = set(starts), list(starts)
    while todo and steps > 0:
        steps -= 1
        for s in w.blocks[todo.pop()].succs:
            if s not in seen and s not in left_out:
                seen.add(s)
                todo.append(s)
    return seen


def _written_after(w, body) -> int | None:
    """The one small exit of a loop that never ends, when it is the code written
    after the loop, which the compiler copied to the loop's breaks. Beside returns
    written in the loop, only those at the loop's own level: a break's copy out of a
    try body (3.10 and 3.12+), which written in that body would run under its
    clauses."""
    outside = {s for x in body for s in w.blocks[x].succs if s not in body}
    if w.graph.lines is None:
        return None
    if len(outside) > 1:
        level = _common_level(w, body)
        outside = {x for x in outside if w.regions.chain(x) == level}

    def span(b):
        return range(w.blocks[b].start, w.blocks[b].end)

    graph, raw = w.graph, w.ctx.code.co_code
    copied = [
        x
        for x in outside
        if not w.blocks[x].succs
        and copied_after_endless_loop(graph.instrs, graph.lines, raw, span(x), map(span, body))
    ]
    # (3.10 and 3.12+ copy it to each break: the first is where the loop goes on)
    if copied and all(w.joins.same_exit(x, copied[0]) for x in copied):
        return min(copied)
    return None


def _common_level(w, body) -> tuple:
    """The handlers around every block of a loop's ``body``: those around the loop."""
    chains = [w.regions.chain(x) for x in body]
    level = min(chains, key=len)
    while level and not all(c[len(c) - len(level) :] == level for c in chains):
        level = level[1:]
    return level


def _while_else(w, stmts, stack, outer, active, else_start, follow) -> ast.While:
    """``while c: body else: clause`` from the loop's statements, which must begin
    with the test, one branch of it leaving for the clause, and leave for it nowhere
    else: the test runs before every round, and only its failing ends the loop there."""
    split = _test_leaving_for_else(stmts[0]) if stmts else None
    leaving = sum(isinstance(n, m.LeftForElse) for s in stmts for n in loop_nodes(s))
    if split is None or leaving != 1:
        raise Unsupported("a while loop leaves for its else clause other than by its test")
    test, body = split
    orelse = else_clause(w, else_start, follow, list(stack), outer, active)
    return ast.While(test=test, body=[*body, *stmts[1:]] or [ast.Pass()], orelse=orelse)


def _breaks_to_outer_round(w, body, outer) -> set[int]:
    """Lone jumps out of the loop's body back to the header of the loop around it,
    wherever they are laid out: a break that 3.12+ sent straight to that loop's next
    round (``while True: if c: break`` ending a for loop's body), inside the loop's
    layout, where ``_exits`` does not look."""
    if outer is None:
        return set()
    leaving = {s for x in body for s in w.blocks[x].succs if s not in body}
    return {s for s in leaving if s != outer.header and w.joins.jumped_to(s) == outer.header}


def _breaks_to_outer_header(w, body, exits, outer) -> bool:
    """Whether the loop's body leaves, other than for its exits, through blocks that go
    straight on to the header of the loop around it: no ``continue`` can be written
    there from inside this loop, so it is a break that 3.12+ sent on to that loop's
    next round, past this loop's else clause."""
    if outer is None:
        return False
    leaving = {s for x in body for s in w.blocks[x].succs if s not in body}
    return any(_goes_straight_to(w, s, outer.header, exits) for s in leaving - exits)


def _goes_straight_to(w, b, end, avoid, steps=4) -> bool:
    """Whether block ``b`` is ``end``, or goes on to it through blocks of one way on,
    none of them in ``avoid`` or the end of an enclosing with or try body."""
    for _ in range(steps):
        if b == end:
            return True
        if b in avoid or b in w.fences or len(w.blocks[b].succs) != 1:
            return False
        b = w.blocks[b].succs[0]
    return b == end


def _ends_outer_body(w, exits, outer) -> bool:
    """Whether a way out of a loop only jumps back to the header of the loop around
    it (3.12+ jump straight there): the loop ends that loop's body, and going there
    from inside it is a break."""
    return outer is not None and any(w.joins.jumped_to(x) == outer.header for x in exits)


def _reached_normally(w, h, body) -> set[int]:
    """The blocks of ``body`` that header ``h`` reaches without raising."""
    reached, todo = {h}, [h]
    while todo:
        for s in w.blocks[todo.pop()].succs:
            if s in body and s not in reached:
                reached.add(s)
                todo.append(s)
    return reached


def _ends_clause(w, x, h, body) -> bool:
    """Whether block ``x``, which only the loop's ``body`` leads to, ends the except
    clause the loop at ``h`` is in and jumps on: pops the exception it handles (out
    from under the clause's cleanup handler), clears its name."""
    handler = w.blocks[h].handler
    in_clause = handler is not None and w.graph.at(handler.target) in w.an.transparent
    if not in_clause or w.blocks[x].handler == handler:
        return False
    ops = w.graph.instrs[w.blocks[x].start : w.blocks[x].end]
    if not set(w.blocks[x].preds) <= body or [i.op for i in ops[:1]] != ["POP_EXCEPT"]:
        return False
    at = 1 + 3 * clears_a_name(ops, 1)
    return [i.op for i in ops[at:]] == ["JUMP"]


def _exits(w, h, body) -> set[int]:
    """Blocks after the loop's layout extent that control leaves the loop for. That
    extent ends with the last block reached from the header without raising: except
    clauses may be laid out after the code that follows the loop."""
    last = max(_reached_normally(w, h, body))
    # (3.13 lays the end of the except clause a loop inside it breaks out of, which
    # pops the exception it handles, between the body's blocks: that is the way out)
    ends = {x for x in range(h + 1, last + 1) if x not in body and _ends_clause(w, x, h, body)}
    # (a break's jump laid out inside that extent which ends an enclosing with or try
    # body, 3.13, is where the loop goes on: that body goes on past it, not the loop)
    fenced = {x for x in range(h + 1, last + 1) if x not in body and x in w.fences}
    fenced = {x for x in fenced if any(p in body for p in w.blocks[x].preds)}
    # (not a block of the loop laid out past it: a clause's way to the repeated test;
    # nor the body of an ``async for`` inside, which may never go back: seed 384)
    found = ends | {
        s
        for x in range(h, last + 1)
        if x not in ends and x not in fenced and (x == h or w.graph.async_for_end(x) is None)
        for s in w.blocks[x].succs
        if s > last and s not in body
    }
    # Except clauses inside the loop are laid out last on 3.12+: what only they lead
    # to is part of the loop (a clause that returns), not where it is left for.
    contexts = _contexts(w, h)

    def inside_clause(x):  # under a clause's cleanup handler, not a try body's
        handler = w.blocks[x].handler
        if handler is None or handler in contexts:
            return False
        return w.graph.at(handler.target) in w.an.transparent

    return fenced | {
        s
        for s in found
        if not inside_clause(s) and not all(inside_clause(p) for p in w.blocks[s].preds)
    }


def _contexts(w, b) -> set:
    """The handlers block ``b`` runs under, its own and the ones around it."""
    out, handler = set(), w.blocks[b].handler
    while handler is not None and handler not in out:
        out.add(handler)
        handler = w.blocks[w.graph.at(handler.target)].handler
    return out


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
