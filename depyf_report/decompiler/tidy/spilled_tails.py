"""A conditional operand whose arm the walk could not read as one value.

``log.append([i for i in y] if c else True)`` ending the function: 3.12+ copy the
call and the return into each arm, and the arm that is an inlined comprehension is
a loop, not a value that ``structuring.walked_tails`` can merge. The walk then
spills what the stack holds below the test (the callee) to temporaries and writes
the tail in each branch: ``_t1 = log.append / if c: _t1([...]); return / else:
_t1(True); return``. Once the comprehension is folded back, both branches are that
tail but for one operand, as ``walked_tails`` reads it: with each spilled value put
back in its one place in the statement, that is the statement with the conditional
expression, evaluated in the same order.
"""

from __future__ import annotations

import ast
from collections import Counter

from ..simulation import markers as m
from ..structuring.walked_tails import merged_tails


def spilled_tails_in(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` with each if whose body and else (or, where it has none, the
    statements after it) end the function alike but for one operand read as that one
    tail, the temporaries the statements before the if spilled put back."""
    names = None
    for at, stmt in enumerate(stmts):
        spilled = _spilled(stmts[:at]) if isinstance(stmt, ast.If) else None
        if not spilled:
            continue
        if names is None:
            names = Counter(n.id for n in ast.walk(_module(stmts)) if m.is_temporary(n))
        # each stored once and read once in each branch, nowhere else
        if any(names[s.targets[0].id] != 3 for s in spilled):
            continue
        after = at + 1 if stmt.orelse else len(stmts)
        merged = _merged(stmt, stmt.orelse or stmts[at + 1 :], spilled)
        if merged is not None:
            return [*stmts[: at - len(spilled)], *merged, *stmts[after:]]
    return stmts


def _merged(stmt: ast.If, other: list[ast.stmt], spilled: list[ast.Assign]):
    """The statements that ``stmt``'s body and ``other`` are, or None."""
    if not (stmt.body and other and _ends(stmt.body) and _ends(other)):
        return None
    kept = [s.value for s in spilled]
    names = [s.targets[0].id for s in spilled]
    if any(m.reads(ident, stmt.test) for ident in names):
        return None
    values = dict(zip(names, kept))
    reads = [_reads_of(arm, values) for arm in (stmt.body, other)]
    if None in reads:
        return None
    _put(reads, lambda node: values[node.id])
    merged = merged_tails(stmt.test, kept, stmt.body, other)  # (builds, changes nothing)
    if merged is None:
        _put(reads, lambda node: node)  # the reads as they were
    return merged


def _module(stmts: list[ast.stmt]) -> ast.Module:
    return ast.Module(body=stmts, type_ignores=[])


def _ends(arm: list[ast.stmt]) -> bool:
    return isinstance(arm[-1], (ast.Return, ast.Raise))


def _spilled(before: list[ast.stmt]) -> list[ast.Assign]:
    """The assignments of one value each to a temporary that end ``before``, in order."""
    at = len(before)
    while at and _spills(before[at - 1]):
        at -= 1
    return before[at:]


def _spills(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and m.is_temporary(stmt.targets[0])
    )


def _reads_of(arm: list[ast.stmt], values: dict) -> list | None:
    """(holder, key, read) for the one read of each temporary in ``values`` in
    ``arm``; None where it reads one otherwise (twice, or not at all)."""
    found = [
        (holder, key, node)
        for parent in ast.walk(_module(arm))
        for holder, key, node in _children(parent)
        if isinstance(node, ast.Name) and node.id in values
    ]
    if sorted(node.id for _, _, node in found) != sorted(values):
        return None
    if any(not isinstance(node.ctx, ast.Load) for _, _, node in found):
        return None
    return found


def _put(reads: list[list], value) -> None:
    """``value(read)`` in place of each read: the spilled value itself, one object for
    both arms as the stack held it (``merged_tails`` tells it by identity)."""
    for holder, key, node in (read for arm in reads for read in arm):
        if isinstance(holder, list):
            holder[key] = value(node)
        else:
            setattr(holder, key, value(node))


def _children(parent: ast.AST):
    """(holder, key, child) for each child node of ``parent``: the node and a field's
    name, or a list field and an index."""
    for field, value in ast.iter_fields(parent):
        if isinstance(value, list):
            yield from ((value, i, item) for i, item in enumerate(value))
        else:
            yield parent, field, value
