"""Returns in a module or class body, which cannot say ``return``.

Such a body ends with ``return None``, and the compiler copies that small block to
the jumps that go to it (3.12+; 3.10 too, into the clauses of a try whose else ends
the body). Leaving a last ``while True`` loop reads back as a ``return`` inside it:
where the loop is the last thing the body runs, running on after it is the body's
end, so that ``return`` is the loop's ``break``; a last if whose body returns is a
while loop that never goes round, which the walk read as an if (its else the loop's),
and is written as one again. A clause that returns before the
statements after its try: those statements are the try's ``else``. Each reading
holds too inside the parts of the body's last statement that end where it does (an
if's branches, a with body, a match's cases). A class body returns its
``__class__`` cell where a module returns None: that is the same end.
"""

from __future__ import annotations

import ast

from ..simulation import markers as m
from ..structuring.clauses import never_goes_on
from ..structuring.trys import TRIES
from .matches import irrefutable

_LOOPS = (ast.While, ast.For, ast.AsyncFor)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def returns_as_breaks(stmts: list[ast.stmt]) -> None:
    """Turn ``return None`` inside a loop that ends ``stmts`` (the whole body, or a
    part whose end is the body's end) into ``break``, in place."""
    _rest_moved(stmts)
    last = stmts[-1] if stmts else None
    if isinstance(last, _LOOPS):
        last.body = [_Breaks().visit(s) for s in last.body]
    for part in _end_parts(last):
        returns_as_breaks(part)
    if _loop_never_round(last):  # (returns left where its parts end: no part's loop)
        loop = stmts[-1] = _as_loop(last)
        loop.body = [_Breaks().visit(s) for s in loop.body]


def _end_parts(stmt) -> list[list[ast.stmt]]:
    """The statement lists of ``stmt`` whose end is where ``stmt`` ends: where it ends
    a body, theirs is the body's end too."""
    if isinstance(stmt, _LOOPS):
        return [stmt.orelse]  # (after the loop ran out)
    if isinstance(stmt, ast.If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [stmt.body]
    if isinstance(stmt, TRIES):
        # (a finally body also ends an exception's way out, which a break would stop;
        # running off a try body with an else clause runs that clause next)
        return [stmt.orelse if stmt.orelse else stmt.body] + [h.body for h in stmt.handlers]
    if isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    return []


def _rest_moved(stmts: list[ast.stmt]) -> None:
    """Move the statements after the first loop, match or if statement of ``stmts``
    that returns into it, where they run exactly when it does not return, in place:
    a return there skips them, as a break skips a loop's ``else`` (an if's body that
    never goes on: they are its else)."""
    for i, stmt in enumerate(stmts[:-1]):
        if _no_return([stmt]):
            continue
        rest = stmts[i + 1 :]
        if not _no_return(rest):
            return
        if isinstance(stmt, _LOOPS) and not _no_return(stmt.body):
            breaks = _own_breaks(stmt.body)
            if not breaks:  # the rest runs when the loop ends, and never after a break
                stmt.orelse = stmt.orelse + rest
            elif len(breaks) == 1 and _endless(stmt):  # the rest runs after that break
                _OneBreak(breaks[0], rest).visit(stmt)
            else:
                return
        elif isinstance(stmt, ast.Match) and not _no_return(stmt.cases):
            if not _rest_as_case(stmt, rest):
                return
        elif _loop_never_round(stmt) and never_goes_on(stmt.body):
            stmt.orelse = [*stmt.orelse, *rest]  # (run exactly when the test fails)
        else:
            return
        del stmts[i + 1 :]
        return


def _loop_never_round(stmt) -> bool:
    """Whether ``stmt`` is an if whose body returns, outside the loops it holds: a
    while loop that never goes round, read as an if, its breaks as returns (seed
    11042)."""
    if not isinstance(stmt, ast.If):
        return False
    return bool(_own(stmt.body, ast.Return)) and not _own(stmt.body, (ast.Break, ast.Continue))


def _as_loop(stmt: ast.If) -> ast.While:
    """The if ``stmt`` as that while loop, whose body breaks where it goes on: it runs
    the same, its else when the test fails, and its returns can then break."""
    body = stmt.body if never_goes_on(stmt.body) else [*stmt.body, ast.Break()]
    return ast.While(test=stmt.test, body=body, orelse=stmt.orelse)


def _rest_as_case(match: ast.Match, rest: list[ast.stmt]) -> bool:
    """Make ``rest`` the last case of ``match`` where every case ends by returning
    ``None`` (there only) or raising, and none matches whatever the subject is: the
    rest then runs when no case matched, as it did after the statement."""
    for case in match.cases:
        if case.guard is None and irrefutable(case.pattern):
            return False
        if not _ends_or_raises(case.body):
            return False
    for case in match.cases:
        if _returns_none(case.body[-1:]):
            case.body = case.body[:-1] or [ast.Pass()]
    match.cases.append(ast.match_case(pattern=ast.MatchAs(), guard=None, body=rest))
    return True


def _ends_or_raises(stmts: list[ast.stmt]) -> bool:
    """Whether ``stmts`` end the body by returning ``None`` at their end (and there
    only), or never go on and never return (they raise)."""
    if _returns_none(stmts[-1:]):
        return _no_return(stmts[:-1])
    return never_goes_on(stmts) and _no_return(stmts)


def _endless(loop) -> bool:
    """Whether ``loop`` is ``while True``, which ends only by leaving."""
    test = getattr(loop, "test", None)
    return isinstance(test, ast.Constant) and test.value is True and not loop.orelse


def _own_breaks(stmts: list[ast.stmt]) -> list[ast.Break]:
    """The breaks of one loop's own body ``stmts`` (not of loops or scopes inside it)."""
    return _own(stmts, ast.Break)


def _own(stmts: list[ast.stmt], kind) -> list[ast.stmt]:
    """The statements of ``kind`` in ``stmts``, not in loops or scopes inside them."""
    out, todo = [], list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, kind):
            out.append(node)
        elif not isinstance(node, (*_LOOPS, *_SCOPES)):
            todo.extend(ast.iter_child_nodes(node))
    return out


class _OneBreak(ast.NodeTransformer):
    """The statements ``rest`` run before the break ``target``."""

    def __init__(self, target, rest):
        self.target, self.rest = target, rest

    def visit_Break(self, node):
        if node is not self.target:
            return node
        ends = self.rest and isinstance(self.rest[-1], (ast.Raise, ast.Return))
        return self.rest if ends else [*self.rest, node]


class _Breaks(ast.NodeTransformer):
    """``return None`` as ``break`` in one loop's own statements (not in loops or
    scopes inside it, where a break would mean something else)."""

    def visit_Return(self, node):
        if _is_none(node.value):
            return ast.copy_location(ast.Break(), node)
        return node

    def _own_scope(self, node):
        return node

    visit_While = visit_For = visit_AsyncFor = _own_scope
    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _own_scope


def returns_as_else(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` (a module or class body, or a part of one that ends where it does)
    with each ``try`` whose clauses all end in ``return None`` and that code follows
    read as ``try``/``else``, in place: the clauses end the body (or raise), so what
    follows runs only after the try body. Not past a ``finally``, which runs before an
    else's statements but after those that follow the try."""
    _rest_copies_dropped(stmts)
    for i, stmt in enumerate(stmts[:-1]):
        if not isinstance(stmt, TRIES) or stmt.finalbody or not stmt.handlers:
            continue
        returning = [h for h in stmt.handlers if _returns_none(h.body[-1:])]
        if not returning or not all(_ends_or_raises(h.body) for h in stmt.handlers):
            continue
        for handler in returning:
            handler.body = handler.body[:-1] or [ast.Pass()]
        stmt.orelse = stmt.orelse + stmts[i + 1 :]
        del stmts[i + 1 :]
        break
    for part in _end_parts(stmts[-1] if stmts else None):
        returns_as_else(part)
    return stmts


def class_ends_plain(stmts: list[ast.stmt]) -> None:
    """In a class body, in place: its end stores the class's ``__class__`` cell as
    ``__classcell__`` and returns it where a module's returns None (3.13 also stores
    ``__static_attributes__`` before). Wherever that end was copied to, it reads as a
    plain ``return`` (made a break, or dropped, as a module's): the class statement
    stores both itself."""
    stmts[:] = [s for s in map(_PlainClassEnds().visit, stmts) if s is not None]


class _PlainClassEnds(ast.NodeTransformer):
    def visit_Assign(self, node):
        targets = [getattr(t, "id", None) for t in node.targets]
        return None if targets in (["__classcell__"], ["__static_attributes__"]) else node

    def visit_Return(self, node):
        return ast.copy_location(ast.Return(value=None), node)

    def _own_scope(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _own_scope


def _rest_copies_dropped(stmts: list[ast.stmt]) -> None:
    """Where a way through a statement of ``stmts`` ends with a copy of the statements
    after it and ``return None`` (the compiler copies a short body end to the jumps
    that go to it), drop both, in place: that way then runs on into the statements
    themselves. Only through parts that run in the statement's own context (not a
    with's or an except clause's, nor before a finally), which the copy ran in."""
    for i, stmt in enumerate(stmts[:-1]):
        rest = stmts[i + 1 :]
        if _no_return(rest):
            _copy_dropped(stmt, [*rest, ast.Return(value=None)])


def _copy_dropped(stmt, copy: list[ast.stmt]) -> None:
    for part in _plain_end_parts(stmt):
        if len(part) >= len(copy) and m.same(part[-len(copy) :], copy):
            del part[-len(copy) :]
            if not part and part is not getattr(stmt, "orelse", None):
                part.append(ast.Pass())
        elif part:
            _copy_dropped(part[-1], copy)


def _plain_end_parts(stmt) -> list[list[ast.stmt]]:
    """The parts of ``_end_parts(stmt)`` that run in the context ``stmt`` runs in."""
    if isinstance(stmt, (ast.If, ast.Match, *_LOOPS)):
        return _end_parts(stmt)
    if isinstance(stmt, TRIES) and stmt.orelse and not stmt.finalbody:
        return [stmt.orelse]
    return []


def _returns_none(stmts: list[ast.stmt]) -> bool:
    return len(stmts) == 1 and isinstance(stmts[0], ast.Return) and _is_none(stmts[0].value)


def _is_none(value) -> bool:
    return value is None or (isinstance(value, ast.Constant) and value.value is None)


def _no_return(stmts) -> bool:
    """Whether no statement of ``stmts`` returns (scopes inside them aside)."""
    todo = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            return False
        if not isinstance(node, _SCOPES):
            todo.extend(ast.iter_child_nodes(node))
    return True
