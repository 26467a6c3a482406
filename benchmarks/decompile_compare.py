"""Compare two code objects by their instruction streams, the round trip's yardstick.

A stream is a list of (opname, argument) pairs with line numbers, NOP, CACHE and
EXTENDED_ARG left out and jump targets given as instruction indices, so code that
differs only in layout or line table compares equal. Nested code objects are
compared recursively, each with the rebuilt code object of the same name in the same
order (a helper the decompiled code defines, as the state machine does, is nobody's
counterpart and shifts no other).
"""

import bisect
import dis
import types
from dataclasses import dataclass, field

IGNORED_OPNAMES = {"NOP", "CACHE", "EXTENDED_ARG"}
JUMP_OPCODES = set(dis.hasjrel) | set(dis.hasjabs) | set(getattr(dis, "hasjump", ()))
CONST_OPCODES = set(dis.hasconst)


def qualname(code: types.CodeType) -> str:
    return getattr(code, "co_qualname", code.co_name)


def nested_codes(code: types.CodeType) -> list[types.CodeType]:
    return [const for const in code.co_consts if isinstance(const, types.CodeType)]


def count_codes(code: types.CodeType) -> int:
    """How many code objects ``code`` holds, itself included."""
    return 1 + sum(count_codes(child) for child in nested_codes(code))


def _const_key(value):
    # Nested code is compared on its own; frozensets iterate in hash order.
    if isinstance(value, types.CodeType):
        return ("code",)
    if isinstance(value, tuple):
        return ("tuple", tuple(_const_key(item) for item in value))
    if isinstance(value, frozenset):
        return ("frozenset", tuple(sorted(repr(_const_key(item)) for item in value)))
    return (type(value).__name__, repr(value))


# 3.13 fuses two local loads/stores into one instruction only when both sit on one
# line, so a fused pair is a line-number artefact: split it back.
SUPERINSTRUCTIONS = {
    "LOAD_FAST_LOAD_FAST": ("LOAD_FAST", "LOAD_FAST"),
    "STORE_FAST_LOAD_FAST": ("STORE_FAST", "LOAD_FAST"),
    "STORE_FAST_STORE_FAST": ("STORE_FAST", "STORE_FAST"),
}


@dataclass(frozen=True)
class _Half:
    """One half of a split fused pair, already in stream form."""

    key: tuple


def _entries(code: types.CodeType) -> list[tuple]:
    """(offset, opname, instruction) for each kept instruction, fused pairs split."""
    entries = []
    for ins in dis.get_instructions(code):
        if ins.opname in SUPERINSTRUCTIONS:
            for opname, name in zip(SUPERINSTRUCTIONS[ins.opname], ins.argval):
                entries.append((ins.offset, opname, _Half((repr(name), name))))
        elif ins.opname not in IGNORED_OPNAMES:
            entries.append((ins.offset, ins.opname, ins))
    return entries


def instruction_stream(code: types.CodeType) -> list[tuple]:
    entries = _entries(code)
    offsets = [offset for offset, _, _ in entries]
    stream = []
    for _, opname, ins in entries:
        if isinstance(ins, _Half):
            stream.append((opname, ins.key))
        elif ins.opcode in JUMP_OPCODES:
            # A target that is a dropped NOP or EXTENDED_ARG means the next kept one.
            target = bisect.bisect_left(offsets, ins.argval)
            stream.append((opname, ("to", target)))
        elif ins.opcode in CONST_OPCODES:
            stream.append((opname, _const_key(ins.argval)))
        else:
            # argrepr carries flags argval lacks (3.12's LOAD_ATTR method bit, 3.13's bool()).
            stream.append((opname, (repr(ins.argval), ins.argrepr)))
    return _without_first_line(stream)


def _without_first_line(stream: list[tuple]) -> list[tuple]:
    # 3.13 class bodies store their first line number: a line number, so ignored.
    for index, (opname, argument) in enumerate(stream[1:], start=1):
        stores_line = opname == "STORE_NAME" and argument[0] == repr("__firstlineno__")
        if stores_line and stream[index - 1][0] == "LOAD_CONST":
            stream[index - 1] = ("LOAD_CONST", ("line number",))
    return stream


def first_difference(original: types.CodeType, rebuilt: types.CodeType) -> str:
    """One line saying where two streams part, for a failure listing."""
    left, right = instruction_stream(original), instruction_stream(rebuilt)
    for index, (a, b) in enumerate(zip(left, right)):
        if a != b:
            return f"at instruction {index}: {a[0]} {a[1]} != {b[0]} {b[1]}"
    return f"lengths {len(left)} != {len(right)}"


@dataclass
class TreeComparison:
    """How many code objects of an original tree have an exact counterpart."""

    total: int = 0
    exact: int = 0
    mismatches: list[str] = field(default_factory=list)


def compare_trees(original, rebuilt, result: TreeComparison | None = None) -> TreeComparison:
    """Compare ``original`` with ``rebuilt`` (which may be None: nothing to match)."""
    result = result if result is not None else TreeComparison()
    result.total += 1
    if rebuilt is not None and instruction_stream(original) == instruction_stream(rebuilt):
        result.exact += 1
    elif rebuilt is None:
        result.mismatches.append(f"{qualname(original)}: no counterpart")
    else:
        result.mismatches.append(f"{qualname(original)}: {first_difference(original, rebuilt)}")
    counterparts: dict[str, list] = {}
    for child in nested_codes(rebuilt) if rebuilt is not None else []:
        counterparts.setdefault(child.co_name, []).append(child)
    for child in nested_codes(original):
        same_name = counterparts.get(child.co_name)
        compare_trees(child, same_name.pop(0) if same_name else None, result)
    return result
