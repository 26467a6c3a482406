"""A dump named by a relative path lands, whole, where it was named at the start."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import uuid

import pytest

import depyf_report
from depyf_report.dump import load_dump

from .conftest import REPO

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

COMPILE_MOVE_COMPILE = """
import os, sys
import torch

def before(x):
    return x + 1

def after(x):
    return x * 2

torch.compile(before, backend="eager")(torch.ones(2))
os.chdir(sys.argv[1])
torch.compile(after, backend="eager")(torch.ones(2))
"""


@pytest.fixture
def stray():
    """A dump name unique to the test; fails the test if it shows up beside the package."""
    name = f"dump-{uuid.uuid4().hex[:8]}"
    yield name
    leaked = REPO / name
    if leaked.exists():
        shutil.rmtree(leaked)
        pytest.fail(f"capture wrote into {leaked}, beside the package")


def _all_views_written(root) -> list[str]:
    """Every function in every process, with its views filled from the decompiler's files."""
    loaded = load_dump(root)
    assert loaded.problems == []
    names = []
    for process in loaded.processes:
        for function in process.functions.values():
            views = [function.original] + [entry.code for entry in function.entries]
            for view in views:
                assert view.decompiled is not None, (function.name, view.decompile_error)
            names.append(function.name)
    return sorted(names)


def test_a_relative_dump_from_another_folder_holds_every_view(tmp_path, stray):
    work = tmp_path / "work"
    elsewhere = tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    (work / "prog.py").write_text(textwrap.dedent(COMPILE_MOVE_COMPILE))
    command = [sys.executable, "-m", "depyf_report", "run", "-o", stray, "--", "python"]
    result = subprocess.run(
        [*command, "prog.py", str(elsewhere)],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert _all_views_written(work / stray) == ["after", "before"]
    assert not (elsewhere / stray).exists()


def test_a_program_that_changes_folder_keeps_one_dump(tmp_path, monkeypatch, stray):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    with depyf_report.capture(f"{stray}/rel") as root:
        torch.compile(lambda x: x + 1, backend="eager")(torch.ones(2))
        os.chdir(tmp_path / "elsewhere")
        torch.compile(lambda x: x * 2, backend="eager")(torch.ones(2))
    assert root == tmp_path / stray / "rel"
    assert len(_all_views_written(root)) == 2
    assert not (tmp_path / "elsewhere" / stray).exists()
