"""Where the except clauses of a try meet the normal path again, which is where the
try statement ends (or, when the body never ends normally, where the clauses go on)."""

from __future__ import annotations

from ..bytecode.opcodes import CHECK_STAR_MATCH
from ..graph.analysis import BOOKKEEPING
from .loops import breaks_out, is_loop_edge, loop_edges


def clause_join(w, h, loop):
    """Where the handler's clauses meet the normal path: the first post-dominator of
    the handler that the handler does not dominate. Where that is outside the
    statements around the try, the clauses and the body may still meet inside them
    when an enclosing handler's path is left out: ``with m: try: ... except E:
    pass; f()`` followed by a return that ``__exit__`` suppressing also reaches."""
    x = _star_exit(w, h)
    if x is None:
        x = _first_undominated(w, h, w.an.ipdom)
        chain = w.regions.chain(w.regions.first_protected(h))
        if x is not None and chain[-1] != h:  # inside an enclosing handler's region
            first = _first_undominated(w, h, w.an.normal_ipdom)
            if first not in (None, x) and _leads_to(w, first, x):
                x = first  # they meet there before the enclosing handler's way out joins
    if x is None:  # the body never ends normally: the clauses end where they leave
        x = _clause_exit(w, h, loop)
    if x is not None and x not in loop_edges(loop) and _outside_enclosing(w, h, x):
        x = _first_undominated(w, h, w.an.normal_ipdom)
        if x is None or _outside_enclosing(w, h, x):
            # where the body never ends normally, only the clauses reach where they
            # meet, inside the statement around (``with m: try: return f()`` /
            # ``except A: ...`` / ``except B: ...`` / ``g()``)
            x = _clause_exit(w, h)
            if x is None or _outside_enclosing(w, h, x):
                return None  # a clause's copy of an enclosing finally body, then its return
            if not w.an.dominates(h, x) and not _body_leads_to(w, h, x):
                return None
    if x is not None:
        x = _clauses_go_on_first(w, h, x, loop)
    if x is None or loop is None:
        return x
    after = _after_the_try_in_loop(w, h, loop)
    if after is not None and (is_loop_edge(x, loop) or x not in loop.body):
        return after  # (not the next round, or the way out, where the others go)
    if x in loop.body or x == loop.follow:
        return x
    if not _body_exits(w, h) - loop_edges(loop):
        # the body never ends normally, and the clauses meet only past the loop, where
        # their breaks go: they end where they go on inside the loop
        x = _clause_exit(w, h, loop)
        return x if x in loop.body else None
    return None


def _after_the_try_in_loop(w, h, loop) -> int | None:
    """The code after the try that only its clauses reach (the body returns, breaks
    or continues), inside ``loop``: where the clauses go on, but for their breaks and
    continues, a block that runs code of its own (goes round, or never does) and is no
    way out of the loop, nor of a statement around the try (a copy of a with's exit
    or of a finally body that a break or continue runs). Written in a clause, it
    would see the handled exception."""
    x = _clause_exit(w, h, loop)
    if x is None or is_loop_edge(x, loop) or not w.an.dominates(h, x):
        return None
    if x in loop.body and _runs_nothing(w, x):
        return None  # (the clause's own end, on its way round)
    return None if breaks_out(w, x, loop.header) or not _inside_enclosing(w, h, x) else x


def _runs_nothing(w, x) -> bool:
    """Whether block ``x`` only ends a clause (pops, clears its name) and jumps on."""
    block = w.graph.blocks[x]
    return {i.op for i in w.graph.instrs[block.start : block.end]} <= BOOKKEEPING | {"JUMP", "NOP"}


def _clauses_go_on_first(w, h, x, loop) -> int:
    """Where the clauses meet, ``x`` found as the first post-dominator of ``h`` that
    ``h`` does not dominate, or the block the clauses go on to first: where the body
    never ends normally, only the clauses reach the code after the try, so ``h``
    dominates it and the post-dominators skip it (to the loop's next round, or to
    the end of a with around). Their way on, when it leads to ``x``, is where the
    try ends: read as part of a clause, that code would see the handled exception."""
    if _body_leads_to(w, h, x, loop):
        return x
    on = _clause_exit(w, h, loop)
    if on is None or on == x or not w.an.dominates(h, on):
        return x
    return on if _leads_to(w, on, x) else x


def next_round_join(w, h, follow, loop) -> int | None:
    """Where the body's end and an except clause meet on their way to the loop's
    next round, when another clause breaks or continues (the post-dominator is then
    where the loop goes on, or its header): the first block of the body end's path
    (past a branch or a loop ending the else) that a clause's straight path also
    reaches."""
    reached = {y for x in _clause_exits(w, h) or () for y in _straight(w, x, loop.header)}
    on = [y for y in _way_on(w, follow, loop.header) if y in reached and y != loop.header]
    return on[0] if on else None


def _leads_to(w, x, end, steps=8) -> bool:
    """Whether every normal path from block ``x`` gets to block ``end`` (a match or an
    if on the way meets again before it)."""
    for _ in range(steps):
        if x == end:
            return True
        if x is None:
            return False
        x = w.an.normal_ipdom.get(x)
    return x == end


def _body_leads_to(w, h, x, loop=None) -> bool:
    """Whether the body of handler ``h`` ends normally on its way to block ``x``
    (where its clauses meet), but for its breaks and continues out of ``loop``: then
    that is where the try statement ends, though a raise there leaves no
    post-dominator to say so."""
    exits = _body_exits(w, h) - loop_edges(loop)
    return any(_leads_to(w, e, x) or x in _straight(w, e, x, 8) for e in exits)


def _body_exits(w, h) -> set[int]:
    """Where the body of handler ``h`` goes on to, without raising."""
    region = w.regions.region(h)
    return {s for b in region for s in w.graph.blocks[b].succs if s not in region} - {h}


def _first_undominated(w, h, ipdom) -> int | None:
    """The first post-dominator of ``h`` in ``ipdom`` that ``h`` does not dominate."""
    x = ipdom.get(h)
    while x is not None and w.an.dominates(h, x):
        x = ipdom.get(x)
    return x


def _raw_handlers(w, x) -> list[int]:
    """Every handler block protecting block ``x``, innermost first, cleanups too."""
    out, hb = [], w.graph.handler_block(w.graph.blocks[x])
    while hb is not None and hb not in out:
        out.append(hb)
        hb = w.graph.handler_block(w.graph.blocks[hb])
    return out


def _star_exit(w, h) -> int | None:
    """Where the clauses of an except* handler go on: its first test says (star.py),
    as the clauses need not reach it along normal edges, nor the body at all."""
    block = w.graph.blocks[h]
    for ins in w.graph.instrs[block.start : block.end]:
        if ins.op == CHECK_STAR_MATCH:
            x = None if ins.argval is None else w.graph.at(ins.argval)
            # (nothing gets there where the clauses' ends go on to the original of a
            # copy of the code after the try that starts there: clause_tails)
            return x if x is None or w.graph.blocks[x].preds else None
    return None


def _outside_enclosing(w, h, x) -> bool:
    """Whether block ``x`` is outside a try body that the try of handler ``h`` is
    written in, and is not (a copy of) where that body ends: then it is a clause's own
    way out (its copy of the enclosing finally body and its return), no join."""
    if _inside_enclosing(w, h, x):
        return False
    return all(_tail(w, x) != _tail(w, end) for end in w.fences)


def _inside_enclosing(w, h, x) -> bool:
    """Whether block ``x`` is inside every try or with body the try of handler ``h``
    is written in."""
    chain = w.regions.chain(w.regions.first_protected(h))
    return set(chain[chain.index(h) + 1 :]) <= set(w.regions.chain(x))


def _tail(w, b) -> list:
    """What block ``b`` and the blocks it alone leads to run, up to where they end."""
    out, seen = [], set()
    while b not in seen:
        seen.add(b)
        block = w.graph.blocks[b]
        out += [(i.op, i.argval) for i in w.graph.instrs[block.start : block.end]]
        if len(block.succs) != 1:
            break
        b = block.succs[0]
    return out


def _straight(w, x, end, steps=4) -> list[int]:
    """Blocks along the straight path from ``x``, up to ``end``."""
    out = [x]
    for _ in range(steps):
        succs = w.graph.blocks[x].succs
        if x == end or len(succs) != 1:
            break
        x = succs[0]
        out.append(x)
    return out


def _way_on(w, x, end, steps=4) -> list[int]:
    """Blocks along the path from ``x`` up to ``end``, past each branch or loop on
    it to where its ways meet (an else ending in a loop goes on past the loop)."""
    out = [x]
    for _ in range(steps):
        succs = w.graph.blocks[x].succs
        if x == end or not succs:
            break
        x = succs[0] if len(succs) == 1 else w.an.normal_ipdom.get(x)
        if x is None:
            break
        out.append(x)
    return out


# what keeps a return's value on top over a POP_EXCEPT (3.10; 3.11+)
_KEEPING_A_VALUE = ("ROT_FOUR", "SWAP")


def _clause_exit(w, h, loop=None) -> int | None:
    """The one block the except clauses of handler ``h`` go on to, if they all go on
    to one, but for their breaks and continues out of ``loop`` and the loops around."""
    exits = _clause_exits(w, h)
    if exits is not None:
        exits -= loop_edges(loop)
    return exits.pop() if exits is not None and len(exits) == 1 else None


def _clause_exits(w, h) -> set[int] | None:
    """The blocks the except clauses of handler ``h`` go on to, None where one is
    not a block of its own: code after their ``POP_EXCEPT`` runs outside the
    clause. Where a statement inside a clause only raises, the walk goes on through
    the handler it raises to (an inner try's clause, a with's ``__exit__``), as the
    clause does, to that handler's ``POP_EXCEPT`` and on (``except KeyError: try:
    raise ValueError`` / ``except ValueError: pass`` / ``f()``). A return's way out
    (its value kept over the ``POP_EXCEPT``, or through the cleanups of the
    statements around the try where another way stays inside them) is no place
    the clauses meet."""
    exits, seen, todo = set(), {h}, [(h, -1, False, False)]
    around = _raw_handlers(w, h)
    while todo:
        b, depth, raised, swapped = todo.pop()
        block = w.graph.blocks[b]
        ops = [i.op for i in w.graph.instrs[block.start : block.end]]
        at, depth = _own_pop_except(ops, depth)
        if at is None:
            # (an ``async for`` goes on from the END_ASYNC_FOR its header's handler is)
            ended = w.graph.async_for_end(block.id)
            succs = [*block.succs, *([] if ended is None else [ended])]
            if not succs and ops[-1] != "RETURN_VALUE":
                succs = [x for x in [w.graph.handler_block(block)] if x not in (*around, None, h)]
                raised = raised or bool(succs)
            todo += [(s, depth, raised, ops[-1] == "SWAP") for s in succs if s not in seen]
            seen.update(succs)
            continue
        if (ops[at - 1] in _KEEPING_A_VALUE) if at else swapped:
            # (a return's value kept over the POP_EXCEPT: it returns, through the
            # cleanups of the statements around, a name's clearing or a finally body)
            continue
        after = ops[at + 1 :]
        if not set(after[:-1]) <= BOOKKEEPING:  # code after the clause, in this block
            if at:
                return None
            exits.add(block.id)
        elif after and after[-1] == "JUMP":
            exits.add(block.succs[-1])
        elif not after or after[-1] != "RETURN_VALUE":  # (a return written in the clause)
            exits.update(
                s for s in block.succs if not _leaves_outer_clause(w, s) and not _returns(w, s)
            )
    inside = {x for x in exits if _inside_enclosing(w, h, x)}
    # (where one way on stays inside the statements around the try, a way that
    # leaves them, through their cleanups, returns: a finally body, a with's exit)
    return inside or exits


def _own_pop_except(ops, depth) -> tuple[int | None, int]:
    """Where in ``ops`` the clause ``depth`` handlers out (0: the clauses walked,
    -1: before their ``PUSH_EXC_INFO``) pops the exception it handles, if it does,
    and the depth after ``ops``: each inner handler entered pushes one, and its
    ``POP_EXCEPT`` pops it."""
    for at, op in enumerate(ops):
        if op == "PUSH_EXC_INFO":
            depth += 1
        elif op == "POP_EXCEPT":
            if depth == 0:
                return at, depth
            depth -= 1
    return None, depth


def _returns(w, x) -> bool:
    """Whether block ``x`` only returns the value a clause left: the end of ``return
    v`` written in the clause (3.12+ put it in a block of its own, unprotected, after
    the clause's ``POP_EXCEPT``), no place the clauses go on to (seed 1275)."""
    block = w.graph.blocks[x]
    return block.end - block.start == 1 and w.graph.instrs[block.start].op == "RETURN_VALUE"


def _leaves_outer_clause(w, x) -> bool:
    """Whether block ``x`` starts by leaving the clause this try is written in: a
    return or a jump out of a nested clause pops each handled exception on its way,
    so where it goes is no place the clauses of this try meet."""
    return w.graph.instrs[w.graph.blocks[x].start].op == "POP_EXCEPT"
