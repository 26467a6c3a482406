"""``depyf-report run -o DUMP -- python script.py ARGS``: a script under capture."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from ..errors import UserError


def run_script(dump_dir: Path, argv: list[str]) -> int:
    """Run ``argv[0]`` as ``__main__`` with ``sys.argv = argv``; return its exit code."""
    if not argv:
        raise UserError("nothing to run: give a script, e.g. -- python train.py")
    script = Path(argv[0])
    if argv[0] == "-m":
        raise UserError("`-m module` is not supported yet: give the script's path")
    if not script.is_file():
        raise UserError(f"{script}: no such script")
    from . import capture

    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [str(script), *argv[1:]]
    sys.path.insert(0, str(script.resolve().parent))  # as `python script.py` does
    code = 0
    try:
        with capture(dump_dir):
            try:
                runpy.run_path(str(script), run_name="__main__")
            except SystemExit as leaving:
                code = _exit_code(leaving.code)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return code


def _exit_code(value) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    print(value, file=sys.stderr)  # as the interpreter does for sys.exit("message")
    return 1
