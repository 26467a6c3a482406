"""Code after a try or a loop that the compiler copies to where it would jump.

The compiler replaces a jump to a small block that returns or raises (at most four
raw instructions) by a copy of that block:

- 3.12 copies the code after a try to the end of its except clauses. An except
  clause that goes on to such code then ends with ``POP_EXCEPT``, the clearing of
  its ``as`` name, and the copy. The one original laid out last before the clause
  (3.12 lays handlers out after other code) that starts a block (it is jumped to,
  or the try's protection ends there) is where the try goes on. 3.10 copies it there
  too, past the clause's ``POP_EXCEPT``; where the clause ends in an if, each of its
  ends jumps to one copy. Where the try's else ends with a copy as well, no original
  is left: a copy with the same source lines (a statement written in the clause has
  its own) stands for it, the else's. Where none is left at all (the body never goes
  on to that code: ``try: return f()``, ``except A: ...``, ``except B: ...``, then
  ``raise E``), the first copy of that line's code stands for the others, when it
  calls or raises: written in each clause, it would see the exception the clause
  handles. The code may be a ``del``, a call statement or a store (of a name, an
  attribute or an item) before the return, or a bare raise (only the same statement,
  by its line, stands for it: it re-raises what is handled where it runs); in a for
  loop the return pops the iterators first, and a copy that does leaves as many
  loops as the original it is sent to.
- Every version copies the code after a for loop to a ``break``, which then ends
  with the ``POP_TOP`` of the iterator and the copy (``return`` inside the loop
  pops the iterator after computing its value, so it never looks like this). The
  original is where the loop goes when the iterator is exhausted.
- 3.10 and 3.12+ copy the code after a while loop to a ``break`` too, with nothing
  popped first; the copy keeps the source line of what it copies, which tells it
  from a ``return`` written in the loop. When nothing else reaches that code (a
  ``while True`` loop), no original is left; the loop builder then takes the copy
  itself for the code after the loop (``copied_after_endless_loop``).

- 3.10 and 3.12+ copy what follows a chained comparison used as a value
  (``return a < b < c``; ``f(a < b < c)`` ending a finally body's exception copy,
  which re-raises) to the arm where the chain holds, which would jump over the
  block that pops the middle operand where it fails; the original follows that
  block.

- 3.13 also copies a block with no source line of its own that does not fall
  through (an except clause's ``POP_EXCEPT``, the clearing of its name and the jump
  on) into every unconditional jump to it, of any length: a branch that goes to the
  end of a clause, or a break out of a loop in it, then ends with its own copy of
  that end, which is no longer where the branches meet or the loop goes on
  (``inlined_copies``). Two clauses of one try can end alike, and so look like
  copies of one another, so the graph sends these copies to their original only for
  a second reading, where the first fails.

The control-flow graph sends each copy to its original instead, so the paths meet
there, as written, and a break inside a with body is a break again rather than a
return after ``__exit__``. Any original will do for meaning: both compute what they
return or raise from nothing on the stack, under the same handler.
"""

from __future__ import annotations

import bisect
import dis

from ..bytecode.constants import value_key
from ..bytecode.effects import value_effect
from ..bytecode.instructions import Instr, SourceLines
from ..bytecode.opcodes import CALL_PLAIN, JUMPS, NO_FALLTHROUGH, YIELD_FROM
from ..bytecode.versions import LINELESS_BLOCKS_INLINED

EXITS = {"RETURN_VALUE", "RAISE_VARARGS"}
BLIND = {"LOAD_CONST", "LOAD_FAST", "BUILD_TUPLE", "RETURN_VALUE"}  # see no exception
WAYS_ON = {"JUMP", "RETURN_VALUE"}  # how a block 3.13 inlines into jumps ends
LONGEST_COPY = 4  # raw instructions the compiler copies
STORES = {"STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"}
DELETES = {"DELETE_FAST", "DELETE_NAME", "DELETE_DEREF", "DELETE_GLOBAL"}
# ``x.a = v``, ``del x.a``, ``x[k] = v``, ``del x[k]``: the values each takes
ITEM_STATEMENTS = {"STORE_ATTR": -2, "DELETE_ATTR": -1, "STORE_SUBSCR": -3, "DELETE_SUBSCR": -2}


def copied_clause_tails(instrs: list[Instr], lines: SourceLines | None = None) -> dict[int, int]:
    """Where each clause goes on to a copy -> first instruction of its original."""
    copies = {}  # where the clause goes on -> (its copy's first instruction, length)
    jumpers: dict[int, set[int]] = {}  # jump target -> the instructions jumping there
    for ins in instrs:
        if ins.target is not None:
            jumpers.setdefault(ins.target, set()).add(ins.index)
    clause_ends = {_after_cleanup(instrs, i.index + 1) for i in instrs if i.op == "POP_EXCEPT"}
    fors = _for_loops(instrs)
    loops = sum(ins.op == "FOR_ITER" for ins in instrs)  # (iterators a copy may pop)
    for ins in instrs:
        if ins.op == "POP_EXCEPT":
            leave = _after_cleanup(instrs, ins.index + 1)
            start = _past_jump_on(instrs, leave, jumpers, clause_ends, loops)
            length = _clause_copy_length(instrs, start, loops)
            if not length:
                continue
            # a finally's copy runs under the handler for the finally, unlike the clause
            ran = [*instrs[ins.index : leave + 1], *instrs[start : start + length]]
            if all(i.handler == ins.handler for i in ran):
                copies[leave if start > leave + 1 else start] = (start, length)
    firsts = {start for start, _ in copies.values()}
    exits = [ins.index for ins in instrs if ins.op in EXITS]  # where originals end
    targets = {ins.target for ins in instrs if ins.target is not None}
    found, alone = {}, {}
    exits_at: dict = {}  # source line -> exits ending there
    for end in exits if lines is not None else ():
        exits_at.setdefault(lines.at(instrs[end].offset), []).append(end)
    for leave, (start, length) in copies.items():
        alike = list(_originals(instrs, start, length, firsts, exits, targets))
        if lines is not None:
            alike += _copied_alike(instrs, start, length, firsts, exits_at, lines)
        sure = (j for j in alike if _stands_for(instrs, fors, lines, start, length, j))
        original = next(sure, None)
        if original is not None:
            found[leave] = original
        elif lines is not None and _sees_the_exception(instrs[start : start + length]):
            # No original left: the body never goes on to that code, only the clauses
            # do. Copies of one line's code are copies of the one statement after the
            # try, and the first stands for the others, a block of its own where the
            # clauses go on; written in a clause, it would see the handled exception.
            key = (lines.at(instrs[start].offset), *_instructions(instrs[start : start + length]))
            found[leave] = alone.setdefault(key, start)
    return found


def _instructions(run) -> list[tuple]:
    """What a run of instructions does, for comparing copies."""
    return [(i.op, value_key(i.argval), i.handler) for i in run]


def _clause_copy_length(instrs, start: int, loops: int) -> int:
    """``copy_length`` (popping at most ``loops`` iterators), or 1 for a bare raise: at
    a clause's end, past its ``POP_EXCEPT``, only a copy of one after the try can be
    (written in the clause, it raises before the ``POP_EXCEPT``)."""
    if start < len(instrs) and instrs[start].op == "RAISE_VARARGS" and not instrs[start].arg:
        return 1
    return copy_length(instrs, start, loops)


def _stands_for(instrs, fors, lines, start: int, length: int, j: int) -> bool:
    """Whether the exit at ``j``, the same instructions as the copy at ``start``, means
    the same there: one that pops iterators leaves as many for loops; a bare raise
    re-raises what is handled where it runs, so only the same statement (its line:
    the one after the try, or another copy of it) will do."""
    copy = instrs[start : start + length]
    if copy[-1].op == "RAISE_VARARGS" and not copy[-1].arg:
        return lines is not None and lines.at(instrs[j].offset) == lines.at(copy[0].offset)
    popped = -sum(_effect(i) for i in copy)
    return not popped or _loops_around(fors, j) == popped


def _loops_around(fors, i: int) -> int:
    """How many for loops are around instruction ``i``."""
    count = 0
    while fors[i] is not None:
        count, i = count + 1, fors[i]
    return count


def copied_loop_exits(instrs: list[Instr]) -> dict[int, int]:
    """First instruction of each copy of a for loop's exit -> the exit's first."""
    found, fors = {}, _for_loops(instrs)
    clause = None  # the except clause (its PUSH_EXC_INFO) laid out last before it
    for ins in instrs:
        if ins.op == "PUSH_EXC_INFO":
            clause = ins.index
        elif ins.op == "POP_TOP":
            start = ins.index + 1
            length = copy_length(instrs, start)
            if not length:
                continue
            around = fors[ins.index]
            if around is not None and start < instrs[around].target:
                loop = instrs[around]
            elif clause is not None and _ends_clause(instrs, ins.index):
                # 3.12+ lay an except clause out after the loop its try is in
                loop = _loop_around_try(instrs, clause)
            else:
                continue
            original = instrs[loop.target : loop.target + length] if loop else []
            copy = instrs[start : start + length]
            if len(original) == length and all(map(same_instruction, original, copy)):
                found[start] = loop.target
    return found


def copied_while_exits(instrs: list[Instr], lines: SourceLines) -> dict[int, int]:
    """First instruction of each copy of the code after a while loop -> its original's.

    A ``break`` in a while loop gets a copy of the small exit after the loop, as in a
    for loop, but with no ``POP_TOP`` to tell it from a ``return`` written there: the
    copy keeps the line of the code it copies, which a statement written inside the
    loop cannot have. Only an original under the same for loops is taken, so the
    stack is the same at both.
    """
    ends: dict[int, int] = {}  # loop start -> its last backward jump
    reached = _normally_reached(instrs)
    for ins in instrs:  # (3.11+ also jump back from an except clause: not a loop)
        if ins.target is not None and ins.target <= ins.index and reached[ins.index]:
            ends[ins.target] = max(ends.get(ins.target, 0), ins.index)
    if not ends:
        return {}
    originals: dict[int | None, list[int]] = {}  # line -> exits that end there
    for ins in instrs:
        if ins.op in EXITS:
            originals.setdefault(lines.at(ins.offset), []).append(ins.index)
    fors, found = _for_loops(instrs), {}
    loops: list[int] = []  # starts of the loops around the instruction, innermost last
    for ins in instrs:
        while loops and ins.index > ends[loops[-1]]:
            loops.pop()
        if ins.index in ends:
            loops.append(ins.index)
        start = ins.index
        if not loops or ins.offset not in lines.starts:
            continue  # a copy starts the line of the code it copies
        if _after_test_chain_end(instrs, start):
            continue  # the loop test's own way out, laid out before the body
        length = copy_length(instrs, start)
        if not length:
            continue
        copy, after = instrs[start : start + length], ends[loops[-1]]
        line = lines.at(ins.offset)
        for end in originals.get(lines.at(copy[-1].offset), ()):
            j = end + 1 - length
            if j <= after or fors[j] != fors[start] or lines.at(instrs[j].offset) != line:
                continue
            if all(map(same_instruction, instrs[j : end + 1], copy)):
                found[start] = j
                break
    return found


def inlined_copies(instrs: list[Instr], lines: SourceLines, lost: bool = False) -> dict[int, int]:
    """3.13: first instruction of each copy of a block the compiler inlined into an
    unconditional jump to it -> the first of that block. The block is the compiler's
    own code (``_compilers_end``), jumped to (or following an ``async for``'s end),
    and jumps on; a copy is the same instructions under the same handlers, going to
    the same place, at the end of a block that runs on into it and that nothing jumps
    into. ``lost``: also where every way to an except clause's end was such a jump,
    so no original is left (the first copy laid out stands for it), ends that return,
    and copies jumped to (3.13 also copies such a block for each conditional jump to
    it). Running one in another's place runs the same instructions, so any match
    keeps the meaning."""
    if not LINELESS_BLOCKS_INLINED:
        return {}
    jumped = {ins.target for ins in instrs if ins.target is not None}
    starts = jumped | {ins.index + 1 for ins in instrs if ins.op == "END_ASYNC_FOR"}
    if lost:
        starts |= {ins.index for ins in instrs if ins.op == "POP_EXCEPT"}

    def rank(j: int) -> tuple[bool, int]:  # the first stands for the others
        return j not in jumped, j

    originals: dict[tuple, list[tuple[int, int]]] = {}  # how one ends -> (start, length)
    for j in sorted(starts - {len(instrs)}, key=rank):
        end = _compilers_end(instrs, lines, j)
        if end is not None and (lost or instrs[end].op == "JUMP"):
            originals.setdefault(_ending(instrs[end]), []).append((j, end + 1 - j))
    found = {}
    for ins in instrs:
        for j, length in originals.get(_ending(ins), ()):
            k = ins.index + 1 - length
            if k <= 0 or rank(j) >= rank(k) or not _same_run(instrs, j, k, length):
                continue
            if lost or (k not in jumped and instrs[k - 1].op not in NO_FALLTHROUGH):
                found[k] = j
                break
    return found


def _compilers_end(instrs, lines, j: int) -> int | None:
    """The last instruction of the straight run from ``j`` to a jump or a return,
    where that run is the compiler's own code: none of it has a source line, or it is
    an except clause's end (its ``POP_EXCEPT``, which takes the line of what runs on
    into it, and the code after the try that 3.12+ copy there); else None."""
    own = instrs[j].op == "POP_EXCEPT"
    for i in range(j, len(instrs)):
        ins = instrs[i]
        if not own and lines.at(ins.offset) is not None:
            return None
        if ins.op in WAYS_ON:
            return i
        if ins.target is not None or ins.op in NO_FALLTHROUGH:
            return None
    return None


def _ending(ins: Instr) -> tuple:
    """What tells one run's last instruction, a jump or a return, from another's."""
    return (ins.op, ins.target, ins.handler)


def _same_run(instrs, j: int, k: int, length: int) -> bool:
    """Whether the ``length`` instructions from ``k`` are those from ``j``."""
    return all(
        same_instruction(a, b) and a.target == b.target
        for a, b in zip(instrs[j : j + length], instrs[k : k + length])
    )


def _after_test_chain_end(instrs, start: int) -> bool:
    """Whether ``start`` follows the end of a chained comparison that fails early in a
    test (``... POP_JUMP_IF_FALSE exit; JUMP body; POP_TOP``): the compiler lays it out
    between a while loop's test and its body, and the code after it is where the test
    leaves the loop, which a ``continue`` jumping back to the test puts inside the loop
    too (seed 73): no break's copy."""
    if start < 3:
        return False
    test, jump, pop = instrs[start - 3 : start]
    return (
        pop.op == "POP_TOP"
        and jump.op == "JUMP"
        and jump.target is not None
        and jump.target > start
        and test.op in JUMPS
        and test.op != "JUMP"
    )


def copied_chain_ends(instrs: list[Instr]) -> dict[int, int]:
    """First instruction of each copy -> first instruction of its original, for the
    copies of what follows a chained comparison used as a value: the chain's arm that
    holds ends with the same exit as follows the ``SWAP 2, POP_TOP`` that its failing
    comparisons jump to."""
    keeps = {}  # where a value-keeping jump that ends a comparison goes
    for ins in instrs:
        before = instrs[ins.index - 1 : ins.index]
        if ins.op == "POP_JUMP_IF_FALSE" and [i.op for i in before] == ["COPY"]:
            before = instrs[ins.index - 2 : ins.index - 1]  # 3.12+: ``COPY 1`` first
        elif ins.op != "JUMP_IF_FALSE_OR_POP":
            continue
        if before and before[0].op in COMPARISONS:
            keeps[ins.target] = ins.index
    found = {}
    for cleanup in keeps:
        pops = instrs[cleanup : cleanup + 2]
        if [(i.op, i.arg) for i in pops] != [("SWAP", 2), ("POP_TOP", None)]:
            continue
        start = cleanup + 2
        # (a finally body's exceptional copy ends with its RERAISE: the exception
        # stays below the chain's value, alike on both arms; in a module or class body
        # the original may itself be a copy of the implicit return, made a jump)
        length = _tail_length(instrs, start, EXITS | {"RERAISE"})
        length = length or _jumping_tail_length(instrs, start)
        copy = _copy_before(instrs, cleanup, start, length)
        if copy is not None and copy > keeps[cleanup]:
            found[copy] = start
    return found


def _copy_before(instrs, end: int, start: int, length: int) -> int | None:
    """Where the copy of the ``length`` instructions from ``start`` that ends right
    before ``end`` starts, or None. In a module or class body the copy may end with a
    jump into the original instead (3.10's copies of the implicit ``return None``
    are jumps to its last copy again, ``py310_exits``): the copy is what comes before."""
    last = instrs[end - 1] if length else None
    if last is not None and last.op == "JUMP" and start < last.target < start + length:
        length, end = last.target - start, end - 1
    copy = end - length
    original = instrs[start : start + length]
    if not length or not all(map(same_instruction, instrs[copy:end], original)):
        return None
    if any(a.target != b.target for a, b in zip(instrs[copy:end], original)):
        return None  # (a jump on: to the same place)
    if instrs[copy].handler != instrs[start].handler:
        return None  # (an exit under another handler is another exit)
    return copy


COMPARISONS = {"COMPARE_OP", "IS_OP", "CONTAINS_OP"}


def copied_value_tails(instrs: list[Instr]) -> dict[int, int]:
    """First instruction of each copy -> first instruction of its original, for the
    copies of what uses a conditional expression's value when that use is also where
    a ``JUMP_IF_*_OR_POP`` (3.12+: ``COPY 1``, a test, ``POP_TOP``) of an enclosing
    ``and`` / ``or`` goes: ``x = a or (c if d else e)`` at the end of a module. The
    compiler copies that use (``STORE_NAME x; RETURN_CONST None``; 3.10: the store and
    a jump to the return) into the arm laid out first, which then never meets the
    other arm or the ``or``."""
    targets = {ins.target for ins in instrs if ins.target is not None}
    found = {}
    for ins in instrs:
        if ins.target is None or ins.op == "JUMP" or ins.target <= ins.index + 2:
            continue
        other = ins.target  # the arm laid out second
        for copy in range(ins.index + 2, other):  # the longest tail that fits first
            if not _pushes_one(instrs, ins.index + 1, copy):
                continue
            tail = instrs[copy:other]
            if not _is_used_tail(instrs, copy, tail):
                continue
            original = _used_after_arm(instrs, other, tail, targets)
            if original is not None:
                found[copy] = original
                break
    return found


def _is_used_tail(instrs, start: int, tail) -> bool:
    """Whether ``tail`` (from ``start``) runs straight to a return or raise, or stores
    and jumps on: short enough for the compiler to have copied it."""
    if tail[-1].op == "JUMP":
        body = tail[:-1]
        return 0 < len(body) <= LONGEST_COPY and all(
            i.target is None and i.op not in NO_FALLTHROUGH for i in body
        )
    return _tail_length(instrs, start) == len(tail)


def _pushes_one(instrs, start: int, end: int) -> bool:
    """Whether instructions [start, end) only compute, and push one value."""
    depth = 0
    for ins in instrs[start:end]:
        effect = value_effect(ins)
        if effect is None or ins.target is not None:
            return False
        depth += effect
        if depth < 0:
            return False
    return depth == 1


def _used_after_arm(instrs, arm: int, tail, targets) -> int | None:
    """Where the arm starting at ``arm`` pushes its one value and goes on into the
    same ``tail`` (one that jumps on: the same instructions, then where it jumps),
    when something else jumps there too; else None."""
    jumps = tail[-1].op == "JUMP"
    same = tail[:-1] if jumps else tail
    for end in range(arm + 1, min(arm + 2 * LONGEST_COPY + 1, len(instrs))):
        if not _pushes_one(instrs, arm, end):
            continue
        after = instrs[end : end + len(same)]
        if end not in targets or len(after) != len(same):
            continue
        if all(map(same_instruction, after, same)) and (
            not jumps or tail[-1].target == end + len(same)
        ):
            return end
    return None


def _tail_length(instrs, start: int, exits=EXITS) -> int:
    """Instructions from ``start`` to the first return or raise (one of ``exits``), when
    they run straight through and are few enough for the compiler to copy; else 0."""
    offsets = set()
    for i in range(start, min(start + 2 * LONGEST_COPY, len(instrs))):
        ins = instrs[i]
        offsets.add(ins.offset)
        if len(offsets) > LONGEST_COPY or ins.target is not None:
            return 0
        if ins.op in exits:
            return i + 1 - start
    return 0


def _jumping_tail_length(instrs, start: int) -> int:
    """Instructions from ``start`` through a jump on, when those before it run
    straight through and are few enough for the compiler to copy; else 0."""
    for i in range(start, min(start + LONGEST_COPY + 1, len(instrs))):
        ins = instrs[i]
        if ins.op == "JUMP":
            return i + 1 - start if i > start else 0
        if ins.target is not None or ins.op in NO_FALLTHROUGH:
            return 0
    return 0


def _normally_reached(instrs) -> list[bool]:
    """Which instructions run without an exception raised on the way."""
    reached, todo = [False] * len(instrs), [0]
    while todo:
        i = todo.pop()
        if i >= len(instrs) or reached[i]:
            continue
        reached[i] = True
        ins = instrs[i]
        if ins.target is not None:
            todo.append(ins.target)
        if ins.op not in NO_FALLTHROUGH:
            todo.append(i + 1)
    return reached


def _for_loops(instrs) -> list[int | None]:
    """For each instruction, the FOR_ITER of the innermost for loop around it."""
    out, loops = [], []
    for ins in instrs:
        while loops and ins.index >= instrs[loops[-1]].target:
            loops.pop()
        out.append(loops[-1] if loops else None)
        if ins.op == "FOR_ITER" and ins.target is not None:
            loops.append(ins.index)
    return out


def copied_after_endless_loop(instrs, lines: SourceLines, raw: bytes, copy, body) -> bool:
    """Whether ``copy`` (a range of instructions), where a ``while True`` loop goes
    from one place only, is the code written after the loop copied to its ``break``.
    The copy keeps its line, which comes after every line of the loop (``body``:
    ranges of instructions), and the break's own line leaves a NOP just before it."""
    if exit_length(instrs, copy.start) != len(copy):
        return False
    offset = instrs[copy.start].offset
    line = lines.at(offset)
    if line is None or offset < 2 or raw[offset - 2] != _NOP:
        return False
    return all((lines.at(instrs[i].offset) or 0) < line for part in body for i in part)


_NOP = dis.opmap["NOP"]


def _ends_clause(instrs, i: int) -> bool:
    """Whether instruction ``i`` directly follows the end of an except clause: its
    ``POP_EXCEPT``, then the clearing of its ``as`` name if it has one."""
    if i >= 4 and instrs[i - 1].op in DELETES:
        i -= 3
    return i >= 1 and instrs[i - 1].op == "POP_EXCEPT"


def _loop_around_try(instrs, clause: int) -> Instr | None:
    """The innermost for loop around the first instruction that the except clause
    starting at ``clause`` protects."""
    protected = next((i.index for i in instrs if i.handler and i.handler.target == clause), None)
    if protected is None:
        return None
    loops = [i for i in instrs[:protected] if i.op == "FOR_ITER" and i.target is not None]
    around = [loop for loop in loops if loop.target > protected]
    return around[-1] if around else None


def _after_cleanup(instrs, i: int) -> int:
    """Past ``name = None; del name``, which ends a clause that binds a name."""
    while (
        i + 2 < len(instrs)
        and instrs[i].op == "LOAD_CONST"
        and instrs[i].argval is None
        and instrs[i + 1].op in STORES
        and instrs[i + 2].op in DELETES
        and instrs[i + 1].argval == instrs[i + 2].argval
    ):
        i += 3
    return i


def _past_jump_on(instrs, i: int, jumpers: dict, clause_ends: set[int], loops: int) -> int:
    """Past a jump on to a copy of the code after the try that only ends of except
    clauses reach: 3.10's clause falls into the code after the try, or a copy of it,
    and its translation jumps there (as 3.11 would) so that code starts a block; where
    the clause ends in an if, each of its ends jumps to one copy. A copy is still a
    copy, run after the clause. (Where other code jumps or runs on to it too, it is
    where they meet, and stays so.)"""
    ins = instrs[i] if i < len(instrs) else None
    if ins is None or ins.op != "JUMP" or ins.target <= i:
        return i
    to = ins.target
    if not jumpers[to] <= clause_ends:
        return i
    if to != i + 1 and instrs[to - 1].op not in NO_FALLTHROUGH:
        return i
    # (only a copy that could see the handled exception, a call or a raise, must leave
    # the clause: one that returns locals and constants reads as written there)
    copy = instrs[to : to + _clause_copy_length(instrs, to, loops)]
    return to if _sees_the_exception(copy) else i


def _sees_the_exception(copy) -> bool:
    """Whether a copy of the code after a try could see the exception a clause
    handles, were it written inside the clause: it calls or raises."""
    return any(x.op not in BLIND for x in copy)


# 3.10's normal exit from a with body: ``__exit__(None, None, None)``, result dropped.
WITH_EXIT_CALL = [
    ("LOAD_CONST", None),
    ("COPY", 1),
    ("COPY", 1),
    (CALL_PLAIN, 3),
    ("POP_TOP", None),
]
# ``async with``: the call's result awaited first
ASYNC_WITH_EXIT_CALL = [
    *WITH_EXIT_CALL[:-1],
    ("GET_AWAITABLE", None),
    (YIELD_FROM, None),
    ("POP_TOP", None),
]


def copied_with_exits(instrs: list[Instr], lines: SourceLines) -> dict[int, int]:
    """3.10: first instruction of each copy of a with statement's normal exit and the
    small exit after it -> first instruction of the one laid out first. 3.10 copies both
    to where the body ends and to the end of each except clause inside it that goes on
    there, so the paths that meet after the with would not. The code after the with
    has a line of its own; a return written inside the body, which also calls the exit
    first, has the with statement's line, and stays where it was written."""
    originals: dict[tuple, int] = {}
    found = {}
    starts = {ins.target for ins in instrs if ins.target is not None}
    for i in range(len(instrs) - len(WITH_EXIT_CALL)):
        if instrs[i + 3].op != CALL_PLAIN:  # (the cheap test first: this runs per instruction)
            continue
        for call in (WITH_EXIT_CALL, ASYNC_WITH_EXIT_CALL):
            run = instrs[i : i + len(call)]
            if [(x.op, x.arg if x.op != "LOAD_CONST" else x.argval) for x in run] == call:
                break
        else:
            continue
        start = i + len(call)
        length = exit_length(instrs, start)
        if not length or lines.at(instrs[start].offset) == lines.at(instrs[i].offset):
            continue
        key = tuple(
            (ins.op, value_key(ins.argval), ins.handler) for ins in instrs[i : start + length]
        )
        if key not in originals:
            originals[key] = i
        elif i in starts:  # a jump goes to the copy: send it to the original
            found[i] = originals[key]
    return found


def copy_length(instrs, start: int, below: int = 0) -> int:
    """``exit_length``, but 0 for ``return <constant>`` (past the iterators it pops):
    written in place, a return compiles to the same, so it is no sign of a copy."""
    length = exit_length(instrs, start, below)
    kept = [i.op for i in instrs[start : start + length] if i.op != "POP_TOP"]
    return 0 if len(kept) <= 2 and kept[:1] == ["LOAD_CONST"] else length


def exit_length(instrs, start: int, below: int = 0) -> int:
    """Instructions of the exit starting at ``start`` that computes what it returns or
    raises from nothing on the stack (so any copy of it means the same), or 0. It may
    pop up to ``below`` values under it (the iterators of the for loops it leaves),
    which it never reads, after a statement: a break's copy of the code after the
    loop pops its iterator first, and is no copy of the code after a try."""
    offsets, depth, floor = set(), 0, 0
    for i in range(start, len(instrs)):  # (a slice would copy the rest: quadratic)
        ins = instrs[i]
        offsets.add(ins.offset)
        effect = _effect(ins)
        if len(offsets) > LONGEST_COPY or effect is None or ins.target is not None:
            return 0
        depth += effect
        if depth < floor and ins.op == "POP_TOP" and depth >= -below and i > start:
            floor = depth  # (popped from under the exit: not first, as a break's copy)
        if depth < floor:
            return 0
        if ins.op in EXITS:
            return ins.index + 1 - start if depth == floor else 0
    return 0


def _effect(ins) -> int | None:
    """Stack effect of the instructions a small exit is made of; None for others."""
    if ins.op in STORES:
        return -1
    if ins.op in DELETES:  # (``del name`` after the try: a statement like a store)
        return 0
    if ins.op in ITEM_STATEMENTS:
        return ITEM_STATEMENTS[ins.op]
    if ins.op == "POP_TOP":  # (a call's value, or an iterator ``exit_length`` allows)
        return -1
    effect = value_effect(ins)
    if effect is not None:
        return effect
    return {
        "BUILD_TUPLE": 1 - (ins.arg or 0),
        "RETURN_VALUE": -1,
        "RAISE_VARARGS": -ins.arg if ins.arg else None,  # (a bare raise depends on where)
    }.get(ins.op)


def _originals(instrs, start: int, length: int, copies, exits, targets):
    """The exits before ``start`` that start a block and are what it copies, nearest
    first."""
    copy = instrs[start : start + length]
    for end in reversed(exits[: bisect.bisect_left(exits, start)]):
        j = end + 1 - length
        if j <= 0 or j in copies:
            continue
        starts = j in targets or instrs[j - 1].handler != instrs[j].handler
        if starts and all(map(same_instruction, instrs[j : end + 1], copy)):
            yield j


def _copied_alike(instrs, start: int, length: int, copies, exits_at, lines) -> list[int]:
    """Another copy of the same statement, where none is left on its own: 3.10 and 3.12
    copy the code after a try to the end of the try's else as well as of a clause, and
    the else's falls through from it. A statement keeps its source line in each copy;
    one written in a clause has its own. Each computes what it returns or raises from
    nothing, under the same handler, so any that no clause ends with will do (the
    nearest before, else after)."""
    copy = instrs[start : start + length]
    where = [lines.at(i.offset) for i in copy]
    kept = [
        j
        for end in exits_at.get(where[-1], ())
        if (j := end + 1 - length) > 0
        and j not in copies
        and all(map(same_instruction, instrs[j : end + 1], copy))
        and [lines.at(i.offset) for i in instrs[j : end + 1]] == where
    ]
    before = [j for j in kept if j < start]
    return [*reversed(before), *(j for j in kept if j > start)]


def same_instruction(a: Instr, b: Instr) -> bool:
    return a.op == b.op and value_key(a.argval) == value_key(b.argval) and a.handler == b.handler
