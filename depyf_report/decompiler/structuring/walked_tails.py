"""A copied tail read from the walked branches: ``return f(a, b if c else d)`` where an
arm is no straight value (a boolean operation or a chained comparison, whose own ends
3.10 and 3.12+ also copy the tail into), so ``copied_tail`` cannot read it from the
blocks. Both branches, walked as statements over the values the stack holds, end the
function alike but for one operand: that operand is the conditional expression, and
no value on the stack is kept in a temporary.

That is exact only where everything the statement evaluates before that operand is
on the stack, computed before the test, in the order the stack holds it; and where the
rest of both branches is the same code: the copy of the tail."""

from __future__ import annotations

import ast

from ..simulation import markers as m

# The operands of each node this reads through, in the order they are evaluated.
_OPERANDS = {
    ast.Return: ("value",),
    ast.Expr: ("value",),
    ast.Raise: ("exc", "cause"),
    ast.Call: ("func", "args", "keywords"),
    ast.keyword: ("value",),
    ast.Attribute: ("value",),
    ast.Subscript: ("value", "slice"),
    ast.BinOp: ("left", "right"),
    ast.Tuple: ("elts",),
    ast.List: ("elts",),
    ast.Await: ("value",),
}


def merged_tails(test, stack, t_out, f_out):
    """The statements both branches are, with the operand where they differ the
    conditional expression ``a if test else b``; or None."""
    if not t_out or len(t_out) != len(f_out):
        return None
    kept = [v for v in stack if not isinstance(v, m.Marker)]
    first = _merged(t_out[0], f_out[0], test, kept, [])
    if first is None:
        return None
    rest = list(zip(t_out[1:], f_out[1:]))
    if not all(_same(a, b) and not _reads(a, kept) for a, b in rest):
        return None
    node, before = first
    # each value on the stack is evaluated once, before the test, in its order
    if [id(v) for v in before] != [id(v) for v in kept]:
        return None
    return [node, *t_out[1:]]


def _merged(a, b, test, kept, before):
    """``a`` with the one operand where it differs from ``b`` made the conditional
    expression, and the stack's values it evaluates before that operand (added to
    ``before``); or None where there is no such one operand."""
    fields = next((_OPERANDS[c] for c in type(a).__mro__ if c in _OPERANDS), None)
    if fields is None or type(a) is not type(b):
        return None
    if any(_differ(getattr(a, f), getattr(b, f)) for f in a._fields if f not in fields):
        return None
    xs, ys = _operands(a, fields), _operands(b, fields)
    if len(xs) != len(ys):
        return None
    at = next((i for i, (x, y) in enumerate(zip(xs, ys)) if not _same(x, y)), None)
    if at is None:
        return None
    for x, y in zip(xs[:at], ys[:at]):
        if x is not y or not any(x is v for v in kept):
            return None  # computed by the arm, after the test: no operand before it
        before.append(x)
    if any(_reads(x, kept) for x in xs[at + 1 :]):
        return None
    x, y = xs[at], ys[at]
    inner = _merged(x, y, test, kept, before)
    if inner is not None:
        node = inner[0]
    elif _a_value(x) and _a_value(y) and not _reads(x, kept):
        if _reads(y, kept):
            return None
        node = ast.IfExp(test=test, body=x, orelse=y)
    else:
        return None
    return _replaced(a, fields, at, node), before


def _a_value(node) -> bool:
    """Whether ``node`` is an expression that can be an arm of ``a if c else b``: not
    a starred item or a slice, which only their place can hold."""
    return isinstance(node, ast.expr) and not isinstance(node, (ast.Starred, ast.Slice))


def _operands(node, fields) -> list:
    found = []
    for f in fields:
        value = getattr(node, f)
        if isinstance(value, list):
            found += value
        elif value is not None:
            found.append(value)
    return found


def _replaced(node, fields, at, new):
    """A copy of ``node`` with its operand number ``at`` (as ``_operands`` counts them)
    replaced by ``new``."""
    copy = type(node)(**{f: getattr(node, f) for f in node._fields})
    ast.copy_location(copy, node)
    for f in fields:
        value = getattr(node, f)
        if isinstance(value, list):
            if at < len(value):
                setattr(copy, f, [*value[:at], new, *value[at + 1 :]])
                return copy
            at -= len(value)
        elif value is not None:
            if at == 0:
                setattr(copy, f, new)
                return copy
            at -= 1
    raise AssertionError("no such operand")


def _reads(node, kept) -> bool:
    """Whether ``node`` holds one of the stack's values."""
    ids = {id(v) for v in kept}
    return any(id(x) in ids for x in ast.walk(node))


def _same(a, b) -> bool:
    return a is b or not _differ(a, b)


def _differ(a, b) -> bool:
    if isinstance(a, ast.AST) and isinstance(b, ast.AST):
        return ast.dump(a) != ast.dump(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) != len(b) or any(map(_differ, a, b))
    return a != b
