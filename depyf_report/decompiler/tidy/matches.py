"""``if`` chains on patterns turned back into ``match`` statements.

Structuring sees each case as an ``if`` whose test is a ``Matches`` marker (and the
guard, ``and``-ed to it). ``rebuild`` turns an ``if`` on a pattern, with the
``elif``/``else`` chain under it and the ``if``s after it on the same subject, into one
``match``. Where one stays behind (inside an expression, say), it cannot be unparsed,
and the state machine takes the code object.
"""

from __future__ import annotations

import ast
import copy
import itertools

from ..rewrites.patterns import is_wildcard, wildcard
from ..simulation import markers as m
from ..simulation import nodes
from ..structuring.conditions import negate
from .comprehensions import is_temporary_store

_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def rebuild(stmts: list[ast.stmt], reads) -> list[ast.stmt]:
    """``stmts`` with each ``if`` on a pattern, and the cases after it, as a ``match``;
    ``reads`` counts the reads of a name in the function."""
    if not any(isinstance(s, ast.If) for s in stmts):
        return stmts
    out: list[ast.stmt] = []
    for stmt in stmts:
        before = out[-1] if out else None
        match = as_match(stmt) or _literal_cases_after(before, stmt)
        if match is None:
            out.append(stmt)
            continue
        if isinstance(before, nodes.Match) and _goes_on(before, match):
            before.cases += match.cases  # the earlier cases never fall through to it
            before.tests += match.tests
        else:
            out.append(match)
    for stmt in out:
        if isinstance(stmt, nodes.Match):
            _captured_alternatives(stmt)
    out = _inline_held(_captured_after(out, reads), reads)
    if out and isinstance(out[-1], ast.Match):
        out[-1:] = _shared_return(out[-1])
    return out


def _literal_cases_after(before, stmt) -> nodes.Match | None:
    """``if _t1 == 2:`` after a ``match _t1:`` as the match's next cases, or None: a
    literal pattern compiles to just the test it spells, and where the cases before
    leave by a jump (a ``continue``, a ``raise``) 3.12+ lay it out after them, on the
    subject kept in a temporary (joined only where no case before goes on)."""
    if not isinstance(before, nodes.Match):
        return None
    match = _literal_cases(stmt, _kept_subject(before.subject))
    return match if isinstance(match, nodes.Match) and _goes_on(before, match) else None


def _inline_held(stmts: list[ast.stmt], reads) -> list[ast.stmt]:
    """``_t1 = f()`` then ``match _t1:``, where the tests alone read ``_t1``, as
    ``match f():``; a case's ``_t1`` statement alone, the pop of the subject a
    sequence pattern's case leaves on its way out of a loop (3.12+), reads nothing."""
    out = list(stmts)
    for i, stmt in enumerate(out):
        if isinstance(stmt, nodes.Match) and i and _held(out[i - 1], stmt, reads):
            for case in stmt.cases:
                case.body = [s for s in case.body if not _pops(s, stmt.subject)] or [ast.Pass()]
            stmt.subject, out[i - 1] = out[i - 1].value, None
    return [s for s in out if s is not None]


def _pops(stmt, subject) -> bool:
    """Whether ``stmt`` is the statement ``subject`` alone, a temporary's name."""
    return isinstance(stmt, ast.Expr) and m.same(stmt.value, subject)


def nested_defaults(stmts: list[ast.stmt], reads) -> list[ast.stmt]:
    """``stmts`` (their inner blocks tidied) with a ``case _:`` that only holds a
    ``match`` on the same subject read as that match's cases: what a guarded capture
    after other cases leaves once ``guarded_captures`` has read it back. The subject
    is a name, kept or the function's own: nothing runs between the two reads."""
    out: list[ast.stmt] = []
    found = False
    for stmt in stmts:
        out.append(stmt)
        if not isinstance(stmt, nodes.Match) or not isinstance(stmt.subject, ast.Name):
            continue
        last, earlier = stmt.cases[-1], stmt.cases[:-1]
        inner = last.body[0] if last.body else None
        if not (
            last.guard is None
            and is_wildcard(last.pattern)
            and isinstance(inner, nodes.Match)
            and m.same(inner.subject, stmt.subject)
        ):
            continue
        cases = inner.cases
        if len(last.body) > 1:
            if all(_ends(c.body) for c in earlier):
                out += last.body[1:]  # only the default case goes on: to what follows
            elif (cases := _cases_then_default(inner, last.body[1:])) is None:
                if not m.is_temporary(stmt.subject):
                    continue  # (a name's nested match may be as written: it stays)
                cases = _cases_each_going_on(inner, last.body[1:])
                if cases is None:
                    continue
        stmt.cases[-1:] = cases
        stmt.tests += inner.tests
        found = True
    return _inline_held(out, reads) if found else out


def _cases_then_default(match: nodes.Match, rest: list[ast.stmt]):
    """``match``'s cases, then ``rest`` as a last ``case _:``: what follows a match
    whose cases never go on runs only where none of them matched. None where a case
    goes on, or the last matches everything."""
    if not rest:
        return match.cases
    if matches_all(match) or not all(_ends(c.body) for c in match.cases):
        return None
    return [*match.cases, ast.match_case(pattern=wildcard(), guard=None, body=rest)]


def _cases_each_going_on(match: nodes.Match, rest: list[ast.stmt]):
    """``match``'s cases, ``rest`` written at the end of each that goes on and as a
    last ``case _:`` (where no case matches everything): the same code, where the
    cases before a default case holding the match go on too, so ``rest`` cannot follow
    the whole (an earlier case leaves by a way read as going on: a return through a
    finally body, a break). None where ``rest`` holds a temporary: every read of one
    is counted, and a copy would count twice."""
    if any(m.is_temporary(node) for stmt in rest for node in ast.walk(stmt)):
        return None
    cases = [case if _ends(case.body) else _going_on_to(case, rest) for case in match.cases]
    if not matches_all(match):
        cases.append(ast.match_case(pattern=wildcard(), guard=None, body=copy.deepcopy(rest)))
    return cases


def _going_on_to(case: ast.match_case, rest: list[ast.stmt]) -> ast.match_case:
    """``case`` with a copy of ``rest`` after its body (a lone ``pass`` left out)."""
    body = [s for s in case.body if not isinstance(s, ast.Pass)] + copy.deepcopy(rest)
    return ast.match_case(pattern=case.pattern, guard=case.guard, body=body)


def _captured_after(stmts: list[ast.stmt], reads) -> list[ast.stmt]:
    """``match _t1:`` whose cases never go on, then ``name = _t1``: what follows runs
    only where no case matched, so it is a last ``case name:`` (the subject kept in a
    temporary, stored by a capture after cases that return, raise or break)."""
    for i, stmt in enumerate(stmts[:-1]):
        after = stmts[i + 1]
        if not isinstance(stmt, nodes.Match) or not _captures(after, stmt.subject):
            continue
        last = stmt.cases[-1]
        if (last.guard is None and irrefutable(last.pattern)) or not all(
            _ends(c.body) for c in stmt.cases
        ):
            continue
        pattern = ast.MatchAs(pattern=None, name=after.targets[0].id)
        # (what follows was rebuilt with the statements around: a match there on a
        # subject kept in a temporary is only read back as ``match f():`` here)
        body = _inline_held(stmts[i + 2 :], reads) or [ast.Pass()]
        stmt.cases.append(ast.match_case(pattern=pattern, guard=None, body=body))
        stmt.tests += 1  # the capture's read of the subject
        return stmts[: i + 1]
    return stmts


def _captured_alternatives(match: nodes.Match) -> None:
    """``case (0 | 1) as a: return 9``: 3.10 and 3.12+ copy the capture and the short
    body after it into each alternative, which then reads as a case of its own,
    ``case 0: a = _t1; return 9``. Such neighbours, binding nothing else, without
    guards, with the same body after the same capture, are one case again."""
    cases: list[ast.match_case] = []
    for case in match.cases:
        last = cases[-1] if cases else None
        if last is None or not _same_capture_after(last, case, match.subject):
            cases.append(case)
            continue
        first = last.pattern
        if not isinstance(first, ast.MatchAs):  # the first alternative: its capture too
            name = last.body[0].targets[0].id
            last.pattern = ast.MatchAs(pattern=ast.MatchOr(patterns=[first]), name=name)
            last.body = last.body[1:]
            match.tests += 1
        last.pattern.pattern.patterns.append(case.pattern)
        match.tests += 1  # a read of the subject, now the pattern's
    match.cases = cases


def _same_capture_after(last: ast.match_case, case: ast.match_case, subject) -> bool:
    """Whether ``case`` is one more alternative of ``last``: both bind nothing,
    unguarded, and go on to the same capture of ``subject`` and the same body (the
    alternatives ``last`` already holds, read back, start with no capture)."""
    if not _captures_first(case, subject):
        return False
    name, body = case.body[0].targets[0].id, case.body[1:]
    if isinstance(last.pattern, ast.MatchAs):
        merged = isinstance(last.pattern.pattern, ast.MatchOr)
        return merged and last.pattern.name == name and m.same(last.body, body)
    return (
        _captures_first(last, subject)
        and last.body[0].targets[0].id == name
        and m.same(last.body[1:], body)
    )


def _captures_first(case: ast.match_case, subject) -> bool:
    """Whether ``case`` binds nothing and its body starts with ``name = subject``: a
    subject kept in a temporary, or a name that a literal pattern runs no code to
    rebind between the test and the capture."""
    if case.guard is not None or irrefutable(case.pattern) or _names_bound(case.pattern):
        return False
    if len(case.body) < 2:
        return False
    first = case.body[0]
    if _captures(first, subject):
        return True
    return (
        isinstance(subject, ast.Name)
        and _literal_pattern(case.pattern)
        and isinstance(first, ast.Assign)
        and len(first.targets) == 1
        and isinstance(first.targets[0], ast.Name)
        and m.same(first.value, subject)
    )


def _literal_pattern(pattern) -> bool:
    if isinstance(pattern, ast.MatchOr):
        return all(map(_literal_pattern, pattern.patterns))
    return isinstance(pattern, ast.MatchSingleton) or (
        isinstance(pattern, ast.MatchValue) and _is_literal(pattern.value)
    )


def _names_bound(pattern) -> bool:
    return any(
        getattr(node, "name", None) is not None or getattr(node, "rest", None) is not None
        for node in ast.walk(pattern)
    )


def _shared_return(match: ast.Match) -> list[ast.stmt]:
    """The compiler copies a short ``return`` after a ``match`` into each case that
    goes on to it, and a default case appears that only returns: one return again."""
    last = match.cases[-1]
    if last.guard is not None or not is_wildcard(last.pattern) or len(last.body) != 1:
        return [match]
    ret = last.body[0]
    if not isinstance(ret, ast.Return) or len(match.cases) < 2:
        return [match]
    cases = match.cases[:-1]
    if not all(c.body and m.same(c.body[-1], ret) for c in cases):
        return [match]
    for case in cases:
        case.body = case.body[:-1] or [ast.Pass()]
    match.cases = cases
    return [match, ret]


def _held(before, match: nodes.Match, reads) -> bool:
    """Whether ``before`` only keeps the subject in a temporary its tests alone read:
    ``_t1 = f()`` then ``match _t1:`` is ``match f():``."""
    subject = match.subject
    pops = sum(_pops(s, subject) for case in match.cases for s in case.body)
    return (
        is_temporary_store(before)
        and isinstance(subject, ast.Name)
        and before.targets[0].id == subject.id
        and reads(subject.id) == match.tests + pops
    )


def guarded_captures(stmts: list[ast.stmt], reads) -> list[ast.stmt]:
    """``stmts`` (their inner blocks tidied) with a first ``case name if guard:`` back in
    the ``match`` it starts. It leaves ``name = _t1 = subject``, then ``if guard: body``
    and the other cases as ``match _t1:``, in the ``else`` or after a body that never
    goes on. Cases before the capture that never go on are the same ``match``."""
    for stmt, after in itertools.pairwise(stmts):
        if isinstance(stmt, nodes.Match):
            _copied_way_out_dropped(stmt.cases[-1], after)
    out = _guarded_captures(stmts)
    joined: list[ast.stmt] = []
    for stmt in out:
        before = joined[-1] if joined else None
        if (
            isinstance(stmt, nodes.Match)
            and isinstance(before, nodes.Match)
            and _goes_on(before, stmt)
        ):
            before.cases += stmt.cases
            before.tests += stmt.tests
        else:
            joined.append(stmt)
    return _inline_held(joined, reads) if len(joined) < len(out) else out


def _copied_way_out_dropped(case: ast.match_case, after) -> None:
    """A last case holding ``name = _t1 = subject`` then ``if guard: body`` (which goes
    on) with the other cases' ``match _t1:`` and ``after`` in the else, where ``after``
    (a return) follows the match: the compiler copies a small way out to where that
    match goes on. Without it the else goes on to the same ``after``, and the case
    reads as the guarded capture it is, its cases the match's own."""
    body = case.body
    if case.guard is not None or not is_wildcard(case.pattern) or len(body) != 2:
        return
    if _kept(body[0]) is None or not isinstance(body[1], ast.If):
        return
    guard = body[1]
    if not (isinstance(after, m.TERMINAL) and m.same(guard.orelse[-1:], [after])):
        return
    if _ends(guard.body) or len(guard.orelse) < 2:
        return
    dropped = ast.If(test=guard.test, body=guard.body, orelse=guard.orelse[:-1])
    read = _guarded_captures([body[0], dropped])
    if len(read) == 1:
        case.body = read


def _guarded_captures(stmts: list[ast.stmt]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for i, stmt in enumerate(stmts):
        after = stmts[i + 1 :]  # what may read the kept subject too: then it stays
        if len(out) >= 2 and isinstance(out[-1], ast.If) and _no_else(out[-1]):
            kept = _kept(out[-2])
            if kept is not None and _captures(stmt, m.name(kept)):
                # a last ``case name:`` after a body that never goes on: the rest
                rest, after = _captured_rest(stmts[i:], kept), []
            else:
                rest = _literal_cases(stmt, kept)
                flipped = _literal_case_then_default(stmt, after, kept)
                if not isinstance(rest, nodes.Match) and flipped is not None:
                    rest, after = flipped, []  # the literal case's body: the rest
            if _captured(out[-2], out[-1], rest, after):
                out[-2:] = [_guarded_match(out[-2], out[-1], rest)]
                if not after:
                    return out
                continue
        rest, tail = _other_cases(stmt, _kept(out[-1])) if out else (None, [])
        if out and _captured(out[-1], stmt, rest, [*tail, *after]):
            out[-1:] = [_guarded_match(out[-1], stmt, rest), *tail]
            continue
        out.append(stmt)
    return out


def _literal_case_then_default(stmt, after: list[ast.stmt], kept: str | None):
    """``if not _t1 == 2: B`` (B never goes on) and what follows it as ``case 2:
    <what follows>`` and ``case _: B``, or None: a literal case's failing test jumps
    to the next case, laid out first here."""
    if kept is None or not (isinstance(stmt, ast.If) and _no_else(stmt)):
        return None
    flipped = ast.If(test=negate(stmt.test), body=after or [ast.Pass()], orelse=stmt.body)
    rest = _literal_cases(flipped, kept)
    return rest if isinstance(rest, nodes.Match) else None


def _other_cases(stmt, kept: str | None):
    """(the cases after a guarded capture, in the else of its guard's ``if``: a match
    on the kept subject, an if chain of literal cases, or a last ``case name:``; the
    statements that follow the whole match) or (None, [])."""
    if not isinstance(stmt, ast.If) or not stmt.orelse or kept is None:
        return None, []
    if _captures(stmt.orelse[0], m.name(kept)):
        return _captured_rest(stmt.orelse, kept), []
    first = _literal_cases(stmt.orelse[0], kept)
    if not isinstance(first, nodes.Match):
        flipped = _literal_case_then_default(stmt.orelse[0], stmt.orelse[1:], kept)
        if flipped is not None:
            return flipped, []
    if len(stmt.orelse) == 1:
        return first, []
    if not _on_kept(first, kept):
        return None, []
    # cases that never go on, then the default case's body after them
    cases = _cases_then_default(first, stmt.orelse[1:])
    if cases is not None:
        return nodes.Match(subject=first.subject, cases=cases, tests=first.tests), []
    if _ends(stmt.body):
        # (the guarded case never goes on: what follows the other cases follows all)
        return first, stmt.orelse[1:]
    if matches_all(first):
        # (a case that takes every subject: what follows in the else is the body's
        # end of each case that goes on, laid out after their match)
        cases = _cases_each_going_on(first, stmt.orelse[1:])
        if cases is not None:
            return nodes.Match(subject=first.subject, cases=cases, tests=first.tests), []
    return None, []


def _on_kept(stmt, kept: str) -> bool:
    """Whether ``stmt`` is a ``match`` on the subject kept in ``kept``."""
    return isinstance(stmt, nodes.Match) and m.same(stmt.subject, m.name(kept))


def _captured_rest(stmts: list[ast.stmt], kept: str) -> nodes.Match:
    """``name = _t1`` and what follows it as the match's last ``case name:``."""
    pattern = ast.MatchAs(pattern=None, name=stmts[0].targets[0].id)
    case = ast.match_case(pattern=pattern, guard=None, body=stmts[1:] or [ast.Pass()])
    return nodes.Match(subject=m.name(kept), cases=[case], tests=1)


def _captured(before, stmt, rest, after) -> bool:
    """Whether ``before`` is ``name = _t1 = subject``, ``stmt`` an ``if`` and ``rest`` a
    ``match _t1:`` whose tests alone read ``_t1`` (not ``stmt``, nor ``after``)."""
    if not (isinstance(before, ast.Assign) and len(before.targets) == 2):
        return False
    if not all(isinstance(t, ast.Name) for t in before.targets):
        return False
    name, kept = before.targets
    return (
        m.is_temporary(kept)
        and not m.is_temporary(name)
        and isinstance(stmt, ast.If)
        and isinstance(rest, nodes.Match)
        and isinstance(rest.subject, ast.Name)
        and rest.subject.id == kept.id
        and not _reads_here(kept.id, stmt.test, stmt.body, rest.cases, after)
    )


_OWN_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _reads_here(kept: str, *trees) -> bool:
    """Whether any of ``trees`` (nodes, or lists of them) names the temporary ``kept``
    outside the bodies of the functions, lambdas and classes they define: one named so
    there is that scope's own (a nested function that fell back to the state machine
    names its own temporaries alike), where their defaults and decorators run here."""
    todo = list(trees)
    while todo:
        node = todo.pop()
        if isinstance(node, list):
            todo.extend(node)
        elif isinstance(node, ast.Name):
            if node.id == kept:
                return True
        elif isinstance(node, ast.AST):
            scope = isinstance(node, _OWN_SCOPES)
            todo.extend(v for f, v in ast.iter_fields(node) if not (scope and f == "body"))
    return False


def _kept(before) -> str | None:
    """The temporary ``name = _t1 = subject`` keeps the subject in."""
    if isinstance(before, ast.Assign) and len(before.targets) == 2:
        kept = before.targets[1]
        return kept.id if isinstance(kept, ast.Name) and m.is_temporary(kept) else None
    return None


def _literal_cases(stmt, kept: str | None):
    """``stmt``, or the ``match`` on the kept subject its ``if`` chain was: the cases
    after a guarded capture test the subject kept in a temporary, and a literal
    pattern compiles to just the test it spells (``case 2:`` to ``_t1 == 2``, ``case
    None:`` to ``_t1 is None``). The chain's ``else`` is a last ``case _:``."""
    if kept is None:
        return stmt
    if isinstance(stmt, ast.Assert):
        return _asserted_case(stmt, kept) or stmt
    if not isinstance(stmt, ast.If) or _guarded_literal(stmt.test, kept)[0] is None:
        return stmt
    cases = []
    node = stmt
    while True:
        pattern, guard = _guarded_literal(node.test, kept)
        if pattern is None:  # an ``elif`` on anything else: it runs where none matched
            cases.append(ast.match_case(pattern=wildcard(), guard=None, body=[node]))
            break
        cases.append(ast.match_case(pattern=pattern, guard=guard, body=node.body or [ast.Pass()]))
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            continue
        if node.orelse:
            cases.append(ast.match_case(pattern=wildcard(), guard=None, body=node.orelse))
        break
    tests = sum(not is_wildcard(case.pattern) for case in cases)
    return nodes.Match(subject=m.name(kept), cases=cases, tests=tests)


def _asserted_case(stmt: ast.Assert, kept: str) -> nodes.Match | None:
    """``assert _t1 is not True or x`` as ``match _t1: case True: assert x``, or None:
    where nothing follows a last literal case whose body is an assert, the case's
    test and the assert's own jump to the raise fold into one condition."""
    if not (isinstance(stmt.test, ast.BoolOp) and isinstance(stmt.test.op, ast.Or)):
        return None
    first, rest = stmt.test.values[0], stmt.test.values[1:]
    pattern = _literal(negate(first), kept)
    if pattern is None:
        return None
    test = rest[0] if len(rest) == 1 else ast.BoolOp(op=ast.Or(), values=rest)
    body = [ast.Assert(test=test, msg=stmt.msg)]
    case = ast.match_case(pattern=pattern, guard=None, body=body)
    return nodes.Match(subject=m.name(kept), cases=[case], tests=1)


def _guarded_literal(test, kept: str) -> tuple[ast.pattern | None, ast.expr | None]:
    """The literal pattern and guard whose test ``test`` is: ``_t1 == 2 and g`` is
    ``case 2 if g:`` (or ``case 2:`` with ``if g:`` around its body, where no case
    follows: the same code); where the guard fails, the next case's test runs."""
    first, guard = test, None
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        first, rest = test.values[0], test.values[1:]
        guard = rest[0] if len(rest) == 1 else ast.BoolOp(op=ast.And(), values=rest)
    pattern = _literal(first, kept)
    return pattern, (guard if pattern is not None else None)


SINGLETONS = (None, True, False)


def _literal(test, kept: str) -> ast.pattern | None:
    """The literal pattern whose test ``test`` is, on the subject kept in ``kept``."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, value = test.left, test.ops[0], test.comparators[0]
    if not (isinstance(left, ast.Name) and left.id == kept):
        return None
    if isinstance(op, ast.Is) and _is_singleton(value):
        return ast.MatchSingleton(value=value.value)
    if isinstance(op, ast.Eq) and _is_literal(value):
        return ast.MatchValue(value=value)
    return None


def _is_literal(node) -> bool:
    """Whether ``node`` may stand as a literal pattern: a number (signed, or a complex
    sum), a string or bytes; True, False and None are compared by identity there."""
    if isinstance(node, ast.Constant):  # (not a folded tuple: that spells a sequence)
        return _is_number(node.value) or isinstance(node.value, (str, bytes))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant) and _is_number(node.operand.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        real, imaginary = node.left, node.right
        if isinstance(real, ast.UnaryOp) and isinstance(real.op, ast.USub):
            real = real.operand
        return (
            isinstance(real, ast.Constant)
            and _is_number(real.value)
            and not isinstance(real.value, complex)
            and isinstance(imaginary, ast.Constant)
            and isinstance(imaginary.value, complex)
        )
    return False


def _is_singleton(node) -> bool:
    return isinstance(node, ast.Constant) and any(node.value is s for s in SINGLETONS)


def _is_number(value) -> bool:
    return isinstance(value, (int, float, complex)) and not isinstance(value, bool)


def _no_else(stmt: ast.If) -> bool:
    """Whether ``stmt`` has no else and its body never goes on: what follows is its else."""
    return not stmt.orelse and _ends(stmt.body)


def _guarded_match(before: ast.Assign, stmt: ast.If, rest: nodes.Match) -> nodes.Match:
    pattern = ast.MatchAs(pattern=None, name=before.targets[0].id)
    first = ast.match_case(pattern=pattern, guard=stmt.test, body=stmt.body or [ast.Pass()])
    # (its one test reads the subject: ``before`` holds the other reads)
    return nodes.Match(subject=before.value, cases=[first, *rest.cases], tests=1)


def as_match(stmt) -> nodes.Match | None:
    """``if <pattern> [and guard]: A / else: B`` as ``match``, its ``elif`` chain folded in."""
    if not isinstance(stmt, ast.If):
        return None
    test, guard, negated = stmt.test, None, False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negated = test.operand, True
    elif isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        first, rest = test.values[0], test.values[1:]
        if isinstance(first, m.Matches):
            test = first
            guard = rest[0] if len(rest) == 1 else ast.BoolOp(op=ast.And(), values=rest)
    if not isinstance(test, m.Matches):
        return None
    body, orelse = (stmt.orelse, stmt.body) if negated else (stmt.body, stmt.orelse)
    cases = [ast.match_case(pattern=test.pattern, guard=guard, body=body or [ast.Pass()])]
    tests = 1  # the reads of the subject its cases stand for
    inner = as_match(orelse[0]) if len(orelse) == 1 else None
    literal = _literal_cases(orelse[0], _kept_subject(test.subject)) if len(orelse) == 1 else None
    if inner is not None and m.same(inner.subject, test.subject):
        cases += inner.cases
        tests += inner.tests
    elif isinstance(literal, nodes.Match):
        # ``case 2:`` after other cases: the test it spells, on the kept subject
        cases += literal.cases
        tests += literal.tests
    elif orelse and _captures(orelse[0], test.subject):
        # ``case a:`` stores the subject kept in a temporary: one more of its reads
        name = orelse[0].targets[0].id
        pattern = ast.MatchAs(pattern=None, name=name)
        cases.append(ast.match_case(pattern=pattern, guard=None, body=orelse[1:] or [ast.Pass()]))
        tests += 1
    elif orelse:
        cases.append(ast.match_case(pattern=wildcard(), guard=None, body=orelse))
    return nodes.Match(subject=test.subject, cases=cases, tests=tests)


def _kept_subject(subject) -> str | None:
    """The temporary a subject is kept in, or None: only the match reads it."""
    return subject.id if isinstance(subject, ast.Name) and m.is_temporary(subject) else None


def _captures(stmt, subject) -> bool:
    """Whether ``stmt`` is ``name = subject`` for a subject kept in a temporary: what
    a last ``case name:`` compiles to."""
    return (
        isinstance(subject, ast.Name)
        and m.is_temporary(subject)
        and isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and m.same(stmt.value, subject)
    )


def _goes_on(before: ast.Match, after: ast.Match) -> bool:
    """Whether ``after`` holds more cases of ``before``: the same subject, and no case
    of ``before`` that matches everything or ends anywhere but out of the statement."""
    if matches_all(before):
        return False
    return m.same(before.subject, after.subject) and all(_ends(c.body) for c in before.cases)


def matches_all(match: ast.Match) -> bool:
    """Whether ``match`` has a last case that takes every subject."""
    last = match.cases[-1]
    return last.guard is None and irrefutable(last.pattern)


def irrefutable(pattern) -> bool:
    """Whether ``pattern`` matches every subject (a capture or ``_``, or an or of one)."""
    if isinstance(pattern, ast.MatchAs):
        return pattern.pattern is None or irrefutable(pattern.pattern)
    if isinstance(pattern, ast.MatchOr):
        return any(irrefutable(p) for p in pattern.patterns)
    return False


def _ends(body) -> bool:
    """Whether ``body`` never runs on past its end."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, m.TERMINAL):
        return True
    if isinstance(last, ast.If):
        return _ends(last.body) and _ends(last.orelse)
    if isinstance(last, ast.While):
        return _forever(last)
    if isinstance(last, ast.Match):  # (one of its cases takes every subject)
        return matches_all(last) and all(_ends(c.body) for c in last.cases)
    if isinstance(last, nodes.TRY_STATEMENTS):
        # the finally ends it, or every way through: the body (or its else) and each
        # clause; an exception no clause takes goes on up
        runs = _ends(last.body) or (_ends(last.orelse) and not nodes.else_runs_on(last))
        return _ends(last.finalbody) or (runs and all(_ends(h.body) for h in last.handlers))
    return False


def _forever(loop: ast.While) -> bool:
    """Whether ``loop`` is ``while True:`` with no ``break`` of its own: it never goes
    on past its end."""
    if not (isinstance(loop.test, ast.Constant) and loop.test.value):
        return False
    todo = list(loop.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Break):
            return False
        if isinstance(node, _LOOPS):
            todo.extend(node.orelse)  # (a break there leaves ``loop``)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return True
