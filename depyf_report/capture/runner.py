"""``depyf-report run -o DUMP -- python script.py ARGS`` (or ``-m module ARGS``):
a program under capture, in this process, as the interpreter would run it."""

from __future__ import annotations

import functools
import importlib.util
import os
import runpy
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import UserError


def run_script(dump_dir: Path, argv: list[str]) -> int:
    """Run ``argv`` (``script ARGS`` or ``-m module ARGS``) as ``__main__``; return its exit code.

    The manifest says "complete" for exit code 0 and "failed" for any other exit
    or an exception, which still propagates as it would without capture.
    """
    if not argv:
        raise UserError("nothing to run: give a script, e.g. -- python train.py")
    program_argv, path_entry, run = _module(argv[1:]) if argv[0] == "-m" else _script(argv)
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = program_argv
    sys.path.insert(0, path_entry)
    try:
        return _run_captured(dump_dir, run)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path


def _script(argv: list[str]) -> tuple[list[str], str, Callable[[], object]]:
    script = Path(argv[0])
    if not script.is_file():
        raise UserError(f"{script}: no such script")
    # As `python script.py` does: the script's folder comes first on sys.path.
    run = functools.partial(runpy.run_path, str(script), run_name="__main__")
    return [str(script), *argv[1:]], str(script.resolve().parent), run


def _module(argv: list[str]) -> tuple[list[str], str, Callable[[], object]]:
    if not argv:
        raise UserError("-m needs a module name, e.g. -- python -m package.train")
    name, cwd = argv[0], os.getcwd()
    sys.path.insert(0, cwd)  # as `python -m` does, also while finding the module
    try:
        origin = _module_file(name)
    finally:
        sys.path.remove(cwd)
    run = functools.partial(runpy.run_module, name, run_name="__main__", alter_sys=True)
    # `python -m` sets sys.argv[0] to the module's file; run_module does it again.
    return [origin, *argv[1:]], cwd, run


def _module_file(name: str) -> str:
    """The file `python -m name` runs: the module, or a package's ``__main__``."""
    try:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations is not None:
            spec = importlib.util.find_spec(f"{name}.__main__")
            if spec is None:
                raise UserError(f"cannot run -m {name}: it is a package without __main__.py")
    except (ImportError, ValueError) as error:
        raise UserError(f"cannot run -m {name}: {error}") from None
    if spec is None or not spec.origin:
        raise UserError(f"cannot run -m {name}: no module named {name!r}")
    return spec.origin


def _run_captured(dump_dir: Path, run: Callable[[], object]) -> int:
    from ..dump import wait_for_decompiler
    from .session import CaptureSession

    session = CaptureSession(dump_dir)
    session.open()
    failed = True
    try:
        code = _exit_status(run)
        failed = code != 0
    finally:
        session.close(failed=failed)
        # The command ends with the dump whole, views included: those come from
        # the decompiler process, which may still be writing the last ones.
        wait_for_decompiler(session.writer.layout)
    return code


def _exit_status(run: Callable[[], object]) -> int:
    try:
        run()
    except SystemExit as leaving:
        return _exit_code(leaving.code)
    return 0


def _exit_code(value) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    print(value, file=sys.stderr)  # as the interpreter does for sys.exit("message")
    return 1
