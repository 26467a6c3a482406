"""Except clauses and finally bodies, read from the statements the walks produce: the
walk of a handler is an if-chain on the exception's type, and the compiler copies a
finally body before each return, break and continue, which the reading drops."""

from __future__ import annotations

import ast
import copy

from ..simulation import markers as m
from ..simulation.unsupported import Unsupported
from .conditions import negate

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)


def clauses(stmts, hoist=True, exc=None, finally_body=False):
    """Except clauses from the walk of a handler: an if-chain on isinstance(exc, T), or
    on ``StarMatch(T)`` for except* clauses (never mixed, never with a bare except).
    ``hoist``: a re-raise ending each branch of a final if ends a finally body.
    ``exc``: the marker of the exception the handler handles, whose re-raises are
    written bare (a re-raise of an enclosing handler's is left to that one).
    ``finally_body``: the handler keeps the exception, as a finally body's does: one
    ending in ``if t: raise E`` and the re-raise is read as one too."""
    handlers, final = _clauses(stmts, hoist, exc, finally_body)
    stars = {isinstance(h.type, m.StarMatch) for h in handlers}
    if stars == {True}:
        if final is not None:
            raise Unsupported("finally inside an except* handler")
        for h in handlers:
            h.type = h.type.kinds
        return handlers, None, True
    if True in stars:
        raise Unsupported("except* clauses among plain ones")
    return handlers, final, False


def code_after_clauses(stmts):
    """(the chain of clause tests, the code after it) of a handler's walk: where the
    try body never ends normally, the clauses that go on meet past their own ends
    (each leaves the handler first), so what the walk takes in after the chain is
    code after the try statement. ``stmts`` and no code where the walk is no chain
    followed by code (a lone jump there ends each clause that goes on, as written)."""
    if len(stmts) < 2 or not _closed_chain(stmts[0]) or any(_reraises(s, None) for s in stmts):
        return stmts, []
    if all(isinstance(s, ast.Pass) for s in stmts[0].body):
        return stmts, []  # (``if not isinstance(exc, T): raise`` then the clause body)
    if len(stmts) == 2 and isinstance(stmts[1], (ast.Continue, ast.Break)):
        return stmts, []
    return stmts[:1], stmts[1:]


def _last_else_ends(node) -> bool:
    """Whether what runs where no clause of the chain ``node`` takes the exception (the
    re-raise, or a bare clause) never goes on."""
    while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        if not _exc_test(node.orelse[0].test):
            break
        node = node.orelse[0]
    return not node.orelse or never_goes_on(node.orelse)


def _lone_jump(stmt) -> bool:
    """Whether ``stmt`` is a break, a continue or a return of a constant: written at
    the end of each clause that goes on, it does the same as after them all."""
    if isinstance(stmt, ast.Return):
        return stmt.value is None or isinstance(stmt.value, ast.Constant)
    return isinstance(stmt, (ast.Continue, ast.Break))


def _shared_clearing(stmts) -> bool:
    """Whether ``stmts``, a chain of clause tests and then more, end the chain with
    the clearing of a name that each clause that goes on binds: 3.13 copies that
    clearing (and the ``POP_EXCEPT`` before it) to each such clause, and the walk with
    the copies sent to one original meets them there."""
    if len(stmts) != 3 or not isinstance(stmts[1], ast.Assign):
        return False
    name = getattr(stmts[1].targets[0], "id", None)
    if not clears_name(stmts, 1, name):
        return False
    rest = stmts[:1]
    while len(rest) == 1 and isinstance(rest[0], ast.If) and _exc_test(rest[0].test):
        body, rest = rest[0].body, rest[0].orelse
        named = body and isinstance(body[0], ast.Assign) and _is_exc(body[0].value)
        if not never_goes_on(body) and not (named and body[0].targets[0].id == name):
            return False
    return not rest or never_goes_on(rest)  # (no clause took it: the re-raise)


def _closed_chain(node) -> bool:
    """Whether ``node`` is a chain of clause tests that ends in an else (the re-raise,
    or a bare clause), so that nothing after it runs for an exception no clause takes."""
    if not (isinstance(node, ast.If) and _exc_test(node.test)):
        return False
    while isinstance(node, ast.If) and _exc_test(node.test):
        if not node.orelse:
            return False
        if len(node.orelse) != 1:
            return True
        node = node.orelse[0]
    return True


def _clauses(stmts, hoist=True, exc=None, finally_body=False):
    chain = stmts and isinstance(stmts[0], ast.If) and _exc_test(stmts[0].test)
    if chain and len(stmts) == 2 and _lone_jump(stmts[1]):
        # clauses that go on to the next round or out of the loop, where others return
        # or raise: the walk puts the jump after the chain of tests, once for them all
        # (so it does a return of a constant that 3.10 copies to each way on)
        returns = isinstance(stmts[1], ast.Return)
        stmts = [_jump_ends_open_clauses(stmts[0], stmts[1])]
        if returns and not _last_else_ends(stmts[0]):
            raise Unsupported("statements after an except clause")  # (a bare clause's)
    if chain and _shared_clearing(stmts):
        stmts = stmts[:1]  # (each named clause that goes on clears its name itself)
    if chain:
        node = stmts[0]
        kinds = node.test if isinstance(node.test, m.StarMatch) else node.test.args[1]
        body, name, orelse = list(node.body), None, node.orelse
        if all(isinstance(s, ast.Pass) for s in body):
            body = stmts[1:]  # ``if not isinstance(exc, T): raise`` then the clause body
        elif len(stmts) > 1 and not orelse and never_goes_on(body):
            orelse = stmts[1:]  # a clause that never goes on: the next clauses follow it
        elif len(stmts) > 1:
            raise Unsupported("statements after an except clause")
        if body and isinstance(body[0], ast.Assign) and _is_exc(body[0].value):
            name, body = body[0].targets[0].id, body[1:]
            body = _drop_name_cleanup(body, name)
        rest, final = _clauses(orelse, hoist, exc)
        if final is not None:
            raise Unsupported("finally inside an except chain")
        return [
            ast.ExceptHandler(type=kinds, name=name, body=_bare_raises(body, exc) or [ast.Pass()]),
            *rest,
        ], None
    if len(stmts) == 1 and isinstance(stmts[0], ast.Raise) and _is_exc(stmts[0].exc):
        return [], None
    if hoist and finally_body:
        stmts = _way_out_after_a_reraising_if(_way_out_before_reraising_else(stmts, exc), exc)
        stmts = _reraising_tests_joined(stmts, exc)
    hoisted = _hoisted_tail(stmts, after_exit=True) if hoist else None
    if hoisted is None and hoist and finally_body:
        hoisted = _raising_if_hoisted(stmts)
    if hoisted is not None and _reraises(hoisted[1], exc):
        final = ways_out_as_breaks(hoisted[0], hoisted[1], followed=True) if finally_body else None
        # a finally body, then the re-raise
        return [], _bare_raises(hoisted[0] if final is None else final, exc)
    broken = _endless_loop_broken(stmts, exc) if hoist and finally_body else None
    if broken is not None:
        return [], broken  # a finally body ending in ``while True`` left by a break
    if finally_body and _leaves_unraised(stmts, exc):
        return [], stmts  # a finally body that always returns, breaks or continues
    bare = ast.ExceptHandler(type=None, name=None, body=_bare_raises(stmts, exc) or [ast.Pass()])
    return [bare], None


def _reraising_tests_joined(stmts, exc):
    """``stmts`` with ``if a: pass else: raise`` and the code after it written ``if a:
    <that code> else: raise``, and where that code is ``if b: ... else: raise``, ``if a
    and b: ... else: raise``: the compiler sends each failing test of ``a and b`` to its
    own copy of a finally body's re-raise (3.12+), and the walk on an exception reads
    them apart, or finds their join where the code after the if starts. The same
    code."""
    for i, stmt in enumerate(stmts[:-1]):
        if _only_reraises(stmt, exc):
            # (``if t: raise`` then code: ``if not t: <code> else: raise``)
            stmt = ast.If(test=negate(stmt.test), body=[ast.Pass()], orelse=stmt.body)
        if _passes_or_reraises(stmt, exc):
            rest = _reraising_tests_joined(stmts[i + 1 :], exc)
            inner = rest[0] if len(rest) == 1 else None
            if isinstance(inner, ast.If) and m.same(inner.orelse, stmt.orelse):
                test = ast.BoolOp(op=ast.And(), values=[stmt.test, inner.test])
                test, rest = _and_flattened(test), inner.body
            else:
                test = stmt.test
            return [*stmts[:i], ast.If(test=test, body=rest, orelse=stmt.orelse)]
    return stmts


def _way_out_before_reraising_else(stmts, exc):
    """``stmts`` with ``if t: <goes on> else: ...; raise`` then a way out (the finally
    body's own return, break or continue) written ``if t: <goes on>; <way out>``, then
    the else's statements and the re-raise: the walk on an exception finds the join
    of ``t`` (an ``or``) where the way out starts, the finally body's code after that
    if written into the else, before the re-raise. The same code (seed 10108)."""
    for i, stmt in enumerate(stmts[:-1]):
        rest = stmts[i + 1 :]
        if (
            isinstance(stmt, ast.If)
            and stmt.orelse
            and _reraises(stmt.orelse[-1], exc)
            and not isinstance(stmt.body[-1], m.TERMINAL)
            and isinstance(rest[-1], m.TERMINAL)
            and not _bare_raise_in(rest, exc)
        ):
            body = [s for s in stmt.body if not isinstance(s, ast.Pass)]
            node = ast.If(test=stmt.test, body=[*body, *rest], orelse=[])
            return [*stmts[:i], node, *stmt.orelse]
    return stmts


def _way_out_after_a_reraising_if(stmts, exc):
    """``stmts`` with ``if t: ...; raise`` (no else) and the statements after it written
    as that if's else, which they are: the body never goes on. The walk on an exception
    lays the other branch of a finally body's if out after it where that branch leaves
    otherwise (the finally body's own return, break or continue), or tests again. (An
    if that only re-raises is a test read otherwise: ``if not (a and b): continue``.)"""
    for i, stmt in enumerate(stmts[:-1]):
        if (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and len(stmt.body) > 1
            and _reraises(stmt.body[-1], exc)
        ):
            rest = _way_out_after_a_reraising_if(stmts[i + 1 :], exc)
            return [*stmts[:i], ast.If(test=stmt.test, body=stmt.body, orelse=rest)]
    return stmts


def _endless_loop_broken(stmts, exc):
    """``stmts``, ending in ``while True`` with no break of its own, with its re-raises
    of ``exc`` written ``break``: the compiler copies the re-raise after the loop to
    each break out of it, so the walk on an exception of a finally body ending in that
    loop finds no re-raise after it. None where a re-raise is left (inside an inner
    loop, try or with)."""
    last = stmts[-1] if stmts else None
    reraise = next((n for n in ast.walk(last) if _reraises(n, exc)), None) if last else None
    broken = ways_out_as_breaks(stmts, reraise) if reraise is not None else None
    return None if broken is None or _bare_raise_in(broken, exc) else broken


def _bare_raise_in(stmts, exc) -> bool:
    """Whether ``stmts`` re-raise ``exc`` anywhere in this function's own code."""
    return any(_reraises(s, exc) for stmts in statement_lists(stmts) for s in stmts)


def _only_reraises(stmt, exc) -> bool:
    """Whether ``stmt`` is ``if t: raise``, the re-raise of ``exc``, with no else."""
    return (
        isinstance(stmt, ast.If)
        and not stmt.orelse
        and len(stmt.body) == 1
        and _reraises(stmt.body[0], exc)
    )


def _passes_or_reraises(stmt, exc) -> bool:
    """Whether ``stmt`` is ``if t: pass else: raise``, the re-raise of ``exc``."""
    return (
        isinstance(stmt, ast.If)
        and all(isinstance(s, ast.Pass) for s in stmt.body)
        and len(stmt.orelse) == 1
        and _reraises(stmt.orelse[0], exc)
    )


def _raising_if_hoisted(stmts):
    """(``stmts`` less the re-raise that ends them, that re-raise) where they end in an
    if whose branches each leave on their own (``if not t: raise E``, an assert) or
    run on to the re-raise, at least one of them: the walk on an exception puts what
    follows such an if in its branches, no branch going on. A branch that raises
    before an else that runs on is written as the normal path's copy has it, the
    else after the if; None for any other shape."""
    last = stmts[-1] if stmts else None
    if not (isinstance(last, ast.If) and last.orelse and last.body):
        return None
    body, orelse = _reraise_out(last.body), _reraise_out(last.orelse)
    if body is None and orelse is None:
        return None
    if body is None or orelse is None:
        # (a return, break or continue there leaves the finally body, as a raise
        # does: the normal path's copy tells a finally body from a bare except)
        raising = last.body if body is None else last.orelse
        if not isinstance(raising[-1], m.TERMINAL) or _reraises(raising[-1], None):
            return None
    elif not m.same(body[1], orelse[1]):
        return None
    reraise = (body or orelse)[1]
    if body is None:
        node = ast.If(test=last.test, body=last.body, orelse=[])
        return [*stmts[:-1], node, *orelse[0]], reraise
    node = ast.If(test=last.test, body=body[0] or [ast.Pass()], orelse=last.orelse)
    if orelse is not None:
        node.orelse = orelse[0]
    return [*stmts[:-1], node], reraise


def _leaves_unraised(stmts, exc) -> bool:
    """Whether ``stmts`` end in a return, break or continue and never re-raise
    ``exc``: the walk on an exception of a finally body that never goes on."""
    if not (stmts and isinstance(stmts[-1], (ast.Return, ast.Break, ast.Continue))):
        return False
    module = ast.Module(body=list(stmts), type_ignores=[])
    return not any(_reraises(node, exc) for node in ast.walk(module))


def _reraise_out(stmts):
    """(``stmts`` less the re-raise that ends every way through them that goes on,
    that re-raise), or None."""
    inner = _hoisted_tail(stmts, after_exit=True) or _raising_if_hoisted(stmts)
    return inner if inner is not None and _reraises(inner[1], None) else None


def never_goes_on(stmts) -> bool:
    """Whether ``stmts`` end in a return, raise, break or continue, in an if whose
    branches each end so, a try that ends so on every way through it, or a
    ``while True`` with no break of its own."""
    last = stmts[-1] if stmts else None
    if isinstance(last, ast.If):
        return bool(last.orelse) and never_goes_on(last.body) and never_goes_on(last.orelse)
    if isinstance(last, TRIES):
        if last.finalbody and never_goes_on(last.finalbody):
            return True
        ended = never_goes_on(last.orelse or last.body)
        return ended and all(never_goes_on(h.body) for h in last.handlers)
    if isinstance(last, ast.While):
        endless = isinstance(last.test, ast.Constant) and last.test.value is True
        return endless and not _breaks(last.body)
    return isinstance(last, m.TERMINAL)


def _breaks(stmts) -> bool:
    """Whether ``stmts`` hold a break out of the loop they are the body of."""
    todo = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Break):
            return True
        if isinstance(node, (*SCOPES, ast.For, ast.AsyncFor, ast.While)):
            # (a loop's own breaks stay in it; its else is ours)
            todo += getattr(node, "orelse", [])
            continue
        todo += [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.AST)]
    return False


def _jump_ends_open_clauses(node, jump):
    """``node``, a chain of clause tests, with ``jump`` ending each clause that goes on."""
    if not (isinstance(node, ast.If) and _exc_test(node.test)):
        return node
    if not node.body or not isinstance(node.body[-1], m.TERMINAL):
        node.body = [s for s in node.body if not isinstance(s, ast.Pass)] + [copy.copy(jump)]
    if len(node.orelse) == 1:
        node.orelse = [_jump_ends_open_clauses(node.orelse[0], jump)]
    return node


def _exc_test(test) -> bool:
    if isinstance(test, m.StarMatch):
        return True
    return m.calls_builtin(test, "isinstance") and len(test.args) == 2 and _is_exc(test.args[0])


def _is_exc(node) -> bool:
    return isinstance(node, m.Exception_)


def _drop_name_cleanup(body, name):
    """Remove the ``name = None; del name`` the compiler adds where a clause ends."""
    out, i = [], 0
    while i < len(body):
        if clears_name(body, i, name):
            # (past the exits of withs the way out leaves, which only a way out follows)
            rest = [s for s in body[i + 2 :] if not isinstance(s, m.ExitedWith)]
            after = rest[0] if rest else None
            if after is None or isinstance(after, m.TERMINAL):
                i += 2
                continue
        stmt = body[i]
        if not isinstance(stmt, SCOPES):
            for part in [stmt, *list(getattr(stmt, "handlers", ()))]:
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(part, field, None)
                    if isinstance(inner, list) and inner:
                        empty = [] if field == "orelse" else [ast.Pass()]  # (no else)
                        setattr(part, field, _drop_name_cleanup(inner, name) or empty)
        out.append(stmt)
        i += 1
    return out


def clears_name(body, i, name) -> bool:
    """Whether ``body[i:i + 2]`` is ``name = None; del name``, the clearing of an
    ``except ... as name`` clause's name."""
    if i + 1 >= len(body):
        return False
    first, second = body[i], body[i + 1]
    return (
        isinstance(first, ast.Assign)
        and [getattr(t, "id", None) for t in first.targets] == [name]
        and isinstance(first.value, ast.Constant)
        and first.value.value is None
        and isinstance(second, ast.Delete)
        and [getattr(t, "id", None) for t in second.targets] == [name]
    )


def _reraises(stmt, exc) -> bool:
    """Whether ``stmt`` re-raises the exception ``exc`` (None: any handler's)."""
    return isinstance(stmt, ast.Raise) and _is_exc(stmt.exc) and exc in (None, stmt.exc)


def _bare_raises(stmts, exc=None, handling=False):
    """``stmts`` with each re-raise of ``exc`` written ``raise``. Inside an inner
    try's except clause or finally body a bare raise would re-raise that try's
    exception instead (``handling``): no way to write it there."""
    for s in stmts:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if _reraises(s, exc):
            if handling:
                raise Unsupported("a re-raise of a handled exception inside an inner handler")
            s.exc = None
        for part in [s, *getattr(s, "handlers", ())]:
            inner = handling or isinstance(part, ast.ExceptHandler)
            for field in ("body", "orelse", "finalbody", "cases"):
                value = getattr(part, field, None)
                if not isinstance(value, list):
                    continue
                if field == "cases":
                    for case in value:
                        _bare_raises(case.body, exc, handling)
                else:
                    _bare_raises(value, exc, inner or (field == "finalbody" and part is s))
    return stmts


def strip_copies(
    body,
    final,
    clearing=None,
    pending=(),
    after=None,
    tail=True,
    known=True,
    in_loop=False,
    alone=False,
):
    """Drop the copy of the finally body the compiler inlines before return/break/continue;
    ``clearing`` is the name of the innermost ``except ... as`` clause the body is in
    (an unnamed clause inside it too: leaving, it leaves that one), ``pending``
    the finally bodies of the tries between, outermost first: their copies run just
    before this one's, which kept them from being dropped with their own try.
    ``after`` is the code after the try on the normal path (where not ``known``, as
    the body never ends normally, it is filled in here), and ``tail`` whether running
    off the end of ``body`` ends the try body: there a copy followed by ``after``
    itself is the way out of the try, the copy of a return written after it.
    ``in_loop``: inside a loop that is inside the try, whose break and continue stay in
    the try and run no copy. ``alone``: no finally body around the try, whose copy
    could come between this one's and the way out, and whose strip would drop this
    one's copy left here."""
    n = len(final)
    if not n:
        return body
    leaving = ast.Return if in_loop else (ast.Return, ast.Break, ast.Continue)
    body = _shared_tails_hoisted(body, final, leaving)
    body = _else_joined(body, final, leaving, alone)
    out = []
    own = 0  # statements left of a copy of the finally body, whose ways out are its own
    for i, stmt in enumerate(body):
        if not own and n > 1 and is_copy(body[i : i + n - 1], final[:-1]):
            # (a return in a loop of the copy leaves as the finally body's own does;
            # its last statement, which may hold the way out after it, is read below)
            own = n - 1
        if own:
            own -= 1
            out.append(stmt)
            continue
        at_end = tail and i == len(body) - 1
        kept = _kept_before_branches(stmt, out, final)
        if kept is not None:
            # (the value returned after the copy's last if, kept in each branch
            # before a store to its name there: loaded once, before the copy)
            out.append(kept[0])
            stmt = kept[1]
        for hoisted in _if_tails(stmt):
            ours = is_copy([*out, *hoisted[0]][-n:], final)
            if ours or _outer_copy(out, stmt, hoisted, final, alone):
                # (3.12+ copy the return after the copy into each branch of its final
                # if, or of those ifs, that goes on; 3.11+ into a try's else and clauses)
                out += hoisted[0]
                stmt = hoisted[1]
                break
        else:
            # (3.11+ copy it into the branches that go on where others leave on
            # their own, the finally body's own ways out)
            hoisted = _way_out_in_copy(out, stmt, final, leaving)
            if hoisted is not None:
                out += hoisted[0]
                stmt = hoisted[1]
        split = _exit_in_else(out, stmt, final, leaving)
        if split is not None:
            # (a copy ending in ``if t: raise E``: the way out only in its else)
            out += split[0]
            stmt = split[1]
        broken = _way_out_in_an_endless_loop(out, stmt, final)
        if broken is not None:
            # (a copy ending in an endless loop: the compiler writes the way out
            # after it in place of each break, and nothing after the loop)
            out.append(broken[0])
            stmt = broken[1]
        if isinstance(stmt, leaving):
            way_on = after if at_end else None
            stmt = _dropped_before(out, stmt, final, clearing, pending, way_on, known, alone)
            if stmt is None:
                continue
        nxt = body[i + 1] if i + 1 < len(body) else None
        broken = (
            ways_out_as_breaks([*out[len(out) - n + 1 :], stmt], nxt, followed=True)
            if n <= len(out) + 1
            else None
        )
        if broken is not None and isinstance(nxt, leaving) and is_copy(broken, final):
            stmt = broken[-1]  # (its breaks written as the way out that follows them)
        if is_copy([*out, stmt][-n:], final):
            # (the last statement of a copy of the finally body: its ways out are the
            # finally body's own, with no copy before them)
            out.append(stmt)
            continue
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            around = getattr(stmt, "finalbody", None)
            loop = isinstance(stmt, LOOPS)
            for part in [stmt, *list(getattr(stmt, "handlers", ()))]:
                named = isinstance(part, ast.ExceptHandler) and part.name
                name = part.name if named else clearing
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(part, field, None)
                    if isinstance(inner, list) and inner:
                        under = (*pending, around) if around and field != "finalbody" else pending
                        inside = in_loop or (loop and field == "body")
                        ends = at_end and _runs_off_to_end(stmt, part, field)
                        stripped = strip_copies(
                            inner, final, name, under, after, ends, known, inside, alone
                        )
                        empty = [] if field == "orelse" else [ast.Pass()]
                        setattr(part, field, stripped or empty)
        out.append(stmt)
    return out


LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _else_joined(body, final, leaving, alone):
    """``body`` with the else of its last try put back, where the try and the code
    after it end in a copy of ``final`` that a way out (one of ``leaving``) follows: a
    finally body's ``try: ... except E: ... else: ...``, whose clauses 3.10 send to a
    copy of the way out, the else then read as code after the try. The copy may be one
    of an enclosing finally body that holds the try, after this one's (not ``alone``).
    Only a way out that does nothing but leave, which runs the same written once after
    the try."""
    way_out = body[-1] if body else None
    if not isinstance(way_out, leaving) or not _cannot_raise(way_out):
        return body
    joined = _tails_dropped(body[:-1], way_out)
    if joined is None:
        return body
    n = len(final)
    ours = is_copy(joined[len(joined) - n :], final)
    outer = not alone and len(joined) > n and is_copy(joined[len(joined) - n - 1 : -1], final)
    return [*joined, way_out] if ours or outer else body


def _outer_copy(out, stmt, hoisted, final, alone) -> bool:
    """Whether ``stmt``, a try each way on from which ends in the same way out
    (``hoisted``: the try without it, that way out), follows a copy of ``final`` at the
    end of ``out``: a try statement in the finally body of a try around this one, whose
    copy the compiler writes between this one's and the way out, which it copies into
    the try's else and clauses. Only a way out that does nothing but leave, which runs
    the same written once after the try."""
    n = len(final)
    return (
        isinstance(stmt, TRIES)
        and not alone
        and _cannot_raise(hoisted[1])
        and len(out) >= n
        and is_copy(out[len(out) - n :], final)
    )


def _shared_tails_hoisted(body, final, leaving):
    """``body`` with the statements both branches of an if end in, then a way out,
    written once after it, where the if without them ends a copy of ``final``: 3.10
    copies the code after the copy (an outer finally body's copy, then the way out)
    into each branch of its last if."""
    out = []
    for stmt in body:
        out.append(stmt)
        if not (isinstance(stmt, ast.If) and stmt.orelse and isinstance(stmt.body[-1], leaving)):
            continue
        size = _shared_tail_size(stmt.body, stmt.orelse)
        if size < 2:
            continue
        tail = stmt.body[-size:]
        node = ast.If(
            test=stmt.test, body=stmt.body[:-size] or [ast.Pass()], orelse=stmt.orelse[:-size]
        )
        if is_copy([*out[:-1], node][-len(final) :], final):
            out[-1:] = [node, *tail]
    return out


def _shared_tail_size(first, second) -> int:
    """How many statements ``first`` and ``second`` both end in."""
    size = 0
    while size < min(len(first), len(second)) and m.same(first[-1 - size], second[-1 - size]):
        size += 1
    return size


def _ends_a_copy(out, stmt, final) -> bool:
    """Whether ``out`` and the if ``stmt``, less the way out each branch ends in, end in
    a copy of ``final``."""
    return any(is_copy([*out, *h[0]][-len(final) :], final) for h in _if_tails(stmt))


def _kept_before_branches(stmt, out, final):
    """(``_t = v``, the if) where each branch of the if ``stmt`` (and of the ifs ending
    its branches) ends returning the same name or constant ``v``, loaded before the if
    (before the copy of a finally body whose last if stores to that name, the return
    copied into each branch), and at least one keeps it in a temporary of its own
    before a store to its name there: the value is kept once, before the if, in one
    temporary. A branch that stores nothing to the name returns ``v`` itself (3.10),
    which is only read so where the if, with that return after it, ends a copy of the
    finally body ``final`` after ``out``: there ``v`` was loaded before the copy.
    None otherwise."""
    if not (isinstance(stmt, ast.If) and stmt.orelse):
        return None
    branches = list(_returning_branches([stmt]))
    if None in branches:
        return None
    keeps = [_keeping(branch) for branch in branches]
    kept = next((k for k in keeps if k is not None), None)
    if kept is None:
        return None
    for branch, keep in zip(branches, keeps):
        if keep is None and not _returns_unchanged(branch, kept.value):
            return None
        if keep is not None and not m.same(keep.value, kept.value):
            return None
    node = _returning(stmt, m.name(kept.targets[0].id))
    if None in keeps and not _ends_a_copy(out, node, final):
        return None
    if not is_copy([*out, _returning(stmt, None)][-len(final) :], final):
        # (the if is no part of the copy: each branch loaded the value after its
        # test, and ran a copy of its own; kept before the if, it would be loaded
        # before that test)
        return None
    return kept, node


def _returning_branches(stmts):
    """The branches ``stmts`` ends in: itself, or those of a final if with an else, each
    in turn; None for one that is empty."""
    last = stmts[-1] if stmts else None
    if not isinstance(last, ast.If) or not last.orelse:
        yield stmts or None
        return
    yield from _returning_branches(last.body)
    yield from _returning_branches(last.orelse)


def _returning(stmt, value):
    """A copy of the if ``stmt`` whose branches (as ``_returning_branches``) return
    ``value`` (none where it is None), each without the temporary it kept its own
    value in."""
    node = copy.copy(stmt)
    for field in ("body", "orelse"):
        branch = getattr(stmt, field)
        if isinstance(branch[-1], ast.If) and branch[-1].orelse:
            branch = [*branch[:-1], _returning(branch[-1], value)]
        else:
            start = 1 if _keeping(branch) is not None else 0
            returned = [] if value is None else [ast.Return(value=value)]
            branch = [*branch[start:-1], *returned]
        if not branch and field == "body":
            branch = [ast.Pass()]  # (an empty else is none)
        setattr(node, field, branch)
    return node


def _keeping(branch):
    """The ``_t = v`` that ``branch`` starts with, keeping a name's or constant's value
    in a temporary that only its final ``return _t`` reads; None otherwise."""
    last = branch[-1]
    if not (
        len(branch) > 1
        and isinstance(last, ast.Return)
        and m.is_temporary(last.value)
        and _keeps_in(branch[0], last.value.id)
        and not any(_reads(s, last.value.id) for s in branch[1:-1])
    ):
        return None
    return branch[0]


def _returns_unchanged(branch, value) -> bool:
    """Whether ``branch`` ends in ``return value`` and stores nothing to its name
    before (a value kept over the branch would be spilled to a temporary there)."""
    last = branch[-1]
    if not (isinstance(last, ast.Return) and m.same(last.value, value)):
        return False
    ident = getattr(value, "id", None)
    return not any(
        isinstance(n, ast.Name) and n.id == ident and not isinstance(n.ctx, ast.Load)
        for s in branch[:-1]
        for n in ast.walk(s)
    )


def _reads(stmt, ident) -> bool:
    """Whether ``stmt`` reads (or stores) the name ``ident``."""
    return any(isinstance(n, ast.Name) and n.id == ident for n in ast.walk(stmt))


def _if_tails(stmt):
    """The readings of ``stmt``, an if, as (statements, the way out after them): the
    way out every branch ends in written once after it, then the one every branch
    that does not leave otherwise ends in (``if not t: raise E``, the return copied
    into the else). A try whose else and clauses each end in the same way out, as
    3.11+ copy it into them, is read so too."""
    if isinstance(stmt, TRIES):
        hoisted = _hoisted_tail([stmt], after_exit=True)
        if hoisted is not None:
            yield hoisted
        return
    if not isinstance(stmt, ast.If):
        return
    for hoisted in (_hoisted_tail([stmt]), _hoisted_tail([stmt], in_clause=True)):
        if hoisted is not None:
            yield hoisted


def _exit_in_else(out, stmt, final, leaving):
    """(statements, way out) where ``stmt`` is an if, one branch a way out and the
    other never going on, and ``out`` then the if written without that way out end in
    a copy of ``final``: the way out follows the copy, which the walk wrote into the
    branch. ``if t: ... else: ...; return`` (a copy ending in ``if t: raise E``) is
    ``if t: ...`` then the else, ``if t: return else: ...`` is ``if not t: ...``
    (3.12+ jump straight to the way out from the copy's test). None otherwise."""
    if not (isinstance(stmt, ast.If) and stmt.body and stmt.orelse):
        return None
    body, orelse = stmt.body, stmt.orelse
    if isinstance(body[-1], m.TERMINAL) and len(orelse) == 1 and isinstance(orelse[0], ast.If):
        # (an elif after a branch that leaves, as the walk writes an if ending the copy
        # after one that raises: the same as that if written after it)
        first = ast.If(test=stmt.test, body=body, orelse=[])
        split = _exit_in_else([*out, first], orelse[0], final, leaving)
        return None if split is None else ([first, *split[0]], split[1])
    if isinstance(body[-1], m.TERMINAL) and isinstance(orelse[-1], leaving):
        split, way_out = [ast.If(test=stmt.test, body=body, orelse=[]), *orelse[:-1]], orelse[-1]
    elif len(body) == 1 and isinstance(body[0], leaving) and isinstance(orelse[-1], m.TERMINAL):
        split, way_out = [ast.If(test=negate(stmt.test), body=orelse, orelse=[])], body[0]
    else:
        return None
    copied = _without_exit_marks(split)  # (the exits of withs left run after the copy)
    final = _without_exit_marks(final)
    if len(copied) > len(final) or not is_copy([*out, *copied][-len(final) :], final):
        return None
    return split, way_out


def _runs_off_to_end(stmt, part, field) -> bool:
    """Whether running off the end of ``part.field``, inside ``stmt``, goes on to the
    end of ``stmt`` with nothing run on the way."""
    if isinstance(stmt, ast.If):
        return True
    if not isinstance(stmt, TRIES) or stmt.finalbody:
        return False
    if part is not stmt:  # an except clause
        return True
    return field == "orelse" or (field == "body" and not stmt.orelse)


def _read_after(value, final) -> bool:
    """Whether the returned ``value``, found after a copy of ``final``, was computed
    after it: the simulation keeps a value computed before a statement on the stack
    only when the statement cannot change it (constants, temporaries, local names it
    does not store), and spills any other to a temporary."""
    if value is None:
        return False
    stored = {
        n.id
        for s in final
        for n in ast.walk(s)
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }
    for node in ast.walk(value):
        if isinstance(node, (ast.Constant, ast.expr_context)):
            continue
        if isinstance(node, ast.Name) and (m.is_temporary(node) or node.id not in stored):
            continue
        return True
    return False


def _dropped_before(out, stmt, final, clearing, pending, after=None, known=True, alone=False):
    """``stmt`` (a return, break or continue), with the copy of ``final`` that ``out``
    ends with before it dropped, and the copies of ``pending`` uncovered then. A return
    of a value computed after the copy is code after the try: at the end of the try
    body, where the code after the try is that return, both go (None)."""
    # (the exits of withs inside the try run after the copy, just before leaving, and
    # so does the clearing of the name of an except clause the try is in)
    exits = 0
    while exits < len(out):
        if isinstance(out[-1 - exits], m.ExitedWith):
            exits += 1
        elif _clears_a_name(out, len(out) - 2 - exits):
            exits += 2
        else:
            break
    end = len(out) - exits
    final = _without_exit_marks(final)  # (a with ending the finally body: its own mark)
    if isinstance(stmt, ast.Return):
        stmt, end = _returned_after_exits(out, end, stmt)
        end = _hoist_kept_value(out, end, stmt, final)
    own = _runs_its_own_way_out(out[:end], stmt, final)
    size = None if own else _copy_length(out, end, final)
    copied = len(final) - 1 if own else size or len(final)
    if own and not _cannot_raise(stmt):
        # (the finally body's own return, which may raise: kept as the body's way out
        # it would run the finally body again. The way out it stands for, dropped
        # by the compiler, does nothing but leave: a plain return leaves as well)
        stmt = ast.Return(value=None)
    if not own and size is None:
        # The compiler copies the finally body before every way out of the try body,
        # an inner one's before an outer one's (which the outer try drops): a way out
        # with no copy before it at all had its copy read otherwise, and written so
        # it would run twice.
        if alone or not any(is_copy(out[i : i + len(final)], final) for i in range(end)):
            raise Unsupported("no copy of the finally body before a way out of its try")
        return stmt
    kept = out[end:]
    if isinstance(stmt, ast.Return) and _read_after(stmt.value, final):
        if not known and not kept and after == []:
            after.append(stmt)  # the first such way out says what follows the try
        if kept or after is None or not m.same([stmt], after):
            raise Unsupported("code after a try statement copied into its body")
        stmt = None
    del out[end - copied :]
    # (the clause the inner tries are in clears its name after their copies)
    cleared = 2 if clearing is not None and clears_name(out, len(out) - 2, clearing) else 0
    for inner in map(_without_exit_marks, pending):
        if not inner:
            continue
        at = len(out) - cleared - len(inner)
        if at < 0 or not is_copy(out[at : at + len(inner)], inner):
            # (the inner try left its copy to this one: kept, it would run twice)
            raise Unsupported("no copy of an inner finally body before a way out of its try")
        del out[at : at + len(inner)]
    if stmt is None:
        return None
    # (a value kept over the exits stays in its temporary: it is computed before them)
    stmt = _kept_return(out, stmt, clearing) if not kept else stmt
    out += kept
    return stmt


def _runs_its_own_way_out(out, stmt, final) -> bool:
    """Whether ``out`` and ``stmt`` end in a copy of ``final``, a finally body that
    always leaves by a break, a continue or a return, ``stmt`` its own: the compiler
    drops the way out the body wrote after that copy, never reached. A way out in the
    body that cannot raise leaves through the finally body all the same. A return
    where the body breaks is that break: the compiler copies a small return after the
    loop to the break's jump."""
    n = len(final)
    if n and isinstance(stmt, ast.Return) and isinstance(final[-1], ast.Break):
        stmt = final[-1]
    if not n or not m.same(stmt, final[-1]) or len(out) < n - 1:
        return False
    return is_copy([*out[len(out) - n + 1 :], stmt], final)


def _clears_a_name(body, i) -> bool:
    """Whether ``body[i:i + 2]`` is ``name = None; del name``, as a clause ends."""
    first = body[i] if i >= 0 else None
    name = getattr(first.targets[0], "id", None) if isinstance(first, ast.Assign) else None
    return name is not None and clears_name(body, i, name)


def is_copy(stmts, final) -> bool:
    """Whether ``stmts`` read as a copy of the finally body ``final``: one walk may write
    an if's else after the if where its body ends in an exit, and another inside it
    (a loop ending the finally body, whose copy ends where a return goes on)."""
    if len(stmts) != len(final):
        return False
    return (
        m.same_up_to_temporaries(stmts, final)
        or m.same_up_to_temporaries(
            else_after_exit_flattened(stmts), else_after_exit_flattened(final)
        )
        or m.same_up_to_temporaries(ifs_joined(stmts), ifs_joined(final))
        or m.same_up_to_temporaries(code_after_sunk(stmts), code_after_sunk(final))
        or m.same_up_to_temporaries(conditionals_joined(stmts), conditionals_joined(final))
    )


SPREAD = 4  # statements after the last if of a copy a walk may write after that if


def _copy_length(out, end, final) -> int | None:
    """How many statements before ``end`` in ``out`` are a copy of ``final``: more than
    ``final`` holds where the walk wrote the code after an if whose else leaves after
    that if (``code_after_sunk``). None where no copy ends there."""
    n = len(final)
    for size in range(n, min(end, n + SPREAD) + 1):
        if _is_copy_of(out[end - size : end], final):
            return size
    return None


def _is_copy_of(stmts, final) -> bool:
    """Whether ``stmts`` are a copy of ``final``, the code after an if whose else
    leaves written after the if, or inside it, by either."""
    if len(stmts) == len(final):
        return is_copy(stmts, final)
    return len(stmts) > len(final) and m.same_up_to_temporaries(
        code_after_sunk(stmts), code_after_sunk(final)
    )


def _without_exit_marks(stmts):
    """``stmts`` without the marks of with exits at its end."""
    end = len(stmts)
    while end and isinstance(stmts[end - 1], m.ExitedWith):
        end -= 1
    return stmts[:end]


def _returned_after_exits(out, end, stmt):
    """(``stmt``, ``end``) with ``return v`` whole again where the compiler kept ``v``
    in a temporary over the exits of withs (``_t1 = v``, the exits, ``return _t1``),
    or the walk did just before the return (a cell's value loaded over the drop of a
    value under it, ``return x`` in a finally body after a clause's ``return f()``):
    a value computed after the copy of the finally body, not a statement between the
    copy and the way out."""
    kept = out[end - 1] if end else None
    if not (
        isinstance(kept, ast.Assign)
        and len(kept.targets) == 1
        and isinstance(kept.targets[0], ast.Name)
        and m.is_temporary(stmt.value)
        and kept.targets[0].id == stmt.value.id
    ):
        return stmt, end
    del out[end - 1]
    return ast.Return(value=kept.value), end - 1


def _hoist_kept_value(out, end, stmt, final) -> int:
    """``return name`` under a finally body that stores to ``name``: the value is kept
    in a temporary written just before that store, inside the copy of the finally
    body that ``out[:end]`` ends with, at its top or inside one of its statements (a
    with's body). Moved before the copy, the copy reads as one. Gives where the copy
    ends then."""
    value = stmt.value
    n = len(final)
    if not m.is_temporary(value) or end < n:
        return end
    # (the assignment among the copy's statements, or inside one of them)
    for size in range(n, min(end, n + SPREAD + 1) + 1):
        tail = out[end - size : end]
        for stmts in statement_lists(tail):
            j = next((j for j, s in enumerate(stmts) if _keeps_in(s, value.id)), None)
            if j is None:
                continue
            kept = stmts.pop(j)
            emptied = stmts is not tail and not stmts
            if emptied:
                stmts.append(ast.Pass())
            if _is_copy_of(tail, final):
                out[end - size : end] = [kept, *tail]
                return end + len(tail) + 1 - size
            if emptied:  # (not a copy with it moved out: left as it was)
                stmts.pop()
            stmts.insert(j, kept)
    return end


def _keeps_in(stmt, ident) -> bool:
    """Whether ``stmt`` is ``ident = v``, a temporary keeping a name's or constant's value."""
    return (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and stmt.targets[0].id == ident
        and isinstance(stmt.value, (ast.Name, ast.Constant))
    )


def statement_lists(body):
    """``body`` and each list of statements inside it, in this function's own code."""
    todo = [body]
    while todo:
        stmts = todo.pop()
        yield stmts
        for stmt in stmts:
            if isinstance(stmt, SCOPES):
                continue
            for part in [stmt, *getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]:
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(part, field, None)
                    if isinstance(inner, list) and inner:
                        todo.append(inner)


def _kept_return(out, stmt, clearing):
    """``stmt``, and ``out`` before it, with what the compiler makes of ``return v`` in an
    ``except ... as name`` clause under a finally body written back: ``v`` kept in a
    temporary over the clearing of the name (and the finally body's copy, gone now)."""
    if clearing is not None and len(out) >= 2 and clears_name(out, len(out) - 2, clearing):
        del out[-2:]  # the clause clears its name on every way out, as written
    if isinstance(stmt, ast.Return) and returns_kept_value(out, [stmt]):
        return ast.Return(value=out.pop().value)
    return stmt


def copied_tail_hoisted(stmts):
    """``stmts`` with the small return that ends the else and every clause of their last
    try statement written once after it instead: the compiler copies it to each (3.11+
    copy a return of at most four instructions), so the normal path's copy of a finally
    body holding a try has it there, and the copy run on an exception, which re-raises,
    does not."""
    last = stmts[-1] if stmts else None
    if not isinstance(last, ast.Try) or not last.handlers or len(last.orelse) != 1:
        return stmts
    tail = last.orelse
    if not isinstance(tail[0], ast.Return) or not all(
        m.same(h.body[-1:], tail) for h in last.handlers
    ):
        return stmts
    handlers = [
        ast.ExceptHandler(type=h.type, name=h.name, body=h.body[:-1] or [ast.Pass()])
        for h in last.handlers
    ]
    hoisted = ast.Try(body=last.body, handlers=handlers, orelse=[], finalbody=last.finalbody)
    return [*stmts[:-1], hoisted, *tail]


def if_tail_hoisted(stmts):
    """``stmts`` with the return, raise, break or continue that ends every branch of
    their last if statement written once after it: 3.12+ copy such a small exit into
    each branch, so a finally body ending in an if re-raises (or returns, on the
    normal path) in each."""
    hoisted = _hoisted_tail(stmts)
    return stmts if hoisted is None else [*hoisted[0], hoisted[1]]


def _hoisted_tail(stmts, after_exit=False, in_clause=False):
    """(``stmts`` less their final return, raise, break or continue, that statement),
    seeing through the branches of a final if that each end in the same one; or None.
    ``after_exit``: also through a final try whose else and clauses end in it, and out
    of the clauses of the last try, which would go on to it anyway (``_tails_dropped``).
    ``in_clause``: in a clause of such a try, where an if's branch may leave otherwise."""
    hoisted = _tail_of(stmts, after_exit, in_clause)
    if hoisted is None or not after_exit:
        return hoisted
    dropped = _tails_dropped(*hoisted)
    return hoisted if dropped is None else (dropped, hoisted[1])


def _tail_of(stmts, after_exit, in_clause=False):
    last = stmts[-1] if stmts else None
    if isinstance(last, m.TERMINAL):
        return stmts[:-1], last
    if after_exit and isinstance(last, TRIES):
        return _hoisted_from_try(stmts)
    if not isinstance(last, ast.If) or not last.orelse:
        return None
    body = _hoisted_tail(last.body, after_exit, in_clause)
    orelse = _hoisted_tail(last.orelse, after_exit, in_clause)
    if orelse is None:
        return None
    if in_clause and body is not None and not m.same(body[1], orelse[1]):
        # (``if c: raise E`` in a clause, the re-raise copied into its other branch:
        # the branch that leaves otherwise keeps its own way out)
        if _reraises(body[1], None) and not _reraises(orelse[1], None):
            node = ast.If(test=last.test, body=body[0] or [ast.Pass()], orelse=last.orelse)
            return [*stmts[:-1], node], body[1]
        node = ast.If(test=last.test, body=last.body, orelse=orelse[0])
        return [*stmts[:-1], node], orelse[1]
    if body is None and _loops_for_ever(last.body):
        # (a body that never runs on to the tail, an endless loop: only the else ends
        # in it, as the one way on)
        node = ast.If(test=last.test, body=last.body, orelse=orelse[0])
        return [*stmts[:-1], node], orelse[1]
    if body is None or not m.same(body[1], orelse[1]):
        return None
    node = ast.If(test=last.test, body=body[0] or [ast.Pass()], orelse=orelse[0])
    return [*stmts[:-1], node], body[1]


def _loops_for_ever(stmts) -> bool:
    """Whether ``stmts`` end in ``while True`` with no break of its own."""
    return bool(stmts) and isinstance(stmts[-1], ast.While) and never_goes_on(stmts[-1:])


def _tails_dropped(stmts, tail):
    """``stmts``, which ``tail`` follows, with their last try's clauses no longer
    ending in it, as they would go on to it anyway (3.10 copies it into them): what
    follows the try then makes its else, where every clause ends in ``tail``. None
    where that cannot be."""
    at = max((i for i, s in enumerate(stmts) if isinstance(s, TRIES)), default=None)
    if at is None or stmts[at].finalbody:
        return None
    node, after = copy.copy(stmts[at]), stmts[at + 1 :]
    node.handlers = [copy.copy(h) for h in node.handlers]
    ended = 0
    for handler in node.handlers:
        hoisted = _hoisted_tail(handler.body, True, in_clause=True)
        if hoisted is not None and m.same(hoisted[1], tail):
            handler.body, ended = hoisted[0] or [ast.Pass()], ended + 1
    # (3.10 copies it into the else too, which goes on to it anyway)
    in_else = _hoisted_tail(node.orelse, True) if node.orelse and not after else None
    # (3.12+ copy it into a branch of the else's last if, the other running on to it)
    ends_else = _ends_dropped(node.orelse, tail) if node.orelse and not after else None
    if in_else is not None and m.same(in_else[1], tail):
        node.orelse = in_else[0]
    elif ends_else is not None and not m.same(ends_else, node.orelse):
        node.orelse = ends_else
    elif not ended:
        return None
    if after and ended < len(node.handlers):
        return None
    node.orelse = [*node.orelse, *after]
    return [*stmts[:at], node]


def try_tail_hoisted(stmts):
    """``stmts`` with the return (or jump to the next round) that ends each way through
    them written once at their end, where the compiler copied it into the else and
    every clause of a try, or into the branches of ifs (``_hoisted_tail``)."""
    hoisted = _hoisted_tail(stmts, True)
    return stmts if hoisted is None else [*hoisted[0], hoisted[1]]


def _hoisted_from_try(stmts):
    """``_hoisted_tail`` through a final try whose else (none where its body never
    goes on) and every clause end in the same statement: the code a try inside a finally body runs into, the re-raise of
    the exception the finally body runs for, which 3.11+ copy into each way there.
    Written after the try it re-raises that exception, not the clause's."""
    last = stmts[-1]
    if last.finalbody or not last.handlers:
        return None
    # (a body that never goes on has no else: only the clauses run on to the tail)
    if not last.orelse and not never_goes_on(last.body):
        return None
    ways_on = [last.orelse] if last.orelse else []
    tails = [
        *(_hoisted_tail(way, True) for way in ways_on),
        *(_hoisted_tail(h.body, True, in_clause=True) for h in last.handlers),
    ]
    if None in tails or not all(m.same(t[1], tails[0][1]) for t in tails):
        return None
    node = copy.copy(last)
    node.orelse = tails[0][0] if ways_on else []
    node.handlers = [copy.copy(h) for h in last.handlers]
    for handler, (body, _) in zip(node.handlers, tails[len(ways_on) :]):
        handler.body = body or [ast.Pass()]
    tail = tails[0][1]
    if not node.orelse and _cannot_raise(tail):
        # (3.13 jumps there from a branch of the body, past the else)
        node.body = _ends_dropped(node.body, tail) or [ast.Pass()]
    return [*stmts[:-1], node], tails[0][1]


def _cannot_raise(stmt) -> bool:
    """Whether ``stmt`` is a break, a continue or a return of a constant: moved out of
    a try body, it is caught by no clause either way."""
    if isinstance(stmt, ast.Return):
        return stmt.value is None or isinstance(stmt.value, ast.Constant)
    return isinstance(stmt, (ast.Break, ast.Continue))


def _ends_dropped(stmts, tail):
    """``stmts``, which ``tail`` follows, less the copies of it that end them or the
    branches of their last if."""
    last = stmts[-1] if stmts else None
    if last is not None and m.same(last, tail):
        return stmts[:-1]
    if not isinstance(last, ast.If):
        return stmts
    node = copy.copy(last)
    node.body = _ends_dropped(last.body, tail) or [ast.Pass()]
    node.orelse = _ends_dropped(last.orelse, tail)
    return [*stmts[:-1], node]


def way_out_copied(stmts, final):
    """The return, break or continue that ``stmts`` run after the copy of ``final`` they
    are, where it is written at the end of each way through that copy that goes on:
    3.11+ copy a small way out into each branch of the copy's last if that runs on,
    the others leaving on their own (``finally: if a and b: return 1``, whose
    ``and`` the walk reads as nested ifs). None where ``stmts`` are no such copy."""
    reading = _way_out_reading(stmts, final)
    return None if reading is None else reading[0]


def _way_out_reading(stmts, final):
    """(the way out, ``final`` as the walk wrote it) for ``way_out_copied``, or None."""
    for way_out in _last_ways_out(stmts):
        for ours in (final, _ifs_split(final)):
            if m.same_up_to_temporaries(stmts, _way_out_written_in(ours, way_out)):
                return way_out, ours
    return None


def _way_out_in_copy(out, stmt, final, leaving):
    """(``stmt`` less the way out, that way out) where ``out`` then ``stmt``, an if,
    end in a copy of ``final`` with a way out of the try body (one of ``leaving``)
    written into each branch of its last if that goes on (``way_out_copied``), at
    least one. None otherwise."""
    n = len(final)
    if not isinstance(stmt, ast.If) or len(out) < n - 1:
        return None
    # (3.12+ may write the copy's last test negated, its branches swapped)
    for walked in (stmt, _flipped(stmt)) if stmt.orelse else (stmt,):
        reading = _way_out_reading([*out[len(out) - n + 1 :], walked], final)
        if reading is not None and isinstance(reading[0], leaving):
            break
    else:
        return None
    way_out, ours = reading
    copied = _way_out_left_out([walked], ours[-1:])
    # (a copy that never goes on has no way out written in: the compiler drops the
    # body's, and ``_runs_its_own_way_out`` reads it)
    return None if m.same(copied, [walked]) else (copied, way_out)


def _flipped(stmt):
    """The if ``stmt`` written ``if not t: <else> else: <body>``: the same code."""
    return ast.If(test=negate(stmt.test), body=stmt.orelse, orelse=stmt.body)


def _way_out_left_out(stmts, own):
    """``stmts``, which read as ``own`` with a way out written in (``_way_out_written_in``),
    without it: the branches where ``own`` goes on lose their last statement."""
    last = own[-1] if own else None
    if isinstance(last, m.TERMINAL):
        return list(stmts)
    if not isinstance(last, ast.If):
        return stmts[:-1]
    node = copy.copy(stmts[-1])
    node.body = _way_out_left_out(node.body, last.body) or [ast.Pass()]
    node.orelse = _way_out_left_out(node.orelse, last.orelse)
    return [*stmts[:-1], node]


def _last_ways_out(stmts):
    """The returns, breaks and continues that end ``stmts``, or the branches of their
    last if."""
    last = stmts[-1] if stmts else None
    if isinstance(last, ast.If):
        yield from _last_ways_out(last.body)
        yield from _last_ways_out(last.orelse)
    elif isinstance(last, (ast.Return, ast.Break, ast.Continue)):
        yield last


def _way_out_written_in(stmts, way_out):
    """A copy of ``stmts`` with ``way_out`` at the end of each way through them that
    goes on, through the branches of their last if."""
    last = stmts[-1] if stmts else None
    if isinstance(last, m.TERMINAL):
        return list(stmts)
    if not isinstance(last, ast.If):
        return [*stmts, way_out]
    node = copy.copy(last)
    node.body = _way_out_written_in(last.body, way_out)
    node.orelse = _way_out_written_in(last.orelse, way_out)
    return [*stmts[:-1], node]


def breaks_restored(stmts, way_out):
    """A copy of ``stmts`` with the ``way_out`` (a return or raise) that the loop ending
    them holds written ``break``: the compiler copies a small way out to each jump to
    it, so a break out of a loop that ends a finally body, which runs on to the copy's
    way out, or to the re-raise, is that way out inside the loop; the same code. None
    where the loop holds no such way out, or holds it where a break would run
    something else first (inside a try or with) or leave another loop."""
    last = stmts[-1] if stmts else None
    if not isinstance(last, LOOPS) or not isinstance(way_out, (ast.Return, ast.Raise)):
        return None
    found = []
    body = _way_out_broken(last.body, way_out, found)
    if not found or None in found:
        return None
    node = copy.copy(last)
    node.body = body
    return [*stmts[:-1], node]


def _way_out_in_an_endless_loop(out, stmt, final):
    """(the loop, the return) where ``stmt`` is ``while True`` holding a return that,
    written ``break``, makes it the last statement of a copy of ``final`` that ``out``
    ends with; None otherwise."""
    n = len(final)
    if len(out) < n - 1:
        return None
    restored = way_out_of_an_endless_loop([*out[len(out) - n + 1 :], stmt], final)
    return None if restored is None else (restored[0][-1], restored[1])


def way_out_of_an_endless_loop(stmts, final):
    """(``stmts`` with a return in the ``while True`` ending them written ``break``, that
    return) where they read so as a copy of ``final``: the compiler writes the way out
    after a copy of a finally body ending in that loop (a return, or the code after
    the try) in place of each break. None otherwise."""
    last = stmts[-1] if stmts else None
    if last is None:
        return None
    for way_out in [r for r in ast.walk(last) if isinstance(r, ast.Return)]:
        broken = ways_out_as_breaks(stmts, way_out)
        if broken is not None and is_copy(broken, final):
            return broken, way_out
    return None


def ways_out_as_breaks(stmts, way_out, followed=False):
    """``stmts`` read as the finally body whose copy they are, with ``way_out`` (a
    return or re-raise after the copy) written ``break`` in the loops that end ways
    through them, through the branches of their last ifs, and dropped where it ends
    one: the compiler copies a small way out to each break, so such a loop, and an if
    one of whose branches ends in it, run on nowhere. ``followed``: ``way_out`` comes
    after ``stmts``, where a way that goes on gets to it (otherwise every way ends,
    each loop a ``while True`` with no break of its own). None where no loop holds the
    way out, or one holds it where a break would not leave it."""
    found = []
    broken = _ends_broken(stmts, way_out, found, followed)
    return broken if found else None


def _ends_broken(stmts, way_out, found, followed):
    last = stmts[-1] if stmts else None
    if last is None:
        return [] if followed else None
    if m.same(last, way_out):
        return stmts[:-1]
    if isinstance(last, LOOPS) and (followed or _runs_on_nowhere(last)):
        broken = breaks_restored(stmts, way_out)
        if broken is not None:
            found.append(broken)
        return stmts if broken is None and followed else broken
    if isinstance(last, ast.If):
        body = _ends_broken(last.body, way_out, found, followed)
        orelse = _ends_broken(last.orelse, way_out, found, followed)
        if body is None or orelse is None:
            return None
        return [*stmts[:-1], ast.If(test=last.test, body=body or [ast.Pass()], orelse=orelse)]
    # (a way that leaves on its own, as the finally body does, or goes on to it)
    return stmts if followed or isinstance(last, m.TERMINAL) else None


def _runs_on_nowhere(loop) -> bool:
    """Whether ``loop`` is ``while True`` with no break of its own."""
    return isinstance(loop, ast.While) and _endless(loop) and not _breaks(loop.body)


def _endless(loop) -> bool:
    """Whether ``loop`` is ``while True:`` with no else: only a break leaves it."""
    test = loop.test
    return isinstance(test, ast.Constant) and bool(test.value) and not loop.orelse


def _way_out_broken(stmts, way_out, found):
    """``stmts`` with each ``way_out`` written ``break``, noting each in ``found``
    (None for one that cannot be: inside a try or a with)."""
    out = []
    for stmt in stmts:
        if m.same(stmt, way_out):
            found.append(True)
            out.append(ast.Break())
            continue
        if isinstance(stmt, (*SCOPES, *LOOPS)):
            out.append(stmt)  # (a break there would leave that loop)
            continue
        if isinstance(stmt, (*TRIES, ast.With, ast.AsyncWith)):
            if any(m.same(n, way_out) for n in ast.walk(stmt)):
                found.append(None)
            out.append(stmt)
            continue
        if isinstance(stmt, ast.If):
            stmt = copy.copy(stmt)
            stmt.body = _way_out_broken(stmt.body, way_out, found)
            stmt.orelse = _way_out_broken(stmt.orelse, way_out, found)
        elif isinstance(stmt, ast.Match):
            stmt = copy.copy(stmt)
            stmt.cases = [copy.copy(c) for c in stmt.cases]
            for case in stmt.cases:
                case.body = _way_out_broken(case.body, way_out, found)
        out.append(stmt)
    return out


def _ifs_split(stmts):
    """A copy of ``stmts`` with a last ``if a and b: ...`` (no else) written
    ``if a: if b: ...``, at every depth of that if: the same code."""
    last = stmts[-1] if stmts else None
    is_and = isinstance(last, ast.If) and isinstance(last.test, ast.BoolOp)
    if not (is_and and isinstance(last.test.op, ast.And) and not last.orelse):
        return stmts
    first, *others = last.test.values
    rest = others[0] if len(others) == 1 else ast.BoolOp(op=ast.And(), values=others)
    inner = _ifs_split([ast.If(test=rest, body=last.body, orelse=[])])
    return [*stmts[:-1], ast.If(test=first, body=inner, orelse=[])]


def ifs_joined(stmts):
    """A copy of ``stmts`` with each ``if a: if b: ...`` (the inner if all the outer
    one's body, both with no else or the same one) written ``if a and b: ...``, and
    each ``if not t: ... else: ...`` as ``if t:`` with its branches swapped, at every
    depth: the same code. A walk on an exception, where both branches re-raise, finds
    no join for the ``and`` that the normal path's walk reads (nor for a ``while a and
    b`` test, both of whose failing parts break, which that walk may read negated:
    ``if not a or not b: break``)."""
    return _rewritten_at_every_depth(stmts, _if_joined)


def _if_joined(stmt):
    inner = stmt.body[0] if isinstance(stmt, ast.If) and len(stmt.body) == 1 else None
    if isinstance(inner, ast.If) and m.same(stmt.orelse, inner.orelse):
        test = ast.BoolOp(op=ast.And(), values=[stmt.test, inner.test])
        stmt = ast.If(test=_and_flattened(test), body=inner.body, orelse=stmt.orelse)
    if isinstance(stmt, ast.If) and stmt.orelse and _negated(stmt.test):
        return [_flipped(stmt)]
    return [stmt]


def _negated(test) -> bool:
    """Whether ``test`` is ``not t``, or an ``and`` or ``or`` of such tests."""
    if isinstance(test, ast.BoolOp):
        return all(map(_negated, test.values))
    return isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)


def _and_flattened(test):
    values = []
    for v in test.values:
        is_and = isinstance(v, ast.BoolOp) and isinstance(v.op, ast.And)
        values += v.values if is_and else [v]
    return ast.BoolOp(op=ast.And(), values=values)


def exit_branch_last(stmts):
    """``stmts`` with a final ``if t: <exit> else: ...`` whose else never goes on
    written ``if not t: ...`` then the exit: the same code. The normal path's copy of
    a finally body ending in ``if not t: raise E`` (an assert) then goes on to the exit
    through the jump the test takes, which the walk reads as the if's body."""
    last = stmts[-1] if stmts else None
    if not (isinstance(last, ast.If) and len(last.body) == 1 and last.orelse):
        return stmts
    if not (isinstance(last.body[0], m.TERMINAL) and isinstance(last.orelse[-1], m.TERMINAL)):
        return stmts
    node = ast.If(test=negate(last.test), body=last.orelse, orelse=[])
    return [*stmts[:-1], node, last.body[0]]


def else_after_exit_flattened(stmts):
    """A copy of ``stmts`` with the else of each if whose body ends in a return, raise,
    break or continue written after the if instead, at every depth: the same code."""
    return _rewritten_at_every_depth(stmts, _else_after_exit)


def _else_after_exit(stmt):
    ends = isinstance(stmt, ast.If) and stmt.body and isinstance(stmt.body[-1], m.TERMINAL)
    if ends and stmt.orelse:
        orelse, stmt.orelse = stmt.orelse, []
        return [stmt, *orelse]
    return [stmt]


def conditionals_joined(stmts):
    """A copy of ``stmts`` with each ``if t: S(a) else: S(b)``, one simple statement in
    each branch, the two alike but for one value, written ``S(a if t else b)`` at every
    depth. 3.10 and 3.12+ copy what follows a conditional value into each arm where
    that is small (a store, then a finally body's re-raise): the walk on an exception
    reads the if the normal path's copy reads as a conditional value."""
    return _rewritten_at_every_depth(stmts, _conditional_joined)


CONDITIONAL_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _conditional_joined(stmt):
    if not (isinstance(stmt, ast.If) and len(stmt.body) == len(stmt.orelse) == 1):
        return [stmt]
    first, second = stmt.body[0], stmt.orelse[0]
    if not isinstance(first, CONDITIONAL_STATEMENTS):
        return [stmt]
    apart = []
    joined = _joined_at_one_value(first, second, stmt.test, apart)
    return [joined] if joined is not None and len(apart) == 1 else [stmt]


def _joined_at_one_value(a, b, test, apart):
    """``a`` with the one value where it differs from ``b`` written ``a if test else b``
    (noted in ``apart``); None where they differ otherwise, in more than one value,
    or inside a lambda or comprehension (code of its own)."""
    if m.same(a, b):
        return a
    if not (isinstance(a, ast.AST) and isinstance(b, ast.AST)):
        return None
    values = isinstance(a, ast.expr) and isinstance(b, ast.expr)
    values = values and not isinstance(getattr(a, "ctx", None), (ast.Store, ast.Del))
    if type(a) is not type(b) or isinstance(a, (ast.Lambda, *COMPREHENSIONS)):
        if not values or apart:
            return None
        apart.append(a)
        return ast.IfExp(test=test, body=a, orelse=b)
    node = copy.copy(a)
    for name in a._fields:
        x, y = getattr(a, name, None), getattr(b, name, None)
        if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
            parts = [_joined_at_one_value(p, q, test, apart) for p, q in zip(x, y)]
            if any(p is None for p in parts):
                return None
            setattr(node, name, parts)
        elif isinstance(x, ast.AST):
            part = _joined_at_one_value(x, y, test, apart)
            if part is None:
                return None
            setattr(node, name, part)
        elif not m.same(x, y):
            if not values or apart:  # (a name or constant of its own: this value)
                return None
            apart.append(a)
            return ast.IfExp(test=test, body=a, orelse=b)
    return node


def code_after_sunk(stmts):
    """A copy of ``stmts`` with the code after each if whose else ends in a return,
    raise, break or continue (and whose body does not) written at the end of its body
    instead, at every depth: the same code. One walk finds the if's join where that
    code starts, another (the copy of a finally body run on an exception, whose way
    out differs) none."""
    return _rewritten_at_every_depth(stmts, lambda stmt: [stmt], _sunk_into_body)


def _sunk_into_body(stmts):
    for i, stmt in enumerate(stmts):
        rest = stmts[i + 1 :]
        if rest and isinstance(stmt, ast.If) and _else_only_leaves(stmt):
            body = [s for s in stmt.body if not isinstance(s, ast.Pass)]
            stmt.body = _sunk_into_body([*body, *rest])
            return stmts[: i + 1]
    return stmts


def _else_only_leaves(stmt) -> bool:
    body, orelse = stmt.body, stmt.orelse
    return (
        bool(orelse)
        and isinstance(orelse[-1], m.TERMINAL)
        and not (body and isinstance(body[-1], m.TERMINAL))
    )


def _rewritten_at_every_depth(stmts, rewrite, whole=None):
    """A copy of ``stmts`` (not of the functions and classes in them), each statement's
    inner blocks rewritten first, then the statement by ``rewrite``, which gives the
    statements it stands for; then each list of statements by ``whole``."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, SCOPES):
            out.append(stmt)
            continue
        stmt = copy.copy(stmt)
        if getattr(stmt, "handlers", None):
            stmt.handlers = [copy.copy(h) for h in stmt.handlers]
        for part in [stmt, *getattr(stmt, "handlers", ())]:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(part, field, None)
                if isinstance(inner, list) and inner:
                    setattr(part, field, _rewritten_at_every_depth(inner, rewrite, whole))
        out += rewrite(stmt)
    return out if whole is None else whole(out)


def returns_kept_value(body, rest) -> bool:
    """Whether the body ends by keeping a value in a temporary that the code after the
    finally body only returns: what the compiler makes of ``return value`` in the body."""
    last = body[-1] if body else None
    return (
        len(rest) == 1
        and isinstance(rest[0], ast.Return)
        and m.is_temporary(rest[0].value)
        and isinstance(last, ast.Assign)
        and len(last.targets) == 1
        and isinstance(last.targets[0], ast.Name)
        and last.targets[0].id == rest[0].value.id
    )
