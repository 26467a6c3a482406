"""Read the patterns of ``match`` statements back out of their bytecode.

The compiler turns a ``case`` into a run of tests on the subject (or on a copy of it,
for every case but the last) that jump, when one fails, into a chain of POP_TOPs
leading to the next case. ``collapse`` finds each run, reads the pattern it tests by
running it on symbolic values, and puts one MATCH_CASE instruction in its place (the
pattern, binding its names) followed by one POP_JUMP_IF_FALSE to the next case. The
rest of the decompiler then sees an ``if`` on a pattern, which ``match_stmt`` turns
back into ``match``.

Reading runs the tests rather than matching the compiler's templates, because the
optimizer removes the SWAPs that move captured values and moves their stores: a
captured value is whatever a store finally takes off the symbolic stack. A run that
does not read back stays as it is; the MATCH_* opcodes have handlers that spell each
test out, so the output is right either way, only less like the source.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from ..bytecode.instructions import Handler, Instr
from ..bytecode.opcodes import MATCH_CASE
from .clause_tails import STORES, same_instruction

NAME_LOADS = {"LOAD_FAST", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF"}
# Opcodes only a pattern emits: where no copy of the subject starts a case.
DISTINCTIVE = {"MATCH_SEQUENCE", "MATCH_MAPPING", "MATCH_CLASS"}
EXITS = {"RETURN_VALUE", "RAISE_VARARGS", "RERAISE"}
# The most instructions in an exit block the compiler copies to the jumps to it.
_SHORT_EXIT = 4
MAX_STEPS = 2000  # instructions in one pattern; a longer run is not read
LOOK_BACK = 12  # how far before a distinctive opcode an uncopied pattern may start
LITERALS = (str, bytes, int, float, complex)


class NotAPattern(Exception):
    """The instructions are not a pattern this module reads."""


@dataclass(frozen=True)
class Case:
    """What MATCH_CASE tests: the pattern, and the stores that bind its names."""

    pattern: ast.pattern
    stores: tuple  # the STORE instructions of the captured names

    @property
    def names(self) -> set[str]:
        return {ins.argval for ins in self.stores}


class Slot:
    """A value taken from the subject, and what the pattern tests of it."""

    def __init__(self, star: bool = False):
        self.star = star  # the starred item of a sequence
        self.name: str | None = None
        self.test: tuple | None = None  # ("value", expr), ("sequence",), ("class", ...)
        self.length: tuple | None = None  # ("==" or ">=", n)
        self.parts: dict[int, Slot] = {}  # items, attributes or mapping values, by position
        self.subscripts: dict[int, Slot] = {}  # sequence items read by index (-n from the end)
        self.unpacked: tuple | None = None  # (count, star position or None)
        self.keys: list[ast.expr] = []
        self.rest: str | None = None  # a mapping's ``**rest``
        self.copies: list[Slot] = []  # copies tested as a whole: ``pattern as name``
        self.alternatives: list[Slot] = []  # copies tested in turn: ``a | b``

    def part(self, position: int, star: bool = False) -> Slot:
        if position not in self.parts:
            self.parts[position] = Slot(star=star)
        return self.parts[position]

    def pattern(self) -> ast.pattern:
        own = self._own()
        if self.alternatives:
            _require(own is None and not self.copies, "or-pattern with other tests")
            own = ast.MatchOr(patterns=[a.pattern() for a in self.alternatives])
        if self.copies:
            _require(own is None and len(self.copies) == 1, "two patterns on one value")
            own = self.copies[0].pattern()
            if is_wildcard(own):
                own = None
        if self.star:
            _require(own is None, "a test on a starred item")
            return ast.MatchStar(name=self.name)
        if self.name is None:
            return own if own is not None else ast.MatchAs(pattern=None, name=None)
        return ast.MatchAs(pattern=own, name=self.name)

    def _own(self) -> ast.pattern | None:
        test = self.test
        if test is None:
            _require(not self.parts and not self.subscripts, "items of an untested value")
            return None
        kind = test[0]
        if kind == "value":
            return ast.MatchValue(value=test[1])
        if kind == "singleton":
            return ast.MatchSingleton(value=test[1])
        if kind == "sequence":
            return ast.MatchSequence(patterns=self._items())
        if kind == "mapping":
            _require(all(i < len(self.keys) for i in self.parts), "values without keys")
            values = [self.part(i).pattern() for i in range(len(self.keys))]
            return ast.MatchMapping(keys=self.keys, patterns=values, rest=self.rest)
        _, cls, count, names = test
        _require(len(self.parts) <= count + len(names), "more attributes than asked for")
        patterns = [self.part(i).pattern() for i in range(count)]
        kwd = [self.part(count + i).pattern() for i in range(len(names))]
        return ast.MatchClass(cls=cls, patterns=patterns, kwd_attrs=list(names), kwd_patterns=kwd)

    def _items(self) -> list[ast.pattern]:
        op, size = self.length or (">=", 0)
        if self.unpacked is not None:
            count, star = self.unpacked
            expected = ("==", count) if star is None else (">=", count - 1)
            _require(self.length in (expected, None), "a length that is not the items'")
            return [self.part(i).pattern() for i in range(count)]
        if op == "==":
            _require(not self.subscripts, "items read by index without a star")
            return [wildcard() for _ in range(size)]
        size += 1  # ``len(s) >= size - 1``: one starred item
        front = [i for i in self.subscripts if i >= 0]
        star = max(front) + 1 if front else 0
        _require(all(size + i > star for i in self.subscripts if i < 0), "items past the star")
        items = [self._indexed(i) for i in range(star)] + [ast.MatchStar(name=None)]
        return items + [self._indexed(p - size) for p in range(star + 1, size)]

    def _indexed(self, index: int) -> ast.pattern:
        slot = self.subscripts.get(index)
        return slot.pattern() if slot is not None else wildcard()


class Merged:
    """The values several or-alternatives leave for the same captured name."""

    def __init__(self, slots):
        self.slots = slots


@dataclass
class Value:
    """A constant or a dotted name: a value pattern, a class or a key."""

    expr: ast.expr
    constant: object = None
    is_constant: bool = False


@dataclass
class Test:
    kind: str  # "sequence", "mapping", "length", "value", "singleton", "found"
    slot: Slot | None
    data: object = None


@dataclass
class Found:
    """MATCH_CLASS's attributes or MATCH_KEYS's values: the parts of ``slot``."""

    slot: Slot


@dataclass
class Length:
    slot: Slot


@dataclass
class FromEnd:
    """``len(s) - n``: the index of an item counted from the end."""

    count: int


class Keys:
    """A tuple of mapping keys, or one of its items (the ``**rest`` code deletes them)."""

    def __init__(self, exprs=()):
        self.exprs = list(exprs)


class Rest:
    """The dict ``**rest`` collects: empty until the subject's items are copied in."""

    def __init__(self):
        self.slot: Slot | None = None


def _require(condition: bool, why: str) -> None:
    if not condition:
        raise NotAPattern(why)


def wildcard() -> ast.pattern:
    """``_``."""
    return ast.MatchAs(pattern=None, name=None)


def is_wildcard(p) -> bool:
    return isinstance(p, ast.MatchAs) and p.pattern is None and p.name is None


# -- reading one pattern ----------------------------------------------------------------


class _Reader:
    """Runs the instructions of one pattern from ``start`` on a symbolic stack holding
    the value it tests, until that value and all taken from it are used up."""

    def __init__(self, instrs: list[Instr], start: int):
        self.instrs, self.pos, self.start = instrs, start, start
        self.handler = instrs[start].handler
        self.root = Slot()
        self.stack: list = [self.root]
        self.fails: list[tuple[int, int, int]] = []  # (target, stack depth, at)
        self.stores: list[Instr] = []
        self.copies: list[tuple[Slot, Slot, int, int]] = []  # (origin, copy, at, depth)
        self.origin_of: dict[int, Slot] = {}  # id of a copy -> the slot it copies
        self.ors: dict[int, list] = {}  # end of an or-pattern -> its alternatives
        self.consumed: set[int] = set()
        self.copied_exit: tuple[int, int] | None = None  # [start, end) of a copied exit

    def run(self) -> int:
        for _ in range(MAX_STEPS):
            if not self.stack:
                return self.pos
            _require(self.pos < len(self.instrs), "runs off the end")
            ins = self.instrs[self.pos]
            _require(ins.handler == self.handler, "crosses a try")
            self.consumed.add(self.pos)
            self.pos += 1
            step = STEPS.get(ins.op)
            _require(step is not None, ins.op)
            step(self, ins)
        raise NotAPattern("too long")

    def pop(self, *kinds):
        _require(bool(self.stack), "pops what it did not push")
        value = self.stack.pop()
        _require(not kinds or isinstance(value, kinds), "unexpected value")
        return value

    def fail(self, target: int | None) -> None:
        _require(target is not None and target > self.pos - 1, "jumps back")
        self.fails.append((target, len(self.stack), self.pos - 1))

    def chain(self, target: int, count: int) -> int:
        """Where the POP_TOPs from ``target`` that drop ``count`` values lead."""
        for i in range(target, target + count):
            ok = i < len(self.instrs) and self.instrs[i].op == "POP_TOP"
            _require(ok and self.instrs[i].handler == self.handler, "no chain of POP_TOPs")
            self.consumed.add(i)
        return target + count

    # -- the instructions ---------------------------------------------------------------
    def _copy(self, ins):
        _require(len(self.stack) >= ins.arg, "copies what it did not push")
        value = self.stack[-ins.arg]
        if ins.arg == 1 and isinstance(value, Slot):
            copy = Slot()  # its origin is kept by the reader: a link back would be a cycle
            value.copies.append(copy)
            self.origin_of[id(copy)] = value
            self.copies.append((value, copy, self.pos - 1, len(self.stack)))
            value = copy
        self.stack.append(value)

    def _swap(self, ins):
        _require(len(self.stack) >= ins.arg, "swaps what it did not push")
        s = self.stack
        s[-1], s[-ins.arg] = s[-ins.arg], s[-1]

    def _pop_top(self, ins):
        self.pop()

    def _nop(self, ins):
        pass

    def _store(self, ins):
        value = self.pop(Slot, Merged, Rest)
        if isinstance(value, Rest):
            _require(value.slot is not None and value.slot.rest is None, "rest")
            value.slot.rest = ins.argval
        else:
            for slot in value.slots if isinstance(value, Merged) else [value]:
                _require(slot.name is None, "one value stored twice")
                slot.name = ins.argval
        self.stores.append(ins)

    def _match_kind(self, ins):
        slot = self.stack[-1] if self.stack else None
        _require(isinstance(slot, Slot), "tests no value")
        self.stack.append(Test("sequence" if ins.op == "MATCH_SEQUENCE" else "mapping", slot))

    def _get_len(self, ins):
        slot = self.stack[-1] if self.stack else None
        _require(isinstance(slot, Slot), "measures no value")
        self.stack.append(Length(slot))

    def _load_const(self, ins):
        self.stack.append(Value(ast.Constant(value=ins.argval), ins.argval, True))

    def _load_name(self, ins):
        self.stack.append(Value(ast.Name(id=ins.argval, ctx=ast.Load())))

    def _load_attr(self, ins):
        owner = self.pop(Value)
        _require(not owner.is_constant, "attribute of a constant")
        self.stack.append(Value(ast.Attribute(value=owner.expr, attr=ins.argval, ctx=ast.Load())))

    def _compare_op(self, ins):
        right, left = self.pop(Value), self.pop(Slot, Length)
        if isinstance(left, Length):
            ok = ins.argval in ("==", ">=") and _is_int(right)
            _require(ok, "a length test")
            self.stack.append(Test("length", left.slot, (ins.argval, right.constant)))
            return
        _require(ins.argval == "==" and _value_pattern(right), "a value test")
        self.stack.append(Test("value", left, right.expr))

    def _is_op(self, ins):
        right, left = self.pop(Value), self.pop()
        _require(right.is_constant, "is what")
        if isinstance(left, Found):
            _require(ins.arg == 1 and right.constant is None, "a found test")
            self.stack.append(Test("found", left.slot))
            return
        ok = isinstance(left, Slot) and ins.arg == 0 and right.constant in (None, True, False)
        _require(ok and type(right.constant) in (type(None), bool), "a singleton test")
        self.stack.append(Test("singleton", left, right.constant))

    def _pop_jump_if_false(self, ins):
        test = self.pop(Test)
        slot = test.slot
        if test.kind in ("sequence", "mapping"):
            _require(slot.test is None, "tested twice")
            slot.test = (test.kind,)
        elif test.kind == "length":
            _require(slot.length is None, "measured twice")
            slot.length = test.data
        elif test.kind in ("value", "singleton"):
            _require(slot.test is None, "tested twice")
            slot.test = (test.kind, test.data)
        self.fail(ins.target)

    def _pop_jump_if_none(self, ins):
        self.pop(Found)
        self.fail(ins.target)

    def _pop_jump_if_not_none(self, ins):
        slot = self.pop(Slot)
        _require(slot.test is None, "tested twice")
        slot.test = ("singleton", None)
        self.fail(ins.target)

    def _match_class(self, ins):
        names, cls, slot = self.pop(Value), self.pop(Value), self.pop(Slot)
        ok = isinstance(names.constant, tuple) and all(isinstance(n, str) for n in names.constant)
        _require(ok and not cls.is_constant and slot.test is None, "a class test")
        slot.test = ("class", cls.expr, ins.arg, names.constant)
        self.stack.append(Found(slot))

    def _match_keys(self, ins):
        _require(len(self.stack) >= 2, "keys of nothing")
        keys, slot = self.stack[-1], self.stack[-2]
        _require(isinstance(slot, Slot) and slot.test == ("mapping",), "keys of no mapping")
        if isinstance(keys, Value):
            ok = isinstance(keys.constant, tuple) and all(_key(k) for k in keys.constant)
            _require(ok, "keys")
            keys = Keys(ast.Constant(value=k) for k in keys.constant)
        _require(isinstance(keys, Keys) and not slot.keys, "keys")
        slot.keys = keys.exprs
        self.stack.append(Found(slot))

    def _build_tuple(self, ins):
        items = [self.pop(Value) for _ in range(ins.arg)][::-1]
        ok = all(_key(v.constant) if v.is_constant else _value_pattern(v) for v in items)
        _require(ok, "keys")
        self.stack.append(Keys(v.expr for v in items))

    def _unpack_sequence(self, ins):
        self._unpack(self.pop(), ins.arg, None)

    def _unpack_ex(self, ins):
        before, after = ins.arg & 0xFF, ins.arg >> 8
        self._unpack(self.pop(Slot), before + 1 + after, before)

    def _unpack(self, value, count: int, star: int | None) -> None:
        if isinstance(value, (Keys, Value)):  # the keys ``**rest`` deletes
            self.stack += [Keys() for _ in range(count)]
            return
        if isinstance(value, Found):
            items = [value.slot.part(i) for i in range(count)]
        else:
            _require(isinstance(value, Slot) and value.test == ("sequence",), "unpacks")
            _require(value.unpacked is None and not value.subscripts, "unpacked twice")
            value.unpacked = (count, star)
            items = [value.part(i, star=i == star) for i in range(count)]
        self.stack += reversed(items)

    def _binary_subscr(self, ins):
        index, container = self.pop(Value, FromEnd), self.pop(Slot, Found)
        if isinstance(index, FromEnd):
            position = -index.count
        else:
            _require(_is_int(index), "an index")
            position = index.constant
        if isinstance(container, Found):
            _require(position >= 0, "an attribute from the end")
            self.stack.append(container.slot.part(position))
            return
        owner = self.origin_of.get(id(container))  # the compiler indexes a copy
        _require(owner is not None and container in owner.copies, "indexes no copy")
        _require(owner.test == ("sequence",) and owner.unpacked is None, "indexes no sequence")
        owner.copies.remove(container)
        if position not in owner.subscripts:
            owner.subscripts[position] = Slot()
        self.stack.append(owner.subscripts[position])

    def _binary_op(self, ins):
        right = self.pop(Value)
        self.pop(Length)
        _require(ins.argval == "-" and _is_int(right), "an index from the end")
        self.stack.append(FromEnd(right.constant))

    def _build_map(self, ins):
        _require(ins.arg == 0, "a dict")
        self.stack.append(Rest())

    def _dict_update(self, ins):
        source = self.pop(Slot)
        _require(len(self.stack) >= ins.arg, "updates nothing")
        rest = self.stack[-ins.arg]
        ok = isinstance(rest, Rest) and rest.slot is None and source.test == ("mapping",)
        _require(ok, "a rest that is no mapping's")
        rest.slot = source

    def _copy_dict_without_keys(self, ins):
        """3.10, where the keys are built at run time: the subject stays, ``rest`` comes."""
        self.pop(Keys, Value)
        slot = self.stack[-1] if self.stack else None
        _require(isinstance(slot, Slot) and slot.test == ("mapping",), "a rest of no mapping")
        rest = Rest()
        rest.slot = slot
        self.stack.append(rest)

    def _delete_subscr(self, ins):
        self.pop(Keys)
        self.pop(Rest)

    def _alternative(self) -> tuple[Slot, Slot, int, int]:
        """The copy an alternative has just matched: the latest whose origin still sits
        under the values it captured."""
        for origin, copy, opened, depth in reversed(self.copies):
            kept = len(self.stack) >= depth and self.stack[depth - 1] is origin
            if kept and all(v is not copy for v in self.stack):
                return origin, copy, opened, depth
        raise NotAPattern("a jump out of no alternative")

    def _jump(self, ins):
        """The end of an or-pattern's alternative: on to the next one, or past them all."""
        end = ins.target
        _require(end is not None and end > self.pos, "jumps back")
        origin, copy, opened, depth = self._alternative()
        captured = self.stack[depth:]
        _require(all(isinstance(v, (Slot, Merged)) for v in captured), "leaves values")
        alternatives = self.ors.setdefault(end, [])
        _require(copy in origin.copies, "an alternative tested twice")
        origin.copies.remove(copy)
        alternatives.append((origin, depth, copy, captured))
        _require(all(a[0] is origin and a[1] == depth for a in alternatives), "alternatives")
        mine = [f for f in self.fails if f[2] > opened]
        self.fails = [f for f in self.fails if f[2] <= opened]
        _require(bool(mine), "an alternative that cannot fail")
        following = {self.chain(target, held - depth) for target, held, _ in mine}
        _require(len(following) == 1, "alternatives fail to different places")
        nxt = following.pop()
        del self.stack[depth:]
        _require(nxt < end, "alternatives past their end")
        if self.instrs[nxt].op != "POP_TOP":  # every alternative starts with a COPY
            self.pos = nxt
            return
        # none matched: drop the subject and fail
        self.consumed.add(nxt)
        self.stack.pop()
        after = self.instrs[nxt + 1]
        if after.op == "JUMP" and nxt + 2 == end:
            self.consumed.add(nxt + 1)
            self.fails.append((after.target, len(self.stack), nxt + 1))
        else:  # the optimizer copied where that jump went, up to the end of the pattern
            _require(self.instrs[end - 1].op in EXITS and not self.copied_exit, "fails on")
            self.copied_exit = (nxt + 1, end)
            self.fails.append((nxt + 1, len(self.stack), nxt))
        origin.alternatives = [a[2] for a in alternatives]
        widths = {len(a[3]) for a in alternatives}
        _require(len(widths) == 1, "alternatives bind different names")
        self.stack.append(origin)
        self.stack += [Merged([a[3][i] for a in alternatives]) for i in range(widths.pop())]
        self.pos = end


STEPS = {
    "COPY": _Reader._copy,
    "SWAP": _Reader._swap,
    "POP_TOP": _Reader._pop_top,
    "NOP": _Reader._nop,
    **dict.fromkeys(STORES, _Reader._store),
    "MATCH_SEQUENCE": _Reader._match_kind,
    "MATCH_MAPPING": _Reader._match_kind,
    "GET_LEN": _Reader._get_len,
    "LOAD_CONST": _Reader._load_const,
    **dict.fromkeys(NAME_LOADS, _Reader._load_name),
    "LOAD_ATTR": _Reader._load_attr,
    "COMPARE_OP": _Reader._compare_op,
    "IS_OP": _Reader._is_op,
    "POP_JUMP_IF_FALSE": _Reader._pop_jump_if_false,
    "POP_JUMP_IF_NONE": _Reader._pop_jump_if_none,
    "POP_JUMP_IF_NOT_NONE": _Reader._pop_jump_if_not_none,
    "MATCH_CLASS": _Reader._match_class,
    "MATCH_KEYS": _Reader._match_keys,
    "BUILD_TUPLE": _Reader._build_tuple,
    "UNPACK_SEQUENCE": _Reader._unpack_sequence,
    "UNPACK_EX": _Reader._unpack_ex,
    "BINARY_SUBSCR": _Reader._binary_subscr,
    "BINARY_OP": _Reader._binary_op,
    "BUILD_MAP": _Reader._build_map,
    "DICT_UPDATE": _Reader._dict_update,
    "DELETE_SUBSCR": _Reader._delete_subscr,
    "COPY_DICT_WITHOUT_KEYS": _Reader._copy_dict_without_keys,
    "JUMP": _Reader._jump,
}


def _is_int(value) -> bool:
    return isinstance(value, Value) and value.is_constant and type(value.constant) is int


def _key(constant) -> bool:
    return constant is None or isinstance(constant, (bool, *LITERALS))


def _value_pattern(value: Value) -> bool:
    """Whether the compiler could have written ``value`` for a value pattern: a literal
    (``None`` and the bools are singletons, tested with ``is``) or a dotted name."""
    if value.is_constant:
        return isinstance(value.constant, LITERALS) and not isinstance(value.constant, bool)
    return isinstance(value.expr, ast.Attribute)


# -- finding the cases ------------------------------------------------------------------


@dataclass
class _Found:
    start: int
    end: int
    fail: int  # where every failed test leads: the next case
    case: Case
    consumed: set
    jumps_on: bool = False  # the fail code sits inside the pattern: jump past it


def _read(instrs: list[Instr], start: int) -> _Found | None:
    """The pattern whose tests start at ``start``, or None."""
    if start >= len(instrs):
        return None
    reader = _Reader(instrs, start)
    try:
        end = reader.run()
        _require(bool(reader.fails), "cannot fail: left as stores")
        fails = {reader.chain(target, depth) for target, depth, _ in reader.fails}
        fail, kept = _settled(instrs, fails, reader)
        _require(reader.consumed >= set(range(start, end)) - kept, "skips instructions")
        pattern = reader.root.pattern()
    except NotAPattern:
        return None
    case = Case(pattern, tuple(reader.stores))
    return _Found(start, end, fail, case, reader.consumed, jumps_on=bool(kept))


def _settled(instrs, fails: set[int], reader: _Reader) -> tuple[int, set[int]]:
    """Where the failed tests lead, and the instructions inside the pattern kept for it.

    They all lead to one place, but for the last or-alternative's: the optimizer may
    copy the code it jumps to (a short exit) in place of the jump. Then the copy is the
    only way out, and stays, or the original is reached too, and the copy goes."""
    if reader.copied_exit is None:
        if len(fails) > 1:
            jumped = _jumped_on(instrs, fails, reader.handler)
            return (jumped if jumped is not None else _copied_exits(instrs, fails, reader)), set()
        return fails.pop(), set()
    first, end = reader.copied_exit
    copy = instrs[first:end]
    if fails == {first}:  # a guard may jump to the original
        fails.update(i.target for i in instrs[end:] if i.target is not None and i.target > end)
        fails = {t for t in fails if t == first or _twins(copy, instrs[t : t + len(copy)])}
        if fails == {first}:
            return first, set(range(first, end))
    _require(len(fails) == 2 and first in fails, "fails to different places")
    (original,) = fails - {first}
    _require(_twins(copy, instrs[original : original + len(copy)]), "a copy unlike its original")
    reader.consumed |= set(range(first, end))
    return original, set()


def _jumped_on(instrs, fails: set[int], handler) -> int | None:
    """The one place among ``fails`` that is a lone jump to where the others go, or
    None: 3.12+ send a test failing once the subject is unpacked (nothing left of it
    to pop) straight to where the jump after the pops of the earlier tests goes."""
    jumps = [t for t in fails if instrs[t].op == "JUMP" and instrs[t].handler == handler]
    if len(jumps) != 1 or {instrs[jumps[0]].target} != fails - set(jumps):
        return None
    return jumps[0]


def _copied_exits(instrs, fails: set[int], reader: _Reader) -> int:
    """Where failed tests that lead to copies of one short exit go (3.12+ copy a
    ``return None`` to each jump to it): the last copy, the others dropped with the
    pattern. Only where nothing else jumps or falls into a dropped copy."""
    exits = {t: _exit_at(instrs, t, reader.handler) for t in fails}
    _require(None not in exits.values(), "fails to different places")
    kept = max(fails)
    model = instrs[kept : exits[kept]]
    _require(all(_twins(model, instrs[t : exits[t]]) for t in fails), "fails to different places")
    dropped = {i for t in fails - {kept} for i in range(t, exits[t])}
    # (the pattern's own jumps are dropped with it)
    jumped = {i.target for i in instrs if i.target is not None and i.index not in reader.consumed}
    jumped |= {i.handler.target for i in instrs if i.handler is not None}
    for t in fails - {kept}:
        before = instrs[t - 1] if t else None
        falls_in = before is not None and t - 1 not in reader.consumed
        falls_in = falls_in and before.op not in EXITS and before.op != "JUMP"
        _require(t not in jumped and not falls_in, "fails to different places")
    reader.consumed |= dropped
    return kept


def _exit_at(instrs, at: int, handler) -> int | None:
    """The end of the short exit (a few instructions, none a jump, the last a return or
    raise) that starts at ``at``, or None."""
    for end in range(at, min(at + _SHORT_EXIT, len(instrs))):
        ins = instrs[end]
        if ins.handler != handler or ins.target is not None:
            return None
        if ins.op in EXITS:
            return end + 1
    return None


def _twins(a: list[Instr], b: list[Instr]) -> bool:
    return len(a) == len(b) and all(map(same_instruction, a, b))


# except* copies the part a clause takes and what is left to re-raise, to test for None:
# no subject of a match (star.py reads them).
EXCEPT_STAR = {"CHECK_EG_MATCH", "PREP_RERAISE_STAR"}


def _find(instrs: list[Instr]) -> list[_Found]:
    found: list[_Found] = []
    taken: set[int] = set()
    i = 0
    while i < len(instrs):
        ins = instrs[i]
        case = None
        if ins.op == "COPY" and ins.arg == 1 and not (i and instrs[i - 1].op in EXCEPT_STAR):
            # A copy that a pattern makes (``p as name``, ``a | b``) gives the longer read;
            # a case's own copy of the subject is kept, and its pattern follows.
            case = _read(instrs, i) or _read(instrs, i + 1)
        elif ins.op in DISTINCTIVE and i not in taken:
            case = _read_back(instrs, i, taken)
        if case is None or case.consumed & taken:
            i += 1
            continue
        found.append(case)
        taken |= case.consumed
        at = case.fail
        if at < len(instrs) and not (instrs[at].op == "COPY" and instrs[at].arg == 1):
            last = _read(instrs, at)  # the last case tests the subject itself
            if last is not None and not last.consumed & taken:
                found.append(last)
                taken |= last.consumed
        i = case.end
    return _copied_alternatives(instrs, found)


def _copied_alternatives(instrs, found: list[_Found]) -> list[_Found]:
    """3.10 and 3.12 copy a short case body into each alternative of an or-pattern
    that binds no names, in place of the jump to it: each alternative then reads as a
    case of its own. Such a run becomes one case again."""
    out, i = [], 0
    while i < len(found):
        run = [found[i]]
        while i + len(run) < len(found):
            nxt = _goes_on(instrs, run[-1], found[i + len(run)])
            if nxt is None:
                break
            run.append(nxt)
        merged = _alternatives(instrs, run) if len(run) > 1 else None
        out.append(merged or found[i])
        i += len(run) if merged else 1
    return out


def _goes_on(instrs, a: _Found, b: _Found) -> _Found | None:
    """``b`` read as the alternative after ``a``: a pattern on the copy at ``a.fail``."""
    copy = instrs[a.fail]
    if copy.op != "COPY" or copy.arg != 1 or b.case.stores:
        return None
    if b.start == a.fail:  # read with its copy, as ``p as name`` would be
        b = _read(instrs, a.fail + 1)
    return b if b is not None and b.start == a.fail + 1 and not b.case.stores else None


def _alternatives(instrs, run: list[_Found]) -> _Found | None:
    """One case for alternatives that each test a copy of the pattern's subject, then
    drop that copy and the subject and run the same copied body."""
    first, last = run[0], run[-1]
    tails = [instrs[f.end : f.fail] for f in run[:-1]] + [instrs[last.end : last.fail]]
    shared = tails[0]
    shape = [i.op for i in shared[:2]] == ["POP_TOP", "POP_TOP"] and shared[-1].op in EXITS
    opened = instrs[first.start - 1] if first.start else None
    dropped = instrs[last.fail]
    if first.case.stores or not shape or not all(_twins(t, shared) for t in tails[1:]):
        return None
    if opened is None or opened.op != "COPY" or opened.arg != 1 or dropped.op != "POP_TOP":
        return None
    consumed = set().union(*(f.consumed for f in run)) | {first.start - 1, first.end, last.fail}
    for f in run[1:]:
        consumed |= {f.start - 1, *range(f.end, f.end + len(shared))}
    patterns = [p for f in run for p in _alternatives_of(f.case.pattern)]
    case = Case(ast.MatchOr(patterns=patterns), ())
    return _Found(first.start - 1, last.fail + 1, last.fail + 1, case, consumed)


def _alternatives_of(pattern) -> list:
    return pattern.patterns if isinstance(pattern, ast.MatchOr) else [pattern]


def _read_back(instrs, at: int, taken) -> _Found | None:
    """The pattern around a distinctive opcode of a case that tests the subject itself."""
    best = None
    for start in range(at, max(at - LOOK_BACK, 0) - 1, -1):
        if start in taken:
            break
        case = _read(instrs, start)
        if case is not None and case.end > at:
            best = case
    return best


def collapse(instrs: list[Instr]) -> list[Instr]:
    """``instrs`` with each readable case's tests replaced by MATCH_CASE and a jump."""
    if not any(i.op in DISTINCTIVE or i.op == "COPY" for i in instrs):
        return instrs
    found = _find(instrs)
    if not found:
        return instrs
    starts = {f.start: f for f in found}
    dropped = set().union(*(f.consumed for f in found))
    where: dict[int, int] = {}  # old index -> new index
    count = 0
    for ins in instrs:
        if ins.index in starts or ins.index not in dropped:
            where[ins.index] = count
            f = starts.get(ins.index)
            count += 1 if f is None else 2 + f.jumps_on
    where[len(instrs)] = count
    targets = [i.target for i in instrs if i.index not in dropped and i.target is not None]
    targets += [i.handler.target for i in instrs if i.handler is not None]
    targets += [f.fail for f in found] + [f.end for f in found if f.jumps_on]
    if any(t not in where and t < len(instrs) for t in targets):
        return instrs  # something else jumps into a pattern: leave them all
    return _rebuilt(instrs, starts, dropped, where)


def _rebuilt(instrs, starts, dropped, where) -> list[Instr]:
    handlers: dict[Handler, Handler] = {}

    def moved(h: Handler | None) -> Handler | None:
        if h is None:
            return None
        if h not in handlers:
            handlers[h] = replace(h, target=where.get(h.target, h.target))
        return handlers[h]

    out: list[Instr] = []
    for ins in instrs:
        f = starts.get(ins.index)
        handler = moved(ins.handler)
        if f is not None:
            out.append(Instr(len(out), MATCH_CASE, None, f.case, ins.offset, None, handler))
            jump = Instr(len(out), "POP_JUMP_IF_FALSE", None, None, ins.offset, None, handler)
            jump.target = where[f.fail]
            out.append(jump)
            if f.jumps_on:  # matched: on past the fail code left in place
                out.append(Instr(len(out), "JUMP", None, None, ins.offset, where[f.end], handler))
            continue
        if ins.index in dropped:
            continue
        target = ins.target
        copy = Instr(len(out), ins.op, ins.arg, ins.argval, ins.offset, None, handler)
        if target is not None:
            copy.target = where.get(target, len(out) if target >= len(instrs) else target)
        out.append(copy)
    return out
