"""The ``depyf-report`` command line.

    depyf-report DUMP -o SITE [--zip]        render a capture as a static site
    depyf-report TRACE -o SITE [--zip]       render a TORCH_TRACE log (a folder or a file)
    depyf-report run -o DUMP -- CMD ARGS...  capture an unmodified script
    depyf-report decompile TARGET            print decompiled Python source

Each command imports its part lazily, so ``--help`` and ``decompile`` never
load torch.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ._version import __version__
from .errors import UserError
from .terminal import terminal_safe

COMMANDS = ("render", "run", "decompile")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="depyf-report",
        description="See what torch.compile did to your code.",
        epilog="With no command, DUMP -o SITE renders a capture: depyf-report dump/ -o site/ "
        "(or a TORCH_TRACE log: depyf-report trace_dir/ -o site/)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    render = commands.add_parser(
        "render", help="render a capture directory, or a TORCH_TRACE log, as a static site"
    )
    render.add_argument(
        "dump",
        type=Path,
        metavar="DUMP",
        help="a directory written by capture, or a TORCH_TRACE log: its directory "
        "(one file per rank) or one log file",
    )
    render.add_argument("-o", "--output", type=Path, required=True, metavar="SITE")
    render.add_argument("--zip", action="store_true", help="also write SITE.zip for a bug ticket")
    render.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    run = commands.add_parser(
        "run",
        help="run a Python program under capture",
        description="Run `python [OPTIONS] SCRIPT ARGS...` (or -m MODULE, -c CODE, -) with "
        "capture on, exactly as python runs it: the same sys.argv, __file__ and "
        "sys.path, the interpreter options (-u, -O, -W, -X, -B, -E, -I, ...) in effect, "
        "the same traceback, exit status and Ctrl-C. depyf-report restarts the Python "
        "it runs in (sys.executable) with those options; the word `python` only marks "
        "where the command starts and may be left out. -i, -x, -h and -V are refused.",
    )
    run.add_argument("-o", "--output", type=Path, required=True, metavar="DUMP")
    run.add_argument(
        "cmd",
        nargs=argparse.REMAINDER,
        metavar="-- python [OPTIONS] (SCRIPT | -m MODULE | -c CODE) ARGS",
    )

    decompile = commands.add_parser(
        "decompile",
        help="print Python source for compiled code",
        description="TARGET is a .py file, a .pyc of this Python's version, or module:qualname.",
    )
    decompile.add_argument("target", metavar="TARGET")
    return parser


def _cmd_render(args) -> int:
    from .logs import convert_logs, is_trace_log, log_files
    from .render import render

    def draw(dump: Path) -> Path:
        return render(dump, args.output, zip=args.zip, progress=not args.no_progress)

    if args.dump.is_file() or is_trace_log(args.dump):
        # A log becomes a dump first, in a folder of its own that goes away after.
        logs = log_files(args.dump)
        with tempfile.TemporaryDirectory(prefix="depyf-report-log-") as scratch:
            index = draw(convert_logs(logs, Path(scratch) / "dump"))
    else:
        index = draw(args.dump)
    print(terminal_safe(str(index)))
    return 0


def _cmd_run(args) -> int:
    from .capture.runner import run_command

    words = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    return run_command(args.output, words)  # on POSIX, becomes the program and never returns


def _cmd_decompile(args) -> int:
    from .decompiler import decompile
    from .targets import load_target

    print(decompile(load_target(args.target)), end="")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # `depyf-report DUMP -o SITE` is the main job, so it needs no command word.
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        argv.insert(0, "render")
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 2
    handler = {"render": _cmd_render, "run": _cmd_run, "decompile": _cmd_decompile}
    try:
        return handler[args.command](args)
    except UserError as error:
        print(f"depyf-report: error: {terminal_safe(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("depyf-report: interrupted", file=sys.stderr)
        return 130
