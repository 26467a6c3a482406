"""Every torch import of the package lives in the one adapter module."""

from __future__ import annotations

import ast

from .conftest import REPO

PACKAGE = REPO / "depyf_report"
ADAPTER = PACKAGE / "capture" / "adapter.py"


def _torch_imports(path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        if any(name == "torch" or name.startswith("torch.") for name in names):
            lines.append(node.lineno)
    return lines


def test_only_the_adapter_imports_torch():
    outside = {
        str(path.relative_to(REPO)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != ADAPTER and (lines := _torch_imports(path))
    }
    assert outside == {}
    assert _torch_imports(ADAPTER), "the adapter is where torch is reached"
