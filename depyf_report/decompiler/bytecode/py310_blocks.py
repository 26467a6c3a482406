"""Python 3.10's block stack, walked statically and rewritten into 3.11's handler shapes.

3.10 pushes a block on SETUP_FINALLY / SETUP_WITH / SETUP_ASYNC_WITH and pops it on
POP_BLOCK; an exception jumps to the innermost block's handler with six values pushed (the
previous exception's traceback, value and type, then the new one's). 3.11 pushes one
exception, and PUSH_EXC_INFO saves the previous one as a single value. The walk follows
control flow like the compiler's block stack, tracks which stack slots are parts of those
triples, and says for each instruction which handler protects it and what the instruction
becomes when the triples count as 3.11's single values.
"""

from __future__ import annotations

import dis
import heapq
from dataclasses import dataclass, field
from typing import NamedTuple

from .opcodes import DROPPED
from .raw import decode

# Stack slots. A triple part is worth no canonical value, except the one part that stands
# for 3.11's previous exception (PREV) or its saved offset (LASTI); the new exception's
# three parts are worth one value until one of them is stored or the last one popped.
VALUE, GHOST, PREV, LASTI = ("value",), ("ghost",), ("prev",), ("lasti",)

# What each kind of handler receives where 3.10 pushes the previous triple.
PREVIOUS = {
    "except": (GHOST, GHOST, PREV),  # starts with PUSH_EXC_INFO
    "with": (GHOST, LASTI, PREV),  # PUSH_EXC_INFO, and 3.11 keeps the offset too
    "cleanup": (GHOST, GHOST, LASTI),  # `except E as name` clearing the name: no PUSH
    "async-for": (GHOST, GHOST, GHOST),  # END_ASYNC_FOR straight away
}
ENDS = {"RETURN_VALUE", "RAISE_VARARGS", "RERAISE"}
UNCONDITIONAL = {"JUMP_FORWARD", "JUMP_ABSOLUTE"}
SETUPS = {"SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"}


@dataclass(frozen=True)
class Block:
    """A SETUP block (``handler`` is its offset) or an except-handler block (None)."""

    handler: int | None
    depth: int = 0  # canonical values under the handler's own
    lasti: bool = False
    cleanup: tuple | None = None  # except-handler block: 3.11's cleanup handler, if placed
    pushed: bool = False  # except-handler block entered with 3.11's PUSH_EXC_INFO


class State(NamedTuple):  # a tuple: one is made per instruction walked
    stack: tuple = ()
    blocks: tuple = ()
    consumed: frozenset = frozenset()  # exception triples already stored or popped

    def widths(self) -> list[int]:
        """How many canonical values each raw slot stands for."""
        seen, out = set(), []
        for slot in self.stack:
            if slot[0] == "exc":
                out.append(int(slot[1] not in self.consumed and slot[1] not in seen))
                seen.add(slot[1])
            else:
                out.append(int(slot in (VALUE, PREV, LASTI)))
        return out

    def grow(self, n: int, slot=VALUE) -> State:
        stack = self.stack[:n] if n < 0 else self.stack + (slot,) * n
        return State(stack, self.blocks, self.consumed)

    def catching(self) -> tuple | None:
        """The (target, depth, lasti, pops) handler of an instruction run in this state.

        ``pops`` counts the except-handler blocks the exception leaves on its way there
        without a cleanup handler (no room for one): 3.10 restores the exception each
        one saved as it unwinds, which 3.11 does in the cleanup's POP_EXCEPT."""
        pops = 0
        for block in reversed(self.blocks):
            if block.handler is not None:
                return (block.handler, block.depth, block.lasti, pops)
            if block.cleanup is not None:
                return (*block.cleanup, pops)
            pops += block.pushed
        return None

    def without_handler_block(self) -> State:
        """This state with its innermost except-handler block popped (POP_EXCEPT)."""
        n = max((n for n, b in enumerate(self.blocks) if b.handler is None), default=None)
        blocks = self.blocks if n is None else self.blocks[:n] + self.blocks[n + 1 :]
        return State(self.stack, blocks, self.consumed)


def _without_prefixes(raw: list) -> list:
    """The instructions without EXTENDED_ARG, jumps to one sent to the instruction it
    prefixes: a jump lands on the prefix when its target needs one."""
    real, pending = {}, []
    for ins in raw:
        if ins.opname == "EXTENDED_ARG":
            pending.append(ins.offset)
        else:
            real.update(dict.fromkeys(pending, ins.offset))
            pending = []
    if not real:
        return raw
    out = []
    for ins in raw:
        if ins.opname == "EXTENDED_ARG":
            continue
        if ins.jump_target in real:
            target = real[ins.jump_target]
            ins = ins._replace(jump_target=target, argval=target)
        out.append(ins)
    return out


@dataclass
class BlockWalk:
    """Per raw offset: canonical triples (None: translate the opcode alone) and handler."""

    code: object
    triples: dict = field(default_factory=dict)
    handlers: dict = field(default_factory=dict)  # offset -> (target, depth, lasti, pops)
    entries: dict = field(default_factory=dict)  # handler offset -> kind
    cleanups: set = field(default_factory=set)  # offsets turned into 3.11's cleanup handler
    moved: dict = field(default_factory=dict)  # offset -> raw instruction translated there
    clause_ends: dict = field(default_factory=dict)  # offset -> the code after its clause

    def __post_init__(self):
        self.raw = _without_prefixes(decode(self.code, lines=True))
        self.index = {ins.offset: n for n, ins in enumerate(self.raw)}
        jumps = [i for i in self.raw if i.jump_target is not None]
        self.targets = {i.jump_target for i in jumps if i.opname not in SETUPS}
        self.handler_targets = {i.jump_target for i in jumps if i.opname in SETUPS}
        self.swapped = self._swapped_stores()
        self._walk()

    def _swapped_stores(self) -> dict:
        """``a, b = x, y`` into locals: 3.10 reverses the values (ROT_TWO, or ROT_THREE
        and ROT_TWO) and stores them in order; 3.11 drops the rotation and stores in the
        reverse order. Offset -> the store it becomes (nothing, for a rotation)."""
        out = {}
        second = set()  # the ROT_TWO after a ROT_THREE: the three values' own, taken or not
        for n, ins in enumerate(self.raw):
            if ins.offset in out or ins.offset in second:
                continue
            if ins.opname == "ROT_TWO":
                rotations, count = 1, 2
            elif ins.opname == "ROT_THREE" and n + 1 < len(self.raw):
                rotations, count = 2, 3
                if self.raw[n + 1].opname != "ROT_TWO":
                    continue
                second.add(self.raw[n + 1].offset)
            else:
                continue
            run = self.raw[n : n + rotations + count]
            stores = run[rotations:]
            names = {i.argval for i in stores}
            if (
                len(stores) != count
                or any(i.opname != "STORE_FAST" for i in stores)
                or len(names) != count
                or any(i.offset in self.targets for i in run[1:])
            ):
                continue
            out.update((i.offset, []) for i in run[:rotations])
            for store, name in zip(stores, reversed(stores)):
                out[store.offset] = [("STORE_FAST", name.arg, name.argval)]
        return out

    def _walk(self) -> None:
        self.states = states = {0: State()}  # raw index -> state before it runs
        todo = [0]
        while todo:
            n = heapq.heappop(todo)
            ins, state = self.raw[n], states[n]
            if ins.offset in self.cleanups or ins.opname == "POP_EXCEPT":
                handler = state.without_handler_block().catching()  # the enclosing one
            else:
                handler = state.catching()
            if handler is not None:
                self.handlers[ins.offset] = handler
            self.triples[ins.offset], successors = self._step(ins, state)
            for offset, after in successors:
                k = self.index.get(offset)
                if k is not None and k not in states:
                    states[k] = after
                    heapq.heappush(todo, k)

    def opname_at(self, offset: int) -> str | None:
        n = self.index.get(offset)
        return None if n is None else self.raw[n].opname

    def _kept_from(self, offset: int) -> int:
        """The first instruction from ``offset`` on that normalize keeps: a handler
        starting at a NOP (``finally: while True: ...``) gets its PUSH_EXC_INFO there."""
        n = self.index[offset]
        while n + 1 < len(self.raw) and self.raw[n].opname in DROPPED:
            n += 1
        return self.raw[n].offset

    def _next(self, ins) -> int | None:
        n = self.index[ins.offset] + 1
        return self.raw[n].offset if n < len(self.raw) else None

    def _step(self, ins, state: State):
        if ins.offset in self.swapped:
            return self.swapped[ins.offset], self._flow(ins, state)
        special = SPECIAL.get(ins.opname)
        if special is not None:
            return special(self, ins, state)
        return None, self._flow(ins, state)

    def _flow(self, ins, state: State):
        """Successors with the stack effects ``dis`` knows."""
        if ins.opname in ENDS:
            return []
        arg = ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None
        effect = dis.stack_effect
        if ins.jump_target is not None:
            out = [(ins.jump_target, state.grow(effect(ins.opcode, arg, jump=True)))]
            if ins.opname not in UNCONDITIONAL:
                out.append((self._next(ins), state.grow(effect(ins.opcode, arg, jump=False))))
            return out
        return [(self._next(ins), state.grow(effect(ins.opcode, arg)))]

    # -- blocks ---------------------------------------------------------------------
    def _setup(self, ins, state: State):
        if ins.opname == "SETUP_WITH":
            state, triples = state.grow(-1).grow(1), [("BEFORE_WITH", None, None)]
            level = len(state.stack)
        else:
            level = len(state.stack) - (ins.opname == "SETUP_ASYNC_WITH")
            triples = []
        kind = self._kind(ins)
        below = State(state.stack[:level], state.blocks, state.consumed)
        depth = sum(below.widths())
        enclosed = state.catching() is not None
        entry, marker = self._place_cleanup(ins.argval, kind, depth, enclosed)
        self.entries.setdefault(self._kept_from(entry), kind)
        block = Block(entry, depth, kind in ("with", "cleanup"))
        gid = ins.argval
        caught = State(
            below.stack + PREVIOUS[kind] + (("exc", gid),) * 3,
            (*state.blocks, marker),
            state.consumed - {gid},
        )
        body = State(state.stack, (*state.blocks, block), state.consumed)
        if ins.opname == "SETUP_WITH":
            body = body.grow(1)
        return triples, [(ins.argval, caught), (self._next(ins), body)]

    def _place_cleanup(self, handler: int, kind: str, depth: int, enclosed: bool):
        """Where exceptions enter the handler, and the except-handler block its clauses
        run in: with 3.11's cleanup handler where the first instruction can make room.
        Without an enclosing handler the cleanup would only sit in the way: an exception
        leaving the clause leaves the function either way."""
        if not enclosed or kind not in ("except", "with") or not self._has_spare_first(handler):
            return handler, Block(None, pushed=kind in ("except", "with"))
        first = self.raw[self.index[handler]]
        entry = self._next(first)
        saved = depth + sum(slot in (PREV, LASTI) for slot in PREVIOUS[kind])
        self.cleanups.add(handler)
        self.moved[entry] = first
        return entry, Block(None, cleanup=(handler, saved, True))

    def _has_spare_first(self, offset: int) -> bool:
        """Whether a handler's first instruction can hand its work to the next one and
        become 3.11's cleanup handler (COPY 3, POP_EXCEPT, RERAISE 1): nothing falls or
        jumps into it or into the next one, and it neither jumps nor ends the path."""
        n = self.index[offset]
        if n == 0 or n + 1 >= len(self.raw):
            return False
        before, first, after = self.raw[n - 1], self.raw[n], self.raw[n + 1]
        return (
            before.opname in ENDS | UNCONDITIONAL
            and first.opname not in ENDS
            and first.opname not in DROPPED  # (normalize drops it: no cleanup left there)
            and first.jump_target is None
            and offset not in self.targets
            and after.offset not in self.targets
            and after.offset not in self.handler_targets
            and after.opname != "YIELD_FROM"  # collapsed into its LOAD_CONST by the core
        )

    def _kind(self, ins) -> str:
        if ins.opname != "SETUP_FINALLY":
            return "with"
        n = self.index[ins.argval]
        ops = [(i.opname, i.argval) for i in self.raw[n : n + 4]]
        if ops and ops[0][0] == "END_ASYNC_FOR":
            return "async-for"
        if len(ops) == 4 and _clears_name(ops) and ops[3][0] == "RERAISE":
            return "cleanup"
        return "except"

    def _pop_block(self, ins, state: State):
        state = State(state.stack, state.blocks[:-1], state.consumed)
        return [], [(self._next(ins), state)]

    def _pop_except(self, ins, state: State):
        top = state.stack[-3:]
        triples = [("POP_EXCEPT", None, None)]
        if LASTI in top and PREV in top:
            triples.append(("POP_TOP", None, None))  # 3.11 pops the saved offset itself
        after = state.without_handler_block().grow(-3)
        self._end_clause(ins)
        return triples, [(self._next(ins), after)]

    def _end_async_for(self, ins, state: State):
        """END_ASYNC_FOR ends the except-handler block of StopAsyncIteration as
        POP_EXCEPT does: the code after the loop runs outside it (its POP_BLOCK, if
        any, is the enclosing try's)."""
        return None, self._flow(ins, state.without_handler_block())

    def _end_clause(self, pop_except) -> None:
        """3.11 ends an except clause with a jump to the code after the try; 3.10 falls
        into that code where it is laid out next. Such code starts a statement (a new
        line) right after the clause's ``POP_EXCEPT`` and its ``name = None; del name``:
        a jump to it there (written by ``expand``) makes it start a block, as on 3.11.
        A clause's own way out (return, break, continue) stays on its line."""
        n = self.index[pop_except.offset]
        ops = [(i.opname, i.argval) for i in self.raw[n + 1 : n + 4]]
        if _clears_name(ops):
            n += 3
        if n + 1 >= len(self.raw):
            return
        nxt = self.raw[n + 1]
        if nxt.starts_line is None or nxt.offset in self.targets or nxt.opname == "POP_TOP":
            return
        if nxt.opname in ENDS | UNCONDITIONAL:
            return
        self.clause_ends[self.raw[n].offset] = nxt.offset

    # -- the exception triple -----------------------------------------------------
    def _pop_top(self, ins, state: State):
        keep = state.widths()[-1] if state.stack else 1
        return ([("POP_TOP", None, None)] if keep else []), [(self._next(ins), state.grow(-1))]

    def _store(self, ins, state: State):
        slot = state.stack[-1] if state.stack else VALUE
        consumed = state.consumed
        if slot[0] == "exc":
            consumed = consumed | {slot[1]}  # `except E as name`: the name holds the exception
        after = State(state.stack[:-1], state.blocks, consumed)
        return None, [(self._next(ins), after)]

    def _exc_match(self, ins, state: State):
        triples = [("CHECK_EXC_MATCH", None, None), ("POP_JUMP_IF_FALSE", None, ins.argval)]
        after = state.grow(-2)
        return triples, [(ins.argval, after), (self._next(ins), after)]

    # -- stack shuffles -------------------------------------------------------------
    def _shuffle(self, ins, state: State):
        n = len(state.stack)
        name = ins.opname
        if name == "DUP_TOP":
            order = [*range(n), n - 1]
        elif name == "DUP_TOP_TWO":
            order = [*range(n), n - 2, n - 1]
        else:
            k = {"ROT_TWO": 2, "ROT_THREE": 3, "ROT_FOUR": 4}.get(name, ins.arg)
            order = [*range(n - k), n - 1, *range(n - k, n - 1)]
        widths = state.widths()
        copies = [state.stack[i] if state.stack[i] == VALUE else GHOST for i in order[n:]]
        stack = tuple(state.stack[i] for i in order[:n]) + tuple(copies)
        current = [i for i in range(n) if widths[i]]
        target = [i for i in order[:n] if widths[i]]
        target += [i for i, slot in zip(order[n:], copies) if slot == VALUE]
        after = State(stack, state.blocks, state.consumed)
        return reorder(current, target), [(self._next(ins), after)]

    # -- pattern matching: 3.11 pushes None for a failed match, 3.10 also a bool ------
    def _match(self, ins, state: State):
        triples = [(ins.opname, ins.arg, ins.argval), ("COPY", 1, 1)]
        triples += [("LOAD_CONST", None, None), ("IS_OP", 1, 1)]
        return triples, self._flow(ins, state)

    def _copy_dict(self, ins, state: State):
        """``{**rest}``: copy the subject, then delete the matched keys one by one."""
        n = self.index[ins.offset]
        keys = next((i for i in reversed(self.raw[:n]) if i.opname == "MATCH_KEYS"), None)
        loaded = self.raw[self.index[keys.offset] - 1] if keys is not None else None
        if loaded is None or not isinstance(loaded.argval, tuple):
            return None, self._flow(ins, state)  # keys built at run time: left to the core
        count = len(loaded.argval)
        triples = [("COPY", 2), ("BUILD_MAP", 0), ("SWAP", 2), ("DICT_UPDATE", 1), ("SWAP", 2)]
        triples.append(("UNPACK_SEQUENCE", count))
        for left in range(count, 0, -1):
            triples += [("COPY", left + 1), ("SWAP", 2), ("DELETE_SUBSCR", None)]
        return [(op, arg, arg) for op, arg in triples], self._flow(ins, state)


def reorder(current: list, target: list) -> list:
    """COPY and SWAP instructions turning the ``current`` stack into ``target``."""
    out, cur = [], list(current)
    for ident in target[len(cur) :]:  # duplicates go on top first, in order
        out.append(("COPY", len(cur) - cur.index(ident), None))
        cur.append(ident)
    for i, want in enumerate(target):
        if cur[i] == want:
            continue
        j = next(j for j in range(i + 1, len(cur)) if cur[j] == want)
        top = len(cur) - 1
        swaps = [len(cur) - i] if j == top else [len(cur) - j, len(cur) - i, len(cur) - j]
        for s in swaps:
            cur[top], cur[len(cur) - s] = cur[len(cur) - s], cur[top]
            out.append(("SWAP", s, None))
    return [(op, arg, arg) for op, arg, _ in out]


SPECIAL = {
    **dict.fromkeys(SETUPS, BlockWalk._setup),
    "POP_BLOCK": BlockWalk._pop_block,
    "POP_EXCEPT": BlockWalk._pop_except,
    "END_ASYNC_FOR": BlockWalk._end_async_for,
    "POP_TOP": BlockWalk._pop_top,
    "JUMP_IF_NOT_EXC_MATCH": BlockWalk._exc_match,
    "MATCH_KEYS": BlockWalk._match,
    "MATCH_CLASS": BlockWalk._match,
    "COPY_DICT_WITHOUT_KEYS": BlockWalk._copy_dict,
    **dict.fromkeys(("STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"), BlockWalk._store),
    **dict.fromkeys(
        ("DUP_TOP", "DUP_TOP_TWO", "ROT_TWO", "ROT_THREE", "ROT_FOUR", "ROT_N"),
        BlockWalk._shuffle,
    ),
}


def _clears_name(ops) -> bool:
    """Whether (opname, argval) pairs start with ``name = None; del name``: the end of
    an ``except E as name`` clause."""
    return (
        len(ops) >= 3
        and ops[0] == ("LOAD_CONST", None)
        and ops[1][0].startswith("STORE_")
        and ops[2][0].startswith("DELETE_")
        and ops[1][1] == ops[2][1]
    )
