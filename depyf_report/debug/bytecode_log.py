"""Readable bytecode logs: ``install()`` and ``uninstall()``.

With ``TORCH_LOGS="+bytecode"``, every MODIFIED BYTECODE entry torch logs is
followed by the decompiled source of the same code object.
"""

from __future__ import annotations

import logging
import types
from collections.abc import Callable

from ..capture import adapter
from ..decompiler import decompile
from ..errors import UserError

_remove_hook: Callable[[], None] | None = None


def install() -> None:
    """Follow each MODIFIED BYTECODE log entry with its decompiled source."""
    global _remove_hook
    if _remove_hook is not None:
        return
    try:
        logger = adapter.bytecode_logger()
        _remove_hook = adapter.add_bytecode_hook(_logging_hook(logger))
    except adapter.Unavailable as error:
        raise UserError(f"cannot install on this torch: {error}") from None


def uninstall() -> None:
    """Undo ``install``; does nothing when it is not installed."""
    global _remove_hook
    if _remove_hook is not None:
        _remove_hook()
        _remove_hook = None


def _logging_hook(logger: logging.Logger):
    def hook(original: types.CodeType, transformed: types.CodeType) -> None:
        # Torch calls bytecode hooks right after it logs MODIFIED BYTECODE,
        # so this entry lands just below it. Returning None keeps its code.
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("%s", decompiled_entry(original, transformed))

    return hook


def decompiled_entry(original: types.CodeType, transformed: types.CodeType) -> str:
    """The log text for one transformed code object."""
    where = f"{original.co_name} {original.co_filename} line {original.co_firstlineno}"
    try:
        source = decompile(transformed)
    except Exception as error:  # a decompiler bug must not break the user's run
        source = f"# could not decompile: {type(error).__name__}: {error}\n"
    return f"DECOMPILED SOURCE {where}\n{source}"
