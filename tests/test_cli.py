import subprocess
import sys
from pathlib import Path

import pytest

from depyf_report import __version__
from depyf_report.cli import main

VENV_BIN = Path(sys.executable).parent


@pytest.mark.parametrize(
    "command",
    [[sys.executable, "-m", "depyf_report"], [str(VENV_BIN / "depyf-report")]],
    ids=["python -m", "console script"],
)
def test_help_and_version(command):
    help_text = subprocess.run([*command, "--help"], capture_output=True, text=True, check=True)
    assert "render" in help_text.stdout and "decompile" in help_text.stdout
    version = subprocess.run([*command, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.strip() == f"depyf-report {__version__}"


def test_no_arguments_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("missing.py", "missing.py: cannot read"),
        ("no_such_module_xyz:f", "cannot import 'no_such_module_xyz'"),
        ("json:no_such_name", "json has no 'no_such_name'"),
        ("notes.txt", "expected a .py file"),
    ],
)
def test_decompile_bad_target_is_one_clear_line(target, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("hello")
    assert main(["decompile", target]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_decompile_rejects_pyc_of_other_version(tmp_path, capsys):
    pyc = tmp_path / "old.pyc"
    pyc.write_bytes(b"\x00\x00\r\n" + bytes(12) + b"garbage")
    assert main(["decompile", str(pyc)]) == 2
    assert "another Python version" in capsys.readouterr().err
