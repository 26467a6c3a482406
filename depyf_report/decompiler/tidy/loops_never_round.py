"""A while loop that never goes round, read as an if, around a finally body that breaks.

Where each way through a while loop's body leaves it (a return, a break, a raise),
the compiler writes no jump back: the loop is its test alone, which the walk reads as
an if, and a break is a jump past that if. A break in a finally body around a
return then reads as the finally body's two copies, a bare except clause and an
else, going on past the try, which no try/finally outside a loop can say: the
return's value is left in a temporary (``if c: try: _t1 = v / except: f / else:
f; return _t1``). ``if c: b`` runs as ``while c: b; break`` where ``b`` has no break
or continue of its own; read so, going on past the try is a break, and the copies
are a finally body that breaks.
"""

from __future__ import annotations

import ast

from ..simulation import markers as m
from ..structuring.clauses import never_goes_on
from .finally_returns import finally_again

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def loops_again_in(stmts: list[ast.stmt], outer=frozenset()) -> list[ast.stmt]:
    """``stmts`` with each if that is such a loop that loop again (``outer``: as for
    ``comprehensions.fold``)."""
    out = list(stmts)
    for i, stmt in enumerate(out):
        if isinstance(stmt, ast.If):
            again = _loop_again(stmt, out[i + 1 :], outer)
            if again is not None:
                out[i:] = again
    return out


def _loop_again(stmt: ast.If, rest: list[ast.stmt], outer) -> list[ast.stmt] | None:
    """The while loop ``stmt`` is and the statements after it, which were ``rest``;
    None where its body does not end in a try holding a finally body twice whose
    copies go on past it. Going on there is a break, so is a copy of where the loop
    goes on that ends the function: 3.10 copies a small one after the try (the rest
    before it then the loop's else), 3.12+ into the finally body's copy that breaks."""
    parts = _parts(stmt, rest)
    if parts is None:
        return None
    body, orelse, follow = parts
    tried = body[-1] if body else None
    if not isinstance(tried, ast.Try) or tried.finalbody or len(tried.handlers) != 1:
        return None
    clause = tried.handlers[0]
    if never_goes_on(clause.body) and never_goes_on(tried.orelse):
        return None  # (nothing goes past the try: a try/finally says it alone)
    if _leaves_a_loop(stmt.body):
        return None  # (inside the loop, it would leave that loop instead)
    broken = ast.Try(
        body=tried.body,
        # (a copy of the follow in the clause would run while it handles the exception)
        handlers=[ast.ExceptHandler(clause.type, clause.name, _break_at_ends(clause.body))],
        orelse=_break_at_ends(tried.orelse, follow),
        finalbody=[],
    )
    again = finally_again(broken, outer)
    if again is broken:
        return None
    body = [*body[:-1], again]
    if not never_goes_on(body):
        body.append(ast.Break())
    loop = ast.copy_location(ast.While(test=stmt.test, body=body, orelse=orelse), stmt)
    return [loop, *follow]


def _parts(stmt: ast.If, rest: list[ast.stmt]):
    """The loop's body, its else and the statements after it, of ``stmt`` and the
    ``rest`` after it; None where code after a last try of its body goes on. That code
    is where the loop goes on, copied: where ``rest`` ends in the same code it is
    that end, the rest before it the else; else, where ``rest`` never goes on (only
    the test's failing gets there), ``rest`` is the else and that code follows."""
    tries = [i for i, s in enumerate(stmt.body) if isinstance(s, ast.Try)]
    size = len(stmt.body) - 1 - tries[-1] if tries else 0
    if not size:
        return stmt.body, stmt.orelse, rest
    body, copied = stmt.body[:-size], stmt.body[-size:]
    if stmt.orelse or not never_goes_on(copied):
        return None
    if _copies(copied, rest):
        return body, rest[:-size], rest[-size:]
    if never_goes_on(rest):
        return body, rest, copied
    return None


def _copies(stmts: list[ast.stmt], follow: list[ast.stmt]) -> bool:
    """Whether ``stmts`` is a copy of the end of ``follow`` that never goes on."""
    if not stmts or len(stmts) > len(follow) or not never_goes_on(stmts):
        return False
    return m.same(stmts, follow[-len(stmts) :])


def _break_at_ends(stmts: list[ast.stmt], follow=()) -> list[ast.stmt]:
    """``stmts`` (new ifs where changed) breaking wherever they would go on past their
    end, and in place of each copy of ``follow`` ending them or their ifs' branches."""
    stmts = _follow_as_breaks(stmts, list(follow)) if follow else stmts
    if never_goes_on(stmts):
        return stmts
    last = stmts[-1] if stmts else None
    if isinstance(last, ast.If):
        body, orelse = _break_at_ends(last.body), _break_at_ends(last.orelse)
        return [*stmts[:-1], _if(last, body, orelse)]
    return [*(s for s in stmts if not isinstance(s, ast.Pass)), ast.Break()]


def _follow_as_breaks(stmts: list[ast.stmt], follow: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` (new ifs where changed) with each copy of ``follow`` ending them or
    their ifs' branches a break (it never goes on: whatever follows it never runs).
    The statements after an if that now only breaks are its else, as the walk writes
    the copy of the finally body that goes on there (3.10 copies the follow into
    the other)."""
    if len(stmts) >= len(follow) and _copies(stmts[-len(follow) :], follow):
        stmts = [*stmts[: -len(follow)], ast.Break()]
    out = []
    for i, stmt in enumerate(stmts):
        if not isinstance(stmt, ast.If):
            out.append(stmt)
            continue
        body, orelse = _follow_as_breaks(stmt.body, follow), _follow_as_breaks(stmt.orelse, follow)
        rest = stmts[i + 1 :]
        if rest and not orelse and len(body) == 1 and isinstance(body[0], ast.Break):
            return [*out, _if(stmt, body, _follow_as_breaks(rest, follow))]
        out.append(_if(stmt, body, orelse))
    return out


def _if(stmt: ast.If, body: list[ast.stmt], orelse: list[ast.stmt]) -> ast.If:
    return ast.copy_location(ast.If(stmt.test, body, orelse), stmt)


def _leaves_a_loop(stmts: list[ast.stmt]) -> bool:
    """Whether a break or continue of ``stmts`` leaves or restarts a loop around them."""
    todo = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            return True
        if isinstance(node, _LOOPS):  # (its own breaks stay in it; its else is ours)
            todo += node.orelse
        elif not isinstance(node, _SCOPES):
            todo += ast.iter_child_nodes(node)
    return False
