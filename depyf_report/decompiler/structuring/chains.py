"""Chained comparisons, ``a < x < b``: the first comparison keeps ``x`` on the stack
for the next one, and where it fails a block pops ``x`` and goes on to where the whole
chain fails. Read back as one comparison, as a condition or as a value."""

from __future__ import annotations

import ast

from ..simulation.machine import Sim
from ..simulation.unsupported import Unsupported
from .joins import same_instructions, same_way_to_an_end
from .trials import NOT_A_CONDITION


def chained(w, test, true_b, false_b, stack):
    """A chained comparison used as a condition, ``a < x < b``: the first comparison
    keeps ``x`` on the stack; where it fails, a block pops ``x`` and goes on to where
    the whole chain fails; where it holds, the next comparison consumes ``x``. Returns
    (test, true, false, stack, blocks) or None."""
    middle = stack[-1] if stack else None
    taken, cleanups = set(), set()
    while isinstance(test, ast.Compare) and middle is not None:
        if test.comparators[-1] is not middle or true_b in w.visited:
            return None
        nxt = _next_comparison(w, true_b, false_b, stack)
        if nxt is None:
            return None
        compare, t2, f2, rest = nxt
        keeps = len(rest) == len(stack)  # another middle value: the chain goes on
        cleanups.add(false_b)
        taken |= {true_b, false_b}
        test = ast.Compare(
            left=test.left,
            ops=[*test.ops, *compare.ops],
            comparators=[*test.comparators, *compare.comparators],
        )
        true_b, false_b = t2, f2
        if not keeps:
            # each failing comparison's pop goes on to where the last one fails (only
            # known now: a pop may run its own copy of that block)
            failed = {_popped_to(w, x, f2) for x in cleanups}
            if len(failed) != 1 or None in failed:
                return None
            failed = _failed_at(w, failed.pop(), f2, taken)
            return test, true_b, failed, rest, taken
        middle, stack = rest[-1], rest
    return None


def _failed_at(w, failed, last, taken):
    """Where the chain fails: where its pops go on to (``failed``), which the last
    comparison's failure (``last``) jumps on to or copies (then taken with the chain),
    or the end of the try body around that they both are (or copy)."""
    if last == failed:
        return failed
    if w.joins.jumped_to(last) == failed:
        taken.add(last)  # the last comparison's failure jumps on to the chain's
    elif w.joins.same_exit(last, failed):
        if last in w.fences:
            # the end of the try body around, where its walk stops: the copy is
            # code after the try, no part of the chain (3.12+, seed 28)
            return last
        taken.add(last)  # or runs its own copy of it
        w.merge.exit_copies[last] = failed
    return failed


def chained_value(w, sim, value, stack):
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
    unspill_middle(w, sim, chain, stack)
    return chain


def unspill_middle(w, sim, test, stack) -> None:
    """The chain's first middle operand, and its left one where that was not a plain
    name, were computed into temporaries by the ``SWAP`` between them: put them back
    in the comparison, each evaluated once, in order. So were the values below them
    on the stack, computed earlier: put back too, they are still computed in order."""
    if not _spilled_last(w, sim, test.comparators[0], stack):
        return
    test.comparators[0] = sim.out.pop().value
    if _spilled_last(w, sim, test.left, stack):
        test.left = sim.out.pop().value
    while sim.out and isinstance(sim.out[-1], ast.Assign):
        target = sim.out[-1].targets[0]
        at = [i for i, v in enumerate(stack) if isinstance(v, ast.Name) and v.id == target.id]
        if len(at) != 1 or not _spilled_last(w, sim, target, stack[at[0] + 1 :]):
            return
        reads = sum(
            isinstance(n, ast.Name) and n.id == target.id for v in stack for n in ast.walk(v)
        )
        if reads != 1:
            return
        stack[at[0]] = sim.out.pop().value


def _spilled_last(w, sim, operand, stack) -> bool:
    """Whether the block's last statement assigns ``operand``, a temporary that
    nothing on the stack still reads."""
    last = sim.out[-1] if sim.out else None
    if not (
        isinstance(operand, ast.Name)
        and w.ctx.is_temp(operand.id)
        and isinstance(last, ast.Assign)
        and len(last.targets) == 1
        and isinstance(last.targets[0], ast.Name)
        and last.targets[0].id == operand.id
    ):
        return False
    return not any(isinstance(v, ast.Name) and v.id == operand.id for v in stack)


def _next_comparison(w, b, failing, stack):
    """(comparison, true, false, stack) for block ``b`` comparing the stack's top."""
    if b in w.an.loops or w.an.handler_of(b) != w.an.handler_of(failing):
        return None
    block = w.blocks[b]
    if any(i.op in NOT_A_CONDITION for i in w.graph.instrs[block.start : block.end]):
        return None
    sim = Sim(w.ctx, w.graph.instrs, list(stack))
    try:
        sim.run(block.start, block.end)
    except Unsupported:
        return None
    br, rest = sim.branch, sim.stack
    if br is None or br.kind != "cond" or len(block.succs) != 2:
        return None
    compare = br.test
    if not isinstance(compare, ast.Compare) or compare.left is not stack[-1]:
        return None
    if sim.out and not _unspilled_operand(w, sim.out, compare, rest):
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


def _unspilled_operand(w, out, compare, rest) -> bool:
    """Whether ``out`` only assigns the comparison's right operand to a temporary,
    which the chain keeps for its next comparison (``a < x <= f() < b``: the ``COPY``
    of a value computed there spills it): put back in both places, it is still
    evaluated once, where the chain evaluates it."""
    if len(out) != 1 or not isinstance(out[0], ast.Assign) or len(out[0].targets) != 1:
        return False
    target = out[0].targets[0]
    if not (isinstance(target, ast.Name) and w.ctx.is_temp(target.id)):
        return False
    right, kept = compare.comparators[-1], rest[-1] if rest else None
    if not all(isinstance(v, ast.Name) and v.id == target.id for v in (right, kept)):
        return False
    reads = sum(
        isinstance(n, ast.Name) and n.id == target.id for v in (compare, *rest) for n in ast.walk(v)
    )
    if reads != 2:
        return False
    compare.comparators[-1] = rest[-1] = out.pop().value
    return True


def _popped_to(w, b, failed):
    """Where block ``b`` goes when all it does is pop the top of the stack: on, or
    into its own copy of the block ``failed`` (3.12+: one that ends the function;
    3.10: one that goes on where ``failed`` goes), or (3.13) into a copy of
    ``failed`` that goes on alike: then the chain fails at ``failed``."""
    block = w.blocks[b]
    instrs = w.graph.instrs[block.start : block.end]
    if not instrs or instrs[0].op != "POP_TOP":
        return None
    if [i.op for i in instrs] in (["POP_TOP"], ["POP_TOP", "JUMP"]) and len(block.succs) == 1:
        found = block.succs[0]
        if failed is None or w.joins.same_target(found, failed) or w.joins.same_exit(found, failed):
            return found
        # (3.13 copies a block with no line, an except clause's ``POP_EXCEPT`` and jump
        # on, into each jump to it: the pop goes on as the last comparison's failure
        # does, on the same stack, so the chain fails there; seed 90. 3.10 copies the
        # end of the function the last comparison's failure jumps to into the pop's
        # jump, seed 28, or into a lone jump on to another copy of it, seed 19091)
        ways = {found, w.joins.jumped_to(found)}
        ends = {failed, w.joins.jumped_to(failed)}
        if _alike_on(w, found, failed) or any(
            same_way_to_an_end(w, x, y) for x in ways for y in ends
        ):
            return failed
        return None
    # the pop then its own copy of ``failed``, going on where ``failed`` goes (3.10
    # leaves an except clause's ``POP_EXCEPT`` and jump to the return after the try
    # copied into the pop, seed 18593), or ending the function as it does
    if failed is None:
        return None
    copy = w.blocks[failed]
    if block.handler != copy.handler or not _going_on_alike(w, block.succs, copy.succs):
        return None
    alike = same_instructions(w.joins.unjumped(copy), w.joins.unjumped(block)[1:])
    return failed if alike else None


def _going_on_alike(w, succs, others) -> bool:
    return len(succs) == len(others) and all(_alike_on(w, a, b) for a, b in zip(succs, others))


def _alike_on(w, a, b, steps=4) -> bool:
    """Whether going on to block ``a`` is going on to block ``b``: the same block, or
    copies of one code, block by block under the same handlers, on to one block or to
    ends of the function alike. A handler's range splits a copy into blocks: the load
    of a returned cell, which a handler covers, is apart from the ``RETURN_VALUE``,
    which none does (seed 9609); 3.13's copy of a clause's ``POP_EXCEPT`` is apart from
    the jump on after it, an ``except*`` clause's ``LIST_APPEND`` (seed 15237)."""
    for _ in range(steps):
        if w.joins.same_target(a, b) or w.joins.same_block(a, b):
            return True
        x, y = w.blocks[a], w.blocks[b]
        if x.handler != y.handler or len(x.succs) != 1 or len(y.succs) != 1:
            return False
        if not same_instructions(w.joins.unjumped(x), w.joins.unjumped(y)):
            return False
        a, b = x.succs[0], y.succs[0]
    return False
