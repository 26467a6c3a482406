"""Walking code objects and finding functions in decompiled source."""

import ast
import types


def code_tree(code: types.CodeType):
    """``code`` and every code object nested in it, depth first."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from code_tree(const)


def names_in(code: types.CodeType) -> set[str]:
    """Every local, cell, free and global name the code tree uses."""
    names: set[str] = set()
    for each in code_tree(code):
        names.update(each.co_varnames, each.co_cellvars, each.co_freevars, each.co_names)
    return names


def function_def(tree: ast.AST, name: str) -> ast.AST | None:
    """The first (outermost) definition of ``name`` in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    return None
