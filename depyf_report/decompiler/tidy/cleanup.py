"""Readability passes over recovered statements; each keeps the meaning unchanged."""

from __future__ import annotations

import ast
import threading
from collections import Counter

from ..bytecode.versions import ELSE_COMPILED_AS_CODE_AFTER_TRY
from ..rewrites.patterns import is_wildcard
from ..simulation import markers as m
from ..simulation import nodes
from ..structuring.clauses import never_goes_on
from ..structuring.conditions import negate
from ..structuring.loops import loop_nodes
from ..structuring.trys import TRIES, TRY_STAR
from .clause_ends import else_copied_after_clearing, without_clearing
from .comprehensions import accumulated, binds_outside, inline
from .finally_returns import finally_again_in, never_going_on
from .loops_never_round import loops_again_in
from .matches import guarded_captures, matches_all, nested_defaults
from .matches import rebuild as rebuild_matches
from .module_ends import class_ends_plain, returns_as_breaks, returns_as_else
from .spilled_tails import spilled_tails_in


class _Scope(threading.local):
    """Whether the body being tidied can hold ``return`` (a function) or not, and the
    names it stores as globals or free variables (an assignment to one in a
    comprehension's loop is a walrus, not ``for z in [x]``). Each thread has its own:
    ``decompile`` may run in several at once."""

    function = True
    outer: frozenset[str] = frozenset()


SCOPE = _Scope()


class _Reads(threading.local):
    """How often the body being tidied reads each name, counted on first use (only
    3.12+'s inlined comprehensions ask): every pass keeps the count, as none copies a
    read and moving a value moves its reads. Each thread has its own, as ``SCOPE``."""

    def __init__(self):
        self.body: list[ast.stmt] = []
        self._count: Counter | None = None

    def start(self, body: list[ast.stmt]) -> None:
        self.body, self._count = body, None

    def __call__(self, ident: str) -> int:
        if self._count is None:
            self._count = _count_reads(self.body)
        return self._count[ident]


def _count_reads(body: list[ast.stmt]) -> Counter:
    """Reads of each name in ``body``'s own scope: a walk of its own, three times
    quicker than ``ast.walk`` on a long function. The bodies of nested functions,
    lambdas and classes are other scopes, whose temporaries reuse the same names."""
    count: Counter = Counter()
    todo: list = list(body)
    pop, extend, append = todo.pop, todo.extend, todo.append
    while todo:
        node = pop()
        if type(node) in _NAMES:
            if type(node.ctx) is ast.Load:
                count[node.id] += 1
            continue
        scope = type(node) in _OWN_SCOPES
        for field in getattr(node, "_fields", ()):  # () for the names of a global
            if scope and field == "body":
                continue
            value = getattr(node, field, None)
            if type(value) is list:
                extend(value)
            elif isinstance(value, ast.AST):
                append(value)
    return count


_OWN_SCOPES = {ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda}
_NAMES = {ast.Name, nodes.Name}
READS = _Reads()


def tidy(stmts: list[ast.stmt], ctx) -> list[ast.stmt]:
    SCOPE.function = ctx.is_function
    # a comprehension's own code (3.10, 3.11) stores a walrus target as a global or free
    # variable; 3.12+ inline it where no store tells (tests/known_gaps.py)
    own = ctx.code.co_name in ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")
    SCOPE.outer = frozenset(ctx.stored_globals | ctx.stored_free) if own else frozenset()
    if ctx.is_class:  # (first: the copies of its end would keep a loop's guard apart)
        class_ends_plain(stmts)
    READS.start(stmts)
    try:
        stmts = _block(stmts)
    finally:
        READS.start([])  # hold no function's statements past its own tidying
    stmts = _drop_tail_return(stmts, keep_value=ctx.is_function)
    if not ctx.is_function:
        stmts = returns_as_else(stmts)
        returns_as_breaks(stmts)
    if not ctx.is_function and stmts and is_doc_store(stmts[0]):
        stmts[0] = ast.Expr(value=stmts[0].value)
    return stmts


def region_value(stmts: list[ast.stmt], own: frozenset, walrus: frozenset):
    """The statements of an inlined comprehension's region in a state machine
    (``structuring.inlined``), tidied so that its loop folds into a comprehension;
    None where a loop is left, or a name of the comprehension's ``own`` is bound
    outside one, which would share the function's cell between runs. ``walrus``: the
    names the region binds in the scope around it."""
    saved = SCOPE.function, SCOPE.outer
    SCOPE.function, SCOPE.outer = True, walrus
    READS.start(stmts)
    try:
        out = _block(stmts, closing=False)
    finally:
        READS.start([])
        SCOPE.function, SCOPE.outer = saved
    if any(binds_outside(s, own) for s in out):
        return None
    return out


def is_doc_store(stmt) -> bool:
    return (
        isinstance(stmt, ast.Assign)
        and [getattr(t, "id", None) for t in stmt.targets] == ["__doc__"]
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _block(stmts, in_loop=False, closing=True):
    stmts = rebuild_matches(stmts, READS)
    out: list[ast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, m.ExitedWith):
            continue  # the exit of a with statement, already part of its syntax
        for node in _statement(stmt):
            out.append(node)
    # cases a guarded capture leaves in a default case go back before it is read (the
    # match after it must read the kept subject alone) and after (its own default)
    out = nested_defaults(guarded_captures(nested_defaults(out, READS), READS), READS)
    for stmt in out:  # (code after a match, moved into its cases: folded there too)
        if isinstance(stmt, ast.Match):
            for case in stmt.cases:
                case.body = inline(case.body, READS, SCOPE.outer)
    out = else_copied_after_clearing(out)
    out = finally_again_in(_return_inside(out), SCOPE.outer)
    out = loops_again_in(out, SCOPE.outer)
    for stmt in out:  # a with body is whole once its return has moved in
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            stmt.body = close_else(stmt.body)
    out = _conditional_returns(out)
    out = _merge_annotations(out)
    out = inline(out, READS, SCOPE.outer)
    out = spilled_tails_in(out)  # (once the comprehensions in its arms are folded)
    if closing:
        out = close_else(out)
    out = _star_jumps_dropped(out)
    if in_loop:  # first: a guard's else that only goes on with the loop is no else
        out = _loop_tail(out)
    return guard_loops(out)


def _statement(stmt):
    if isinstance(stmt, (ast.While, ast.For, ast.AsyncFor)):
        stmt.body = _block(stmt.body, in_loop=True) or [ast.Pass()]
        stmt.orelse = _block(stmt.orelse)
        return [_tested_loop(stmt)]
    if isinstance(stmt, ast.If):
        return _if(stmt)
    if isinstance(stmt, ast.Match):
        for case in stmt.cases:
            case.body = _block(case.body) or [ast.Pass()]
        return [stmt]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        stmt.body = _block(stmt.body, closing=False) or [ast.Pass()]
        return [stmt]
    if isinstance(stmt, TRIES):
        # (first: a dropped return's clause then clears its name on the way out)
        stmt = never_going_on(stmt, returns=SCOPE.function)
        stmt.orelse = _block(stmt.orelse)
        if _returns_a_temporary(stmt.orelse):
            # ``try: return f()``: 3.11+ return after the try the value its body kept in
            # a temporary. The return ends the body again, where the value goes back
            # into it (a comprehension's folded, 3.12+); reading a temporary cannot
            # raise, so no clause could tell the two apart.
            stmt.body.append(stmt.orelse.pop())
        stmt.body = _block(stmt.body, closing=False) or [ast.Pass()]
        for h in stmt.handlers:
            body = without_clearing(h.body, h.name) if h.name else h.body
            h.body = _block(body) or [ast.Pass()]
        stmt.finalbody = _block(stmt.finalbody)
        stmt.body = close_else(stmt.body)  # whole once its return has moved in
        stmt.body = _else_after_clauses(stmt)
        inner = stmt.body[0]
        if (
            len(stmt.body) == 1
            and isinstance(inner, TRIES)
            and not stmt.handlers
            and not stmt.orelse
            and inner.handlers
            and not inner.finalbody
        ):
            inner.finalbody = stmt.finalbody
            return [inner]
        return [stmt]
    if isinstance(stmt, ast.Raise) and nodes.failed_assertion(stmt) is not None:
        return [nodes.failed_assertion(stmt)]
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.NamedExpr):
        named = stmt.value
        stmt = ast.Assign(targets=[named.target, *stmt.targets], value=named.value)
    return [stmt]


def _if(stmt: ast.If):
    stmt.body = _block(stmt.body)
    stmt.orelse = _block(stmt.orelse)
    assertion = _assertion(stmt)
    if assertion is not None:
        return [assertion, *stmt.orelse]
    if _is_pass(stmt.body) and stmt.orelse and not nodes.written_pass(stmt.body[0]):
        stmt.test, stmt.body, stmt.orelse = negate(stmt.test), stmt.orelse, []
    if not stmt.body:
        stmt.body = [ast.Pass()]
    ends = stmt.body[-1]
    movable = SCOPE.function or not isinstance(ends, ast.Return)
    if isinstance(ends, m.TERMINAL) and movable and stmt.orelse and not _is_elif(stmt.orelse):
        rest, stmt.orelse = stmt.orelse, []
        return [stmt, *rest]
    return [stmt]


def _assertion(stmt: ast.If):
    """``if not c: raise AssertionError(msg)`` from LOAD_ASSERTION_ERROR is ``assert c, msg``."""
    if len(stmt.body) != 1:
        return None
    failed = nodes.failed_assertion(stmt.body[0])
    return None if failed is None else ast.Assert(test=negate(stmt.test), msg=failed.msg)


def _asserted_at_end(body):
    """``if c: continue`` then ``raise AssertionError`` ending a loop body: 3.12+ lay
    out ``assert c`` at the end of a loop body so, the test jumping to the next round."""
    if len(body) < 2 or not isinstance(body[-2], ast.If) or body[-2].orelse:
        return body
    guard = body[-2]
    if len(guard.body) != 1 or not isinstance(guard.body[0], ast.Continue):
        return body
    failed = nodes.failed_assertion(body[-1])
    if failed is None:
        return body
    return [*body[:-2], ast.Assert(test=guard.test, msg=failed.msg)]


def _is_elif(orelse) -> bool:
    return len(orelse) == 1 and isinstance(orelse[0], ast.If)


def _is_pass(body) -> bool:
    return all(isinstance(s, ast.Pass) for s in body)


def _loop_tail(body, whole=True):
    """``if c: continue`` + ``break`` at the end of a loop body is ``if not c: break``.
    ``whole``: ``body`` is the loop's whole body, not the end of an if or try in it."""
    if (
        len(body) >= 2
        and isinstance(body[-1], ast.Break)
        and isinstance(body[-2], ast.If)
        and not body[-2].orelse
        and isinstance(body[-2].body[-1], ast.Continue)
        and (len(body[-2].body) == 1 or nodes.falls_off(body[-2].body[-1]))
    ):
        guard = body[-2]
        if len(guard.body) == 1:
            node = ast.If(test=negate(guard.test), body=[ast.Break()], orelse=[])
        else:  # ``if c: A`` going on to the end of the body, ``else: break``
            node = nodes.If(
                test=guard.test,
                body=guard.body[:-1],
                orelse=[ast.Break()],
                orelse_falls=nodes.orelse_falls(guard),
            )
        body = [*body[:-2], node]
    while body and isinstance(body[-1], ast.Continue):
        body = body[:-1]
    body = _asserted_at_end(body)
    last = body[-1] if body else None
    if (
        isinstance(last, ast.If)
        and _is_break(last.orelse)
        and not _is_break(last.body)
        and ((whole and len(body) == 1) or nodes.orelse_falls(last))
    ):
        # ``if c: A / else: break`` at the end reads ``if not c: break`` then ``A``:
        # a while loop's test, or as written where the test falls through to the break
        body = [*body[:-1], ast.If(test=negate(last.test), body=last.orelse, orelse=[])]
        return _loop_tail([*body, *last.body], whole)
    if isinstance(last, ast.If):  # the branches of a final if end where the body ends
        last.body = _loop_tail(last.body, False) or [ast.Pass()]
        last.orelse = _loop_tail(last.orelse, False)
    if isinstance(last, (ast.For, ast.AsyncFor, ast.While)):  # so does a final loop's else
        last.orelse = _loop_tail(last.orelse, False)
    if isinstance(last, ast.Match):  # and each case of a final match
        for case in last.cases:
            case.body = _loop_tail(case.body, False) or [ast.Pass()]
        _empty_default_dropped(last)
    if isinstance(last, TRIES):  # and a final try's else (a finally runs either way),
        last.orelse = _loop_tail(last.orelse, False)
        if not last.orelse and TRY_STAR and isinstance(last.body[-1], TRY_STAR):
            # or its body, where it has none, that ends in except* clauses (which
            # cannot continue: ``finally: continue`` read as a bare except)
            last.body = _loop_tail(last.body, False) or [ast.Pass()]
        if not last.finalbody:  # and its clauses, which with a finally run their own copy
            star = TRY_STAR and isinstance(last, TRY_STAR)
            for handler in last.handlers:
                handler.body = _loop_tail(handler.body, False) or [ast.Pass()]
                if star:  # (which may not continue, even where a branch never goes on)
                    handler.body = _final_jumps_dropped(handler.body, ast.Continue) or [ast.Pass()]
    return body


def _empty_default_dropped(match: ast.Match) -> None:
    """A last ``case _:`` that only went on to the next round, its ``continue`` gone:
    where no case matches, the match does nothing either (the else of the tests of
    literal cases, ``tidy.matches``)."""
    last = match.cases[-1]
    default = last.guard is None and is_wildcard(last.pattern)
    emptied = _is_pass(last.body) and not any(map(nodes.written_pass, last.body))
    if len(match.cases) > 1 and default and emptied:
        match.cases.pop()


def _else_after_clauses(stmt) -> list[ast.stmt]:
    """The body of a try/finally whose body is a try, then more: on 3.10, the more
    is that try's else when every clause leaves. 3.10 lays an else out after the
    clauses, as it does the code after a try, and compiles the two alike; where a
    clause goes on, only the code after the try can follow it."""
    body = stmt.body
    if not ELSE_COMPILED_AS_CODE_AFTER_TRY or stmt.handlers or stmt.orelse or len(body) < 2:
        return body
    inner = body[0]
    if not isinstance(inner, TRIES) or inner.orelse or inner.finalbody or not inner.handlers:
        return body
    if not all(_leaves(h.body) for h in inner.handlers):
        return body
    inner.orelse = body[1:]
    return [inner]


def close_else(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` with what follows a try whose else ran on into it moved into that else.

    The compiler ends the else of a try inside a finally or with body by the copy of
    the finally body or of ``__exit__`` that a return (or the next round) runs, so the
    walk leaves the else's last statements after the try (trys.py marks it). With no
    clause going on, nothing else reaches them: inside the else they mean the same."""
    for i in range(len(stmts) - 2, -1, -1):
        inner = stmts[i]
        if isinstance(inner, TRIES) and nodes.else_runs_on(inner):
            if not inner.finalbody and all(_leaves(h.body) for h in inner.handlers):
                inner.orelse = [*inner.orelse, *stmts[i + 1 :]]
                return stmts[: i + 1]
            break
    return stmts


def _star_jumps_dropped(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """No except* clause may break or continue: where a try with such clauses is
    followed by that same jump, each clause's ends fall off into it instead (every
    clause that goes on goes on to the end of the try). Where no way through the try
    goes on, and its clauses' jumps are of one kind (the copies of ``finally: break``
    on each way out), that jump is written after it first: nothing reached it."""
    out: list[ast.stmt] = []
    for i, stmt in enumerate(stmts):
        out.append(stmt)
        if not (TRY_STAR and isinstance(stmt, TRY_STAR)):
            continue
        after = stmts[i + 1] if i + 1 < len(stmts) else None
        kind = type(after) if isinstance(after, (ast.Break, ast.Continue)) else None
        if kind is None:
            kind = _own_jump(stmt)
            if kind is None:
                continue
            if stmt.orelse:
                stmt.orelse = _final_jumps_dropped(stmt.orelse, kind)
            else:
                stmt.body = _final_jumps_dropped(stmt.body, kind) or [ast.Pass()]
            out.append(kind())
        for handler in stmt.handlers:
            handler.body = _final_jumps_dropped(handler.body, kind) or [ast.Pass()]
    return out


def _own_jump(stmt) -> type | None:
    """The one kind of jump (break or continue) that ends the except* clauses of try
    ``stmt`` where no way through it goes on; None where there is none, or both."""
    if not never_goes_on([stmt]):
        return None
    kinds = [
        kind
        for kind in (ast.Break, ast.Continue)
        if any(_jump_ends_at(h.body, kind) is not None for h in stmt.handlers)
    ]
    return kinds[0] if len(kinds) == 1 else None


def _jump_ends_at(stmts: list[ast.stmt], kind) -> int | None:
    """Where in ``stmts`` the jumps of ``kind`` that end ways through them start: the
    last statement, such a jump or an if holding one at the end of a branch, or an
    earlier if with no else whose body holds one and never goes on (the walk wrote
    the rest of ``stmts`` after it); None where there is none."""
    for i, stmt in enumerate(stmts):
        last = i == len(stmts) - 1
        if last and isinstance(stmt, kind):
            return i
        if not isinstance(stmt, ast.If):
            continue
        if last and any(_jump_ends_at(b, kind) is not None for b in (stmt.body, stmt.orelse)):
            return i
        if (
            not stmt.orelse
            and never_goes_on(stmt.body)
            and _jump_ends_at(stmt.body, kind) is not None
        ):
            return i
    return None


def _final_jumps_dropped(stmts: list[ast.stmt], kind) -> list[ast.stmt]:
    """``stmts``, whose end goes on to a jump of ``kind`` (break or continue), less
    the jumps of that kind that end ways through them (``_jump_ends_at``): an if
    whose body ends so then holds the rest of ``stmts`` as its else, as written
    (``if c: A; continue`` then ``B`` is ``if c: A else: B``)."""
    at = _jump_ends_at(stmts, kind)
    if at is None:
        return stmts
    node = stmts[at]
    if isinstance(node, kind):
        return stmts[:at]
    node.body = _final_jumps_dropped(node.body, kind) or [ast.Pass()]
    node.orelse = _final_jumps_dropped([*node.orelse, *stmts[at + 1 :]], kind)
    return stmts[: at + 1]


def _leaves(stmts) -> bool:
    return bool(stmts) and isinstance(stmts[-1], m.TERMINAL)


def _is_break(stmts) -> bool:
    return len(stmts) == 1 and isinstance(stmts[0], ast.Break)


def _return_inside(stmts):
    """``with m: t = v`` then ``return t`` reads better as ``with m: return v``; so
    does ``try: t = v / finally: f``, which runs ``f`` after ``v`` either way (and
    where ``f`` breaks or returns, it drops the return either way). The return goes to
    each ``t = v`` that ends a way on out of the statement before it, through ifs,
    withs and trys, where every other way leaves: 3.11+ return after a try the value
    its else kept across the finally, 3.10 after an except clause the value kept
    across the clearing of its name, 3.12+ an inlined comprehension's accumulator
    (``_t1 = []; for i in y: _t1.append(i)``, its loop the only other reader)."""
    if len(stmts) < 2 or not isinstance(stmts[-1], ast.Return):
        return stmts
    ret = stmts[-1]
    value = _returned(stmts[-2], ret)
    if value is not None:
        return [*stmts[:-2], ast.Return(value=value)]
    if not m.is_temporary(ret.value):
        return stmts
    before = stmts[:-1]
    sites = _ends_storing(before, ret)
    if not sites or _loads(ret.value.id, stmts[-2]) > sum(
        _loads(ret.value.id, block[at:]) for block, at, _ in sites
    ):
        return stmts  # (read elsewhere too)
    for block, at, value in sites:
        block[at:] = [ast.Return(value=value)]
    return before


def _ends_storing(stmts, ret, inside=False) -> list | None:
    """(block, index, value) of each end of a way on out of ``stmts`` that keeps the
    value of ``ret`` from ``index`` on; None where a way goes on without one (a way
    that returns, raises, breaks or continues needs none). ``inside``: ``stmts`` is a
    block of the statement before the return."""
    last = stmts[-1] if stmts else None
    value = _returned(last, ret)
    if value is not None:
        return [(stmts, len(stmts) - 1, value)]
    value = accumulated(stmts, ret.value.id, SCOPE.outer)
    if value is not None:
        return [(stmts, len(stmts) - 2, value)]
    if never_goes_on(stmts):  # (a try whose finally body continues, say)
        return []
    parts = _ways_on(last)
    if parts is not None and _gives_a_value(last, ret):
        # a conditional value right before the return is ``inline``'s to read
        value = _conditional_value(last, ret) if inside else None
        return None if value is None else [(stmts, len(stmts) - 1, value)]
    if parts is None:
        return None
    sites = []
    for part in parts:
        found = _ends_storing(part, ret, inside=True)
        if found is None:
            return None
        sites += found
    return sites


def _ways_on(stmt) -> list[list[ast.stmt]] | None:
    """The blocks whose ends are the ways on out of ``stmt``: an if's branches, a
    match's cases where one takes every subject, a with's body, a try's body (or else)
    and its clauses, after which its finally body runs, as it does before a return
    inside."""
    if isinstance(stmt, ast.If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, ast.Match) and matches_all(stmt):
        return [case.body for case in stmt.cases]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [stmt.body]
    if isinstance(stmt, TRIES):
        return [stmt.orelse or stmt.body, *(h.body for h in stmt.handlers)]
    return None


def _gives_a_value(stmt, ret) -> bool:
    """Whether ``stmt`` is an if each of whose branches only keeps a value for ``ret``:
    a conditional value, ``a if c else b`` or ``a or b`` (``comprehensions.inline``
    reads it so once an arm's comprehension is whole again). Branches that run more
    first are statements: each returns its value."""
    return isinstance(stmt, ast.If) and all(
        len(arm) == 1 and _returned(arm[0], ret) is not None for arm in (stmt.body, stmt.orelse)
    )


def _conditional_value(branch: ast.If, ret) -> ast.expr | None:
    """``a if c else b`` for ``if c: _t1 = a / else: _t1 = b`` (3.12+ keep a conditional
    value whose arm is an inlined comprehension so), where the test reads no
    temporary (an ``or``'s kept value, ``comprehensions.inline`` reads)."""
    arms = [branch.body, branch.orelse]
    if any(len(arm) != 1 for arm in arms) or any(
        isinstance(n, ast.Name) and m.is_temporary(n) for n in ast.walk(branch.test)
    ):
        return None
    then, otherwise = (_returned(arm[0], ret) for arm in arms)
    return ast.IfExp(test=branch.test, body=then, orelse=otherwise)


def _loads(ident: str, tree) -> int:
    """How often ``tree`` (a node or a list of statements) reads ``ident``."""
    trees = tree if isinstance(tree, list) else [tree]
    return sum(
        isinstance(n, ast.Name) and n.id == ident and isinstance(n.ctx, ast.Load)
        for t in trees
        for n in ast.walk(t)
    )


def _conditional_returns(stmts):
    """``if c: return a`` then ``return b`` is ``return a if c else b`` where 3.12+ says
    so: one of the returns is the arm of a conditional expression (statements.py)."""
    out = list(stmts)
    i = len(out) - 2
    while i >= 0:
        cond, ret = out[i], out[i + 1]
        if isinstance(cond, ast.If) and not cond.orelse and isinstance(ret, ast.Return):
            body = cond.body
            if len(body) == 1 and isinstance(body[0], ast.Return) and _is_arm(body[0], ret):
                # Not itself an arm: statements stay statements where the code allows both.
                out[i : i + 2] = [
                    ast.Return(value=ast.IfExp(cond.test, _value(body[0]), _value(ret)))
                ]
        i -= 1
    return out


def _is_arm(*returns) -> bool:
    return any(nodes.conditional_arm(r) for r in returns)


def _value(ret: ast.Return) -> ast.expr:
    return ret.value if ret.value is not None else m.const(None)


def _returns_a_temporary(orelse) -> bool:
    """Whether a try's else only returns a temporary."""
    return (
        len(orelse) == 1 and isinstance(orelse[0], ast.Return) and m.is_temporary(orelse[0].value)
    )


def _returned(last, ret) -> ast.expr | None:
    """What ``return`` gives where ``last`` keeps it in a temporary ``_t`` for ``ret``:
    ``v`` for ``_t = v``, and ``(a := v)`` for ``a = _t = v``, a walrus in a return
    whose value waits on the stack while a with or finally runs."""
    if not (isinstance(last, ast.Assign) and isinstance(ret, ast.Return)):
        return None
    if not m.is_temporary(ret.value):
        return None
    *names, kept = last.targets
    if not (isinstance(kept, ast.Name) and kept.id == ret.value.id):
        return None
    if not names:
        return last.value
    if len(names) == 1 and isinstance(names[0], ast.Name) and not m.is_temporary(names[0]):
        return ast.NamedExpr(target=names[0], value=last.value)
    return None


def _merge_annotations(stmts):
    out = []
    for stmt in stmts:
        if (
            isinstance(stmt, ast.AnnAssign)
            and stmt.value is None
            and out
            and isinstance(out[-1], ast.Assign)
            and len(out[-1].targets) == 1
            and isinstance(out[-1].targets[0], ast.Name)
            and out[-1].targets[0].id == stmt.target.id
        ):
            stmt.value = out.pop().value
        out.append(stmt)
    return out


def _drop_tail_return(stmts, keep_value: bool):
    """The implicit ``return None`` at the end of a body says nothing (and a module or
    class body cannot say it at all)."""
    if stmts and isinstance(stmts[-1], ast.Return):
        value = stmts[-1].value
        if (
            value is None
            or (isinstance(value, ast.Constant) and value.value is None)
            or not keep_value
        ):
            stmts = stmts[:-1]
    last = stmts[-1] if stmts else None
    if isinstance(last, (ast.If, *TRIES, ast.With, ast.AsyncWith)):
        # a return from an except clause runs the finally body on its own way out, and
        # is kept where it can be said (not in a module or class body)
        kept = keep_value and getattr(last, "finalbody", None)
        handlers = [] if kept else getattr(last, "handlers", [])
        for part in [last, *handlers]:
            if part is last and getattr(last, "orelse", None) and isinstance(last, TRIES):
                pass  # (running off a try body runs its else)
            else:
                part.body = _drop_tail_return(part.body, keep_value) or [ast.Pass()]
            if isinstance(part, (ast.If, *TRIES)):
                part.orelse = _drop_tail_return(part.orelse, keep_value)
    elif isinstance(last, ast.Match):  # running off any case ends the body too
        for case in last.cases:
            case.body = _drop_tail_return(case.body, keep_value) or [ast.Pass()]
    elif isinstance(last, (ast.For, ast.AsyncFor, ast.While)):  # and a final loop's else
        last.orelse = _drop_tail_return(last.orelse, keep_value)
    return stmts


def _tested_loop(loop):
    """``while True: if not c: break; ...`` is ``while c: ...``."""
    if not (isinstance(loop, ast.While) and isinstance(loop.test, ast.Constant)) or loop.orelse:
        return loop
    first = loop.body[0] if loop.body else None
    if not isinstance(first, ast.If) or first.orelse:
        return loop
    if len(first.body) == 1 and isinstance(first.body[0], ast.Break):
        body = loop.body[1:] or [ast.Pass()]
        return ast.While(test=negate(first.test), body=body, orelse=[])
    if len(loop.body) == 2 and isinstance(loop.body[1], ast.Break):
        body = first.body  # its end falls through to the break
        if not _leaves(body):
            body = [*body, ast.Break()]
        body = _loop_tail(body) or [ast.Pass()]
        return ast.While(test=first.test, body=body, orelse=[])
    return loop


def guard_loops(stmts):
    """Rewrite ``if c: while True: B; if not c: break`` as ``while c: B``."""
    out = []
    for stmt in stmts:
        out.append(_guarded_while(stmt) or stmt)
    return out


def _guarded_while(stmt):
    if not (isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1):
        return None
    loop = stmt.body[0]
    if not (
        isinstance(loop, ast.While) and isinstance(loop.test, ast.Constant) and not loop.orelse
    ):
        return None
    last = loop.body[-1] if loop.body else None
    if not (isinstance(last, ast.If) and last.body and isinstance(last.body[0], ast.Break)):
        return None
    if len(last.body) != 1 or last.orelse:
        return None
    if not m.same(negate(last.test), stmt.test):
        return None
    # a continue would skip the test the guard repeats; a break leaves either loop alike
    if any(isinstance(n, ast.Continue) for s in loop.body[:-1] for n in loop_nodes(s)):
        return None
    return ast.While(test=stmt.test, body=loop.body[:-1] or [ast.Pass()], orelse=[])
