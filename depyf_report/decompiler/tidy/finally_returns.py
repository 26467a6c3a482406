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

from ..rewrites.patterns import is_wildcard
from ..simulation import markers as m
from ..simulation import nodes
from ..structuring.clauses import never_goes_on
from ..structuring.conditions import negate
from ..structuring.trys import TRIES, TRY_STAR
from .comprehensions import accumulated
from .spilled_tails import spilled_tails_in

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def finally_again_in(stmts: list[ast.stmt], outer=frozenset()) -> list[ast.stmt]:
    """``stmts`` with each try holding its finally body twice a try/finally again, the
    last one with the return after it where its else runs on into that return: the
    walk leaves a return after the try where the else's ways on meet it only there
    (3.10 copies ``POP_BLOCK; RETURN_VALUE`` of an outer try into each arm of a last
    ``if`` in the finally body, seed 4044)."""
    out = _clause_runs_on([finally_again(stmt, outer) for stmt in stmts], outer)
    if len(out) < 2 or not _returns_a_temporary(out[-1]):
        return out
    tried = out[-2]
    if isinstance(tried, ast.Try) and not tried.finalbody:
        # (the clause re-raises, so only the else goes on, into the return; where the
        # else's if ended the function alike in both arms, that is one tail again)
        ran_on_else = spilled_tails_in(copy.deepcopy([*tried.orelse, out[-1]]))
        ran_on = ast.Try(tried.body, tried.handlers, ran_on_else, [])
        again = finally_again(ran_on, outer)
        if again is not ran_on:
            out[-2:] = [again]
    return out


def _clause_runs_on(stmts: list[ast.stmt], outer) -> list[ast.stmt]:
    """``stmts`` with a try whose one clause, not its else, goes on to the statements
    after it (the else returns) a try/finally again, where those statements end the
    clause's copy of the finally body: the walk may write that copy after the try
    (3.11+, ``except: pass`` then the copy and its re-raise: seed 8814)."""
    for i, tried in enumerate(stmts[:-1]):
        if not (isinstance(tried, ast.Try) and len(tried.handlers) == 1):
            continue
        if tried.finalbody or not tried.orelse or not never_goes_on(tried.orelse):
            continue
        clause = tried.handlers[0]
        body = [] if all(isinstance(s, ast.Pass) for s in clause.body) else clause.body
        whole = ast.ExceptHandler(type=clause.type, name=clause.name, body=[*body, *stmts[i + 1 :]])
        ran_on = ast.Try(tried.body, [whole], tried.orelse, [])
        again = finally_again(ran_on, outer)
        if again is not ran_on:
            return [*stmts[:i], again]
    return stmts


def finally_again(stmt: ast.stmt, outer=frozenset()) -> ast.stmt:
    """``stmt``, or the try/finally whose finally body it holds twice; ``outer``: as
    for ``comprehensions.fold``."""
    if not isinstance(stmt, ast.Try) or stmt.finalbody or len(stmt.handlers) != 1:
        return stmt
    clause = stmt.handlers[0]
    kept = _returning(stmt.body, outer)
    if clause.type is not None or not clause.body or kept is None:
        return stmt
    ident, body = kept
    final = _settled(clause.body, _reraises, entered=_RERAISE_GOES_THROUGH)
    returned = _settled(stmt.orelse, _returns(ident), entered=_RETURN_GOES_THROUGH)
    if not final or returned is None or not _alike(returned, final):
        return stmt
    if m.reads(ident, final):
        return stmt
    inner = body[0]
    if len(body) == 1 and isinstance(inner, TRIES) and inner.handlers and not inner.finalbody:
        return type(inner)(body=inner.body, handlers=inner.handlers, orelse=[], finalbody=final)
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


def _returning(body: list[ast.stmt], outer) -> tuple[str, list[ast.stmt]] | None:
    """The temporary ``body`` keeps a return's value in, and ``body`` returning that
    value instead; None where a way out of ``body`` other than its end would run no
    copy of the finally body. The value may be kept at the end of an inner try's body
    whose clauses only raise (``try: return v / except E: raise F / finally: f``
    is a try/finally around a try: seed 10685)."""
    kept = _kept_value(body, outer)
    if kept is not None:
        ident, value, size = kept
        if not _only_way_out_is_its_end(body[:-size]):
            return None
        return ident, [*body[:-size], ast.Return(value=value)]
    inner = body[-1] if body else None
    if not isinstance(inner, TRIES) or inner.finalbody or inner.orelse or not inner.handlers:
        return None
    clauses = [h.body for h in inner.handlers]
    if not all(never_goes_on(c) and _only_way_out_is_its_end(c) for c in clauses):
        return None  # (a clause goes on past the try, or leaves otherwise)
    found = _returning(inner.body, outer) if _only_way_out_is_its_end(body[:-1]) else None
    if found is None:
        return None
    tried = type(inner)(body=found[1], handlers=inner.handlers, orelse=[], finalbody=[])
    return found[0], [*body[:-1], tried]


def _kept_value(body: list[ast.stmt], outer) -> tuple[str, ast.expr, int] | None:
    """The temporary that the end of a try body keeps a return's value in, the value,
    and how many statements make it: ``_t1 = v``, or an inlined comprehension's
    accumulator and loop (3.12+)."""
    last = body[-1] if body else None
    if _keeps_a_temporary(last):
        return last.targets[0].id, last.value, 1
    if len(body) < 2 or not _keeps_a_temporary(body[-2]):
        return None
    ident = body[-2].targets[0].id
    folded = accumulated(body, ident, outer)
    return None if folded is None else (ident, folded, 2)


def _settled(stmts: list[ast.stmt], way_out, entered) -> list[ast.stmt] | None:
    """The finally body that ``stmts`` is one copy of, ``way_out`` (a test) the way out
    the compiler wrote where that body ends (a ``raise``, a ``return``); None where
    ``stmts`` goes on past its end. The compiler copies the way out to each jump to
    the end: into the arms of a last if or match (and those ending them), and in
    place of a break out of a last loop, ``if c: break`` read as ``if c: return _t1``
    (seeds 8814, 15108); and ``if not a: assert b`` that way is ``assert a or b``.
    ``entered``: the statements a way out passes through as a fall off their end would
    (not a re-raise's: a try's clauses or a with's ``__exit__`` would see it)."""
    if stmts and way_out(stmts[-1]):
        stmts = stmts[:-1]
    elif not _never_goes_on(stmts):
        return None
    return _ends_dropped(copy.deepcopy(stmts), way_out, entered)


def _never_goes_on(stmts: list[ast.stmt]) -> bool:
    """``never_goes_on``, or a match each of whose cases never goes on, the last one
    taking every subject."""
    last = stmts[-1] if stmts else None
    if not isinstance(last, ast.Match):
        return never_goes_on(stmts)
    default = last.cases[-1]
    if default.guard is not None or not is_wildcard(default.pattern):
        return False
    return all(_never_goes_on(case.body) for case in last.cases)


def _ends_dropped(stmts: list[ast.stmt], way_out, entered) -> list[ast.stmt]:
    """``stmts`` (new nodes), which the way out follows, less the copies of it where
    they end."""
    while stmts and way_out(stmts[-1]):
        stmts = stmts[:-1]
    stmts = _tail_at_break(_else_again(stmts, way_out, entered), way_out)
    stmts = _loop_else_again(stmts, way_out)
    if not stmts:
        return stmts
    last = stmts[-1]
    if isinstance(last, _LOOPS):
        last.body = _breaks(last.body, way_out, entered)
        last.orelse = _ends_dropped(last.orelse, way_out, entered)
        return stmts
    copied = isinstance(last, ast.If) and any(a and way_out(a[-1]) for a in _arms(last, ()))
    for arm in _arms(last, entered):
        _refill(last, arm, _ends_dropped(arm, way_out, entered))
    if copied:  # (an if the source wrote so stays)
        last = _assertion(last)
        stmts[-1] = _flipped(last) if isinstance(last, ast.If) else last
    return stmts


def _else_again(stmts: list[ast.stmt], way_out, entered) -> list[ast.stmt]:
    """``if c: a`` then ``b``, where ``a`` never goes on and ends in a copy of the way
    out, as ``if c: a / else: b``: the walk writes an if whose branch leaves so, but
    here that branch goes on to the end of the finally body, past ``b``."""
    for i, stmt in enumerate(stmts[:-1]):
        if (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and _never_goes_on(stmt.body)
            and _ends_in(stmt.body, way_out, entered)
        ):
            stmt.orelse = stmts[i + 1 :]
            return stmts[: i + 1]
    return stmts


def _tail_at_break(stmts: list[ast.stmt], way_out) -> list[ast.stmt]:
    """``while True:`` holding a copy of the way out and one break, through ifs and
    matches, then code that never goes on: that code at the break, the loop last. The
    copy is where the loop broke to the end, the code was what its other way out ran
    (``while True: if a: break / if b: return f()``, read back with the return after
    the loop: seed 20167)."""
    for i, loop in enumerate(stmts[:-1]):
        tail = stmts[i + 1 :]
        if not (_endless(loop) and _never_goes_on(tail) and _only_way_out_is_its_end(tail, True)):
            continue
        site = _break_site(loop.body)
        if site is None or _own_breaks(loop.body) != 1 or not _holds(loop.body, way_out):
            continue
        block, at = site
        block[at : at + 1] = tail
        return stmts[: i + 1]
    return stmts


def _loop_else_again(stmts: list[ast.stmt], way_out) -> list[ast.stmt]:
    """A loop with no break nor else, holding a copy of the way out, then more code:
    that code as the loop's else, the loop last. The copy was a break, and the code
    the else it skipped (``for ...: if c: break / else: f()``: the walk writes the
    else after the loop)."""
    for i, loop in enumerate(stmts[:-1]):
        if not isinstance(loop, _LOOPS) or loop.orelse or _endless(loop):
            continue
        if _own_breaks(loop.body) == 0 and _holds(loop.body, way_out):
            loop.orelse = stmts[i + 1 :]
            return stmts[: i + 1]
    return stmts


def _endless(stmt) -> bool:
    return (
        isinstance(stmt, ast.While)
        and not stmt.orelse
        and isinstance(stmt.test, ast.Constant)
        and stmt.test.value is True
    )


def _break_site(stmts: list[ast.stmt]) -> tuple[list[ast.stmt], int] | None:
    """(block, index) of a break in ``stmts`` or in the ifs and matches in them."""
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Break):
            return stmts, i
        arms = [stmt.body, stmt.orelse] if isinstance(stmt, ast.If) else []
        arms += [case.body for case in stmt.cases] if isinstance(stmt, ast.Match) else []
        for arm in arms:
            found = _break_site(arm)
            if found is not None:
                return found
    return None


def _own_breaks(stmts: list[ast.stmt]) -> int:
    """How many breaks in ``stmts`` leave the loop they are the body of."""
    count, todo = 0, list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Break):
            count += 1
        elif isinstance(node, _LOOPS):
            todo += node.orelse  # (its own breaks stay in it)
        elif not isinstance(node, _SCOPES):
            todo += [c for c in ast.iter_child_nodes(node) if not isinstance(c, ast.expr)]
    return count


def _holds(stmts: list[ast.stmt], way_out) -> bool:
    """Whether a statement of ``stmts``, or inside them, is a copy of the way out."""
    return any(way_out(n) for s in stmts for n in ast.walk(s) if isinstance(n, ast.stmt))


def _ends_in(stmts: list[ast.stmt], way_out, entered) -> bool:
    """Whether a copy of the way out ends ``stmts``, or a block ending them."""
    last = stmts[-1] if stmts else None
    if last is None or way_out(last):
        return last is not None
    return any(_ends_in(arm, way_out, entered) for arm in _arms(last, entered))


def _breaks(stmts: list[ast.stmt], way_out, entered) -> list[ast.stmt]:
    """A last loop's body with each copy of the way out a break (to the end)."""
    out = [ast.Break() if way_out(stmt) else stmt for stmt in stmts]
    for stmt in out:
        for arm in _arms(stmt, entered, anywhere=True):
            _refill(stmt, arm, _breaks(arm, way_out, entered))
    return out


def _arms(stmt: ast.stmt, entered, anywhere=False) -> list[list[ast.stmt]]:
    """The blocks of ``stmt`` whose ends go on to its end (``anywhere``: whose
    statements can break out of a loop around it): an if's branches, a match's cases,
    and where the way out passes through them as a fall off their end (a return), a
    with's body and a try's else (or body) and clauses (no break leaves an except*
    clause; a finally body's break or return would drop an exception)."""
    if isinstance(stmt, ast.If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    if isinstance(stmt, (ast.With, ast.AsyncWith)) and ast.With in entered:
        return [stmt.body]
    if isinstance(stmt, TRIES) and ast.Try in entered:
        starred = TRY_STAR and isinstance(stmt, TRY_STAR)
        clauses = [] if anywhere and starred else [h.body for h in stmt.handlers]
        ends = [stmt.body, stmt.orelse] if anywhere else [stmt.orelse or stmt.body]
        return [*ends, *clauses]
    if isinstance(stmt, TRIES) and stmt.orelse:
        return [stmt.orelse]  # (no clause sees what the else raises)
    return []


def _refill(stmt: ast.stmt, arm: list[ast.stmt], new: list[ast.stmt]) -> None:
    """``arm`` of ``stmt`` holds ``new`` (``pass`` where empty, but for an else)."""
    arm[:] = new if new or arm is getattr(stmt, "orelse", None) else [ast.Pass()]


_RERAISE_GOES_THROUGH = frozenset()
_RETURN_GOES_THROUGH = frozenset({ast.With, ast.Try})


def _assertion(branch: ast.If) -> ast.stmt:
    """``if not a: assert b`` as ``assert a or b``, which runs alike."""
    test, body = branch.test, branch.body
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    if negated and not branch.orelse and len(body) == 1 and isinstance(body[0], ast.Assert):
        either = ast.BoolOp(op=ast.Or(), values=[test.operand, body[0].test])
        return ast.Assert(test=either, msg=body[0].msg)
    return branch


def _alike(a: list[ast.stmt], b: list[ast.stmt]) -> bool:
    """Whether two copies of a finally body are the same code, where one walk read
    ``if a and b:`` as ``if a: if b:`` (3.10 copies the return after the try into
    both failures of the normal path's copy, so its ifs stay nested; seed 7797), or
    laid an if's branches out the other way round (seeds 25246, 39693)."""
    return m.same(_read_alike(a), _read_alike(b))


def _read_alike(stmts: list[ast.stmt]) -> ast.Module:
    module = _AndsJoined().visit(_TestedLoops().visit(_copy(stmts)))
    module.body = _branches_in_order(module.body)
    return module


def _branches_in_order(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` (new nodes, changed in place) with every if written one way of those
    running alike: what follows ``if c: a``, ``a`` never going on, as its else; and of
    ``if c: a / else: b`` and ``if not c: b / else: a``, the one that dumps first. A
    copy's walk may take a test's failing way first where another's took its other
    (an ``or`` test, negated to ``not a and not b``)."""
    for i, stmt in enumerate(stmts[:-1]):
        if isinstance(stmt, ast.If) and not stmt.orelse and never_goes_on(stmt.body):
            stmt.orelse, stmts = stmts[i + 1 :], stmts[: i + 1]
            break
    for stmt in stmts:
        for node in (stmt, *getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    setattr(node, field, _branches_in_order(block))
        if isinstance(stmt, ast.If) and stmt.orelse:
            swapped = ast.If(test=negate(stmt.test), body=stmt.orelse, orelse=stmt.body)
            if ast.dump(swapped) < ast.dump(stmt):
                stmt.test, stmt.body, stmt.orelse = swapped.test, swapped.body, swapped.orelse
    return stmts


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


class _TestedLoops(ast.NodeTransformer):
    """Statements one walk may read otherwise than another, written one way, each
    running alike: ``while True:`` whose body starts by breaking on a test as ``while
    not test:`` (a copy breaking to the end, 3.11: seed 20167); a body ending in ``if
    a: b; continue`` then ``break`` as ``if not a: break`` then ``b``, a ``continue``
    that ends it (in the arms of its ifs) dropped (seed 10685); a loop
    body ending in ``if a: continue`` then ``break`` as ``if not a: break``; ``if a:
    pass / else: b`` as ``if not a: b``."""

    def visit_If(self, node: ast.If) -> ast.If:
        self.generic_visit(node)
        return _flipped(node)

    def visit_For(self, node):
        self.generic_visit(node)
        node.body = _continue_last(node.body)
        return node

    visit_AsyncFor = visit_For

    def visit_While(self, node: ast.While) -> ast.While:
        self.generic_visit(node)
        node.body = _continue_last(node.body)
        if not _endless(node):
            return node
        body = _continues_dropped(_break_first(node.body))
        first = body[0] if body else None
        if not isinstance(first, ast.If) or first.orelse or not _breaks_only(first.body):
            return ast.While(test=node.test, body=body or [ast.Pass()], orelse=[])
        return ast.While(test=negate(first.test), body=body[1:] or [ast.Pass()], orelse=[])


def _flipped(branch: ast.If) -> ast.If:
    """``if a: pass / else: b`` as ``if not a: b``."""
    if branch.orelse and all(isinstance(s, ast.Pass) for s in branch.body):
        return ast.If(test=negate(branch.test), body=branch.orelse, orelse=[])
    return branch


def _continue_last(body: list[ast.stmt]) -> list[ast.stmt]:
    """``if a: continue`` then ``break`` ending a loop body as ``if not a: break``."""
    if len(body) < 2 or not isinstance(body[-1], ast.Break):
        return body
    branch = body[-2]
    if not isinstance(branch, ast.If) or branch.orelse or len(branch.body) != 1:
        return body
    if not isinstance(branch.body[0], ast.Continue):
        return body
    return [*body[:-2], ast.If(test=negate(branch.test), body=[ast.Break()], orelse=[])]


def _break_first(body: list[ast.stmt]) -> list[ast.stmt]:
    """``if a: b`` then ``break``, ``b`` never going on, as ``if not a: break`` then
    ``b`` (``if not a: pass / else: b`` is read as ``if a: b`` first)."""
    if len(body) != 2 or not isinstance(body[1], ast.Break) or not isinstance(body[0], ast.If):
        return body
    branch = body[0]
    if branch.orelse or not never_goes_on(branch.body):
        return body
    return [ast.If(test=negate(branch.test), body=[ast.Break()], orelse=[]), *branch.body]


def _continues_dropped(body: list[ast.stmt]) -> list[ast.stmt]:
    """A loop body less the continues that end it, or the arms of the ifs ending it."""
    while body and isinstance(body[-1], ast.Continue):
        body = body[:-1]
    last = body[-1] if body else None
    if isinstance(last, ast.If):
        then, otherwise = _continues_dropped(last.body), _continues_dropped(last.orelse)
        last = ast.If(test=last.test, body=then or [ast.Pass()], orelse=otherwise)
        body = [*body[:-1], last]
    return body


def _breaks_only(body: list[ast.stmt]) -> bool:
    return len(body) == 1 and isinstance(body[0], ast.Break)


def _ands(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [x for value in test.values for x in _ands(value)]
    return [test]


def _reraises(stmt) -> bool:
    """``raise``, or the raise of the exception the clause got (the walk's re-raise
    after the try, of a clause that goes on to it)."""
    if not isinstance(stmt, ast.Raise) or stmt.cause is not None:
        return False
    return stmt.exc is None or isinstance(stmt.exc, m.Exception_)


def _returns_a_temporary(stmt) -> bool:
    return isinstance(stmt, ast.Return) and m.is_temporary(stmt.value)


def _keeps_a_temporary(stmt) -> bool:
    """``_t1 = v``, for a temporary: the value a return keeps across the finally body."""
    return (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and m.is_temporary(stmt.targets[0])
    )


def _returns(ident: str):
    """A test for ``return ident``."""
    return lambda stmt: _returns_a_temporary(stmt) and stmt.value.id == ident


def _only_way_out_is_its_end(stmts, returning=False) -> bool:
    """Whether no return (where not ``returning``), nor break or continue of a loop
    around, leaves ``stmts``."""
    todo = [(s, False) for s in stmts]
    while todo:
        node, in_loop = todo.pop()
        if (isinstance(node, ast.Return) and not returning) or (
            isinstance(node, (ast.Break, ast.Continue)) and not in_loop
        ):
            return False
        if isinstance(node, _LOOPS):  # (a break in its else leaves the loop around)
            todo += [(s, True) for s in node.body] + [(s, in_loop) for s in node.orelse]
        elif not isinstance(node, _SCOPES):
            todo += [(child, in_loop) for child in ast.iter_child_nodes(node)]
    return True
