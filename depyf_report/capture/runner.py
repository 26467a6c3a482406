"""A program under capture, run as the interpreter would run it.

``depyf-report run -o DUMP -- python [OPTIONS] PROGRAM ARGS`` becomes (``exec``)
``python [OPTIONS] -c <start capture, run PROGRAM>``: the interpreter's options
take effect as they would for the program alone, and the program's exit, its
traceback and a Ctrl-C end the process exactly as they end ``python PROGRAM``.
``run_script`` runs a program in this process instead, for the Python API.
A torchrun launcher starts each of its ranks this way too (``torchrun.py``).
"""

from __future__ import annotations

import builtins
import functools
import importlib.util
import io
import json
import marshal
import os
import runpy
import subprocess
import sys
import types
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..dump import wait_for_decompiler
from ..errors import UserError
from . import adapter
from .command import Program, python_command
from .session import CaptureSession
from .torchrun import captured_ranks, console_script, is_torchrun, rank_python
from .writer import rank_folder

_PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
# The program's interpreter starts here. `-c` put the working directory first on
# sys.path, where python would put the program's folder: that is decided later.
_START = (
    "import sys\n"
    "if sys.path[:1] == ['']: del sys.path[0]\n"
    "sys.path.insert(0, {parent!r})\n"
    "from depyf_report.capture.runner import run_as_main\n"
    "sys.path.remove({parent!r})\n"
    "run_as_main({ranked})\n"
)


@dataclass(frozen=True)
class Launch:
    """A program ready to run: what it sees, and how to run it."""

    argv: list[str]
    path_entry: str | None  # what python puts first on sys.path; None: itself (run_path)
    run: Callable[[], object]
    is_program: Callable[[types.CodeType], bool]  # its first frame, where tracebacks start


def run_command(dump_dir, words: list[str]) -> int:
    """``depyf-report run``: become ``python OPTIONS PROGRAM`` with capture on."""
    command = python_command(console_script(words))
    dump = os.path.abspath(dump_dir)  # once, before the program can change directory
    recorded = json.dumps(list(getattr(sys, "orig_argv", sys.argv)))
    start = _START.format(parent=_PACKAGE_PARENT, ranked=False)
    argv = [sys.executable, *command.options, "-c", start, dump, recorded]
    argv += command.program.words()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        if sys.platform == "win32":  # no exec there: the closest is a child and its status
            return subprocess.call(argv)
        os.execv(sys.executable, argv)
    except (OSError, ValueError) as error:  # ValueError: no sys.executable at all
        raise UserError(f"cannot start the Python {sys.executable!r}: {error}") from None
    return 0  # not reached


def run_as_main(ranked: bool = False) -> None:
    """The started interpreter's program: capture, run, then end as python would.

    ``ranked``: a rank torchrun started (see ``torchrun.py``), recorded into its
    rank's folder, since the launcher holds the dump's own.
    """
    dump_dir, recorded, *words = sys.argv[1:]
    try:
        program = given = python_command(words).program
        if is_torchrun(program):
            program = captured_ranks(program, functools.partial(_rank_command, dump_dir))
        launch = _launch(program, in_place=True)
    except UserError as error:
        _refuse(error)
    except SyntaxError as error:  # python reports it with no traceback, and runs nothing
        sys.excepthook(type(error), error.with_traceback(None), None)
        raise SystemExit(1) from None
    # The manifest records the program's words as given; torchrun reads them rewritten.
    sys.argv = [launch.argv[0], *given.args]
    _set_path_entry(launch.path_entry)
    try:
        session = _open(dump_dir, json.loads(recorded), _rank_process() if ranked else None)
    except UserError as error:  # the dump directory was refused; nothing ran
        _refuse(error)
    sys.argv = launch.argv
    raise SystemExit(_run_captured(session, launch, report=_report))


def run_script(dump_dir: Path, argv: list[str]) -> int:
    """Run ``argv`` (``script ARGS``, ``-m module ARGS`` or ``-c code ARGS``) as
    ``__main__`` in this process; return its exit code.

    The manifest says "complete" for exit code 0 and "failed" for any other exit
    or an exception, which still propagates as it would without capture.
    """
    if not argv:
        raise UserError("nothing to run: give a script, e.g. -- python train.py")
    command = python_command(["--", *argv] if argv[0] not in ("-m", "-c") else argv)
    launch = _launch(command.program, in_place=False)
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = launch.argv
    if launch.path_entry is not None and not _safe_path():
        sys.path.insert(0, launch.path_entry)
    try:
        return _run_captured(_open(dump_dir), launch)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path


# --- what each kind of program needs ----------------------------------------------


def _launch(program: Program, in_place: bool) -> Launch:
    """``in_place``: run in this interpreter's own ``__main__``, as python does, and
    leave it there; else in a module of its own that is put back afterwards."""
    args = list(program.args)
    if program.kind == "module":
        return _module(program.target, args, in_place)
    if program.kind == "script":
        return _script(program.target, args, in_place)
    if program.kind == "code":
        code = compile(program.target, "<string>", "exec", dont_inherit=True)
        argv = ["-c", *args]
    else:
        code = compile(sys.stdin.read(), "<stdin>", "exec", dont_inherit=True)
        argv = ["-", *args]
    run = functools.partial(_run_as_main, code, None, in_place)
    return Launch(argv, "", run, lambda frame_code: frame_code is code)


def _script(path: str, args: list[str], in_place: bool) -> Launch:
    script = Path(path)
    if script.is_dir() or zipfile.is_zipfile(script):  # a folder or zip with __main__.py
        if in_place:
            run = functools.partial(_run_folder, os.path.abspath(path))
            return Launch([path, *args], None, run, _runpy_main)
        run = functools.partial(runpy.run_path, path, run_name="__main__")
        return Launch([path, *args], None, run, lambda code: code.co_name == "<module>")
    if not script.is_file():
        raise UserError(f"{script}: no such script")
    # As python does: __file__ is absolute (by name, symlinks kept), sys.argv[0] as
    # given, and the script's real folder comes first on sys.path.
    file = os.path.join(os.getcwd(), path)
    code = _script_code(file)
    run = functools.partial(_run_as_main, code, file, in_place)
    return Launch([path, *args], str(script.resolve().parent), run, lambda c: c is code)


def _script_code(file: str) -> types.CodeType:
    with io.open_code(file) as source:
        data = source.read()
    if data[:4] == importlib.util.MAGIC_NUMBER:  # python runs a .pyc given by name too
        return marshal.loads(data[16:])
    return compile(data, file, "exec", dont_inherit=True)


def _module(name: str, args: list[str], in_place: bool) -> Launch:
    cwd = os.getcwd()
    sys.path.insert(0, cwd)  # as `python -m` does, also while finding the module
    try:
        origin = _module_file(name)
    finally:
        sys.path.remove(cwd)
    # `python -m` sets sys.argv[0] to the module's file; run_module does it again.
    if in_place:
        return Launch([origin, *args], cwd, functools.partial(_run_module, name), _runpy_main)
    run = functools.partial(runpy.run_module, name, run_name="__main__", alter_sys=True)
    return Launch([origin, *args], cwd, run, lambda code: code.co_name == "<module>")


def _run_module(name: str) -> None:
    """What `python -m` itself calls: the same ``__main__``, the same traceback."""
    namespace = sys.modules["__main__"].__dict__
    namespace.clear()  # the starting code's names are not the module's
    namespace["__builtins__"] = builtins
    runpy._run_module_as_main(name, alter_argv=False)


def _run_folder(path: str) -> None:
    """A folder or zip: python puts it first on sys.path, then runs its ``__main__``."""
    sys.path.insert(0, path)
    _run_module("__main__")


def _runpy_main(code: types.CodeType) -> bool:
    return code.co_name == "_run_module_as_main"


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


def _run_as_main(code: types.CodeType, file: str | None, in_place: bool) -> None:
    main = sys.modules["__main__"] if in_place else types.ModuleType("__main__")
    namespace = main.__dict__
    namespace.clear()
    namespace.update(__name__="__main__", __doc__=None, __package__=None, __loader__=None)
    namespace.update(__spec__=None, __builtins__=builtins)
    if file is not None:
        namespace.update(__file__=file, __cached__=None)
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = main
    try:
        exec(code, namespace)
    finally:
        if not in_place:
            sys.modules["__main__"] = saved


def _safe_path() -> bool:
    """python -P (or -I): nothing is put first on sys.path for the program."""
    return bool(getattr(sys.flags, "safe_path", False) or sys.flags.isolated)


def _set_path_entry(entry: str | None) -> None:
    if entry is not None and not _safe_path():
        sys.path.insert(0, entry)


# --- running and ending -------------------------------------------------------------


def _rank_command(dump_dir: str, program: list[str]) -> list[str]:
    """How torchrun starts one rank: as ``depyf-report run`` starts a program, with
    the command torchrun would have run recorded in its manifest."""
    python = rank_python()
    recorded = json.dumps([python, "-u", *program[program[:1] == ["--"] :]])
    start = _START.format(parent=_PACKAGE_PARENT, ranked=True)
    return [python, "-u", "-c", start, dump_dir, recorded, *program]


def _rank_process() -> str | None:
    rank, _ = adapter.distributed_rank()
    return rank_folder(rank) if rank is not None else None


def _open(dump_dir, command: list[str] | None = None, process: str | None = None):
    session = CaptureSession(dump_dir, process=process, command=command)
    session.open()
    return session


def _run_captured(session: CaptureSession, launch: Launch, report=None) -> int:
    """Run in an open capture, then close it; ``report(error, launch)`` is told of an
    uncaught exception at once, before the close, which may wait for the decompiler."""
    failed = True
    try:
        code = _exit_status(launch.run)
        failed = code != 0
    except BaseException as error:
        if report is not None:
            report(error, launch)
        raise
    finally:
        session.close(failed=failed)
        # The command ends with the dump whole, views included: those come from
        # the decompiler process, which may still be writing the last ones.
        wait_for_decompiler(session.writer.layout)
    return code


def _report(error: BaseException, launch: Launch) -> None:
    """Print the traceback now, from the program's first frame as python does; the
    interpreter then ends as for an uncaught error (exit 1, or by SIGINT for Ctrl-C)
    without printing it again."""
    hook = sys.excepthook
    # The default hook prints the exception's own traceback, whatever it is given.
    error.__traceback__ = _from_program(error.__traceback__, launch)
    hook(type(error), error, error.__traceback__)

    def printed_already(kind, value, traceback) -> None:
        if value is not error:
            hook(kind, value, traceback)

    sys.excepthook = printed_already


def _from_program(traceback, launch: Launch):
    """The traceback without the frames above the program's own (ours, runpy's)."""
    step = traceback
    while step is not None and not launch.is_program(step.tb_frame.f_code):
        step = step.tb_next
    return step if step is not None else traceback


def _refuse(error: UserError) -> None:
    print(f"depyf-report: error: {error}", file=sys.stderr)
    raise SystemExit(2)


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
