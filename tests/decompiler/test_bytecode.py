"""The linear-time decoder reads bytecode as ``dis.get_instructions`` does."""

import dis
import sys
from pathlib import Path

import pytest

from depyf_report.decompiler.bytecode.raw import decode

from .code_tree import code_tree
from .corpus import SNIPPETS

# The snippets cover every construct; these stdlib modules add size and variety.
STDLIB = ["argparse", "asyncio/tasks", "dataclasses", "typing", "inspect"]


def _sources() -> list[Path]:
    lib = Path(dis.__file__).parent
    return sorted(SNIPPETS.glob("*.py")) + [lib / f"{name}.py" for name in STDLIB]


def _same_value(mine, theirs) -> bool:
    if mine is theirs:
        return True
    try:
        return type(mine) is type(theirs) and bool(mine == theirs)
    except Exception:
        return False


def _expected_target(ins):
    if ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs:
        return ins.argval
    return None


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.stem)
def test_decode_matches_dis(path):
    try:
        top = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    except SyntaxError:
        pytest.skip("needs a newer Python")
    for code in code_tree(top):
        mine, theirs = decode(code, lines=True), list(dis.get_instructions(code))
        assert len(mine) == len(theirs), code.co_name
        for a, b in zip(mine, theirs):
            where = f"{code.co_name} at {b.offset}: {b.opname}"
            assert (a.opname, a.opcode, a.arg, a.offset) == (b.opname, b.opcode, b.arg, b.offset)
            assert a.jump_target == _expected_target(b), where
            if b.opname != "KW_NAMES":  # 3.11's dis leaves its names tuple unresolved
                assert _same_value(a.argval, b.argval), where
            if b.opname in ("BINARY_OP", "CALL_INTRINSIC_1", "CALL_INTRINSIC_2"):
                assert a.argrepr == b.argrepr, where
            if sys.version_info < (3, 13):  # 3.13 reports a line start as a flag
                assert a.starts_line == b.starts_line, where
