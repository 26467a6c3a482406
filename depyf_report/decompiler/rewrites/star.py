"""except* read back: each ``try/except*`` handler rewritten into the form of a plain
``try/except``, whose clauses test with CHECK_STAR_MATCH, for the structured builder.

The compiler writes an except* handler (3.11+) as code that splits the exception group
clause by clause and keeps what each clause raised in a list::

    PUSH_EXC_INFO                       [prev, exc]
    COPY 1; BUILD_LIST; SWAP 2          [prev, orig, [], exc]     (3.12+: BUILD_LIST; COPY 2)
    for each clause:
        <type>; CHECK_EG_MATCH          [prev, orig, list, rest, match]
        COPY 1; POP_JUMP_IF_NONE no     (no: POP_TOP, then the next clause)
        STORE name | POP_TOP            [prev, orig, list, rest]
        <body>                          under cleanup: [name = None; del name;]
                                        LIST_APPEND 3; POP_TOP; on to the next clause
        [name = None; del name;] on to the next clause
    LIST_APPEND 1; PREP_RERAISE_STAR; COPY 1; POP_JUMP_IF_NOT_NONE reraise
    POP_TOP; POP_EXCEPT; <after the try>
    reraise: SWAP 2; POP_EXCEPT; RERAISE 0

A plain ``try/except`` with the same clauses has the same control flow, with every
clause ending where the handler ends, its bodies three values lower on the stack and
nothing else to do: ``regular_form`` rewrites each handler so, and the structured
builder reads CHECK_STAR_MATCH into ``except*``. The rewritten instructions mean the
same only as read that way, so the state machine keeps the original ones, and a
CHECK_STAR_MATCH test that ends up anywhere but an ``except*`` clause cannot be
written out (``markers.StarMatch``): the function then falls back to the state
machine as before. A handler laid out in any other way is left as it is.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..bytecode.instructions import Handler, Instr
from ..bytecode.opcodes import CHECK_STAR_MATCH, NO_FALLTHROUGH
from .clause_tails import DELETES, STORES

BODY_SHIFT = 3  # the original, the raised list and the rest lie under a clause's body
PROLOGUES = ((("COPY", 1), ("BUILD_LIST", 0), ("SWAP", 2)), (("BUILD_LIST", 0), ("COPY", 2)))


class NotStar(Exception):
    """A handler laid out in a way this module does not read."""


@dataclass
class _Clause:
    start: int  # the type's first instruction
    test: int  # CHECK_EG_MATCH
    named: bool
    cleanup: Handler | None  # what an exception raised in the body goes to
    body: set[int]  # instructions under ``cleanup``, nested handlers included
    exits: list[int]  # where the body goes on when it ends normally (3.13 copies it)


@dataclass
class _Handler:
    """One except* handler and the rewrite that makes it a plain one."""

    start: int  # PUSH_EXC_INFO
    cleanup: Handler  # the handler's own cleanup (COPY 3; POP_EXCEPT; RERAISE 1)
    after: int  # where the handler goes on when nothing is left to raise
    clauses: list[_Clause] = field(default_factory=list)
    dropped: set[int] = field(default_factory=set)
    passed: set[int] = field(default_factory=set)  # dropped, and run into from before
    replaced: dict[int, list[Instr]] = field(default_factory=dict)  # targets: old indices


def regular_form(instrs: list[Instr]) -> list[Instr]:
    """``instrs`` with every except* handler in the form of a plain try's handler."""
    if not any(ins.op == "CHECK_EG_MATCH" for ins in instrs):
        return instrs
    protected = defaultdict(list)  # handler target -> instructions it protects
    for ins in instrs:
        if ins.handler is not None:
            protected[ins.handler.target].append(ins.index)
    handlers = []
    dead = _unreachable(instrs)  # such as a finally body's copy for exceptions, under
    for ins in instrs:  # a try body that cannot raise: dropped, not read
        if ins.op == "PUSH_EXC_INFO" and ins.index not in dead:
            try:
                handlers.append(_Reader(instrs, protected).read(ins.index))
            except (NotStar, IndexError):
                continue
    if not handlers:
        return instrs
    try:
        return _rewritten(instrs, handlers)
    except NotStar:
        return instrs


class _Reader:
    def __init__(self, instrs: list[Instr], protected):
        self.instrs, self.protected = instrs, protected

    def read(self, start: int) -> _Handler:
        instrs = self.instrs
        cleanup = instrs[start].handler
        _require(cleanup is not None and cleanup.lasti, "a handler without cleanup")
        prologue = next((p for p in PROLOGUES if self._has(start + 1, p)), None)
        _require(prologue is not None, "no except* prologue")
        found = _Handler(start, cleanup, after=-1)
        found.passed.update(range(start + 1, start + 1 + len(prologue)))
        at = start + 1 + len(prologue)
        while True:
            clause, no_match = self._clause(found, at)
            found.clauses.append(clause)
            nxt, jumps = self._through_jumps(no_match + 1)
            if self._has(nxt, [("LIST_APPEND", 1)]):
                break
            found.dropped.update([no_match, *jumps])
            self._test_jumps_to(found, clause, nxt)
            at = nxt
        # the last clause's no-match re-raises what no clause took, as a plain try does
        self._test_jumps_to(found, clause, no_match)
        _require(instrs[no_match - 1].op in NO_FALLTHROUGH, "code runs into a no-match")
        found.replaced[no_match] = [_made(instrs[no_match], "RERAISE", 0, cleanup)]
        tail, jumps = self._through_jumps(nxt + 1)
        found.dropped.update([nxt, *jumps])
        self._tail(found, tail)
        starts = [clause.start for clause in found.clauses[1:]]
        for clause, ends in zip(found.clauses, [{s} for s in starts] + [{tail, nxt}]):
            _require(not {tail, nxt, *starts} & set(clause.exits), "a clause ends elsewhere")
            self._clause_exits(found, clause, ends)
        # each test tells the builder where the clauses go on, when any does
        after = found.after if any(c.exits for c in found.clauses) else None
        for clause in found.clauses:
            test = instrs[clause.test]
            found.replaced[clause.test] = [
                _made(test, CHECK_STAR_MATCH, None, test.handler, argval=after)
            ]
        return found

    def _clause(self, found: _Handler, at: int) -> tuple[_Clause, int]:
        instrs = self.instrs
        test = at
        while instrs[test].op != "CHECK_EG_MATCH":  # the type: one straight expression
            ins = instrs[test]
            _require(ins.target is None and ins.op not in NO_FALLTHROUGH, "a branching type")
            _require(ins.handler == found.cleanup, "a type under another handler")
            test += 1
        _require(self._has(test + 1, [("COPY", 1)]), "no copy of the match")
        jump, bind = instrs[test + 2], instrs[test + 3]
        _require(jump.op == "POP_JUMP_IF_NONE", "no test of the match")
        _require(bind.op in STORES or bind.op == "POP_TOP", "no binding of the match")
        no_match = jump.target
        _require(instrs[no_match].op == "POP_TOP", "no pop of a failed match")
        found.passed.add(test + 1)
        named = bind.op in STORES
        cleanup = self._body_cleanup(test + 4, named, found.cleanup)
        body = self._under(cleanup) if cleanup is not None else set()
        _require(cleanup is None or test + 4 in body, "a clause body not under its cleanup")
        exits = self._exits(test + 4, body)
        return _Clause(at, test, named, cleanup, body, exits), no_match

    def _body_cleanup(self, first: int, named: bool, outer: Handler) -> Handler | None:
        """The handler that adds what a clause body raises to the list: around the
        body's first instruction, or around a try or with the body starts with."""
        handler = self.instrs[first].handler
        while handler is not None and handler != outer:
            at = handler.target
            if handler.lasti and handler.depth == outer.depth + BODY_SHIFT:
                kept = len(self._clearing(at, named, outer)) if named else 0
                if self._has(at + kept, [("LIST_APPEND", 3)]):
                    return handler
            handler = self.instrs[at].handler
        return None

    def _under(self, cleanup: Handler) -> set[int]:
        """Instructions protected by ``cleanup``, directly or through nested handlers."""
        todo = list(self.protected[cleanup.target])
        body = set(todo)
        while todo:
            for inner in self.protected.get(todo.pop(), ()):
                if inner not in body:
                    body.add(inner)
                    todo.append(inner)
        return body

    def _exits(self, first: int, body: set[int]) -> list[int]:
        """The places outside ``body`` that the body's normal edges lead to: not a jump
        back into it (3.12+ leave a loop's jump back to its header unprotected)."""
        if not body:
            return [first]
        outside = set()
        for i in body:
            ins = self.instrs[i]
            if ins.op not in NO_FALLTHROUGH and i + 1 not in body:
                outside.add(i + 1)
            if ins.target is not None and ins.target not in body:
                outside.add(ins.target)
        return sorted(x for x in outside if self._through_jumps(x)[0] not in body)

    def _tail(self, found: _Handler, tail: int) -> None:
        """PREP_RERAISE_STAR and what re-raises its result or goes on past the try."""
        instrs = self.instrs
        _require(instrs[tail].op == "PREP_RERAISE_STAR", "no PREP_RERAISE_STAR")
        _require(self._has(tail + 1, [("COPY", 1)]), "no copy of what is left")
        reraise = instrs[tail + 2]
        _require(reraise.op == "POP_JUMP_IF_NOT_NONE", "no test of what is left")
        _require(instrs[tail + 3].op == "POP_TOP", "no pop of what is left")
        _require(instrs[tail + 4].op == "POP_EXCEPT", "no POP_EXCEPT")
        r = reraise.target
        _require(self._has(r, [("SWAP", 2)]), "no re-raise of what is left")
        _require(instrs[r + 1].op == "POP_EXCEPT", "no POP_EXCEPT")
        _require(self._has(r + 2, [("RERAISE", 0)]), "no RERAISE")
        # (3.11 jumps past the else; a try at the end of an except* clause, on past
        # that clause's own way out, which its handler's rewrite keeps)
        found.after, jumps = self._through_jumps(tail + 5, clause_end=True)
        found.dropped.update([*range(tail, tail + 5), *range(r, r + 3), *jumps])
        found.after = self._body_copy(found)

    def _body_copy(self, found: _Handler) -> int:
        """Where the clauses go on: ``found.after``, or where the try body ends where
        that is a copy of it. 3.11+ copy a short ending (a finally body's re-raise,
        ``return None``) into each way that reaches it; a plain try's clauses end in
        one copy each, which the builder reads as the code after the try. Going on to
        the body's copy, as the same code under the same handler, they meet there."""
        instrs, after = self.instrs, found.after
        ending = []
        for ins in instrs[after : after + 3]:
            if ins.target is not None:
                return after
            ending.append((ins.op, ins.arg, repr(ins.argval), ins.handler))
            if ins.op in NO_FALLTHROUGH:
                break
        if not ending or ending[-1][0] not in ("RETURN_VALUE", "RERAISE"):
            return after
        body = self.protected[found.start]
        for i in body:
            ins = instrs[i]
            for x in (ins.target, None if ins.op in NO_FALLTHROUGH else i + 1):
                if x is None or x in body:
                    continue
                x, _ = self._through_jumps(x)
                if x == after:
                    return after
                copy = [
                    (j.op, j.arg, repr(j.argval), j.handler) for j in instrs[x : x + len(ending)]
                ]
                if copy == ending:
                    return x
        return after

    def _clause_exits(self, found: _Handler, clause: _Clause, ends: set[int]) -> None:
        """The body's normal end and its cleanup go on where a plain clause's do: out of
        the handler after POP_EXCEPT, and re-raising."""
        instrs = self.instrs
        outer = instrs[found.cleanup.target].handler  # what protects the code after the try
        for at in clause.exits:
            self._normal_end(found, at, clause.named, ends, outer)
        if clause.cleanup is None:
            return
        at = clause.cleanup.target
        kept = self._clearing(at, clause.named, found.cleanup)
        append = at + len(kept)
        _require(self._has(append, [("LIST_APPEND", 3)]), "no LIST_APPEND of a raise")
        _require(instrs[append + 1].op == "POP_TOP", "no pop of the offset")
        self._to_end(found, append + 2, ends)
        found.dropped.update(range(at, append + 2))
        if clause.named:  # the body's cleanup clears the name and re-raises, as written
            found.replaced[at] = [*kept, _made(instrs[append], "RERAISE", 1, found.cleanup)]

    def _normal_end(self, found: _Handler, at: int, named: bool, ends: set[int], outer) -> None:
        """POP_EXCEPT, the clearing of the name, and a jump past the handler."""
        instrs = self.instrs
        _require(at not in found.replaced, "clauses ending in one place")
        kept = self._clearing(at, named, found.cleanup)
        self._to_end(found, at + len(kept), ends)
        pop = _made(instrs[at], "POP_EXCEPT", None, outer)
        leave = _made(instrs[at], "JUMP", None, outer, target=found.after)
        cleared = [Instr(-1, i.op, i.arg, i.argval, i.offset, None, outer) for i in kept]
        found.replaced[at] = [pop, *cleared, leave]
        found.dropped.update(range(at + 1, at + len(kept)))

    def _clearing(self, at: int, named: bool, handler: Handler) -> list[Instr]:
        """The ``name = None; del name`` at ``at`` that a clause with a name ends in."""
        if not named:
            return []
        clear = self.instrs[at : at + 3]
        _require(
            len(clear) == 3
            and clear[0].op == "LOAD_CONST"
            and clear[0].argval is None
            and clear[1].op in STORES
            and clear[2].op in DELETES
            and clear[1].argval == clear[2].argval
            and all(ins.handler == handler for ins in clear),
            "no clearing of the clause's name",
        )
        return clear

    def _to_end(self, found: _Handler, at: int, ends: set[int]) -> None:
        """Drop the jumps from ``at`` to the next clause or the end (3.13 copies the
        tail's LIST_APPEND into a last clause's ways out)."""
        while True:
            at, jumps = self._through_jumps(at)
            found.dropped.update(jumps)
            if at in ends:
                return
            _require(self._has(at, [("LIST_APPEND", 1)]), "a clause going elsewhere")
            found.dropped.add(at)
            at += 1

    def _test_jumps_to(self, found: _Handler, clause: _Clause, target: int) -> None:
        ins = self.instrs[clause.test + 2]
        found.replaced[ins.index] = [
            _made(ins, "POP_JUMP_IF_FALSE", None, ins.handler, target=target)
        ]

    def _through_jumps(self, at: int, clause_end=False) -> tuple[int, list[int]]:
        """Where the jumps from ``at`` on lead, and those jumps. ``clause_end``: up to
        a jump that ends the body of an except* clause around (under the cleanup of
        the handler, the clause body's own left): one after the first, or (3.13,
        which sends the first straight on to the next clause) the first, where it
        lies under another handler than the ``POP_EXCEPT`` before it."""
        jumps = []
        first = self.instrs[at].handler
        before = self.instrs[at - 1].handler
        while self.instrs[at].op == "JUMP":
            handler = self.instrs[at].handler
            left = handler != first if jumps else handler != before
            if clause_end and left and self._handler_cleanup(handler):
                break
            _require(len(jumps) < 8, "a run of jumps")
            jumps.append(at)
            at = self.instrs[at].target
        return at, jumps

    def _handler_cleanup(self, handler: Handler | None) -> bool:
        """Whether ``handler`` is the cleanup of an except handler: ``COPY 3;
        POP_EXCEPT; RERAISE 1``, which protects the handler's own code."""
        if handler is None or not handler.lasti:
            return False
        ops = [(i.op, i.arg) for i in self.instrs[handler.target : handler.target + 3]]
        return [op for op, _ in ops] == ["COPY", "POP_EXCEPT", "RERAISE"] and ops[0][1] == 3

    def _has(self, at: int, ops) -> bool:
        instrs = self.instrs
        return at + len(ops) <= len(instrs) and all(
            instrs[at + k].op == op and instrs[at + k].arg == arg for k, (op, arg) in enumerate(ops)
        )


def _require(condition: bool, why: str) -> None:
    if not condition:
        raise NotStar(why)


def _made(like: Instr, op, arg, handler, target=None, argval=None) -> Instr:
    """A new instruction at ``like``'s place; ``target`` (and a CHECK_STAR_MATCH's ``argval``)
    is an old index until rebuilt."""
    return Instr(-1, op, arg, arg if argval is None else argval, like.offset, target, handler)


def _rewritten(instrs: list[Instr], handlers: list[_Handler]) -> list[Instr]:
    passed = set().union(*(h.passed for h in handlers))
    dropped = set().union(*(h.dropped for h in handlers)) | passed | _unreachable(instrs)
    replaced = {i: new for h in handlers for i, new in h.replaced.items()}
    # a jump on a handler's way on that code outside it runs into too (the jump back
    # to a loop's header that ends a try body in it) stays, for that code
    for ins in instrs[1:]:
        before = instrs[ins.index - 1]
        if (
            ins.op == "JUMP"
            and ins.index in dropped
            and ins.index not in passed | replaced.keys()
            and before.op not in NO_FALLTHROUGH
            and before.index not in dropped | replaced.keys()
        ):
            dropped.discard(ins.index)
    where: dict[int, int] = {}  # old index -> new index of what stands for it
    count = 0
    for ins in instrs:
        where[ins.index] = count
        if ins.index in replaced:
            count += len(replaced[ins.index])
        elif ins.index not in dropped:
            count += 1
    where[len(instrs)] = count
    # what a clause body's handlers see is three values lower; its cleanup is the
    # plain clause's: the handler's own for a clause without a name
    lowered = [0] * (len(instrs) + 1)
    moved: dict[int, Handler] = {}
    for h in handlers:
        for clause in h.clauses:
            for i in clause.body:
                lowered[i] += 1
            if clause.cleanup is not None:
                named = Handler(clause.cleanup.target, h.cleanup.depth, True)
                moved[clause.cleanup.target] = named if clause.named else h.cleanup

    def gone(i: int) -> bool:
        return i in dropped and i not in replaced

    def handled(handler: Handler | None) -> Handler | None:
        if handler is None:
            return None
        handler = moved.get(handler.target, handler)
        if gone(handler.target):
            raise NotStar("a handler in a rewritten handler")
        depth = handler.depth - BODY_SHIFT * lowered[handler.target]
        return Handler(where[handler.target], depth, handler.lasti)

    out: list[Instr] = []
    for ins in instrs:
        if gone(ins.index):
            continue
        new = replaced.get(ins.index, [ins])
        after = ins.index + 1
        if new[-1].op not in NO_FALLTHROUGH and gone(after) and after not in passed:
            raise NotStar("code runs into a rewritten handler")
        for made in new:
            argval = made.argval
            if made.op == CHECK_STAR_MATCH and argval is not None:
                if gone(argval):
                    raise NotStar("code after the handler rewritten")
                argval = where[argval]
            copy = Instr(len(out), made.op, made.arg, argval, made.offset)
            copy.handler = handled(made.handler)
            if made.target is not None:
                target = made.target
                for _ in range(8):  # a dropped jump (of a handler's way out) goes on as well
                    if not (gone(target) and instrs[target].op == "JUMP"):
                        break
                    target = instrs[target].target
                if gone(target):
                    raise NotStar("a jump into a rewritten handler")
                copy.target = where.get(target, target)
            out.append(copy)
    return out


def _unreachable(instrs: list[Instr]) -> set[int]:
    """Instructions nothing reaches, such as the cleanup the compiler leaves for a clause
    whose body is ``pass``: they would jump into the rewritten handler."""
    seen, todo = {0}, [0]
    while todo:
        ins = instrs[todo.pop()]
        nexts = [ins.target, ins.handler.target if ins.handler else None]
        if ins.op not in NO_FALLTHROUGH:
            nexts.append(ins.index + 1)
        for i in nexts:
            if i is not None and i < len(instrs) and i not in seen:
                seen.add(i)
                todo.append(i)
    return set(range(len(instrs))) - seen
