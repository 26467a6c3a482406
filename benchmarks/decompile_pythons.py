"""Re-running a benchmark script under another Python, with the stdlib alone."""

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def passthrough(argv: list[str], dropped: tuple[str, ...] = ("--python", "--json")) -> list[str]:
    """The command line minus the options (and their values) in ``dropped``."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in dropped:
            skip = True
        elif not arg.startswith(tuple(f"{option}=" for option in dropped)):
            kept.append(arg)
    return kept


def rerun(script: str, python: str, argv: list[str]) -> int:
    """Run ``script`` under ``python`` with only this checkout on PYTHONPATH."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([python, script, *argv], env=env, check=False).returncode
