"""``depyf-report run -- torchrun ...``: every rank captured into the same dump.

torchrun starts each rank as a fresh ``python -u SCRIPT ARGS``, which would run
without capture. So the launcher's own command line is rewritten before torchrun
reads it: the rank's command becomes the interpreter running the same start-up
code as ``depyf-report run`` (``--no-python``), which records the rank into
``processes/rank-<N>/`` of the dump, beside the launcher's own folder.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from . import adapter
from .command import Program

TORCHRUN_MODULES = ("torch.distributed.run",)
TORCHRUN_SCRIPT = "torchrun"


def is_torchrun(program: Program) -> bool:
    """``-m torch.distributed.run``, or torch's ``torchrun`` console script."""
    if program.kind == "module":
        return program.target in TORCHRUN_MODULES
    return program.kind == "script" and Path(program.target).name == TORCHRUN_SCRIPT


def console_script(words: list[str]) -> list[str]:
    """A bare ``torchrun`` (not a file here) as the script on PATH that it names."""
    if words and words[0] == TORCHRUN_SCRIPT and not os.path.exists(words[0]):
        found = shutil.which(TORCHRUN_SCRIPT)
        if found:
            return [found, *words[1:]]
    return words


def captured_ranks(program: Program, rank_command: Callable[[list[str]], list[str]]) -> Program:
    """torchrun's command with each rank started as ``rank_command(PROGRAM)``,
    where PROGRAM is the rank's program as python's words spell it. A command
    torchrun would refuse, or one whose ranks are not Python (``--no-python``) or
    run inside the launcher (``--run-path``, recorded as spawned workers), is left
    as it is.
    """
    words = list(program.args)
    args = adapter.torchrun_arguments(words)
    if args is None or args.no_python or args.run_path:
        return program
    at = len(words) - len(args.training_script_args) - 1
    if at < 0 or words[at] != args.training_script:
        return program
    options = [w for w in words[:at] if w not in ("-m", "--module")]
    script = ["-m" if args.module else "--", args.training_script, *args.training_script_args]
    return Program(program.kind, program.target, (*options, "--no-python", *rank_command(script)))


def rank_python() -> str:
    """The interpreter torchrun would start each rank with."""
    return os.getenv("PYTHON_EXEC", sys.executable)
