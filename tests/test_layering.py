"""Dependencies point one way: decompiler <- capture; dump <- capture, render, debug.

``import depyf_report`` must stay light, the decompiler must need the standard
library alone, and rendering must never need torch.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "depyf_report"


def _modules_loaded_by(statement: str) -> set[str]:
    probe = f"import sys; {statement}; print('\\n'.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout
    return {name.partition(".")[0] for name in out.split()}


@pytest.mark.parametrize(
    ("statement", "forbidden"),
    [
        ("import depyf_report", {"torch", "jinja2", "pygments", "markdown"}),
        ("import depyf_report.decompiler", {"torch", "jinja2", "pygments", "markdown", "astor"}),
        ("import depyf_report.render", {"torch"}),
        ("import depyf_report.dump", {"torch", "jinja2", "pygments", "markdown"}),
        ("import depyf_report.cli", {"torch", "jinja2"}),
    ],
)
def test_import_does_not_load(statement, forbidden):
    loaded = _modules_loaded_by(statement)
    assert not loaded & forbidden, f"{statement!r} loaded {sorted(loaded & forbidden)}"


def _imported_top_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def test_decompiler_source_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names)
    for path in sorted((PACKAGE / "decompiler").rglob("*.py")):
        outside = _imported_top_names(path) - allowed
        assert not outside, f"{path.name} imports {sorted(outside)}"


@pytest.mark.parametrize(("part", "forbidden"), [("render", {"torch"}), ("dump", {"torch"})])
def test_part_source_never_names(part, forbidden):
    target = PACKAGE / part
    paths = [target] if target.is_file() else sorted(target.rglob("*.py"))
    for path in paths:
        assert not _imported_top_names(path) & forbidden, f"{path.name} imports {forbidden}"


def test_the_debugger_is_one_package():
    assert (PACKAGE / "debug" / "__init__.py").is_file()
    stray = sorted(p.name for p in PACKAGE.glob("debug*.py"))
    assert not stray, f"debugger modules outside depyf_report/debug/: {stray}"


def test_debug_and_capture_stay_the_functions_users_call():
    # Each is a subpackage too: importing one of its modules must not rebind the name.
    probe = (
        "import depyf_report.debug.session, depyf_report.capture.session, depyf_report; "
        "from depyf_report.debug import substitute; "
        "print(depyf_report.debug.__module__, depyf_report.capture.__module__, "
        "depyf_report.prepare_debug.__module__, depyf_report.install.__module__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout.split()
    assert out == [
        "depyf_report.debug.session",
        "depyf_report.capture",
        "depyf_report.debug.session",
        "depyf_report.debug.bytecode_log",
    ]
