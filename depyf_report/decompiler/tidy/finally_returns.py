"""A finally body around a return, read as a bare except clause and an else.

``try: return v / finally: f`` keeps ``v`` while ``f`` runs, and where the structurer
reads the finally body's two copies as an except clause that re-raises and an else,
the value comes back in a temporary: ``try: _t1 = v / except: f; raise / else: f;
return _t1``. Both copies alike and no other way out of the try body: that is the
finally statement again, with no local the function never had.

A finally body that never goes on (it raises) ends both copies alike, with no
re-raise after one nor return after the other: ``try: b / except: f / else: f``.
A return through it has no RETURN_VALUE either; its value, dropped as the copy
raises, is left as a statement of its own (``nodes.dropped_return``). That is the
finally statement with the return again.
"""

from __future__ import annotations

import ast
import copy

from ..simulation import markers as m
from ..simulation import nodes
from ..structuring.clauses import never_goes_on

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def finally_again_in(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` with each try holding its finally body twice a try/finally again, the
    last one with the return after it where its else runs on into that return: the
    walk leaves a return after the try where the else's ways on meet it only there
    (3.10 copies ``POP_BLOCK; RETURN_VALUE`` of an outer try into each arm of a last
    ``if`` in the finally body, seed 4044)."""
    out = [finally_again(stmt) for stmt in stmts]
    if len(out) < 2 or not _returns_a_temporary(out[-1]):
        return out
    tried = out[-2]
    if isinstance(tried, ast.Try) and not tried.finalbody:
        # (the clause re-raises, so only the else goes on, into the return)
        ran_on = ast.Try(tried.body, tried.handlers, [*tried.orelse, out[-1]], [])
        again = finally_again(ran_on)
        if again is not ran_on:
            out[-2:] = [again]
    return out


def finally_again(stmt: ast.stmt) -> ast.stmt:
    """``stmt``, or the try/finally whose finally body it holds twice."""
    if not isinstance(stmt, ast.Try) or stmt.finalbody or len(stmt.handlers) != 1:
        return stmt
    clause = stmt.handlers[0]
    if clause.type is not None or not clause.body:
        return stmt
    raised, returned = _settled(clause.body), _settled(stmt.orelse)
    if not (raised and returned and _reraises(raised[-1])):
        return stmt
    final = raised[:-1]
    if not final or not _alike(returned[:-1], final):
        return stmt
    kept, ret = stmt.body[-1], returned[-1]
    if not _keeps_returned(kept, ret) or m.reads(ret.value.id, final):
        return stmt
    if not _only_way_out_is_its_end(stmt.body[:-1]):
        return stmt  # a way out of the body ran no copy of the finally body
    body = [*stmt.body[:-1], ast.Return(value=kept.value)]
    return ast.Try(body=body, handlers=[], orelse=[], finalbody=final)


def never_going_on(stmt: ast.stmt, returns: bool = True) -> ast.stmt:
    """``stmt``, or the try/finally whose finally body, which never goes on, it holds
    twice: as a bare except clause and as the else. The two run the same code on each
    way out of a body that only ends or raises; its dropped returns return again
    where ``returns`` (a function's body: a module's or a class's has no return)."""
    if not isinstance(stmt, ast.Try) or stmt.finalbody or len(stmt.handlers) != 1:
        return stmt
    clause, final = stmt.handlers[0], stmt.orelse
    if clause.type is not None or nodes.else_runs_on(stmt) or not never_goes_on(final):
        return stmt
    if _holds_markers(clause.body, final) or not _alike(clause.body, final):
        return stmt  # (read before the try's parts are tidied: markers have no copies)
    if not _only_way_out_is_its_end(stmt.body):
        return stmt
    body = _returns_again(stmt.body) if returns else stmt.body
    return ast.Try(body=body, handlers=[], orelse=[], finalbody=final)


def _holds_markers(*blocks: list[ast.stmt]) -> bool:
    """Whether ``blocks`` hold a stack value that is no expression yet, or a with's
    exit: values the tidy passes have not written out."""
    return any(
        isinstance(node, (m.Marker, m.ExitedWith, m.LeftForElse))
        for block in blocks
        for node in ast.walk(ast.Module(body=block, type_ignores=[]))
    )


# statements whose inner blocks a return leaves running nothing more than the
# compiler wrote out before the dropped value (a clause's clearing of its name)
_PLAIN_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Match)


def _returns_again(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` with each dropped return's value returned again, inside ifs, loops,
    cases and trys with no finally body of their own."""
    out = []
    for stmt in stmts:
        if nodes.dropped_return(stmt):
            # (the rest, a loop's break the value was kept through, never runs)
            return [*out, ast.copy_location(ast.Return(value=stmt.value), stmt)]
        if isinstance(stmt, _PLAIN_BLOCKS) or (
            isinstance(stmt, nodes.TRY_STATEMENTS) and not stmt.finalbody
        ):
            for part in [stmt, *getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]:
                for field in ("body", "orelse"):
                    if getattr(part, field, None):
                        setattr(part, field, _returns_again(getattr(part, field)))
        out.append(stmt)
    return out


def _settled(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` as one copy of a finally body is written whatever way out it runs
    before: the compiler copies the way out (a ``raise``, a ``return``) into the
    arms of a last ``if`` that go on to it, and into those of the ifs ending them
    (3.10 copies a return past an outer try's ``POP_BLOCK`` into each: ``if a: f /
    else: return _t1`` then ``return _t1``, seed 4044); and ``if not a: assert b``
    that way is ``assert a or b``."""
    if len(stmts) < 2 or not isinstance(stmts[-2], ast.If):
        return stmts
    way_out = stmts[-1]
    branch = _without(stmts[-2], way_out)
    if branch is stmts[-2]:
        return stmts  # (no copy of the way out to drop)
    test = branch.test
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    body = branch.body
    if negated and not branch.orelse and len(body) == 1 and isinstance(body[0], ast.Assert):
        either = ast.BoolOp(op=ast.Or(), values=[test.operand, body[0].test])
        return [*stmts[:-2], ast.Assert(test=either, msg=body[0].msg), way_out]
    return [*stmts[:-2], branch, way_out]


def _without(branch: ast.If, way_out: ast.stmt) -> ast.If:
    """``branch`` less the copies of ``way_out`` that end its arms (or the arms of the
    ifs ending them), which the statement after it runs anyway; ``branch`` itself
    where it holds none."""
    body, orelse = _going_on(branch.body, way_out), _going_on(branch.orelse, way_out)
    if body is branch.body and orelse is branch.orelse:
        return branch
    return ast.If(test=branch.test, body=body or [ast.Pass()], orelse=orelse)


def _going_on(arm: list[ast.stmt], way_out: ast.stmt) -> list[ast.stmt]:
    if arm and m.same(arm[-1], way_out):
        return arm[:-1]
    if arm and isinstance(arm[-1], ast.If):
        last = _without(arm[-1], way_out)
        if last is not arm[-1]:
            return [*arm[:-1], last]
    return arm


def _alike(a: list[ast.stmt], b: list[ast.stmt]) -> bool:
    """Whether two copies of a finally body are the same code, where one walk read
    ``if a and b:`` as ``if a: if b:`` (3.10 copies the return after the try into
    both failures of the normal path's copy, so its ifs stay nested; seed 7797)."""
    return m.same(_AndsJoined().visit(_copy(a)), _AndsJoined().visit(_copy(b)))


def _copy(stmts: list[ast.stmt]) -> ast.Module:
    return ast.Module(body=copy.deepcopy(stmts), type_ignores=[])


class _AndsJoined(ast.NodeTransformer):
    """``if a: if b: s`` (no else on either) as ``if a and b: s``, which it runs alike."""

    def visit_If(self, node: ast.If) -> ast.If:
        self.generic_visit(node)
        inner = node.body[0] if len(node.body) == 1 else None
        if node.orelse or not isinstance(inner, ast.If) or inner.orelse:
            return node
        tests = [*_ands(node.test), *_ands(inner.test)]
        return ast.If(test=ast.BoolOp(op=ast.And(), values=tests), body=inner.body, orelse=[])


def _ands(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [x for value in test.values for x in _ands(value)]
    return [test]


def _reraises(stmt) -> bool:
    return isinstance(stmt, ast.Raise) and stmt.exc is None


def _returns_a_temporary(stmt) -> bool:
    return isinstance(stmt, ast.Return) and m.is_temporary(stmt.value)


def _keeps_returned(kept, ret) -> bool:
    """``_t1 = v`` then ``return _t1``, for a temporary."""
    return (
        isinstance(kept, ast.Assign)
        and len(kept.targets) == 1
        and _returns_a_temporary(ret)
        and isinstance(kept.targets[0], ast.Name)
        and kept.targets[0].id == ret.value.id
    )


def _only_way_out_is_its_end(stmts) -> bool:
    """Whether no return, nor break or continue of a loop around, leaves ``stmts``."""
    todo = [(s, False) for s in stmts]
    while todo:
        node, in_loop = todo.pop()
        if isinstance(node, ast.Return) or (
            isinstance(node, (ast.Break, ast.Continue)) and not in_loop
        ):
            return False
        if isinstance(node, _SCOPES):
            continue
        inner = in_loop or isinstance(node, _LOOPS)
        todo += [(child, inner) for child in ast.iter_child_nodes(node)]
    return True
