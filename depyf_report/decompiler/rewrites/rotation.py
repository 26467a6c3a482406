"""While loops whose test the compiler repeats at the end of the body.

``while c: body`` compiles to ``c`` jumping to the exit when false, the body, then ``c``
again jumping back to the body's start when true (3.10, 3.11), or jumping to the exit
when false and then jumping back (3.12+, whose conditional jumps only go forward). The
repeated test is a second loop entry that the source never wrote: the control-flow graph
sends the body's end to the test at the top instead, so the loop has one header and
``continue`` (which jumps to the top) stays a continue.

A test is found by reading both copies backwards from their last jump while they agree:
the same instructions, and jumps that go to the same places (the body, the exit, or the
same point inside the test). Its first instruction is where the longest agreeing run that
is a whole condition starts: a run that computes and tests values from an empty stack.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bytecode.constants import value_key
from ..bytecode.effects import value_effect
from ..bytecode.instructions import Instr
from .clause_tails import STORES

CONDITIONS = {"POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE"}
OPPOSITE = {
    "POP_JUMP_IF_TRUE": "POP_JUMP_IF_FALSE",
    "POP_JUMP_IF_FALSE": "POP_JUMP_IF_TRUE",
    "POP_JUMP_IF_NONE": "POP_JUMP_IF_NOT_NONE",
    "POP_JUMP_IF_NOT_NONE": "POP_JUMP_IF_NONE",
}
# ``while (x := f()):`` copies the value and stores the copy; a store on its own is a
# statement before the test.
# A copied exit is a small block that returns (3.11 copies such blocks to each jump;
# 3.10 copies a finally body and the return after the try).
COPIED_EXIT_LENGTH = 8
CHAIN_END_LENGTH = 8  # the ends of a test's chained comparisons, laid out before the body
LEAVES = {"JUMP", "RETURN_VALUE", "RERAISE"}


@dataclass(frozen=True)
class RepeatedTest:
    """The loop test at ``top`` (its first instruction) repeated at ``bottom``."""

    top: int
    bottom: int


def repeated_tests(instrs: list[Instr]) -> list[RepeatedTest]:
    found = []
    first_from: dict[int, int] = {}  # jump target -> the first instruction jumping there
    for ins in instrs:
        if ins.target is not None:
            first_from.setdefault(ins.target, ins.index)
    for ins in instrs:
        if ins.target is None or ins.target > ins.index:
            continue
        if ins.op in CONDITIONS:  # 3.10, 3.11: the copy jumps back when the test holds
            bottom_end, back = ins.index, ins.target
        elif ins.op == "JUMP" and ins.index and instrs[ins.index - 1].op in CONDITIONS:
            bottom_end, back = ins.index - 1, ins.index  # 3.12+: a jump back after it
        else:
            continue
        top_end = _before_chain_ends(instrs, ins.target)
        top_exit = _jumped_over_exit(instrs, top_end, ins.target, bottom_end)
        top_end -= top_exit is not None
        length, bottom = _test_length(instrs, top_end, bottom_end, back, ins.target, top_exit)
        # Only part of the test agrees when the copy is laid out otherwise: a jump from
        # before that part into the body shows it, and the loop keeps its two entries.
        if length and first_from[ins.target] > top_end - length:
            found.append(RepeatedTest(top_end - length + 1, bottom))
    return found


def _before_chain_ends(instrs, body: int) -> int:
    """The last instruction of the top copy of the test whose body starts at ``body``:
    the one before it, or before a jump there over the ends of the test's chained
    comparisons (``a < b < c`` failing early pops ``b``, then leaves), which the
    compiler lays out between the test and the body."""
    for jump in range(body - 2, max(body - 2 - CHAIN_END_LENGTH, -1), -1):
        if instrs[jump].op == "JUMP" and instrs[jump].target == body:
            ends = instrs[jump + 1 : body]
            if (
                ends[0].op == "POP_TOP"
                and ends[-1].op in LEAVES
                and not any(i.op in CONDITIONS for i in ends)
            ):
                return jump - 1
            break
    return body - 1


def _jumped_over_exit(instrs, top_end: int, body: int, bottom_end: int) -> int | None:
    """Where the top copy's last test leaves, where it is laid out as a test into the
    body over a jump out (3.12+, whose conditional jumps only go forward, where the
    loop's exit is behind it: an outer loop's next round, which that loop's own jump
    back past this loop shows); None where it is not."""
    jump, test = instrs[top_end], instrs[top_end - 1] if top_end else None
    if test is None or test.op not in CONDITIONS or test.target != body:
        return None
    if jump.op != "JUMP" or jump.target is None or jump.target > top_end:
        return None
    if jump.handler != test.handler:
        return None
    goes_round = any(i.target == jump.target for i in instrs[bottom_end + 1 :] if i.op == "JUMP")
    return jump.target if goes_round else None


def _test_length(
    instrs, top_end: int, bottom_end: int, back: int, body: int, top_exit: int | None = None
) -> tuple[int, int]:
    """How many instructions the test ending at ``top_end`` repeats before ``bottom_end``
    (0: none), and where the repeated copy starts. The top copy jumps to the exit when
    the test fails and falls into the body (or, ``top_exit``, jumps into the body when
    it holds, over a jump there); the bottom copy goes to ``back`` (the body, or a jump
    there) when it holds and to the exit otherwise."""
    top, bottom = instrs[top_end] if top_end >= 0 else None, instrs[bottom_end]
    if top is None or top.handler != bottom.handler:
        return 0, bottom_end
    top_op, top_target = top.op, top.target
    if top_exit is not None:
        top_op, top_target = OPPOSITE[top.op], top_exit
    if back == bottom.target:  # jumps back when the test holds: the exit follows
        same_sense, exit_ = OPPOSITE.get(top_op) == bottom.op, bottom_end + 1
    else:
        same_sense, exit_ = top_op == bottom.op, bottom.target
    if not same_sense or not _same_exit(instrs, top_target, exit_):
        return 0, bottom_end
    copy_of = {top_end: bottom_end}  # an agreeing instruction of the top copy -> its copy
    i, j = top_end - 1, bottom_end - 1
    while i >= 0 and j >= body:
        a = instrs[i]
        if _agree(instrs, a, instrs[j], copy_of, body, back):
            copy_of[i], i, j = j, i - 1, j - 1
        elif j - 1 >= body and _inverted(instrs, a, instrs[j - 1], instrs[j], body):
            copy_of[i], i, j = j - 1, i - 1, j - 2
        elif stub := _exit_stub(instrs, j, body, exit_):
            j -= stub
        elif i >= 1 and (swapped := _swapped(instrs, i, j, body, exit_)):
            copy_of[i - 1], copy_of[i] = j + 1 - swapped, j
            i, j = i - 2, j - swapped
        else:
            break
    agreeing = top_end - i
    for length in range(agreeing, 0, -1):
        run = instrs[top_end - length + 1 : top_end + 1]
        targets = {
            i.target: instrs[i.target].op
            for i in run
            if i.target is not None and i.target < len(instrs)
        }
        if _is_condition(run, targets):
            # an agreeing test before it is part of this one, read otherwise: not the loop's
            partial = length < agreeing and instrs[top_end - length].op in CONDITIONS
            return (0, bottom_end) if partial else (length, copy_of[top_end - length + 1])
    return 0, bottom_end


def _agree(instrs, a: Instr, b: Instr, copy_of: dict, body: int, back: int) -> bool:
    if a.op != b.op or a.handler != b.handler:
        return False
    if a.target is None or b.target is None:
        return a.target is None and b.target is None and value_key(a.argval) == value_key(b.argval)
    inside = a.index < a.target < body and copy_of.get(a.target) == b.target
    # (3.12+: a jump straight to the body from inside the copy, not only the last one)
    to_body = a.target == body and b.target in (back, body)
    return inside or to_body or _same_exit(instrs, a.target, b.target)


def _inverted(instrs, a: Instr, test: Instr, jump: Instr, body: int) -> bool:
    """Whether ``test`` and ``jump`` are the copy of ``a``, a jump into the body or out
    of the loop, laid out as 3.12+ do in the bottom copy (conditional jumps only go
    forward): the opposite test jumps over a jump back to the body, or to the exit."""
    return (
        a.op in CONDITIONS
        and test.op == OPPOSITE[a.op]
        and test.target == jump.index + 1
        and jump.op == "JUMP"
        and a.handler == test.handler == jump.handler
        and (
            (a.target == body and jump.target == body)
            or (a.target > body and _same_exit(instrs, a.target, jump.target))
        )
    )


def _exit_stub(instrs, j: int, body: int, exit_: int) -> int:
    """How many instructions, ending at ``j``, of the bottom copy are a way out of the
    loop that the top copy has no counterpart for (0: none): 3.12+ send a test that
    jumps forward out of the loop from inside the copy to a lone jump out, or to a
    copy of the small block after the loop, laid out after a jump back to the body
    (``while (a if x else b):``), where the top copy's test jumps out itself."""
    start = _way_out(instrs, j, body, exit_)
    if start is None or instrs[start - 1].op != "JUMP" or instrs[start - 1].target != body:
        return 0
    return j + 1 - start


def _swapped(instrs, i: int, j: int, body: int, exit_: int) -> int:
    """How many instructions, ending at ``j``, of the bottom copy are the top copy's
    test out of the loop and jump into the body at ``i - 1, i`` laid out the other way
    round: the opposite test into the body, then the way out (0: they are not). One
    arm of ``while (a if x else b):`` on 3.10 and 3.11."""
    test, jump = instrs[i - 1], instrs[i]
    if not (
        test.op in CONDITIONS
        and jump.op == "JUMP"
        and jump.target == body
        and test.handler == jump.handler
        and _same_exit(instrs, test.target, exit_)
    ):
        return 0
    start = _way_out(instrs, j, body, exit_)
    if start is None:
        return 0
    copy_test = instrs[start - 1]
    if copy_test.op != OPPOSITE[test.op] or copy_test.target != body:
        return 0
    return j + 2 - start if copy_test.handler == test.handler else 0


def _way_out(instrs, j: int, body: int, exit_: int) -> int | None:
    """Where the way out of the loop that ends at ``j`` starts, inside the bottom copy:
    a lone jump out, or a copy of the small block after the loop; None if it is not."""
    if instrs[j].op not in LEAVES:
        return None
    for start in range(j, max(j - COPIED_EXIT_LENGTH, body), -1):
        before = instrs[start - 1]
        if before.target is not None or before.op in LEAVES:
            if not all(x.target is None for x in instrs[start:j]):
                return None
            return start if _same_exit(instrs, start, exit_) else None
    return None


def _same_exit(instrs, a: int | None, b: int) -> bool:
    """Whether jumping to ``a`` and to ``b`` is the same: the same place, or two copies
    of one small block that returns, re-raises or goes on to one place (lone jumps
    followed: 3.12+ leave one where a test's jump would go backwards)."""
    if a is None or a > len(instrs) or b > len(instrs):
        return a == b
    for _ in range(COPIED_EXIT_LENGTH):
        a, b = _past_jumps(instrs, a), _past_jumps(instrs, b)
        if a == b:
            return True
        if a >= len(instrs) or b >= len(instrs):
            return False
        x, y = instrs[a], instrs[b]
        if x.op != y.op or value_key(x.argval) != value_key(y.argval) or x.target is not None:
            return False
        if x.handler != y.handler:
            return False
        if x.op in ("RETURN_VALUE", "RERAISE"):  # (the exceptional copy of a finally body)
            return True
        a, b = a + 1, b + 1
    return False


def _past_jumps(instrs, x: int, steps: int = 4) -> int:
    """Where going to ``x`` goes: past the lone jumps there."""
    for _ in range(steps):
        if x >= len(instrs) or instrs[x].op != "JUMP" or instrs[x].target is None:
            break
        x = instrs[x].target
    return x


def _is_condition(run: list[Instr], chain_ends: dict[int, str]) -> bool:
    """Whether ``run`` computes and tests values from an empty stack, one at each jump
    (``chain_ends``: the first instruction at the places its jumps go)."""
    depth = 0
    for n, ins in enumerate(run):
        if ins.op == "COPY" and ins.arg == 1 and n + 1 < len(run) and run[n + 1].op in STORES:
            continue
        if ins.op in STORES and n and run[n - 1].op == "COPY":
            continue
        if ins.op in CONDITIONS:
            # (a chained comparison failing early leaves its middle operand for the
            # end it jumps to to pop)
            if depth != 1 and not (depth > 1 and chain_ends.get(ins.target) == "POP_TOP"):
                return False
            depth -= 1
            continue
        if ins.op == "JUMP" and depth == 0 and ins.target is not None:
            # (one arm of a conditional test, held: on to the body past the other arm;
            # or a test's way out behind, the test jumping over it: 3.12+)
            over = n and run[n - 1].op in CONDITIONS and run[n - 1].target == ins.index + 1
            if ins.target <= run[-1].index and not over:
                return False
            continue
        if ins.op in ("COPY", "SWAP"):  # (a chained comparison keeps its middle operand)
            if ins.arg is None or depth < ins.arg:
                return False
            depth += ins.op == "COPY"
            continue
        effect = value_effect(ins)
        if effect is None:
            return False
        depth += effect
        if depth < 0:
            return False
    return depth == 0
