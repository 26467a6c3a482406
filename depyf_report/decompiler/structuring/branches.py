"""Branches: an if statement, or a value that depends on a test, from a two-way block.

The two branches are walked up to their join (``joins.py``); where both leave one value
and emit nothing, they are one expression (``a if c else b``, ``a or b``); where they
leave different values, each assigns its own to one temporary.
"""

from __future__ import annotations

import ast

from ..bytecode.constants import value_key
from ..simulation import markers as m
from ..simulation import nodes
from ..simulation.machine import Sim
from ..simulation.unsupported import ReachedTwice, Unsupported
from . import chains
from .conditions import boolop, fused_keep, merge_conditions, negate
from .joins import copied_tail, same_instructions, tail_met
from .walked_tails import merged_tails


def two_way(w, b, sim, loop, active, stop=None):
    branch, (fall, jump) = sim.branch, w.blocks[b].succs
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
        chained = chains.chained(w, test, true_b, false_b, stack)
        if chained is not None:
            test, true_b, false_b, stack, taken = chained
            jump_stack = fall_stack = stack
            chains.unspill_middle(w, sim, test, stack)
        test, true_b, false_b = merge_conditions(w, b, test, true_b, false_b, stack, loop, active)
        if chained is not None:
            w.merge.tested |= taken
            for x in taken:
                w.visit(x)
        if true_b == false_b:  # ``if c: pass``: both ways go on there
            node = nodes.If(test=test, body=[ast.Pass()], orelse=[])
            return [*sim.out, node], stack, true_b, False
        fused = fused_keep(w, test, true_b, false_b, stack, loop, active)
        if fused is not None:
            branch, stack, (fall, jump) = fused
            jump_stack, fall_stack, test = stack, stack[:-1], stack[-1]
            true_b, false_b = (jump, fall) if branch.jump_when else (fall, jump)
        else:
            copied = copied_tail(w, b, test, true_b, false_b, stack)
            if copied is not None:
                value, leaf, size = copied
                tail = Sim(w.ctx, w.graph.instrs, [*stack, value])
                tail.run(w.blocks[leaf].end - size, w.blocks[leaf].end)
                return [*sim.out, *tail.out], None, None, True
            met = tail_met(w, b, test, true_b, false_b, stack)
            if met is not None:
                value, tail_block = met
                return [*sim.out], [*stack, value], tail_block, False
    # The fall-through is the if body, as it was written (a lone jump out of the loop
    # is a written ``break``); not a jump back to the loop's header laid out there
    # (3.12+), which is the end of the body
    falls = {fall}
    if branch.kind == "cond":  # the tests' fall-throughs, after a merge
        falls = _fall_throughs(w, w.merge.tested)
    flip = branch.kind == "cond" and false_b in falls and true_b not in falls
    flip = flip and (
        loop is None
        or w.joins.jumped_to(false_b) != loop.header
        or _written_continue(w, false_b, loop)
    )
    # a match keeps its subject under each case's test for the next case: no operand of
    # an expression, so the cases are statements and meet as statements do
    between = stack[:-1] if _keeps_subject(w, test, stack, true_b) else stack
    tested = w.merge.tested if branch.kind == "cond" else {b}
    join = w.joins.join_of(b, loop, between, stop, tested)
    if join in tested and join != b and branch.kind == "cond":
        # a lone jump on that the condition took in (``if (a if c else b):``): the
        # branches meet where it goes (seed 59)
        join = w.joins.jumped_to(join)
    if join is None and chained is not None:
        # 3.12+ copy a returning join into the chain's first failure: the comparison
        # that ends the chain still reaches it (the block popping the middle operand
        # only goes on to where the chain fails: that says nothing)
        compares = [x for x in chained[4] if len(w.blocks[x].succs) == 2]
        joins = {w.joins.join_of(x, loop, between, stop) for x in compares} - {None}
        join = joins.pop() if len(joins) == 1 else None
    if _body_not_join(w, join, true_b, false_b, falls, fall, jump, branch.kind, stop):
        # It is the if body, which returns, and the other branch never gets there.
        join = stop
    true_stack = jump_stack if true_b == jump else fall_stack
    false_stack = jump_stack if false_b == jump else fall_stack
    mark, counter = len(w.visit_log), w.ctx.counter
    for _ in range(2):
        walked = _walk_branches(w, (true_b, true_stack), (false_b, false_stack), join, loop, active)
        (t_out, t_stack, t_end), (f_out, f_stack, f_end), join = walked
        ends = {e for e, st in ((t_end, t_stack), (f_end, f_stack)) if st is not None}
        # (3.13 sends one branch's jump past the end of the with/try body, a lone jump)
        ends = {_fence_before(w, e, ends) for e in ends}
        ends = {join if _does_as_join(w, e, join) else e for e in ends}
        past = ends - {join}
        if len(ends) != 2 or join not in ends or not past <= set(w.fences):
            break
        # One branch went on to the end of the with or try body around, the other
        # stopped at a join short of it: a join that post-dominance found by leaving
        # out a way that raises (a with body that always raises, whose ``__exit__``
        # may suppress it: seed 95). The branches meet at that end: both walked again.
        w.unvisit(mark)
        w.ctx.counter = counter
        join = past.pop()
    if len(ends) > 1:
        t_stack = _returned_at(w, t_end, join, t_out, t_stack)
        f_stack = _returned_at(w, f_end, join, f_out, f_stack)
        ends = {e for e, st in ((t_end, t_stack), (f_end, f_stack)) if st is not None}
    if len(ends) == 1 and join not in ends:
        join = ends.pop()  # both stopped at the end of the enclosing with/try body
    elif len(ends) > 1:
        raise Unsupported("branches leave a region at different places")
    earlier = _met_before(w, join, set(w.visit_log[mark:]))
    if earlier != join and _different_markers(t_stack, f_stack):
        # both ran on through the code before the join that only leads there and
        # writes nothing, each making a marker of its own (the iterator of a loop
        # after an if, the join its header): they meet where that code starts
        w.unvisit(mark)
        w.ctx.counter = counter
        join = earlier
        walked = _walk_branches(w, (true_b, true_stack), (false_b, false_stack), join, loop, active)
        (t_out, t_stack, t_end), (f_out, f_stack, f_end), join = walked
    merged = _value_merge(test, stack, t_out, t_stack, f_out, f_stack, flip)
    if merged is not None:
        merged[-1] = chains.chained_value(w, sim, merged[-1], merged)
        return sim.out, merged, join, join is None
    if any(not sim.is_pure(v) for v in stack) and (t_out or f_out):
        if t_stack is None and f_stack is None:
            # both end the function alike: a tail copied into each, past an arm that
            # branches (``return f(a and b if c else d)``)
            tails = merged_tails(test, stack, t_out, f_out)
            if tails is not None:
                return [*sim.out, *tails], None, None, True
        w.unvisit(mark)
        w.ctx.counter = counter
        held = list(stack)
        sim.spill()
        stack = sim.stack
        # the test may read a value the stack also holds (``COPY``): read its temporary
        test = _substitute(test, {id(a): b for a, b in zip(held, stack) if a is not b})
        t_out, t_stack = w.seq(true_b, join, list(stack), loop, active=active)
        f_out, f_stack = w.seq(false_b, join, list(stack), loop, active=active)
    if branch.kind == "keep":
        raise Unsupported("value-keeping jump used as a statement")
    if t_stack is not None and f_stack is not None and len(t_stack) != len(f_stack):
        t_stack, f_stack = _returned_through(w, join, t_out, t_stack, f_out, f_stack)
    if t_stack is not None and f_stack is not None:
        t_stack = f_stack = _settle_values(w, t_out, t_stack, f_out, f_stack)
    # the line of what the jump tests (3.13 give the jump itself the loop's line)
    block = w.blocks[b]
    line = w.graph.line_at(max(block.start, block.last - 1))
    if flip and f_out:  # the fall-through is the if body, as it was written
        node = nodes.If(
            test=negate(test), body=f_out, orelse=t_out, orelse_falls=False, test_line=line
        )
    else:
        body = t_out or [nodes.Pass(written=true_b != join)]
        node = nodes.If(
            test=test, body=body, orelse=f_out, orelse_falls=false_b in falls, test_line=line
        )
    after = t_stack if t_stack is not None else f_stack
    return [*sim.out, node], after, join, after is None or join is None


def _walk_branches(w, true, false, join, loop, active):
    """Each branch walked up to ``join``: (statements, stack, where it ended) for each,
    and the join. Where the second gets to a block the first wrote, the branches meet
    there (the first got there by a way the join's search leaves out: a with body's
    ``__exit__`` suppressing, inside a try body), and both are walked again up to it."""
    mark, counter = len(w.visit_log), w.ctx.counter
    (true_b, true_stack), (false_b, false_stack) = true, false
    t_out, t_stack = w.seq(true_b, join, list(true_stack), loop, active=active)
    t_end, t_mark = w.ended_at, len(w.visit_log)
    try:
        f_out, f_stack = w.seq(false_b, join, list(false_stack), loop, active=active)
    except ReachedTwice as twice:
        first = set(w.visit_log[mark:t_mark])
        if twice.block == join or twice.block not in first:
            raise
        w.unvisit(mark)
        w.ctx.counter = counter
        join = _met_before(w, twice.block, first)
        t_out, t_stack = w.seq(true_b, join, list(true_stack), loop, active=active)
        t_end = w.ended_at
        f_out, f_stack = w.seq(false_b, join, list(false_stack), loop, active=active)
    return (t_out, t_stack, t_end), (f_out, f_stack, w.ended_at), join


def _met_before(w, b, first, steps=8):
    """Where the branches met that got to block ``b``, which the ``first`` walk
    wrote: a block before it that only leads to it and that the first walk got to,
    which the second ran through writing nothing (the entry of a with after an if:
    each branch would keep a manager of its own), else ``b``. (A loop's header is
    got to from inside the loop too: those ways are no branch's.)"""
    for _ in range(steps):
        if b is None:
            break
        preds = [x for x in w.blocks[b].preds if x not in w.an.loops.get(b, ())]
        if len(preds) != 1 or preds[0] not in first or w.blocks[preds[0]].succs != [b]:
            break
        b = preds[0]
    return b


def _different_markers(t_stack, f_stack) -> bool:
    """Whether both branches leave stacks as deep, holding different markers."""
    if t_stack is None or f_stack is None or len(t_stack) != len(f_stack):
        return False
    return any(
        a is not b and isinstance(a, m.Marker) and isinstance(b, m.Marker)
        for a, b in zip(t_stack, f_stack)
    )


def _returned_at(w, end, join, out, stack):
    """The stack a branch leaves, or None where it stopped short of ``join`` at the
    end of an enclosing try body that only returns the value on top of it (3.11+ leave
    the RETURN_VALUE after a return's copy of a finally body out of the try around):
    that branch returns the value, written where it is."""
    if not stack or end == join or end not in w.fences or isinstance(stack[-1], m.Marker):
        return stack
    block = w.blocks[end]
    if block.succs or block.end - block.start != 1:
        return stack
    if w.graph.instrs[block.start].op != "RETURN_VALUE":
        return stack
    out.append(ast.Return(value=stack[-1]))
    if end in w.fenced_at:  # (the walk stops there no more: no way out to that end)
        del w.fenced_at[len(w.fenced_at) - 1 - w.fenced_at[::-1].index(end)]
    return None


def _keeps_subject(w, test, stack, true_b) -> bool:
    """Whether the value on top of ``stack`` is the subject of a ``match`` whose case
    ``test`` tests it (and any guard), or that a guarded capture stored, ``case a if
    g:``: a walrus the guard does not read, which the case body pops first (where the
    operand of an expression would be used)."""
    if not stack:
        return False
    kept = stack[-1]
    if any(
        isinstance(x, m.Matches) and (x.subject is kept or m.same(x.subject, kept))
        for x in ast.walk(test)
    ):
        return True
    return (
        isinstance(kept, ast.NamedExpr)
        and w.graph.instrs[w.blocks[true_b].start].op == "POP_TOP"
        and not any(x is kept for x in ast.walk(test))
    )


def _body_not_join(w, join, true_b, false_b, falls, fall, jump, kind, stop) -> bool:
    """Whether ``join`` is no join but the if body as written: a branch the tests fall
    through to, which only they reach, with the other branch laid out after it (the
    compiler lays a body out first, so ``if a or b: A / else: raise`` keeps ``A``)."""
    if kind != "cond" or join is None or not set(w.blocks[join].preds) <= w.merge.tested:
        return False
    if join == fall and jump > fall:
        return True
    other = {true_b: false_b, false_b: true_b}.get(join)
    # (only outside any enclosing statement's walk: inside a try body, a branch to its
    # end that returns through a finally is not written yet, see seed 395)
    return other is not None and join in falls and other > join and stop is None


def _fence_before(w, end, ends):
    """The end of the enclosing with/try body among ``ends`` that only jumps on to
    ``end``, else ``end``."""
    return next(
        (f for f in ends if f != end and f in w.fences and w.joins.jumped_to(f) == end), end
    )


def _does_as_join(w, end, join) -> bool:
    """Whether ``end``, the end of a with or try body around where a branch stopped,
    runs what ``join`` runs, on to the same place: a continue's copy of a with's exit
    at the end of a loop's body, laid out apart from the with's own exit (3.12+), so
    going there is going on to the join."""
    if end == join or join is None or end not in w.fences:
        return False
    (ran, to, handlers), (ran_join, to_join, at_join) = _run_on(w, end), _run_on(w, join)
    return (
        to is not None
        and to == to_join
        and handlers == at_join
        and same_instructions(ran, ran_join)
    )


def _run_on(w, b, steps=4):
    """(instructions, the block they go on to, their handlers) from block ``b`` on
    through blocks that only it leads to (an await splits an ``__exit__`` call's
    block): on to a block other ways get to too, or None."""
    ran, handlers = [], set()
    for _ in range(steps):
        block = w.blocks[b]
        if len(block.succs) != 1:
            return ran, None, handlers
        ran += w.joins.unjumped(block)
        handlers.add(block.handler)
        b = block.succs[0]
        if len(w.blocks[b].preds) > 1:
            return ran, b, handlers
    return ran, None, handlers


def _fall_throughs(w, tested) -> set[int]:
    """Where the tests of a merged condition fall through to, seeing through the jump
    that ends a chained comparison (over the block that pops its middle operand,
    which is no test's fall-through) and through the copy of where it fails."""
    falls = set()
    for x in tested:
        succs = w.blocks[x].succs
        if len(succs) == 2:
            fall = succs[0]
            if fall in tested:
                fall = w.merge.exit_copies.get(fall, w.joins.jumped_to(fall))
            falls.add(fall)
    return falls


def _written_continue(w, b, loop) -> bool:
    """Whether ``b`` only jumps to the loop's test at the top, where the end of the
    body goes to the test's repeated copy instead: a ``continue`` as written."""
    return b not in w.graph.rotated and loop.header in w.graph.repeated


def _returned_through(w, join, t_out, t_stack, f_out, f_stack):
    """The stacks after an if one of whose branches keeps one value more than the
    other up to the end of the with or try body around, where that end (a copy of it)
    ends the function without reading it: ``return v`` through a finally body that
    never goes on, which runs that copy with ``v`` kept under it. That branch
    computes the value and goes on to the end as the other does, which runs the same
    code (a return there would skip the else the finally body is read as)."""
    deep, out, shallow = (t_stack, t_out, f_stack)
    if len(f_stack) > len(t_stack):
        deep, out, shallow = f_stack, f_out, t_stack
    value = deep[-1]
    if (
        len(deep) != len(shallow) + 1
        or isinstance(value, m.Marker)
        or any(a is not b for a, b in zip(deep, shallow))
        or not _ends_alone(w, join)
    ):
        return t_stack, f_stack
    out.append(nodes.Expr(value=value, dropped_return=True))
    return shallow, shallow


def _ends_alone(w, b) -> bool:
    """Whether block ``b`` is the end of an enclosing with or try body that ends the
    function reading nothing from the stack (or only jumps to such a block: an inner
    try body's end, before the finally body's copy around it)."""
    if b is None or b not in w.fences:
        return False
    b = w.joins.jumped_to(b)
    if w.blocks[b].succs:
        return False
    block, counter = w.blocks[b], w.ctx.counter
    try:
        Sim(w.ctx, w.graph.instrs, []).run(block.start, block.end)
    except Unsupported:
        return False
    finally:
        w.ctx.counter = counter
    return True


def _settle_values(w, t_out, t_stack, f_out, f_stack) -> list:
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
        ident = w.ctx.temp()
        t_out.append(ast.Assign(targets=[m.name(ident, True)], value=yes))
        f_out.append(ast.Assign(targets=[m.name(ident, True)], value=no))
        merged.append(m.name(ident))
    return merged


def _value_merge(test, stack, t_out, t_stack, f_out, f_stack, flip):
    if t_out or f_out or not t_stack or not f_stack:
        return None  # (both empty: ``if a: pass``, a statement that leaves no value)
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
    if isinstance(yes, m.Marker) or isinstance(no, m.Marker):
        return None  # (each branch popped what the test ran over: statements, no value)
    if yes is test:
        value = boolop(ast.Or, test, no)
    elif no is test:
        value = boolop(ast.And, test, yes)
    elif flip:  # the fall-through is the value written first, as for a statement
        value = ast.IfExp(test=negate(test), body=no, orelse=yes)
    else:
        value = ast.IfExp(test=test, body=yes, orelse=no)
    return [*t_stack[:base], value]


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


def _same_constant_or_name(a, b) -> bool:
    if isinstance(a, ast.Constant) and isinstance(b, ast.Constant):
        return type(a.value) is type(b.value) and value_key(a.value) == value_key(b.value)
    return isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id


def _keeps(t_stack, f_stack, test) -> bool:
    return t_stack[-1] is test or f_stack[-1] is test
