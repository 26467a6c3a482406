"""For loops: the iterator stays on the stack through the body, which starts by storing
the next item; a break pops it (3.12+ lay those pops, and code that still runs with the
iterator there, out in places of their own). An ``async for`` is the same loop whose
header awaits ``anext`` and whose END_ASYNC_FOR handler is where it is exhausted."""

from __future__ import annotations

import ast

from ..graph.cfg import TWO_WAY
from ..rewrites.clause_tails import copy_length
from ..simulation import markers as m
from ..simulation import nodes
from ..simulation.unsupported import Unsupported
from .loops import (
    Loop,
    check_body_ends,
    dead_ends_dropped,
    else_clause,
    inside_entered,
    starts_above,
)

ENTERS = {"BEFORE_WITH", "BEFORE_ASYNC_WITH"}


def for_loop(w, h, stack, outer, active, body, exits, stop=None):
    """The for loop whose header ``h`` takes the next item from the iterator on top of
    ``stack``: (statements, stack after it, where it goes on)."""
    if not stack:
        raise Unsupported("for loop without an iterator")
    w.visit(h)
    iterator, base = stack[-1], stack[:-1]
    if not isinstance(iterator, m.Iter):
        iterator = m.Iter(iterator)
    fall, done = _next_and_done(w, h)
    exits = exits | {done}
    body, exits = _still_iterating(w, h, body, exits, done)
    exits = dead_ends_dropped(w, exits, h, body)
    # A block laid out before the loop's end that only returns or raises is the loop's
    # own code (3.12+ put it there), not where a break goes: a break pops the iterator
    # (so does a return; when the loop ends where the enclosing walk stops, it has
    # no else for a break to skip, and such a block is a return too)
    breaks = {
        x
        for x in exits - {done}
        if x > done or not (_own_exit(w, h, x) or (done == stop and not w.blocks[x].succs))
    }
    breaks |= _copied_breaks(w, body, exits, done)
    if w.graph.async_for_end(h) is not None:
        breaks |= _plain_breaks(w, h, body)
    again = _popped_to_outer(w, h, done, outer)
    breaks |= again
    # (a way out still inside a with or try body entered in the loop is no break:
    # that statement's code, inside the loop)
    breaks = {x for x in breaks if not inside_entered(w, h, body, x)}
    if all(_ends_breaking(w, x, done) for x in breaks):
        # (with no other break there is no else clause to skip: the loop ends at done)
        breaks = set()
    follow = min(breaks) if breaks else done
    else_start = done if follow != done else None
    if again - {follow} and not _goes_on_to(w, follow, outer.header):
        # a break sent straight to the outer loop's next round is written ``break``:
        # right only where nothing runs between where the loop goes on and that round
        raise Unsupported("a break to the outer loop's next round skips code after the loop")
    # other breaks that pop the iterator and go where the follow's pop goes (3.11
    # lets the last break fall into the code after the loop), or to the end of a try
    # body around the loop that the follow's pop goes to a copy of (3.12+ copy a finally
    # body holding a loop to each way out of it; a copy written out to a return is a
    # return's own, see ``Walk._returns_by_its_own_copy``)
    end = _past_pop(w, follow)
    leaving = {s for x in body for s in w.blocks[x].succs if s not in body}
    alike = {x for x in leaving - {follow} if x != end and _goes_where(w, _past_pop(w, x), end)}
    if end == done != follow:
        # no else clause: where the loop ends is where the breaks go once they popped
        # the iterator, as a finally body's ``break`` does on its way from the handler
        alike.add(done)
    elif end != follow:
        # (past an else clause too: the finally body's ``break`` pops the iterator in
        # the handler and jumps there, past the follow's own pop)
        alike.add(end)
    loop = Loop(h, follow, body, outer, frozenset(again | alike), inside=frozenset(w.fences))
    stmts, rest = w.seq(fall, None, [*stack, m.NextItem()], loop, active=active)
    check_body_ends(rest)
    if not stmts or not _is_target_store(stmts[0]):
        raise Unsupported("for loop without a target")
    target = stmts[0].targets[0]
    orelse = []
    if else_start is not None:
        orelse = else_clause(w, else_start, _past_pop(w, follow), list(base), outer, active)
    fields = {"target": target, "iter": iterator.value, "body": stmts[1:] or [ast.Pass()]}
    if w.graph.async_for_end(h) is None:
        node = nodes.For(**fields, orelse=orelse, header_line=w.graph.line_at(w.blocks[h].start))
    else:
        node = ast.AsyncFor(**fields, orelse=orelse)
    if follow != done and w.graph.instrs[w.blocks[follow].start].op == "POP_TOP":
        return [node], stack, follow  # 3.12+: breaks land on the iterator's POP_TOP
    return [node], base, follow


def _goes_where(w, b, end) -> bool:
    """Whether getting to block ``b`` is getting to ``end``: ``b`` is ``end``, or the
    end of a try body around that ``end`` is a copy of."""
    return b == end or (not w.fences.copied(b) and w.fences.reached(end) == b)


def _goes_on_to(w, b, end, steps=4) -> bool:
    """Whether block ``b`` is ``end``, or goes on to it through blocks that only pop
    (the iterator) and jump."""
    for _ in range(steps):
        if b == end:
            return True
        block = w.blocks[b]
        ops = {i.op for i in w.graph.instrs[block.start : block.end]}
        if len(block.succs) != 1 or not ops <= {"POP_TOP", "JUMP", "NOP"}:
            return False
        b = block.succs[0]
    return b == end


def _next_and_done(w, h) -> tuple[int, int]:
    """Where the body of the loop at header ``h`` starts with its next item, and where
    the loop goes when the iterator is exhausted (the iterator gone from the stack).
    An ``async for`` is exhausted by StopAsyncIteration: its END_ASYNC_FOR handler
    pops the iterator and goes on."""
    end = w.graph.async_for_end(h)
    if end is None:
        fall, done = w.blocks[h].succs
        return fall, done
    ops = [i.op for i in w.graph.instrs[w.blocks[h].start : w.blocks[h].end]]
    if ops != ["GET_ANEXT", "YIELD_FROM"] or len(w.blocks[end].succs) != 1:
        raise Unsupported("async for header that does more than await the next item")
    w.visit(end)
    return w.blocks[h].succs[0], w.blocks[end].succs[0]


def _ends_breaking(w, x, done) -> bool:
    """Whether block ``x`` runs code of the loop's body, then pops the iterator and
    jumps to where the loop ends (3.12+ join a finally body's copy and its ``break``):
    the body's own code ending with a break, not where a break goes."""
    block = w.blocks[x]
    ops = [i.op for i in w.graph.instrs[block.start : block.end]]
    return (
        block.succs == [done]
        and ops[0] != "POP_TOP"
        and ops[-2:] in (["POP_TOP", "JUMP"], ["POP_TOP", "JUMP_FORWARD"])
    )


def _own_exit(w, h, x) -> bool:
    block = w.blocks[x]
    if block.succs:
        return _falls_into_return(w, h, x)
    ops = [i.op for i in w.graph.instrs[block.start : block.end]]
    # ``return <constant>`` in a for loop pops the iterator before loading the
    # constant, as a break's copy of it would: read as written, a return. A pop, then
    # a return of what lay under it, is no break's copy (a break leaves no value
    # under the iterator): a return from an async with, after its awaited ``__aexit__``.
    # Nor is a pop of a chained comparison's kept value (3.10 copies the raise after)
    if ops[0] != "POP_TOP" or _pops_chain_middle(w, x) or starts_above(w, x, h):
        return True
    return ops[1:] in (["LOAD_CONST", "RETURN_VALUE"], ["RETURN_VALUE"])


def _falls_into_return(w, h, x, steps=40) -> bool:
    """Whether block ``x`` goes on, through blocks only it leads to, to returns: a
    return inside a with pops the iterator under the with's handler, and its copy of
    ``__exit__`` runs outside it (a break jumps to the code after the loop). The copy
    of a finally body around may hold a loop of its own (3.12+). So does a return
    that starts computing its value with the iterator still there, which an except
    clause around splits at its POP_EXCEPT (a break's code after the loop starts
    with the iterator popped)."""
    ops = [i.op for i in w.graph.instrs[w.blocks[x].start : w.blocks[x].end]]
    pops_under = ops[-1:] == ["POP_TOP"] and (len(ops) == 1 or ops[-2] in ("SWAP", "ROT_TWO"))
    if not (pops_under or (ops[0] != "POP_TOP" and _keeps_iterator(w, h, x))):
        return False  # (the value returned stays under the iterator)
    todo, seen = [x], {x}
    while todo:
        b = todo.pop()
        succs = w.blocks[b].succs
        if not succs and w.graph.instrs[w.blocks[b].last].op != "RETURN_VALUE":
            return False
        if len(seen) > steps or not all(w.an.dominates(x, s) for s in succs):
            return False
        todo += [s for s in succs if s not in seen]
        seen.update(succs)
    return True


def _still_iterating(w, h, body, exits, done):
    """(body, exits) with the for loop's body grown by the blocks 3.12+ lay out after
    it that still run with the iterator on the stack: an if that goes on to break (a
    block that pops the iterator first) or to return is the loop's own code."""
    body, exits = set(body), set(exits)
    grown = True
    while grown:
        grown = False
        for x in sorted(exits):
            block = w.blocks[x]
            if (
                x >= done
                or not block.succs
                or (
                    _pops_first(w, x)
                    and not (
                        _pops_copy(w, x)
                        or _pops_entered(w, x)
                        or _pops_awaited(w, x)
                        or _pops_chain_middle(w, x)
                        or starts_above(w, x, h)
                    )
                )
                # (a loop inside, such as an inlined comprehension, comes back to x;
                # a with or try entered in the body goes on to x from its handler too)
                or not all(
                    p in body
                    or w.an.dominates(x, p)
                    or _handled_from(w, h, body, p)
                    or _ends_a_clause_in(w, body, p)
                    or (h < p < done and _keeps_iterator(w, h, x))
                    for p in block.preds
                )
            ):
                continue
            # (a loop that starts there is all inside, its except clauses' ways back
            # too; where they return or re-raise is no way on)
            added = {x, *w.an.loops.get(x, ())}
            body |= added
            exits -= added
            exits |= {s for s in block.succs if s not in body}
            exits |= {
                s
                for y in added - {x}
                for s in w.blocks[y].succs
                if s not in body and not _ends_at_once(w, s)
            }
            grown = True
    return frozenset(body), exits


def _ends_a_clause_in(w, body, p, steps=8) -> bool:
    """Whether block ``p`` is the end of an except clause in the loop's body (only
    the body leads there, through the clause's code), which goes on with the iterator
    still there: 3.12+ lay it out after the loop, and the natural loop leaves it out
    where the code it goes on to never goes round again (it returns)."""
    if w.graph.instrs[w.blocks[p].start].op != "POP_EXCEPT":
        return False
    seen, todo = {p}, [p]  # (the clause's code before its end, outside the body too)
    while todo:
        preds = w.blocks[todo.pop()].preds
        if not preds or len(seen) > steps:
            return False
        todo += [x for x in preds if x not in body and x not in seen]
        seen.update(preds)
    return True


def _handled_from(w, h, body, p, steps=12) -> bool:
    """Whether block ``p`` is only reached, through an exception handler, from the
    loop's body (not its header): the way on from a with or try statement in the
    body whose handler swallowed the exception (3.12+ lay it out after the loop, and
    the code after that statement, still in the body, is where it goes on)."""
    seen, todo, handled = {p}, [p], False
    while todo:
        x = todo.pop()
        normal, raising = w.blocks[x].preds, w.an.raised_from(x)
        # (the entry, or the header; a block nothing leads to, such as the
        # CLEANUP_THROW of an await, adds no way in)
        if x in (0, h) or len(seen) > steps:
            return False
        handled = handled or bool(raising)
        for y in [*normal, *raising]:
            if y not in seen and (y == h or y not in body):
                seen.add(y)
                todo.append(y)
    return handled


def _ends_at_once(w, b, steps=6) -> bool:
    """Whether block ``b`` raises, or goes on through blocks only it leads to into a
    return: a clause of a try inside a loop with no way out but these (``while True:
    try: ... except E: return x``) ends the function, and leaves no loop for that."""
    for _ in range(steps):
        block = w.blocks[b]
        if not block.succs:
            return w.graph.instrs[block.last].op in ("RAISE_VARARGS", "RERAISE", "RETURN_VALUE")
        if len(block.succs) != 1 or w.blocks[block.succs[0]].preds != [b]:
            return False
        b = block.succs[0]
    return False


def _keeps_iterator(w, h, x) -> bool:
    """Whether block ``x`` starts with the iterator of the loop at header ``h`` still
    on the stack (as the compiler counted): the body's own code, not code after the
    loop, which a break reaches with the iterator popped."""
    depth, header = w.depth_at(w.blocks[x].start), w.depth_at(w.blocks[h].start)
    return depth is not None and header is not None and depth >= header


def _pops_first(w, x) -> bool:
    return w.graph.instrs[w.blocks[x].start].op == "POP_TOP"


def _pops_entered(w, x) -> bool:
    """Whether block ``x`` starts by popping what a with statement's ``__enter__``
    returned (``with m:`` names nothing; the with body's handler starts a block there),
    not the iterator."""
    instrs, preds = w.graph.instrs, w.blocks[x].preds
    return bool(preds) and all(instrs[w.blocks[p].last].op in ENTERS for p in preds)


def _pops_awaited(w, x) -> bool:
    """Whether block ``x`` starts by popping what an await before it gave (an ``async
    with``'s ``__aexit__``, ``await f()`` as a statement), not the iterator: 3.12+
    end a block at the await."""
    instrs, preds = w.graph.instrs, w.blocks[x].preds
    return bool(preds) and all(
        instrs[w.blocks[p].last].op == "YIELD_FROM" and w.blocks[p].succs == [x] for p in preds
    )


def _pops_copy(w, x) -> bool:
    """Whether block ``x`` starts by popping the copy of a value that each way to it
    tested (3.12+ ``a or b``: COPY 1, then a jump that keeps it), not the iterator."""
    instrs, preds = w.graph.instrs, w.blocks[x].preds
    return bool(preds) and all(
        instrs[w.blocks[p].last].op in TWO_WAY
        and instrs[w.blocks[p].last - 1].op == "COPY"
        and instrs[w.blocks[p].last - 1].arg == 1
        for p in preds
    )


# what a chained comparison's link runs before its COMPARE_OP, to keep its right
# operand for the next link (3.10's DUP_TOP, ROT_THREE read as COPY 1, SWAP 3, SWAP 2)
_CHAIN_KEEPS = ([("SWAP", 2), ("COPY", 2)], [("COPY", 1), ("SWAP", 3), ("SWAP", 2)])


def _pops_chain_middle(w, x) -> bool:
    """Whether block ``x`` starts by popping the value a link of a chained comparison
    kept for the next one, where that link fails (``a < x < b``), not the iterator."""
    instrs, preds = w.graph.instrs, w.blocks[x].preds

    def kept_for_next(p) -> bool:
        last = w.blocks[p].last
        if instrs[last].op not in TWO_WAY or instrs[last - 1].op != "COMPARE_OP":
            return False
        before = [(i.op, i.arg) for i in instrs[max(last - 4, 0) : last - 1]]
        return any(before[-len(keep) :] == keep for keep in _CHAIN_KEEPS)

    return bool(preds) and all(kept_for_next(p) for p in preds)


def _popped_to_outer(w, h, done, outer) -> set[int]:
    """Blocks that pop a for loop's iterator and go back to the header of the loop
    around it: 3.12+ lay out a break so, one for each, before the loop's end, when
    the loop ends that loop's body."""
    if outer is None:
        return set()
    found = set()
    for s in range(h + 1, done):
        block = w.blocks[s]
        ops = [i.op for i in w.graph.instrs[block.start : block.end]]
        if ops == ["POP_TOP", "JUMP"] and block.succs == [outer.header]:
            found.add(s)
    return {s for s in found if w.an.dominates(h, s)}


def _plain_breaks(w, h, body) -> set[int]:
    """Blocks out of the body that pop the iterator and jump on: breaks. An ``async
    for``'s end is no place in the layout to tell them by (3.12+ move its
    END_ASYNC_FOR, and the else clause after it, past the code after the loop). A pop
    of a value above the iterator (a failed link of a chained comparison dropping the
    operand it kept) is none."""
    found = set()
    for s in {s for x in body for s in w.blocks[x].succs} - body:
        ops = [i.op for i in w.graph.instrs[w.blocks[s].start : w.blocks[s].end]]
        if ops == ["POP_TOP", "JUMP"] and not starts_above(w, s, h):
            found.add(s)
    return found


def _copied_breaks(w, body, exits, done) -> set[int]:
    """Blocks inside the loop's layout that pop the iterator, then return or raise:
    the code after the loop, which only a break reaches, copied to that break (a
    ``return`` written in the loop pops the iterator after computing its value)."""
    instrs, found = w.graph.instrs, set()
    for s in {s for x in body for s in w.blocks[x].succs} - body - exits - {done}:
        block = w.blocks[s]
        if block.succs or instrs[block.start].op != "POP_TOP":
            continue
        length = block.end - block.start - 1
        if length and copy_length(instrs, block.start + 1) == length:
            found.add(s)
    return found


def _past_pop(w, follow):
    """Where an else ends: at the loop's follow, or past the follow when the follow
    only pops the iterator that the breaks leave (3.12+), as the else has none."""
    block = w.blocks[follow]
    ops = [i.op for i in w.graph.instrs[block.start : block.end]]
    if ops[0] == "POP_TOP" and set(ops) <= {"POP_TOP", "JUMP"} and len(block.succs) == 1:
        return block.succs[0]
    return follow


def _is_target_store(stmt) -> bool:
    return (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.value, m.NextItem)
    )
