"""Loops: which statements belong to one loop."""

from __future__ import annotations

import ast

# A break or continue inside these belongs to them, not to the loop around.
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def loop_nodes(node):
    """Nodes of ``node`` that belong to the same loop (not nested loops or scopes): the
    ones a ``break`` or ``continue`` among them would leave or repeat."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, (ast.For, ast.While, ast.AsyncFor, *_SCOPES)):
                todo.append(child)
