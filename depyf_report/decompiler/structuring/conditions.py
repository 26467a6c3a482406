"""Conditions: tests of ``if``, ``while`` and boolean expressions.

Short-circuit tests (``a and b``, ``a or not b``) fold into one condition before the
branches are walked: a block that only tests, and that only the tests so far lead to,
is part of the condition. So is a chained comparison (``chains.py``), a conditional
expression used as a test, and a test of a value the condition makes of its own.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..simulation import markers as m
from ..simulation.machine import Branch
from ..simulation.unsupported import Unsupported
from . import chains
from .trials import trial_run


@dataclass
class MergeState:
    """The condition being merged, and the last one merged."""

    # the blocks of the last condition merged
    tested: set[int] = field(default_factory=set)
    # a copy of where a chain fails -> that block (chains.py)
    exit_copies: dict[int, int] = field(default_factory=dict)
    # block -> its folded condition, for the merge under way only
    candidates: dict = field(default_factory=dict)
    # (loop, active) of the merge under way: where a condition's own value is walked
    merging_in: tuple = (None, frozenset())
    # (join, jump_when, other) while value-keeping jumps to ``join`` fold too, and the
    # value each folded one keeps, by block (see ``threaded_keeps``)
    keeps: tuple | None = None
    kept: dict = field(default_factory=dict)


def merge_conditions(w, b, test, true_b, false_b, stack, loop=None, active=frozenset()):
    """Fold short-circuit conditions (``a and b``, ``a or not b``) into one test."""
    merged = {b}
    w.merge.candidates = {}  # candidate block -> its folded condition, for this merge only
    w.merge.merging_in = (loop, active)  # where a condition's own value is walked
    test, true_b, false_b = _merge(w, test, true_b, false_b, stack, merged)
    w.merge.tested = merged
    for x in merged:
        w.visit(x)
    return test, true_b, false_b


def _merge(w, test, true_b, false_b, stack, merged):
    while True:
        for cand, on_true in ((false_b, False), (true_b, True)):
            inner = _pure_condition(w, cand, merged, stack)
            if inner is None:
                continue
            c2, t2, f2, taken = inner
            if not _joins_a_case(test, c2, on_true):
                continue
            if not on_true and w.joins.same_target(t2, true_b):
                test, false_b = boolop(ast.Or, test, c2), f2
            elif not on_true and w.joins.same_target(f2, true_b):
                test, false_b = boolop(ast.Or, test, negate(c2)), t2
            elif on_true and w.joins.same_target(f2, false_b):
                test, true_b = boolop(ast.And, test, c2), t2
            elif on_true and w.joins.same_target(t2, false_b):
                test, true_b = boolop(ast.And, test, negate(c2)), f2
            else:
                continue
            merged |= taken
            break
        else:
            chosen = _chosen_condition(w, test, true_b, false_b, stack, merged)
            if chosen is None:
                return test, true_b, false_b
            test, true_b, false_b = chosen


def _joins_a_case(test, c2, on_true) -> bool:
    """Whether ``c2`` may fold into ``test`` where either is a match case's test: only
    as its guard (``case p if g:``), the one condition a ``match`` writes."""
    if _holds_case(c2):
        return False
    if not _holds_case(test):
        return True
    first = test.values[0] if isinstance(test, ast.BoolOp) else test
    return on_true and isinstance(first, m.Matches)


def _holds_case(test) -> bool:
    return any(isinstance(x, m.Matches) for x in ast.walk(test))


def _chosen_condition(w, test, true_b, false_b, stack, merged):
    """``if (a if c else b):``: each branch of ``c`` tests a condition of its own, and
    the two go on to the same places. (test, true, false) or None."""
    yes = _pure_condition(w, true_b, merged, stack)
    no = yes and _pure_condition(w, false_b, merged | yes[3], stack)
    if not no:
        return None
    (a, t1, f1, taken_a), (b, t2, f2, taken_b) = yes, no
    if any(map(_holds_case, (test, a, b))):
        return None  # no match statement writes a case's test in an expression

    def same(x, y):  # (3.10, 3.11 and 3.12+ copy a small exit to each jump to it)
        return w.joins.same_target(x, y) or w.joins.same_exit(x, y)

    if same(t1, t2) and same(f1, f2):
        value = ast.IfExp(test=test, body=a, orelse=b)
    elif same(t1, f2) and same(f1, t2):
        value = ast.IfExp(test=test, body=a, orelse=negate(b))
    else:
        return None
    # lone jumps on to the targets; not past the end of a with or try body, which is
    # where the walk inside it stops (3.10: the jump to a try's else clause)
    hops = {x for x in (t1, f1) if x not in w.fences and w.joins.jumped_to(x) != x}
    merged |= taken_a | taken_b | hops
    return value, *(w.joins.jumped_to(x) if x in hops else x for x in (t1, f1))


def _pure_condition(w, cand, merged, stack):
    """(test, true, false, blocks) when ``cand`` only tests a condition, or only
    jumps to one (3.11 ends a chained comparison so)."""
    if cand in w.visited or cand in merged or cand in w.an.loops:
        return None
    if w.merge.keeps is not None and cand == w.merge.keeps[2]:
        return None  # (where the condition fails to: the value after ``or``)
    hop = w.joins.jumped_to(cand)
    if hop != cand and w.blocks[hop].preds == [cand]:
        found = _pure_condition(w, hop, merged | {cand}, stack)
        return found and (*found[:3], found[3] | {cand})
    if cand not in w.merge.candidates:
        w.merge.candidates[cand] = None  # guards against cycles while it is computed
        w.merge.candidates[cand] = _fold_condition(w, cand, merged, stack)
    found = w.merge.candidates[cand]
    if found is None or not set(w.an.preds(cand)) <= merged | found[3]:
        return None
    return found


def _fold_condition(w, cand, merged, stack):
    block = w.blocks[cand]
    if w.an.handler_of(cand) != w.an.handler_of(min(merged)):
        return None
    sim = trial_run(w, block, stack)
    if sim is None:
        return None
    br = sim.branch
    if br is not None and br.kind == "keep" and w.merge.keeps is not None:
        return _kept_condition(w, cand, sim, stack)
    if br is not None and br.kind == "keep" and not sim.out:
        return _value_tested(w, cand, stack)
    if br is None or br.kind != "cond" or len(block.succs) != 2:
        return None  # (two successors: not a loop test redirected to the header)
    fall, jump = block.succs
    t2, f2 = (jump, fall) if br.jump_when else (fall, jump)
    test, taken = br.test, {cand}
    if len(sim.stack) == len(stack) + 1:  # ``lo <= x < hi`` as one of the conditions
        chained = chains.chained(w, test, t2, f2, sim.stack)
        if chained is None:
            return _value_tested(w, cand, stack) if not sim.out else None
        test, t2, f2, rest, chain_blocks = chained
        chains.unspill_middle(w, sim, test, rest)
        taken |= chain_blocks
        if len(rest) != len(stack):
            return None
    elif len(sim.stack) != len(stack):
        return None
    if sim.out or any(a is not b for a, b in zip(sim.stack, stack)):
        return None
    test, t2, f2 = _merge(w, test, t2, f2, stack, taken)
    return test, t2, f2, frozenset(taken)


def _value_tested(w, cand, stack):
    """A condition that tests a value of its own making, ``a or (b or c) is d``:
    ``cand`` starts the value (``b or c``) and the block where its parts meet tests
    it. The value is walked as the walk would, then undone, as the merge visits its
    blocks itself. (test, true, false, blocks) or None."""
    succs = w.blocks[cand].succs
    if len(succs) != 2 or len(w.blocks[succs[1]].succs) != 2:
        return None  # where the value's first part goes, nothing tests it: no condition
    mark, counter = len(w.visit_log), w.ctx.counter
    saved = w.merge.candidates, w.merge.tested, w.merge.merging_in, w.ended_at
    keeps, w.merge.keeps = (w.merge.keeps, w.merge.kept), None
    loop, active = w.merge.merging_in
    try:
        out, after, nxt, done = w.block(cand, list(stack), loop, active)
    except Unsupported:
        return None
    finally:
        taken = set(w.visit_log[mark:])
        w.unvisit(mark)
        w.ctx.counter = counter
        w.merge.candidates, w.merge.tested, w.merge.merging_in, w.ended_at = saved
        w.merge.keeps, w.merge.kept = keeps
    if out or done or nxt is None or after is None or len(after) != len(stack) + 1:
        return None
    if any(a is not b for a, b in zip(after, stack)) or nxt in w.an.loops:
        return None
    block = w.blocks[nxt]
    if not set(block.preds) <= taken:
        return None
    sim = trial_run(w, block, after)
    if sim is None or sim.branch is None or sim.branch.kind != "cond" or sim.out:
        return None
    if len(block.succs) != 2 or len(sim.stack) != len(stack):
        return None
    if any(a is not b for a, b in zip(sim.stack, stack)):
        return None
    fall, jump = block.succs
    t2, f2 = (jump, fall) if sim.branch.jump_when else (fall, jump)
    taken.add(nxt)
    test, t2, f2 = _merge(w, sim.branch.test, t2, f2, stack, taken)
    return test, t2, f2, frozenset(taken)


def fused_keep(w, test, true_b, false_b, stack, loop=None, active=frozenset()):
    """``a and b or c`` (``(a or b) and c``): 3.10/3.11 send ``a``'s failure (success)
    straight to ``c``, where ``b``'s value-keeping jump falls through too. Tested
    together, ``a and b`` is that jump's value: (branch, stack, successors) or None.
    ``b`` may branch itself (``a and (x if d else y) or c``): then it is walked as a
    value up to the block that keeps it."""
    shapes = (
        (true_b, false_b, ast.And, "JUMP_IF_TRUE_OR_POP"),
        (false_b, true_b, ast.Or, "JUMP_IF_FALSE_OR_POP"),
    )
    for inner, other, op, keeps in shapes:
        keeper = _keeping_block(w, inner, other, keeps)
        if keeper is None or inner in w.visited:
            continue
        if not set(w.blocks[inner].preds) <= w.merge.tested:
            continue
        before = stack
        if keeper != inner:
            value = _value_up_to(w, inner, keeper, stack, loop, active)
            if value is None:
                break
            before = [*stack, value]
        block = w.blocks[keeper]
        sim = trial_run(w, block, before)
        if sim is None:
            return None
        kept = sim.stack[:-1]
        if sim.out or len(kept) != len(stack) or any(x is not y for x, y in zip(kept, stack)):
            return None
        w.merge.tested.add(keeper)
        w.visit(keeper)
        value = boolop(op, test, sim.stack[-1])
        return Branch("keep", value, sim.branch.jump_when), [*stack, value], block.succs
    return threaded_keeps(w, test, true_b, false_b, stack)


def threaded_keeps(w, test, true_b, false_b, stack):
    """``a and (b and x or y) or c``: 3.10/3.11 send the inner value-keeping jumps
    straight to where the outer one goes (a jump to a jump, threaded), so no block
    keeps ``a and (...)``. Its tests and the jumps that keep a part of it fold into
    one condition instead, the parts as its operands: where it goes to the join, its
    value is the operand it tested last, the value kept. (branch, stack, successors)
    or None."""
    for other, when, keeps in (
        (false_b, True, "JUMP_IF_TRUE_OR_POP"),
        (true_b, False, "JUMP_IF_FALSE_OR_POP"),
    ):
        ends = [x for x in w.blocks[other].preds if x not in w.merge.tested]
        joins = {w.blocks[x].succs[-1] for x in ends if _keeps_to(w, x, keeps, other)}
        if len(joins) != 1 or other in w.visited:
            continue
        join = joins.pop()
        merged = set(w.merge.tested)
        w.merge.candidates, w.merge.keeps, w.merge.kept = {}, (join, when, other), {}
        try:
            value, t, f = _merge(w, test, true_b, false_b, stack, merged)
        finally:
            kept = w.merge.kept
            w.merge.candidates, w.merge.keeps, w.merge.kept = {}, None, {}
        if (t, f) != ((join, other) if when else (other, join)):
            continue
        if not _keeps_its_operands(w, value, merged, kept, join):
            continue
        w.merge.tested = merged
        for x in merged:
            w.visit(x)
        return Branch("keep", value, when), [*stack, value], [other, join]
    return None


def _keeps_to(w, b, op, fall) -> bool:
    """Whether block ``b`` ends in the value-keeping jump ``op`` and falls to ``fall``."""
    block = w.blocks[b]
    return w.graph.instrs[block.end - 1].op == op and block.succs[:1] == [fall]


def _keeps_its_operands(w, value, merged, kept, join) -> bool:
    """Whether only value-keeping jumps of ``merged`` go to ``join``, and each kept
    value is an operand ``value`` may take its value from, as it is (not negated, not
    the test of a conditional)."""
    used = set(kept) & merged
    if not used or any(join in w.blocks[x].succs for x in merged - used):
        return False
    operands = set(map(id, _value_operands(value)))
    return all(id(kept[x]) in operands for x in used)


def _value_operands(value):
    """The parts an and/or/conditional expression's value may be."""
    if isinstance(value, ast.BoolOp):
        return [x for v in value.values for x in _value_operands(v)]
    if isinstance(value, ast.IfExp):
        return [*_value_operands(value.body), *_value_operands(value.orelse)]
    return [value]


def _kept_condition(w, cand, sim, stack):
    """A value-keeping jump to the join ``threaded_keeps`` folds: (test, true, false,
    blocks), its value the test, or None."""
    join, when, _ = w.merge.keeps
    fall, jump = w.blocks[cand].succs
    kept = sim.stack[:-1]
    if sim.out or jump != join or sim.branch.jump_when != when or len(kept) != len(stack):
        return None
    if any(a is not b for a, b in zip(kept, stack)):
        return None
    value, taken = sim.stack[-1], {cand}
    w.merge.kept[cand] = value
    t2, f2 = (jump, fall) if when else (fall, jump)
    test, t2, f2 = _merge(w, value, t2, f2, stack, taken)
    return test, t2, f2, frozenset(taken)


def _keeping_block(w, inner, other, keeps):
    """The block whose value-keeping jump (``keeps``) ends ``a and b`` (``a or b``) and
    falls through to ``other``, where ``a`` also goes: ``inner``, where ``b`` starts,
    or else the one block other than the tests that gets to ``other``."""
    if _keeps_to(w, inner, keeps, other):
        return inner
    ends = [x for x in w.blocks[other].preds if x not in w.merge.tested]
    if len(ends) != 1 or ends[0] in w.visited or not _keeps_to(w, ends[0], keeps, other):
        return None
    return ends[0]


def _value_up_to(w, start, end, stack, loop, active):
    """The value that the walk from ``start`` leaves on ``stack`` at ``end``, writing
    nothing, where only that walk gets to ``end``; else None, the walk undone."""
    mark, counter = len(w.visit_log), w.ctx.counter
    saved = w.merge.candidates, w.merge.tested, w.merge.merging_in, len(w.fenced_at)
    try:
        out, after = w.seq(start, end, list(stack), loop, active=active)
        walked = set(w.visit_log[mark:])
    except Unsupported:
        out, after, walked = None, None, set()
    w.merge.candidates, w.merge.tested, w.merge.merging_in = saved[:3]
    if (
        out
        or after is None
        or w.ended_at != end
        or len(after) != len(stack) + 1
        or any(a is not b for a, b in zip(after, stack))
        or not set(w.blocks[end].preds) <= walked
    ):
        w.unvisit(mark)
        w.ctx.counter = counter
        del w.fenced_at[saved[3] :]
        return None
    return after[-1]


def boolop(op, left, right):
    values = []
    for side in (left, right):
        if isinstance(side, ast.BoolOp) and isinstance(side.op, op):
            values.extend(side.values)
        else:
            values.append(side)
    return ast.BoolOp(op=op(), values=values)


def negate(test):
    """``not test``, folding the comparisons whose negation is exactly another operator."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    if isinstance(test, ast.BoolOp):
        # De Morgan: as a condition it is the same test, and written this way each
        # comparison keeps the operator the compiler saw (``a is not None and b``)
        op = ast.And() if isinstance(test.op, ast.Or) else ast.Or()
        return ast.BoolOp(op=op, values=[negate(v) for v in test.values])
    flips = {ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in flips:
        op = flips[type(test.ops[0])]()
        return ast.Compare(left=test.left, ops=[op], comparators=test.comparators)
    return ast.UnaryOp(op=ast.Not(), operand=test)
