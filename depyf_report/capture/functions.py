"""Code objects -> ``Function`` and ``CodeView`` records.

Function ids become file names and URLs, so they are built from the qualified
name alone (readable, stable from run to run) and made unique by a counter
only when two different code objects share a name.
"""

from __future__ import annotations

import dis
import inspect
import linecache
import re
import types
from collections.abc import Iterable

from ..dump import CodeView, Function, ResumePoint

RESUME_PREFIX = "torch_dynamo_resume_in_"
_RESUME_NAME = re.compile(rf"^{RESUME_PREFIX}(?P<fn>.+)_at_(?P<line>\d+)$")


class FunctionIds:
    """Hands out one readable, file-name-safe id per code object."""

    def __init__(self) -> None:
        self._by_code: dict[types.CodeType, str] = {}
        self._taken: set[str] = set()

    def get(self, code: types.CodeType) -> str | None:
        return self._by_code.get(code)

    def assign(self, code: types.CodeType) -> str:
        if code in self._by_code:
            return self._by_code[code]
        base = safe_name(getattr(code, "co_qualname", code.co_name))
        new_id, n = base, 1
        while new_id in self._taken:
            n += 1
            new_id = f"{base}-{n}"
        self._taken.add(new_id)
        self._by_code[code] = new_id
        return new_id


def safe_name(name: str) -> str:
    """``Model.forward.<locals>.inner`` -> ``Model.forward.locals.inner``."""
    name = re.sub(r"[<>]", "", name)
    name = re.sub(r"[^0-9A-Za-z_.-]+", "_", name).strip("._-")
    return name[:120] or "function"


def new_function(function_id: str, code: types.CodeType) -> Function:
    first, last = line_range(code)
    return Function(
        id=function_id,
        name=code.co_name,
        qualname=getattr(code, "co_qualname", code.co_name),
        filename=code.co_filename,
        first_line=first,
        last_line=last,
        source=source_text(code, first, last),
        original=CodeView(name=code.co_name),  # filled by CodeViews
    )


def line_range(code: types.CodeType) -> tuple[int, int]:
    lines = [line for _, _, line in code.co_lines() if line is not None]
    first = code.co_firstlineno
    last = max(lines, default=first)
    if not code.co_name.startswith(RESUME_PREFIX):
        last = max(last, _block_end(code.co_filename, first))
    return first, max(first, last)


def _block_end(filename: str, first: int) -> int:
    """The last line of the def/class block starting at ``first``.

    Reads the file through linecache alone: ``inspect.getsourcelines`` would
    first scan every loaded module to find the code's module, which is slow
    inside a compile.
    """
    lines = linecache.getlines(filename)
    if not lines or first > len(lines):
        return first
    try:
        block = inspect.getblock(lines[first - 1 :])
    except Exception:  # tokenize errors on odd sources: keep the bytecode's range
        return first
    return first + len(block) - 1


def source_text(code: types.CodeType, first: int, last: int) -> str | None:
    """The function's lines as the file had them when it ran, so render needs no file."""
    lines = [linecache.getline(code.co_filename, n) for n in range(first, last + 1)]
    if not any(lines):
        return None
    return "".join(lines)


# --- resume functions ----------------------------------------------------------


def resume_target(code: types.CodeType) -> tuple[int | None, int | None]:
    """Where a resume function continues: (line, offset of that instruction).

    Dynamo's prologue restores the stack, then jumps to the instruction that
    was about to run when the graph broke; that jump is the first one.
    """
    lines = _line_at_offsets(code)
    for instruction in dis.get_instructions(code):
        if instruction.opcode in dis.hasjrel or instruction.opcode in dis.hasjabs:
            target = instruction.argval
            return lines.get(target), target
    return None, None


def _line_at_offsets(code: types.CodeType) -> dict[int, int | None]:
    lines: dict[int, int | None] = {}
    for start, end, line in code.co_lines():
        for offset in range(start, end, 2):
            lines[offset] = line
    return lines


def resume_point(code: types.CodeType, find_parent) -> ResumePoint | None:
    """For a ``torch_dynamo_resume_in_<fn>_at_<line>`` code: its parent and lines.

    ``find_parent(name, filename, line)`` returns the id of the function whose
    compile made this one, and ``(id, code)`` of the user function it continues
    (None for what was not captured).
    """
    match = _RESUME_NAME.match(code.co_name)
    if match is None:
        return None
    break_line = int(match["line"])
    resume_line, target = resume_target(code)
    parent, original = find_parent(match["fn"], code.co_filename, break_line)
    return ResumePoint(
        parent=parent,
        break_line=break_line,
        resume_line=resume_line,
        offset=_original_offset(code, target, original[1]) if original else None,
        original=original[0] if original else None,
    )


def _original_offset(code, target: int | None, original) -> int | None:
    """The resumed instruction's offset in the original code.

    The resume function ends with a copy of the original instructions, so the
    two line up counted from the end; a mismatch means Dynamo rewrote them and
    no offset is claimed.
    """
    if target is None:
        return None
    mine = list(dis.get_instructions(code))
    theirs = list(dis.get_instructions(original))
    index = next((i for i, ins in enumerate(mine) if ins.offset == target), None)
    if index is None:
        return None
    other = len(theirs) - (len(mine) - index)
    same = 0 <= other < len(theirs) and _where(theirs[other]) == _where(mine[index])
    return theirs[other].offset if same else None


def _where(instruction: dis.Instruction) -> tuple:
    # positions (3.11+) pin the instruction to its source columns too.
    return instruction.opname, getattr(instruction, "positions", None)


def function_at(functions: Iterable[Function], name: str, filename: str, line: int) -> str | None:
    """The id of the recorded function ``name`` whose source holds ``filename:line``:
    the user function a resume function continues."""
    return next(
        (
            f.id
            for f in functions
            if f.name == name and f.filename == filename and f.first_line <= line <= f.last_line
        ),
        None,
    )
