"""Normalize raw instructions (``raw.py``) into one instruction form shared by every Python version.

Everything version-specific about raw bytecode is settled here (with the tables in
``versions.py``; the opcode names are in ``opcodes.py``): jump targets become instruction indices, the exception table becomes a
handler on each instruction, fused or renamed opcodes are split into canonical ones, and
compiler-generated loops for ``await`` / ``yield from`` collapse into one YIELD_FROM.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from . import opcodes, versions


@dataclass(frozen=True, slots=True)
class Handler:
    """Where an exception raised by a covered instruction goes."""

    target: int  # instruction index of the handler's first instruction
    depth: int  # stack depth the handler starts from (before pushing lasti/exception)
    lasti: bool  # whether the handler also receives the offset of the raising instruction
    # 3.10: except clauses the exception leaves on its way, each restoring the exception
    # handled before it, as 3.11's cleanup handlers do with POP_EXCEPT
    pops: int = 0


@dataclass(slots=True)
class Instr:
    """One canonical instruction; ``target`` is an instruction index for jumps."""

    index: int
    op: str
    arg: int | None
    argval: object
    offset: int
    target: int | None = None
    handler: Handler | None = None


def normalize(code) -> list[Instr]:
    """The canonical instructions of ``code``, with targets and handlers as indices."""
    raw = _collapse_yield_from(_kept(code))
    instrs: list[Instr] = []
    first_at: dict[int, int] = {}  # raw offset -> its first canonical instruction
    jumps: list[tuple[Instr, int]] = []  # canonical jump, raw target offset
    expand, is_jump = versions.expand, opcodes.JUMPS.__contains__
    for ins in raw:
        first = first_at[ins.offset] = len(instrs)
        for op, arg, argval in expand(ins, code):
            instrs.append(Instr(len(instrs), op, arg, argval, ins.offset))
        if ins.jump_target is not None:
            jumps += [(i, ins.jump_target) for i in instrs[first:] if is_jump(i.op)]
        elif len(instrs) > first and instrs[-1].op == "JUMP":
            # written for an instruction that does not jump (3.10's copy of an exit
            # block, turned back into a jump to it): its argval is the raw target
            jumps.append((instrs[-1], instrs[-1].argval))
    resolve = _offset_resolver(instrs, first_at)
    for ins, target in jumps:
        ins.target = resolve(target)
        if ins.target < len(instrs) and instrs[ins.target].op == "PUSH_EXC_INFO":
            # only an exception enters a handler: a jump to where 3.10's starts goes to
            # the loop that begins there (``finally: while c: ... continue``)
            ins.target += 1
    _attach_handlers(code, instrs, resolve)
    return instrs


class SourceLines:
    """The source line of each bytecode offset of one code object."""

    def __init__(self, code) -> None:
        self.offsets: list[int] = []  # where each line's run of instructions starts
        self.lines: list[int | None] = []
        for start, _end, line in code.co_lines():
            if not self.lines or line != self.lines[-1]:
                self.offsets.append(start)
                self.lines.append(line)
        self.starts = set(self.offsets)

    def at(self, offset: int) -> int | None:
        where = bisect.bisect_right(self.offsets, offset) - 1
        return self.lines[where] if where >= 0 else None


def _kept(code):
    raw, prev = [], None
    dropped, maybe_skipped = opcodes.DROPPED, opcodes.SKIPPED_AFTER
    for ins in versions.decoded(code):
        op = ins.opname
        if op in dropped:
            continue
        if op not in maybe_skipped or not versions.skip_after(prev, op):
            raw.append(ins)
        prev = op
    return raw


def _offset_resolver(instrs, first_at):
    """Map a bytecode offset to the index of the first kept instruction at or after it."""
    offsets = list(first_at)  # increasing: raw instructions come in order

    def resolve(offset: int) -> int:
        if offset in first_at:
            return first_at[offset]
        pos = bisect.bisect_left(offsets, offset)
        return first_at[offsets[pos]] if pos < len(offsets) else len(instrs)

    return resolve


def _attach_handlers(code, instrs, resolve) -> None:
    dropped: dict[int, Handler] = {}  # kept instruction -> handler of those dropped before it
    for start, end, target, depth, lasti, pops in versions.exception_entries(code):
        hidx = resolve(target)
        if hidx >= len(instrs) or instrs[hidx].op == "STOPITERATION_ERROR":
            continue  # generator-wide StopIteration -> RuntimeError guard: implicit
        handler = Handler(hidx, depth, lasti, pops)
        first, last = resolve(start), resolve(end)
        if first == last:  # (only dropped instructions: a NOP that keeps a line)
            dropped.setdefault(first, handler)
        for i in range(first, last):
            if instrs[i].handler is None:
                instrs[i].handler = handler
    _close_jump_gaps(instrs, dropped if versions.PY >= (3, 13) else {})


def _close_jump_gaps(instrs, dropped) -> None:
    """3.13 gives a jump, which cannot raise, the handler of where it goes rather than
    of where it is: a break or continue out of a try body, or an if's jump to the end
    of a with body, lies between two covered instructions of that body (the second
    may be a NOP, dropped: ``dropped``) with no handler, or with the handler of a
    statement around it. It belongs to that body all the same, as 3.12 has it."""
    i = 0
    while i < len(instrs):
        before = instrs[i - 1].handler if i else None
        if before is None or not _in_gap(instrs, i, before):
            i += 1
            continue
        end = i
        while end < len(instrs) and _in_gap(instrs, end, before):
            end += 1
        after = _past_constant_return(instrs, end)
        if after < len(instrs) and before in (instrs[after].handler, dropped.get(after)):
            for k in range(i, end):
                instrs[k].handler = before
        i = end


def _past_constant_return(instrs, i) -> int:
    """Past a ``return <constant>`` under no handler at ``i`` (3.12+ leave it out of the
    exception table, as it cannot raise: the body goes on after it, ``if c: return
    1`` inside it), else ``i``."""
    pair = instrs[i : i + 2]
    if [ins.op for ins in pair] != ["LOAD_CONST", "RETURN_VALUE"]:
        return i
    if pair[1].argval != versions.FUSED_RETURN or any(ins.handler for ins in pair):
        return i
    return i + 2


def _in_gap(instrs, i, handler) -> bool:
    """Whether instruction ``i`` is a jump outside ``handler``'s try body, under no
    handler or (3.13) that of a statement around it: not a cleanup's (``lasti``), such
    as an except* clause's, whose body's end jumps on to the next clause."""
    ins = instrs[i]
    if ins.op not in opcodes.GAP_OPS or ins.handler == handler:
        return False
    if ins.handler is None:
        return True
    around = ins.handler
    return (
        versions.PY >= (3, 13)
        and instrs[around.target].op == "PUSH_EXC_INFO"
        and around in _enclosing(instrs, handler)
    )


def _enclosing(instrs, handler) -> list:
    """The handlers around ``handler``'s statement, innermost first: each handler's
    own first instruction is covered by the next (through a cleanup's, ``lasti``)."""
    out = []
    h = instrs[handler.target].handler if handler.target < len(instrs) else None
    while h is not None and h not in out:
        out.append(h)
        h = instrs[h.target].handler if h.target < len(instrs) else None
    return out


def _collapse_yield_from(raw):
    """Replace each SEND loop (``await`` / ``yield from``) by one YIELD_FROM."""
    if not any(i.opname in ("SEND", "YIELD_FROM") for i in raw):
        return raw
    out = []
    offsets = [ins.offset for ins in raw]
    n = 0
    while n < len(raw):
        ins = raw[n]
        nxt = raw[n + 1] if n + 1 < len(raw) else None
        if ins.opname == "LOAD_CONST" and ins.argval is None and nxt and nxt.opname == "YIELD_FROM":
            out.append(_pseudo(opcodes.YIELD_FROM, ins))  # 3.10: one instruction already
            n += 2
            continue
        if ins.opname == "LOAD_CONST" and ins.argval is None and nxt and nxt.opname == "SEND":
            # where SEND goes once the awaitable is done: the first instruction kept
            # there (3.11 drops the ASYNC_GEN_WRAP before an async generator's yield)
            end = bisect.bisect_left(offsets, nxt.jump_target)
            if end < len(raw) and raw[end].opname == "END_SEND":
                end += 1
            out.append(_pseudo(opcodes.YIELD_FROM, ins))
            n = end
            continue
        out.append(ins)
        n += 1
    return out


def _pseudo(opname: str, like):
    """A raw instruction standing in for a collapsed instruction sequence."""
    return like._replace(opname=opname, opcode=-1, arg=None, argval=None, jump_target=None)
