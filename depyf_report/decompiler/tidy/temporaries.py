"""Temporaries used once, inlined where evaluation order allows; statements that do
nothing, dropped.

``T = e`` followed by the one statement that reads ``T`` becomes that statement with
``e`` in place of ``T`` when moving ``e`` there changes nothing:
- ``T`` is a temporary stored once (outside loops), never deleted, read once, and
  not from a nested scope;
- the statement that reads it comes next (comments aside), or ``e`` is inert (it
  gives the same value anywhere: ``facts``);
- everything that statement evaluates before ``T`` is inert, or ``e`` is; and ``T``
  is not under a short-circuit, a conditional expression or a nested scope there,
  where ``e`` might not run or run at another time.

A statement is dropped when it has no effect: ``T = v`` with ``v`` inert and ``T``
never read, or an expression statement that is inert (comments and docstrings stay).

One drop changes when an object is freed, and only that: ``del x`` of a fast local
just before a ``return`` that does not read ``x`` (Dynamo's ``del graph_out_0``). The
frame clears ``x`` as the function returns instead, after the return value is
computed and before the caller goes on; no code of the function runs in between.
"""

from __future__ import annotations

import ast
import copy

from .facts import Names, is_comment, names_loaded, statements

# Expressions whose parts Python evaluates in the order of ``_parts``, each once.
_ORDERED = (
    ast.Call,
    ast.Attribute,
    ast.Subscript,
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.Starred,
    ast.keyword,
    ast.Slice,
    ast.Dict,
)


def inline_temporaries(body: list[ast.stmt], ctx, lines, outputs=frozenset()) -> list[ast.stmt]:
    """``body`` with temporaries used once inlined and no-effect statements dropped;
    ``outputs``: Dynamo's graph outputs (``facts``)."""
    while True:
        names = Names(body, ctx, outputs)
        # inert values first: inlined, they no longer hold back what they read
        changed, body = _inline_inert(body, names, lines)
        if not changed:
            changed, body = _Inliner(names, lines).block(body)
        if not changed:
            return body


def _inline_inert(body: list[ast.stmt], names: Names, lines) -> tuple[bool, list[ast.stmt]]:
    """The first temporary of the function's top level that holds an inert value,
    replaced by that value wherever it is read: an inert value is the same wherever
    it is evaluated, and a top-level statement runs before every statement after it."""
    for at, stmt in enumerate(body):
        ident = _assigned_name(stmt)
        if (
            ident is None
            or not names.single(ident)
            or ident in names.nested_loads
            or not names.loads[ident]
            or not (names.inert(stmt.value) or _empty_dict(stmt.value))
            or (_makes_objects(stmt.value) and not _made_once(body[at + 1 :], ident, names))
            or any(ident in names_loaded(s) for s in body[:at])
        ):
            continue
        for use in statements(body[at + 1 :]):
            if _replace_own_loads(use, ident, stmt.value) and lines is not None:
                lines.note(use, lines.of(stmt))
        return True, body[:at] + body[at + 1 :]
    return False, body


def _made_once(after: list[ast.stmt], ident: str, names: Names) -> bool:
    """Whether a display held in ``ident`` would still be made once where it is read:
    it is read once, and not in a loop."""
    if names.loads[ident] != 1:
        return False
    for stmt in statements(after):
        if isinstance(stmt, _LOOPS) and ident in names_loaded(stmt):
            return False
    return True


_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _empty_dict(value: ast.expr) -> bool:
    """``{}``: no effect, cannot raise (a key could be unhashable; there is none)."""
    return isinstance(value, ast.Dict) and not value.keys


def _makes_objects(value: ast.expr) -> bool:
    """Whether evaluating ``value`` makes a new object (a display): two
    evaluations would give two objects where the code had one."""
    return any(isinstance(n, (ast.List, ast.Tuple, ast.Set, ast.Dict)) for n in ast.walk(value))


def _assigned_name(stmt: ast.stmt) -> str | None:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, ast.Name):
            return target.id
    return None


_BLOCKS = ("body", "orelse", "finalbody")


def _replace_own_loads(stmt: ast.stmt, ident: str, value: ast.expr) -> bool:
    """Put a copy of ``value`` for each load of ``ident`` in ``stmt``'s own expressions
    (not in the statements of its blocks); whether there was one."""
    found = False
    for name, field in ast.iter_fields(stmt):
        if name in _BLOCKS or name == "handlers":
            continue
        parts = field if isinstance(field, list) else [field]
        for part in parts:
            if isinstance(part, ast.AST) and ident in names_loaded(part):
                found = True
    if found:
        own = [f for n, f in ast.iter_fields(stmt) if n not in (*_BLOCKS, "handlers")]
        for field in own:
            for part in field if isinstance(field, list) else [field]:
                if isinstance(part, ast.AST):
                    _replace_everywhere(part, ident, value)
        for name, field in ast.iter_fields(stmt):
            if isinstance(field, ast.Name) and field.id == ident and name not in _BLOCKS:
                setattr(stmt, name, copy.deepcopy(value))
    return found


def _replace_everywhere(node: ast.AST, ident: str, value: ast.expr) -> None:
    for inner in ast.walk(node):
        for name, field in ast.iter_fields(inner):
            if _is_load(field, ident):
                setattr(inner, name, copy.deepcopy(value))
            elif isinstance(field, list):
                for i, item in enumerate(field):
                    if _is_load(item, ident):
                        field[i] = copy.deepcopy(value)


def _is_load(node, ident: str) -> bool:
    return isinstance(node, ast.Name) and node.id == ident and isinstance(node.ctx, ast.Load)


class _Inliner:
    def __init__(self, names: Names, lines) -> None:
        self.names = names
        self.lines = lines
        self.changed = False

    def block(self, stmts: list[ast.stmt]) -> tuple[bool, list[ast.stmt]]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            scope = isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if not scope and isinstance(inner, list) and inner:
                    _, kept = self.block(inner)
                    setattr(stmt, name, kept or ([] if name == "orelse" else [ast.Pass()]))
            for handler in getattr(stmt, "handlers", None) or ():
                _, handler.body = self.block(handler.body)
                handler.body = handler.body or [ast.Pass()]
            if self.no_effect(stmt):
                self.changed = True
                continue
            if isinstance(stmt, ast.Return) and self.freed_on_return(out, stmt):
                self.changed = True
                del out[-1]
            out.append(stmt)
            self.inline_into_last(out)
        return self.changed, out

    def no_effect(self, stmt: ast.stmt) -> bool:
        if isinstance(stmt, ast.Expr):
            if is_comment(stmt) or _is_str(stmt):
                return False
            return self.names.inert(stmt.value) or self.fills_a_discarded_list(stmt.value)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            return (
                isinstance(target, ast.Name)
                and self.names.single(target.id)
                and not self.names.loads[target.id]
                and self.names.inert(stmt.value)
            )
        return False

    def fills_a_discarded_list(self, value: ast.expr) -> bool:
        """``[a].extend([b])`` as a statement: a new list, filled with inert values and
        thrown away."""
        return (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr in ("append", "extend")
            and isinstance(value.func.value, ast.List)
            and self.names.inert(value.func.value)
            and len(value.args) == 1
            and not value.keywords
            and self.names.inert(value.args[0])
            and (value.func.attr == "append" or isinstance(value.args[0], (ast.List, ast.Tuple)))
        )

    def freed_on_return(self, out: list[ast.stmt], stmt: ast.Return) -> bool:
        """Whether ``out[-1]`` deletes a fast local the return leaves alone."""
        last = out[-1] if out else None
        if not (isinstance(last, ast.Delete) and len(last.targets) == 1):
            return False
        target = last.targets[0]
        if not isinstance(target, ast.Name) or target.id not in self.names.ctx.fast:
            return False
        if self.names.stores[target.id] != 1 or target.id in names_loaded(stmt):
            return False
        return any(  # bound earlier on this path: the del could not raise
            isinstance(s, ast.Assign) and any(_binds(t, target.id) for t in s.targets)
            for s in out[:-1]
        )

    def inline_into_last(self, out: list[ast.stmt]) -> None:
        """Inline into ``out[-1]`` the temporaries of earlier statements it reads once."""
        use = out[-1]
        for ident in _loaded_in_head(use):
            at = self.definition(out, ident)
            if at is None:
                continue
            value = out[at].value
            adjacent = all(is_comment(s) for s in out[at + 1 : -1])
            if not (adjacent or self.names.inert(value)):
                continue
            if not self.movable(use, ident, value):
                continue
            _replace_load(use, ident, value)
            if self.lines is not None:
                self.lines.note(use, self.lines.of(out[at]))
            del out[at]
            self.names.loads[ident] = 0
            self.changed = True

    def definition(self, out: list[ast.stmt], ident: str) -> int | None:
        names = self.names
        if not names.single(ident) or names.loads[ident] != 1 or ident in names.nested_loads:
            return None
        for at in range(len(out) - 2, -1, -1):
            stmt = out[at]
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id == ident
            ):
                return at
        return None

    def movable(self, use: ast.stmt, ident: str, value: ast.expr) -> bool:
        before = _evaluated_before(_head(use), ident)
        if before is None:
            return False
        return self.names.inert(value) or all(self.names.inert(e) for e in before)


def _binds(target, ident: str) -> bool:
    return isinstance(target, ast.Name) and target.id == ident


def _is_str(stmt: ast.Expr) -> bool:
    return isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _head(stmt: ast.stmt) -> list[ast.AST]:
    """What a statement evaluates before any statement inside it, in order."""
    if isinstance(stmt, ast.Assign):
        return [stmt.value, *stmt.targets]
    if isinstance(stmt, (ast.Return, ast.Expr)):
        return [stmt.value] if stmt.value is not None else []
    if isinstance(stmt, ast.If):
        return [stmt.test]
    return []


def _loaded_in_head(stmt: ast.stmt) -> list[str]:
    found = []
    for part in _head(stmt):
        for node in ast.walk(part):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                found.append(node.id)
    return found


def _parts(node) -> list:
    """The sub-expressions of an ordered expression, in evaluation order."""
    if isinstance(node, ast.Call):
        return [node.func, *node.args, *node.keywords]
    if isinstance(node, ast.Dict):
        return [x for pair in zip(node.keys, node.values) for x in pair if x is not None]
    if isinstance(node, ast.Slice):
        return [p for p in (node.lower, node.upper, node.step) if p is not None]
    if isinstance(node, ast.Compare) and len(node.ops) > 1:
        return []  # a chain may stop early: treated as not ordered
    return [c for c in ast.iter_child_nodes(node) if isinstance(c, (ast.expr, ast.keyword))]


def _evaluated_before(parts: list, ident: str) -> list[ast.expr] | None:
    """The expressions evaluated before the load of ``ident``, or None where its
    evaluation is not plainly ordered (short-circuit, nested scope, chained test)."""
    before: list = []
    for part in parts:
        found = _search(part, ident, before)
        if found is not None:
            return before if found else None
    return None


def _search(node, ident: str, before: list) -> bool | None:
    """True: ``ident`` found in ordered position; False: found somewhere unordered;
    None: not in ``node`` (then ``node`` was evaluated whole, and is in ``before``)."""
    if isinstance(node, ast.Name):
        if node.id == ident and isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node.ctx, ast.Load):
            before.append(node)
        return None
    if not any(isinstance(n, ast.Name) and n.id == ident for n in ast.walk(node)):
        if isinstance(node, ast.expr) and not isinstance(getattr(node, "ctx", None), ast.Store):
            before.append(node)
        elif isinstance(node, ast.keyword):
            before.append(node.value)
        return None
    if not isinstance(node, _ORDERED) or (isinstance(node, ast.Compare) and len(node.ops) > 1):
        return False
    for part in _parts(node):
        found = _search(part, ident, before)
        if found is not None:
            return found
    return False


def _replace_load(stmt: ast.stmt, ident: str, value: ast.expr) -> None:
    for node in ast.walk(stmt):
        for name, field in ast.iter_fields(node):
            if isinstance(field, ast.Name) and field.id == ident:
                setattr(node, name, value)
            elif isinstance(field, list):
                for i, item in enumerate(field):
                    if isinstance(item, ast.Name) and item.id == ident:
                        field[i] = value
