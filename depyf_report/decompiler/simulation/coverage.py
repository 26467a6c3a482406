"""Which opcodes of the running Python the decompiler covers, and why the rest never
appear in the code objects it is given."""

from __future__ import annotations

import dis

from ..bytecode import opcodes, py310, versions
from .registry import HANDLERS

_INSTRUMENTED = "written by sys.monitoring into the live instruction stream, never into co_code"
_PSEUDO = "a compiler pseudo-instruction, replaced by real opcodes before the code is made"
_RUNTIME_ONLY = {
    "INTERPRETER_EXIT": "ends the interpreter's entry frame; never in a Python code object",
    "ENTER_EXECUTOR": "inserted by the tier-2 optimizer at run time, never by the compiler",
    "RESERVED": "a placeholder opcode number with no behaviour",
    "EXIT_INIT_CHECK": "only in the interpreter's own shim frame for __init__ calls",
}


def _why_not_emitted(name: str) -> str | None:
    if name.startswith("INSTRUMENTED_"):
        return _INSTRUMENTED
    if dis.opmap[name] >= 256:
        return _PSEUDO
    return _RUNTIME_ONLY.get(name)


NOT_EMITTED: dict[str, str] = {
    name: why for name in dis.opmap if (why := _why_not_emitted(name)) is not None
}


def _covered(name: str) -> bool:
    if name in opcodes.DROPPED or name in opcodes.COLLAPSED:
        return True
    if versions.BLOCK_STACK and _covered_310(name):
        return True
    op = opcodes.RENAMED.get(name, name)
    return op in HANDLERS or op in versions.EXPANDERS


def handled_opcodes() -> set[str]:
    """Opnames of the running Python that the decompiler's handlers cover."""
    return {name for name in dis.opmap if name not in NOT_EMITTED and _covered(name)}


def _covered_310(name: str) -> bool:

    if name in py310.BLOCK_OPS or name in py310.RENAMED or name in py310.BLOCK_SETUPS:
        return True
    if name in getattr(py310, "TRANSLATED", ()):  # rewritten into 3.11 shapes
        return True
    if name in ("DUP_TOP", "DUP_TOP_TWO", "ROT_TWO", "ROT_THREE", "ROT_FOUR", "ROT_N"):
        return True
    operator = name.split("_", 1)[1] if "_" in name else ""
    return name.startswith(("BINARY_", "INPLACE_")) and operator in py310.OPERATORS
