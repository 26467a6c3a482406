"""Stepping through compiled code: ``prepare_debug`` and ``debug``.

``prepare_debug(dump_dir)`` captures like ``capture`` and makes the code that
runs the code the user reads: each code object Dynamo writes is replaced by one
compiled from its decompiled source in ``dump_dir/debug/``, and FX graph code
runs from files there too. ``debug()`` then runs the user's code under pdb,
pausing once so breakpoints can be set in those files.
"""

from __future__ import annotations

import contextlib
import pdb
import sys
from collections.abc import Callable

from ..capture import adapter, capture
from ..errors import UserError
from .graphs import GraphFiles
from .substitute import CodeSubstitution, DebugFolder

_preparing: DebugFolder | None = None  # the folder of the prepare_debug block running now
_prepared: DebugFolder | None = None  # the folder of the last prepare_debug block


@contextlib.contextmanager
def prepare_debug(dump_dir):
    """Capture into ``dump_dir`` and run Dynamo's code from decompiled files there.

    Call the compiled functions inside the block (that is when Dynamo compiles
    them); then run them again inside ``debug()`` to stop at breakpoints.
    """
    global _preparing, _prepared
    if _preparing is not None:
        raise UserError(
            f"prepare_debug is already preparing {_preparing.path.parent}; "
            "one prepare_debug block cannot run inside another"
        )
    _refuse_compiled_code()
    with capture(dump_dir) as root:
        # Registered after capture's own hook, so capture records Dynamo's code.
        folder = DebugFolder(root)
        removers = _substitute_code(folder)
        _preparing = folder
        try:
            yield root
        finally:
            for remove in reversed(removers):
                remove()
            _preparing, _prepared = None, folder


def debug() -> contextlib.AbstractContextManager:
    """``with depyf_report.debug():`` runs the block under pdb, pausing at its start.

    Set breakpoints in the files ``prepare_debug`` wrote (``b FILE:LINE``), then
    continue (``c``): the compiled functions stop there.
    """
    if _preparing is not None:
        raise UserError(
            "debug() cannot run inside prepare_debug(); leave the prepare_debug block, "
            "then run the code again inside `with depyf_report.debug():`"
        )
    if _prepared is None:
        raise UserError(
            "debug() has nothing to step through yet: first run the code inside "
            "`with depyf_report.prepare_debug(dump_dir):`, then again inside debug()"
        )
    return _DebugRun(_prepared)


class _DebugRun:
    def __init__(self, folder: DebugFolder) -> None:
        self.folder = folder
        self.removers: list[Callable[[], None]] = []

    def __enter__(self):
        # Functions first compiled now (a recompile) also run from files.
        self.removers = _substitute_code(self.folder)
        self.previous_trace = sys.gettrace()  # a coverage tool's, say: given back on exit
        print(_pause_banner(self.folder), file=sys.stderr)
        pdb.Pdb().set_trace(sys._getframe(1))
        return self.folder.path

    def __exit__(self, *exc_info) -> bool:
        sys.settrace(self.previous_trace)
        frame = sys._getframe(1)
        while frame is not None:  # pdb hooked every frame below the block
            frame.f_trace = None
            frame = frame.f_back
        for remove in reversed(self.removers):
            remove()
        return False


def _substitute_code(folder: DebugFolder) -> list[Callable[[], None]]:
    try:
        removers = [adapter.add_bytecode_hook(CodeSubstitution(folder, adapter.current_compile_id))]
    except adapter.Unavailable as error:
        raise UserError(
            f"prepare_debug cannot replace Dynamo's code on this torch: {error}"
        ) from None
    with contextlib.suppress(adapter.Unavailable):  # graphs then run from torch's memory
        removers.append(adapter.replace_graph_exec(GraphFiles(folder, adapter.current_compile_id)))
    return removers


def _refuse_compiled_code() -> None:
    """Code compiled before prepare_debug would keep running from Dynamo's cache."""
    try:
        names = sorted({code.co_name for code in adapter.compiled_codes()})
    except adapter.Unavailable:  # cannot tell; the dump's index will show what ran
        return
    if names:
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        raise UserError(
            f"torch.compile already compiled {shown} before prepare_debug, so its cached "
            "code would run instead of the dumped files; call torch._dynamo.reset() first, "
            "or enter prepare_debug before the first call of the compiled function"
        )


def _pause_banner(folder: DebugFolder) -> str:
    lines = ["depyf-report: the compiled code runs from these files (FILE:LINE: first line):"]
    for source in folder.sources:
        where = f"{source.file}:{source.line}" if source.substituted else None
        where = where or f"runs Dynamo's own code: {source.reason}"
        lines.append(f"  {source.kind} {source.name} ({source.compile_id}): {where}")
    lines.append(
        "depyf-report: paused; set breakpoints with `b FILE:LINE`, then type `c` to continue."
    )
    return "\n".join(lines)
