"""Give recompiled code the local-variable layout of the code it replaces.

Dynamo runs its transformed code in a new frame filled from the original
frame's locals, cells and free variables (by name on 3.11+, by position before).
Code compiled from decompiled source numbers its locals by first use, so before
it can stand in for Dynamo's code its slots are renumbered: Dynamo's
``co_varnames`` first, in Dynamo's order, then the source's own temporaries;
cells and free variables exactly as Dynamo has them. Only the argument of each
instruction that names a slot changes, and no instruction moves, so jumps, the
line table and the exception table stay valid.

Standard library only.
"""

from __future__ import annotations

import dis
import inspect
import sys
import types

_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]
_FAST_OPS = frozenset(dis.haslocal)
_CELL_OPS = frozenset(dis.hasfree)
# 3.13 superinstructions: two slots in one argument, four bits each.
_PACKED = frozenset(
    dis.opmap[n]
    for n in ("LOAD_FAST_LOAD_FAST", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST")
    if n in dis.opmap
)
# Flags that change how a call binds arguments or what kind of frame runs.
_CALL_FLAGS = (
    inspect.CO_VARARGS
    | inspect.CO_VARKEYWORDS
    | inspect.CO_GENERATOR
    | inspect.CO_COROUTINE
    | inspect.CO_ASYNC_GENERATOR
    | inspect.CO_ITERABLE_COROUTINE
)
# Before 3.11, cells and free variables have their own numbering.
_UNIFIED_SLOTS = sys.version_info >= (3, 11)


class Unfaithful(Exception):
    """Recompiled code cannot take the place of Dynamo's; the message says why."""


def relayout(
    code: types.CodeType, target: types.CodeType, renames: dict[str, str] | None = None
) -> types.CodeType:
    """``code`` with its locals, cells and free variables laid out as ``target``'s.

    ``renames`` maps a name in ``code`` to the name it stands for in ``target``
    (the decompiler turns names that are not identifiers, like ``.0``, into ones
    that are). Raises ``Unfaithful`` when the two cannot share a frame layout.
    """
    renames = renames or {}
    code = _renamed(code, renames)
    _check_signature(code, target)
    _check_same("cell variables", code.co_cellvars, target.co_cellvars)
    _check_same("free variables", code.co_freevars, target.co_freevars)
    varnames = target.co_varnames + tuple(
        n for n in code.co_varnames if n not in target.co_varnames
    )
    laid_out = code.replace(
        co_varnames=varnames,
        co_nlocals=len(varnames),
        co_cellvars=target.co_cellvars,
        co_freevars=target.co_freevars,
        co_flags=target.co_flags,
    )
    moves = _slot_moves(code, laid_out)
    result = laid_out.replace(co_code=_renumbered(code.co_code, moves))
    _check_same_names(code, result)
    return result


def _renamed(code: types.CodeType, renames: dict[str, str]) -> types.CodeType:
    if not renames:
        return code

    def rename(names):
        return tuple(renames.get(n, n) for n in names)

    renamed = rename(code.co_varnames) + rename(code.co_cellvars) + rename(code.co_freevars)
    original = code.co_varnames + code.co_cellvars + code.co_freevars
    if len(set(renamed)) != len(set(original)):
        raise Unfaithful("two local names of the decompiled source stand for one name")
    return code.replace(
        co_varnames=rename(code.co_varnames),
        co_cellvars=rename(code.co_cellvars),
        co_freevars=rename(code.co_freevars),
    )


def _check_signature(code: types.CodeType, target: types.CodeType) -> None:
    for field in ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount"):
        if getattr(code, field) != getattr(target, field):
            raise Unfaithful(f"{field} differs: {getattr(code, field)} vs {getattr(target, field)}")
    if (code.co_flags ^ target.co_flags) & _CALL_FLAGS:
        raise Unfaithful(f"flags differ: {code.co_flags:#x} vs {target.co_flags:#x}")
    count = _argument_count(target)
    if code.co_varnames[:count] != target.co_varnames[:count]:
        raise Unfaithful(
            f"parameters differ: {code.co_varnames[:count]} vs {target.co_varnames[:count]}"
        )


def _argument_count(code: types.CodeType) -> int:
    return (
        code.co_argcount
        + code.co_kwonlyargcount
        + bool(code.co_flags & inspect.CO_VARARGS)
        + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    )


def _check_same(what: str, ours: tuple, theirs: tuple) -> None:
    if set(ours) != set(theirs):
        raise Unfaithful(f"{what} differ: {sorted(ours)} vs {sorted(theirs)}")


def slot_names(code: types.CodeType) -> dict[str, list[str]]:
    """The name behind each slot number, per numbering ("fast", "cell").

    3.11+ numbers locals, cells and free variables together (``localsplus``);
    before, locals have one numbering and cells then free variables another.
    """
    if _UNIFIED_SLOTS:
        count = len(set(code.co_varnames + code.co_cellvars)) + len(code.co_freevars)
        names = [code._varname_from_oparg(i) for i in range(count)]
        return {"fast": names, "cell": names}
    return {"fast": list(code.co_varnames), "cell": list(code.co_cellvars + code.co_freevars)}


def _slot_moves(old: types.CodeType, new: types.CodeType) -> dict[str, list[int]]:
    """For each numbering, old slot number -> new slot number (by name)."""
    before, after = slot_names(old), slot_names(new)
    moves = {}
    for kind in ("fast", "cell"):
        index = {name: i for i, name in enumerate(after[kind])}
        moves[kind] = [index[name] for name in before[kind]]
    return moves


def _renumbered(co_code: bytes, moves: dict[str, list[int]]) -> bytes:
    """The bytecode with every slot argument moved; instructions keep their size."""
    out = bytearray(co_code)
    prefix, extended = 0, 0
    for at in range(0, len(out), 2):
        op, arg = out[at], out[at + 1]
        if op == _EXTENDED_ARG:
            prefix, extended = (prefix | arg) << 8, extended + 1
            continue
        if op in _FAST_OPS or op in _CELL_OPS:
            new_arg = _moved(op, prefix | arg, moves)
            if new_arg >= 256 ** (extended + 1):
                raise Unfaithful("a renumbered slot needs a longer instruction")
            for k in range(extended + 1):  # the last byte of the argument sits on the op
                out[at + 1 - 2 * k] = (new_arg >> (8 * k)) & 0xFF
        prefix, extended = 0, 0
    return bytes(out)


def _moved(op: int, arg: int, moves: dict[str, list[int]]) -> int:
    if op in _PACKED:
        first, second = moves["fast"][arg >> 4], moves["fast"][arg & 15]
        if first > 15 or second > 15:
            raise Unfaithful("a renumbered slot does not fit a paired instruction")
        return first << 4 | second
    return moves["fast" if op in _FAST_OPS else "cell"][arg]


def _check_same_names(old: types.CodeType, new: types.CodeType) -> None:
    """Every instruction still names the same variable as before."""
    pairs = zip(dis.get_instructions(old), dis.get_instructions(new), strict=True)
    for a, b in pairs:
        if (a.opname, a.argval) != (b.opname, b.argval):
            raise Unfaithful(f"relayout changed {a.opname} {a.argval!r} at offset {a.offset}")
