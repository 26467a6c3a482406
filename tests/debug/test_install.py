"""install(): each MODIFIED BYTECODE log entry is followed by decompiled source."""

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.torch

PROGRAM = textwrap.dedent(
    """
    import depyf_report, torch

    def f(x):
        y = x + 1
        print("break")
        return y * 2

    depyf_report.install()
    torch.compile(f, backend="eager")(torch.ones(2))
    depyf_report.uninstall()
    torch._dynamo.reset()
    torch.compile(lambda x: x - 1, backend="eager")(torch.ones(2))
    """
)


def _bytecode_log(program: str) -> str:
    env = {"TORCH_LOGS": "+bytecode", "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, check=True
    )
    return run.stderr


def test_each_modified_bytecode_entry_is_followed_by_its_source():
    log = _bytecode_log(PROGRAM)
    modified = log.count("MODIFIED BYTECODE")
    decompiled = log.count("DECOMPILED SOURCE")
    # f and its resume function while installed; the lambda after uninstall.
    assert modified == 3
    assert decompiled == 2
    first = log.index("MODIFIED BYTECODE f ")
    assert log.index("DECOMPILED SOURCE f ", first) > first
    assert "DECOMPILED SOURCE <lambda>" not in log


def test_install_twice_logs_once():
    log = _bytecode_log(
        PROGRAM.replace("depyf_report.install()", "depyf_report.install(); depyf_report.install()")
    )
    assert log.count("DECOMPILED SOURCE f ") == 1
