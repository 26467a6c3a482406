"""3.10's copies of small exit blocks, turned back into jumps to the block they copy.

Where a block ends by jumping to a block of at most four instructions that returns or
raises, the 3.10 compiler replaces the jump by a copy of that block (3.11 keeps the jump).
The copy makes a join look like two separate paths, and the structurer would meet the same
statements twice. A copy is undone only where it starts in exactly the state of the block
it copies (same stack slots, same enclosing blocks) and comes from the same source lines:
running the original on the same stack instead means the same thing. A copy elsewhere
becomes a jump only in a module or class body, whose implicit ``return None`` has no
statement to be written as (its copies take the line of the code before them); in a
function the copy reads as the statement it copies, each path with its own.
"""

from __future__ import annotations

from .constants import value_key

MAX_COPY = 4  # the most instructions the compiler copies
EXITS = {"RETURN_VALUE", "RAISE_VARARGS", "RERAISE"}
IMPLICIT_RETURN = [("LOAD_CONST", None), ("RETURN_VALUE", None)]
CO_OPTIMIZED = 1


def copied_exits(walk) -> dict[int, list]:
    """Raw offset -> replacement triples: nothing for a copy right before its original
    (what reaches it then reaches the original) or reached only from the end of an except
    clause (whose jump, ``walk.clause_ends``, now goes to the original); for another
    copy of a module's or class's implicit return, a JUMP to the original (normalize
    resolves it by its argval) at its first instruction and nothing for the rest."""
    leaders = _leaders(walk.raw)
    walk.lines = _lines(walk.raw)
    special = walk.cleanups | set(walk.moved) | set(walk.entries)  # offsets never merged
    originals: dict[tuple, int] = {}
    for start, end in _exit_runs(walk.raw, leaders):
        key = _signature(walk, start, end, special)
        if key is not None:
            originals[key] = start  # the last one in layout: the exit the others jump to
    out: dict[int, list] = {}
    dropped: set[int] = set()  # raw indices whose translation is now empty
    clause_end = {after: end for end, after in walk.clause_ends.items()}
    for end in reversed(range(len(walk.raw))):
        found = _copy_ending_at(walk, end, leaders, originals, special)
        if found is None:
            continue
        start, original = found
        first = walk.raw[start].offset
        if all(n in dropped for n in range(end + 1, original)):
            jump = []  # right before the original: falling or jumping in reaches it
        elif first in clause_end:  # only the end of an except clause leads here
            walk.clause_ends[clause_end[first]] = walk.raw[original].offset
            jump = []
        elif _implicit_return(walk, walk.raw[start : end + 1]):
            jump = [("JUMP", None, walk.raw[original].offset)]  # no ``return`` to write
        else:
            continue  # a function's copy reads as the statement it copies
        out[first] = jump
        out.update((walk.raw[n].offset, []) for n in range(start + 1, end + 1))
        dropped.update(range(start, end + 1) if not jump else ())
    return out


def _copy_ending_at(walk, end, leaders, originals, special):
    """(first raw index, original's first raw index) of a copy ending at ``end``."""
    if walk.raw[end].opname not in EXITS:
        return None
    for start in _runs_ending_at(walk.raw, end, leaders):
        original = originals.get(_signature(walk, start, end, special))
        if original is not None and original > end:
            return start, original
    return None


def _exit_runs(raw, leaders):
    """(first, last) raw indices of every run the compiler may have copied: the last two
    to four instructions of a block that returns or raises."""
    for end in range(len(raw)):
        for start in _runs_ending_at(raw, end, leaders):
            yield start, end


def _runs_ending_at(raw, end: int, leaders):
    if raw[end].opname not in EXITS:
        return
    for size in range(2, MAX_COPY + 1):
        start = end - size + 1
        if start < 0 or any(n in leaders for n in range(start + 1, end + 1)):
            return
        yield start


def _signature(walk, start: int, end: int, special: set):
    """What a run does and the state it starts in; None where it may not be merged."""
    state = walk.states.get(start)
    run = walk.raw[start : end + 1]
    if state is None or {i.offset for i in run} & special:
        return None
    lines = walk.lines[start : end + 1]  # a copy keeps the line numbers of what it copies
    if _implicit_return(walk, run):
        lines = ()  # ... but not of the one with no line of its own: it takes its place's
    return (tuple((i.opname, i.arg, value_key(i.argval)) for i in run), tuple(lines), state)


def _implicit_return(walk, run) -> bool:
    """Whether ``run`` is the ``return None`` the compiler ends a module or class body with:
    such code holds no return statement of its own."""
    is_function = walk.code.co_flags & CO_OPTIMIZED
    return not is_function and [(i.opname, i.argval) for i in run] == IMPLICIT_RETURN


def _leaders(raw) -> set[int]:
    """Raw indices that start a basic block."""
    index = {ins.offset: n for n, ins in enumerate(raw)}
    out = {0}
    for n, ins in enumerate(raw):
        if ins.jump_target is not None:
            out.add(index.get(ins.jump_target, 0))
            out.add(n + 1)
        elif ins.opname in EXITS:
            out.add(n + 1)
    return out


def _lines(raw) -> list:
    """The source line of each raw instruction."""
    out, line = [], None
    for ins in raw:
        line = ins.starts_line if ins.starts_line is not None else line
        out.append(line)
    return out
