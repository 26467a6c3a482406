"""Raw instructions decoded straight from ``co_code``, in linear time.

``dis.get_instructions`` finds jump labels with membership tests on a list, which makes
it quadratic on large functions, and it builds fields (positions, reprs, cache data) the
decompiler never reads. ``decode`` gives the same opname, opcode, arg, argval and jump
target as ``dis`` for each instruction of the running Python; ``argrepr`` only where the
decompiler reads it (the operator of BINARY_OP, the name of an intrinsic).
"""

from __future__ import annotations

import dis
import sys
from typing import NamedTuple

PY = sys.version_info[:2]


class Raw(NamedTuple):
    """One instruction as ``co_code`` holds it (EXTENDED_ARG prefixes included)."""

    opname: str
    opcode: int
    arg: int | None
    argval: object  # the constant, name, jump target offset, ... that ``arg`` stands for
    argrepr: str  # only for BINARY_OP and CALL_INTRINSIC_*; else ""
    offset: int
    starts_line: int | None  # the line starting here (dis.findlinestarts), if decode was asked
    jump_target: int | None  # offset a jump (or a 3.10 SETUP_*) goes to; else None


def _kinds() -> list[str]:
    """How each opcode's argument is resolved, indexed by opcode."""
    named = {
        "LOAD_GLOBAL": "global" if PY >= (3, 11) else "name",
        "LOAD_ATTR": "attr" if PY >= (3, 12) else "name",
        "LOAD_SUPER_ATTR": "super_attr",
        "FORMAT_VALUE": "format",
        "BINARY_OP": "binary_op",
        "CALL_INTRINSIC_1": "intrinsic_1",
        "CALL_INTRINSIC_2": "intrinsic_2",
        "LOAD_FAST_LOAD_FAST": "fast_pair",
        "STORE_FAST_LOAD_FAST": "fast_pair",
        "STORE_FAST_STORE_FAST": "fast_pair",
        "CONVERT_VALUE": "convert",
    }
    kinds = []
    for op in range(256):
        name = dis.opname[op]
        if op in dis.hasconst:
            kind = "const"
        elif op in dis.hasname:
            kind = named.get(name, "name")
        elif op in dis.hasjabs:
            kind = "jabs"
        elif op in dis.hasjrel:
            kind = "jback" if PY >= (3, 11) and "JUMP_BACKWARD" in name else "jrel"
        elif name in named:  # before haslocal: 3.13's fused pairs are listed there too
            kind = named[name]
        elif op in dis.haslocal:
            kind = "local"
        elif op in dis.hasfree:
            kind = "free"
        elif op in dis.hascompare:
            kind = "compare"
        else:
            kind = "plain"
        kinds.append(kind)
    return kinds


def _cache_entries() -> list[int]:
    """Inline CACHE code units after each opcode (none before 3.11)."""
    if PY >= (3, 13):
        return [dis._get_cache_size(dis.opname[op]) for op in range(256)]
    if PY >= (3, 11):
        table = dis._inline_cache_entries
        return [table[op] if op < len(table) else 0 for op in range(256)]
    return [0] * 256


def _has_arg() -> list[bool]:
    if PY >= (3, 12):
        return [op in dis.hasarg for op in range(256)]
    return [op >= dis.HAVE_ARGUMENT for op in range(256)]


KINDS, CACHES, HAS_ARG = _kinds(), _cache_entries(), _has_arg()
EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]
# 3.12 counts a relative jump from after the jump's inline caches; 3.11 from the jump.
JUMP_SKIPS_CACHES = PY >= (3, 12)
COMPARE_SHIFT = {(3, 12): 4, (3, 13): 5}.get(PY, 0)  # the low bits carry flags
INTRINSICS = {
    "intrinsic_1": getattr(dis, "_intrinsic_1_descs", ()),
    "intrinsic_2": getattr(dis, "_intrinsic_2_descs", ()),
}


def decode(code, lines: bool = False) -> list[Raw]:
    """The instructions of ``code`` in order, as ``dis.get_instructions`` lists them;
    ``starts_line`` is filled in only where ``lines`` asks for it."""
    co_code, consts, names = code.co_code, code.co_consts, code.co_names
    resolve = _Resolver(code)
    local = resolve.local
    starts = _line_starts(code) if lines else {}
    opnames = dis.opname
    make = tuple.__new__  # Raw(...) without the Python-level __new__ of a NamedTuple
    out: list[Raw] = []
    extended = caches = 0
    for offset in range(0, len(co_code), 2):
        if caches:
            caches -= 1
            continue
        op = co_code[offset]
        caches = CACHES[op]
        target = None
        if not HAS_ARG[op]:
            arg, argval, argrepr, extended = None, None, "", 0
        else:
            arg = co_code[offset + 1] | extended
            extended = arg << 8 if op == EXTENDED_ARG else 0
            kind, argrepr = KINDS[op], ""
            # The frequent kinds inline; the rest through the resolver.
            if kind == "const":
                argval = consts[arg]
            elif kind == "local":
                argval = local(arg)
            elif kind == "name":
                argval = names[arg]
            elif kind == "plain":
                argval = arg
            elif kind in ("jrel", "jback", "jabs"):
                target = argval = _target(kind, arg, offset, caches)
            else:
                argval, argrepr = resolve(kind, arg)
        fields = (opnames[op], op, arg, argval, argrepr, offset, starts.get(offset), target)
        out.append(make(Raw, fields))
    return out


def _target(kind: str, arg: int, offset: int, caches: int) -> int:
    if kind == "jabs":
        return arg * 2
    after = offset + 2 + (2 * caches if JUMP_SKIPS_CACHES else 0)
    return after - arg * 2 if kind == "jback" else after + arg * 2


def _line_starts(code) -> dict[int, int]:
    """Offset -> line for each instruction that starts a new line (3.10's dis view)."""
    starts, last = {}, None
    for start, _, line in code.co_lines():
        if line is not None and line != last:
            starts[start] = last = line
    return starts


class _Resolver:
    """``arg`` -> (argval, argrepr) for one code object."""

    def __init__(self, code):
        self.consts, self.names = code.co_consts, code.co_names
        if PY >= (3, 11):
            self.local = self.free = code._varname_from_oparg
        else:
            self.local = code.co_varnames.__getitem__
            self.free = (code.co_cellvars + code.co_freevars).__getitem__

    def __call__(self, kind: str, arg: int) -> tuple[object, str]:
        return getattr(self, "_" + kind)(arg)

    def _global(self, arg):
        return self.names[arg >> 1], ""

    _attr = _global

    def _name(self, arg):
        return self.names[arg], ""

    def _super_attr(self, arg):
        return self.names[arg >> 2], ""

    def _free(self, arg):
        return self.free(arg), ""

    def _compare(self, arg):
        return dis.cmp_op[arg >> COMPARE_SHIFT], ""

    def _format(self, arg):
        return ((None, str, repr, ascii)[arg & 3], bool(arg & 4)), ""

    def _convert(self, arg):
        return (None, str, repr, ascii)[arg], ""

    def _fast_pair(self, arg):
        return (self.local(arg >> 4), self.local(arg & 15)), ""

    def _binary_op(self, arg):
        return arg, dis._nb_ops[arg][1]

    def _intrinsic_1(self, arg):
        return arg, INTRINSICS["intrinsic_1"][arg]

    def _intrinsic_2(self, arg):
        return arg, INTRINSICS["intrinsic_2"][arg]
