"""Conditions: tests of ``if``, ``while`` and boolean expressions."""

from __future__ import annotations

import ast


def negate(test):
    """``not test``, folding the comparisons whose negation is exactly another operator."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    if isinstance(test, ast.BoolOp):
        # De Morgan: as a condition it is the same test, and written this way each
        # comparison keeps the operator the compiler saw (``a is not None and b``)
        op = ast.And() if isinstance(test.op, ast.Or) else ast.Or()
        return ast.BoolOp(op=op, values=[negate(v) for v in test.values])
    flips = {ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in flips:
        op = flips[type(test.ops[0])]()
        return ast.Compare(left=test.left, ops=[op], comparators=test.comparators)
    return ast.UnaryOp(op=ast.Not(), operand=test)
