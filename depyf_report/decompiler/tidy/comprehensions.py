"""Turn the loop a comprehension compiles to back into a comprehension expression.

The body of a ``<listcomp>`` (or a 3.12+ inlined comprehension) decompiles to
``acc = []; for x in it: if c: acc.append(e)``; this module folds that shape into
``[e for x in it if c]``.
"""

from __future__ import annotations

import ast
import itertools
from collections import Counter
from collections.abc import Callable

from ..simulation import markers as m
from ..simulation import nodes

KINDS = {"append": "list", "add": "set"}
LOOPS = (ast.For, ast.AsyncFor)


def comprehension_expr(code, body: list[ast.stmt], source) -> ast.expr | None:
    """The expression for a comprehension code object whose argument is ``source``."""
    if len(body) == 1 and isinstance(body[0], ast.Return) and _folded(body[0].value):
        node = body[0].value
        first = node.generators[0]
        if isinstance(first.iter, ast.Name) and first.iter.id == m.safe(code.co_varnames[0]):
            first.iter = source
            return node
        return None
    if code.co_name == "<genexpr>":
        loop = body[0] if len(body) in (1, 2) else None
        if len(body) == 2 and not _is_return_none(body[1]):
            return None
        return fold(loop, None, "gen", source, m.safe(code.co_varnames[0]), _outer_names(code))
    if len(body) != 3 or not isinstance(body[0], ast.Assign) or not isinstance(body[2], ast.Return):
        return None
    acc = body[0].targets[0]
    if not isinstance(acc, ast.Name) or not _returns(body[2], acc.id):
        return None
    kind = _display_kind(body[0].value)
    argname = m.safe(code.co_varnames[0])
    return fold(body[1], acc.id, kind, source, argname, _outer_names(code))


def _outer_names(code) -> set[str]:
    """The names a comprehension's code binds in the scope around it (walrus targets:
    globals, free variables), which an assignment in its loop may store to."""
    return {m.safe(n) for n in (*code.co_names, *code.co_freevars)}


def _folded(node) -> bool:
    return isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))


def inline(stmts: list[ast.stmt], reads: Callable[[str], int], outer=frozenset()) -> list:
    """Fold ``acc = []; for ...: acc.append(e)`` runs (3.12+ inlined comprehensions);
    ``reads(name)`` is how often the whole body reads a temporary; ``outer``: the
    body's globals and free variables a walrus in a comprehension may store."""
    out: list[ast.stmt] = []
    dropped: Counter = Counter()  # reads that folding ``if not a: ... else: a`` took away

    def live(ident: str) -> int:
        return reads(ident) - dropped[ident]

    for stmt in stmts:
        if isinstance(stmt, LOOPS) and out and _starts_accumulator(out[-1]):
            stmt.iter = _iterable(out, stmt.iter, reads, outer)
        stmt = _fold_before(out, stmt, reads, outer)
        _discarded(out, reads, outer)
        while out and isinstance(out[-1], ast.If):
            folded = _value_branch(out, stmt, live, dropped)
            if folded is None:
                break
            stmt = _put_back(out, folded, live, outer)
        out.append(stmt)
    _discarded(out, reads, outer)
    return out


def _fold_before(out: list[ast.stmt], stmt, reads, outer):
    """``stmt`` with the comprehension whose loop ends ``out`` folded into its one read
    of the accumulator, that loop (and the values kept across it) taken off ``out``."""
    if len(out) >= 2 and isinstance(out[-1], LOOPS) and isinstance(out[-2], ast.Assign):
        init, loop = out[-2], out[-1]
        acc = init.targets[0]
        kind = _display_kind(init.value)
        if is_temporary(acc) and kind and _uses_once(stmt, acc.id):
            folded = fold(loop, acc.id, kind, None, None, outer)
            if folded is not None:
                del out[-2:]
                stmt = _put_back(out, _replace_name(stmt, acc.id, folded), reads, outer)
    return stmt


def _starts_accumulator(stmt) -> bool:
    return is_temporary_store(stmt) and _display_kind(stmt.value) is not None


def left_as_loops(body: list[ast.stmt]) -> bool:
    """Whether ``body`` still holds an inlined comprehension's accumulator before a
    loop: a run no fold took back. The simulation drops the store that restores the
    comprehension's variables after it (PEP 709), so as a loop it would change them."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        stmts = [getattr(node, f, None) for f in ("body", "orelse", "finalbody")]
        for block in (s for s in stmts if isinstance(s, list)):
            for first, then in itertools.pairwise(block):
                if _starts_accumulator(first) and isinstance(then, LOOPS):
                    return True
    return False


def _iterable(out: list[ast.stmt], iterable, reads, outer) -> ast.expr:
    """The iterable of a comprehension's loop, with a comprehension it iterates over
    folded in: ``[e for g in [i for i in y]]`` runs the inner loop, then makes the
    outer accumulator (``out[-1]``, inert) and only then loops over the inner result,
    so the inner loop ends ``out`` one statement before the loop that reads it. Left
    as a loop, the inner one would write the variables PEP 709 keeps apart."""
    start = out.pop()
    probe = _fold_before(out, ast.Expr(value=iterable), reads, outer)
    out.append(start)
    return probe.value


def _value_branch(out: list[ast.stmt], stmt, reads, dropped: Counter) -> ast.stmt | None:
    """``stmt`` with the value an if statement ending ``out`` gives a temporary
    written in its place, the if statement taken off ``out``; or None.

    A value that depends on a test (``a or [x for x in y]``, ``b if c else {..}``)
    stays statements in the walk when one of its arms runs an inlined comprehension's
    loop (3.12+); once the loop is a comprehension again, each arm is one assignment
    to the same temporary, and ``stmt`` reads it first: ``_t1 = a; if not _t1:
    _t2 = [...]; else: _t2 = _t1`` then ``y = _t2`` is ``y = a or [...]``."""
    branch = out[-1]
    arms = [_arm_value(arm) for arm in (branch.body, branch.orelse)]
    if None in arms:
        return None
    (ident, then), (other, otherwise) = arms
    if other != ident or reads(ident) != 1:
        return None
    if not isinstance(stmt, (ast.Assign, ast.Expr, ast.Return)) or stmt.value is None:
        return None
    if not _uses_once(stmt, ident) or ident not in {
        n.id for n in _first_reads(stmt.value) if isinstance(n, ast.Name)
    }:
        return None
    value = _test_value(branch.test, then, otherwise)
    out.pop()
    if isinstance(value, ast.BoolOp):  # the tested name is read once now, not twice
        tested = value.values[0].id
        dropped[tested] += 1
        if (
            out
            and is_temporary_store(out[-1])
            and out[-1].targets[0].id == tested
            and reads(tested) == 1
        ):
            value.values[0] = out.pop().value
    return _replace_name(stmt, ident, value)


def _arm_value(arm: list[ast.stmt]) -> tuple[str, ast.expr] | None:
    """(temporary, value) for an arm that only gives a temporary its value: ``_t2 =
    v``, or ``z = _t2 = v``, which ``(z := v)`` as the arm's value came back as (a
    store of the value kept for the temporary, plain names only, whose order of
    stores no code can see)."""
    if len(arm) != 1 or not isinstance(arm[0], ast.Assign):
        return None
    *names, kept = arm[0].targets
    if not is_temporary(kept) or not all(_walrus_target(n) for n in names):
        return None
    value = arm[0].value
    for name in reversed(names):
        value = ast.NamedExpr(target=m.name(name.id, True), value=value)
    return kept.id, value


def _walrus_target(node) -> bool:
    return isinstance(node, ast.Name) and not is_temporary(node)


def _tested_name(test) -> str | None:
    """The name ``test`` tests the truth of: what ``a or b`` gives back untouched."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    return test.id if isinstance(test, ast.Name) else None


def _test_value(test, then, otherwise) -> ast.expr:
    """``then if test else otherwise``, as ``and``/``or`` where an arm gives back the
    tested temporary itself."""
    tested = _tested_name(test)
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    for kept, other, op in ((otherwise, then, "and"), (then, otherwise, "or")):
        if tested is not None and isinstance(kept, ast.Name) and kept.id == tested:
            if negated:
                op = "or" if op == "and" else "and"
            node = ast.And() if op == "and" else ast.Or()
            return ast.BoolOp(op=node, values=[m.name(tested), other])
    return ast.IfExp(test=test, body=then, orelse=otherwise)


def _discarded(out: list[ast.stmt], reads, outer) -> None:
    """A comprehension whose value is thrown away (``[f(x) for x in xs]`` as a
    statement) leaves its accumulator read by its own loop alone: it comes back as an
    expression statement, so its variables keep their own scope (PEP 709 restores them
    around the inlined loop; as a plain loop, it would overwrite them)."""
    if len(out) < 2 or not isinstance(out[-1], LOOPS) or not isinstance(out[-2], ast.Assign):
        return
    init, loop = out[-2], out[-1]
    acc = init.targets[0]
    kind = _display_kind(init.value)
    if not (is_temporary(acc) and kind and len(init.targets) == 1) or reads(acc.id) != 1:
        return
    folded = fold(loop, acc.id, kind, None, None, outer)
    if folded is not None:
        out[-2:] = [ast.Expr(value=folded)]


def _put_back(out: list[ast.stmt], stmt, reads, outer=frozenset()) -> ast.stmt:
    """Move back into ``stmt`` the values the walk kept in temporaries across the
    comprehension's loop (they were on the stack below it): the assignments that end
    ``out``.

    A temporary goes back when ``stmt`` is its only reader, reads it among the names
    it evaluates before any operation, and reads the ones that go back in the order
    they were assigned: then evaluating each value in its place runs the same code in
    the same order, ``f(a(), [x for x in y])`` for ``_t1 = a()`` and ``f(_t1, [...])``.
    """
    if not isinstance(stmt, (ast.Assign, ast.Expr, ast.Return)) or stmt.value is None:
        return stmt
    first = [n.id for n in _first_reads(stmt.value) if is_temporary(n)]
    later = len(first)  # where in ``first`` the temporary put back last is read
    while out:
        taken = _kept_value(out, stmt, reads, outer)
        if taken is None:
            break
        ident, value, size = taken
        position = first.index(ident) if ident in first else later
        if position >= later:
            break
        later = position
        del out[-size:]
        stmt = _replace_name(stmt, ident, value)
    return stmt


def _kept_value(out: list[ast.stmt], stmt, reads, outer):
    """The temporary that ends ``out`` and what it holds, with how many statements of
    ``out`` make it: one assignment, or an earlier comprehension's accumulator and loop
    (``([f(x) for x in xs], {x: 1 for x in xs})`` runs both loops before the tuple)."""
    if is_temporary_store(out[-1]):
        ident = out[-1].targets[0].id
        return (ident, out[-1].value, 1) if reads(ident) == 1 else None
    if len(out) < 2 or not is_temporary_store(out[-2]):
        return None
    ident = out[-2].targets[0].id
    folded = accumulated(out, ident, outer) if _uses_once(stmt, ident) else None
    return None if folded is None else (ident, folded, 2)


def accumulated(stmts: list[ast.stmt], ident: str, outer=frozenset()) -> ast.expr | None:
    """The comprehension whose accumulator ``ident`` and loop end ``stmts``: an inlined
    comprehension (3.12+) whose value waits on the stack for a later statement; None
    where they are not one. Builds new nodes: ``stmts`` is kept."""
    if len(stmts) < 2 or not isinstance(stmts[-1], LOOPS) or not is_temporary_store(stmts[-2]):
        return None
    init, loop = stmts[-2], stmts[-1]
    kind = _display_kind(init.value)
    if init.targets[0].id != ident or not kind:
        return None
    return fold(loop, ident, kind, None, None, outer)


def is_temporary_store(stmt) -> bool:
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and is_temporary(stmt.targets[0])


def _first_reads(node) -> list[ast.expr]:
    """The names and constants ``node`` evaluates first, in order, up to the first
    operation (a call, an operator, an attribute...) that could have an effect."""
    found: list[ast.expr] = []
    _read_first(node, found)
    return found


def _read_first(node, found: list) -> bool:
    """Add to ``found`` what ``node`` reads first; False once an operation has run.
    (A function of its own, not a closure: a recursive closure is a reference cycle,
    and decompile runs with gc off.)"""
    children = _run_before(node)
    if children is None:
        found.append(node)
        return True
    for child in children:
        if not _read_first(child, found):
            return False
    return False  # the node's own operation runs now


def _run_before(node) -> list | None:
    """The parts of ``node`` evaluated, in order, before its own operation; None for a
    name or a constant. Only the parts that always run: the first operand of ``and``,
    the test of ``x if c else y``, the first iterable of a comprehension."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return None
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, (ast.Attribute, ast.Starred, ast.keyword, ast.NamedExpr, ast.Await)):
        return [node.value]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.Subscript):
        return [node.value, node.slice]
    if isinstance(node, ast.Call):
        return [node.func, *node.args, *node.keywords]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return list(node.elts)
    if isinstance(node, ast.BoolOp):
        return node.values[:1]
    if isinstance(node, ast.Compare):
        return [node.left, node.comparators[0]]
    if isinstance(node, ast.IfExp):
        return [node.test]
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return [node.generators[0].iter]
    return []  # anything else: its own operation comes first


def _display_kind(node) -> str | None:
    if isinstance(node, ast.List) and not node.elts:
        return "list"
    if isinstance(node, ast.Dict) and not node.keys:
        return "dict"
    if m.calls_builtin(node, "set"):
        return "set" if not node.args else None
    return None


def _returns(stmt, ident) -> bool:
    return isinstance(stmt.value, ast.Name) and stmt.value.id == ident


def is_temporary(acc) -> bool:
    """An inlined comprehension builds its result on the stack, which the walk keeps in
    a temporary; a list a named variable holds is the source's own, and stays."""
    return m.is_temporary(acc)


def _is_return_none(stmt) -> bool:
    return isinstance(stmt, ast.Return) and (
        stmt.value is None or (isinstance(stmt.value, ast.Constant) and stmt.value.value is None)
    )


def fold(loop, acc, kind, source, argname, outer=frozenset()) -> ast.expr | None:
    """Collect generators from nested for/if statements down to the single action;
    ``outer``: names the comprehension binds outside itself (``_outer_names``)."""
    gens: list[ast.comprehension] = []
    # each clause's source line, where known, to keep an if clause below its for
    lines: list[list[int | None]] = []
    node = [loop]
    while True:
        if len(node) == 2 and isinstance(node[1], ast.Continue):
            node = node[:1]
        if len(node) >= 2 and gens and _skips(node[0]):  # ``if not c: continue`` first
            gens[-1].ifs.append(_negate(node[0].test))
            lines[-1].append(nodes.test_line(node[0]))
            node = node[1:]
            continue
        if kind == "dict" and len(node) == 2 and gens and _kept_key(node[0], node[1], acc):
            # the key is evaluated first, and kept while the value's inlined loop runs
            key = node[1].targets[0]
            node = [
                ast.Assign(
                    targets=[ast.Subscript(key.value, node[0].value, key.ctx)], value=node[1].value
                )
            ]
            continue
        if len(node) >= 2 and gens and _single_item_loop(node[0], outer):
            # ``for z in [x]`` inside a comprehension compiles to ``z = x``
            target, value = node[0].targets[0], node[0].value
            iterable = ast.List(elts=[value], ctx=ast.Load())
            gens.append(ast.comprehension(target=target, iter=iterable, ifs=[], is_async=0))
            lines.append([None])
            node = node[1:]
            continue
        if len(node) != 1:
            return None
        stmt = node[0]
        if isinstance(stmt, (ast.For, ast.AsyncFor)) and not stmt.orelse:
            is_async = int(isinstance(stmt, ast.AsyncFor))
            gens.append(
                ast.comprehension(target=stmt.target, iter=stmt.iter, ifs=[], is_async=is_async)
            )
            lines.append([nodes.header_line(stmt)])
            node = _strip_continue(stmt.body)
        elif isinstance(stmt, ast.If) and gens and not stmt.orelse:
            gens[-1].ifs.append(stmt.test)
            lines[-1].append(nodes.test_line(stmt))
            node = stmt.body
        elif isinstance(stmt, ast.If) and gens and _is_continue(stmt.body):
            gens[-1].ifs.append(_negate(stmt.test))
            lines[-1].append(nodes.test_line(stmt))
            node = stmt.orelse
        else:
            break
    if not gens:
        return None
    if argname is not None:
        first = gens[0].iter
        if not (isinstance(first, ast.Name) and first.id == argname):
            return None
        gens[0].iter = source
    return _build(node[0], acc, kind, [_laid_out(g, ls) for g, ls in zip(gens, lines)])


def _laid_out(gen: ast.comprehension, lines: list) -> ast.comprehension:
    """``gen`` with each if clause written below the clause before it where its test
    was on a later line than that clause."""
    breaks = [
        before is not None and after is not None and after > before
        for before, after in itertools.pairwise(lines)
    ]
    if not any(breaks):
        return gen
    return nodes.comprehension(
        target=gen.target, iter=gen.iter, ifs=gen.ifs, is_async=gen.is_async, if_breaks=breaks
    )


def _build(action, acc, kind, gens):
    if kind == "gen":
        if isinstance(action, ast.Expr) and isinstance(action.value, ast.Yield):
            return ast.GeneratorExp(elt=action.value.value or m.const(None), generators=gens)
        return None
    if kind == "dict":
        if isinstance(action, ast.Assign) and isinstance(action.targets[0], ast.Subscript):
            sub = action.targets[0]
            if isinstance(sub.value, ast.Name) and sub.value.id == acc:
                return ast.DictComp(key=sub.slice, value=action.value, generators=gens)
        return None
    if not (isinstance(action, ast.Expr) and isinstance(action.value, ast.Call)):
        return None
    call = action.value
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    if func.value.id != acc or KINDS.get(func.attr) != kind or len(call.args) != 1:
        return None
    node = ast.ListComp if kind == "list" else ast.SetComp
    return node(elt=call.args[0], generators=gens)


def _kept_key(store, action, acc) -> bool:
    """Whether ``store`` keeps a dict comprehension's key in a temporary that
    ``action`` (``acc[_t1] = value``) reads as its key alone: 3.12+ keep it so while an
    inlined comprehension in the value runs, and a dict display evaluates it first."""
    if not (is_temporary_store(store) and isinstance(action, ast.Assign)):
        return False
    target, kept = action.targets[0], store.targets[0].id
    return (
        len(action.targets) == 1
        and isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and target.value.id == acc
        and isinstance(target.slice, ast.Name)
        and target.slice.id == kept
        and not m.reads(kept, action.value)
    )


def _single_item_loop(stmt, outer) -> bool:
    """An assignment in a comprehension's loop to its own names: ``for z in [x]`` makes
    one, a walrus (``z`` then a name of the scope around) another."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return False
    names = [n.id for n in ast.walk(stmt.targets[0]) if isinstance(n, ast.Name)]
    return not any(is_temporary(n) or n in outer for n in names)


def _skips(stmt) -> bool:
    """``if c: continue`` with no else: the rest of the loop body runs when ``not c``."""
    return isinstance(stmt, ast.If) and not stmt.orelse and _is_continue(stmt.body)


def _strip_continue(body):
    return body[:-1] if body and isinstance(body[-1], ast.Continue) else body


def _is_continue(body) -> bool:
    return len(body) == 1 and isinstance(body[0], ast.Continue)


def _negate(test):
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(op=ast.Not(), operand=test)


def _uses_once(stmt, ident) -> bool:
    return sum(isinstance(n, ast.Name) and n.id == ident for n in ast.walk(stmt)) == 1


def _replace_name(stmt, ident, value):
    return _Swap(ident, value).visit(stmt)


class _Swap(ast.NodeTransformer):
    """Replaces each use of one name by a value."""

    def __init__(self, ident, value):
        self.ident, self.value = ident, value

    def visit_Name(self, node):
        return self.value if node.id == self.ident else node


_SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


def binds_outside(node, own) -> bool:
    """Whether ``node`` loops, or binds a name of ``own``, outside a comprehension."""
    if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        return True
    if isinstance(node, ast.Name) and type(node.ctx) is not ast.Load and node.id in own:
        return True
    if isinstance(node, _SCOPES):
        return False
    return any(binds_outside(child, own) for child in ast.iter_child_nodes(node))
