"""The unparser writes ``a and b and c == 1`` without the standard library's extra
parentheses, and every tree back as the same tree."""

import ast
import sysconfig
from pathlib import Path

import pytest

from depyf_report.decompiler.tidy.unparse import unparse

WRITTEN = [
    "x = a and b and c == 1 and d < 2 or e and f and not g",
    "x = (a and b) and c",
    "x = a and (b or c) and (yield) and (y := 2)",
    "x = not a or (b if c else d) or e or a and b",
    "if a or b or c in d or not e:\n    pass",
    "x = all(y > 0 for y in ys)",
    "x = f((y for y in ys), z)",
    "x = f(*(y for y in ys))",
]


@pytest.mark.parametrize("source", WRITTEN)
def test_boolean_operands_are_written_as_they_bind(source):
    assert unparse(ast.parse(source)) == source


STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.mark.parametrize("module", ["ast", "argparse", "difflib", "tarfile", "typing"])
def test_every_tree_comes_back_the_same(module):
    tree = ast.parse((STDLIB / f"{module}.py").read_text(encoding="utf-8"))
    assert ast.dump(ast.parse(unparse(tree))) == ast.dump(tree)
