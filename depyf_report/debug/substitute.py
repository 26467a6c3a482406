"""Run the code the user reads: Dynamo's code replaced by its decompiled source.

A bytecode hook receives each code object Dynamo writes, decompiles it into a
file in the dump, compiles that file and returns the function's code, laid out
like Dynamo's (see ``relayout``), so that its ``co_filename`` is the file
and a debugger stops on its lines. When a faithful replacement cannot be made
the hook keeps Dynamo's code and records why: the user's program never breaks.
"""

from __future__ import annotations

import ast
import dis
import json
import re
import sys
import threading
import types
from collections import Counter
from pathlib import Path

from ..decompiler import decompile
from ..dump import DebugIndex, DebugSource, Layout, from_json, to_json, write_json
from .relayout import Unfaithful, relayout, slot_names


class DebugFolder:
    """The dump's ``debug/`` folder: unique file names and the index of sources."""

    def __init__(self, dump_root: Path) -> None:
        layout = Layout(Path(dump_root).resolve())
        self.path = layout.debug
        self.index = layout.debug_index
        self.sources: list[DebugSource] = []
        self.lock = threading.Lock()

    def new_file(self, stem: str, text: str) -> Path:
        stem = re.sub(r"[^0-9A-Za-z_]+", "_", stem) or "code"
        with self.lock:
            self.path.mkdir(parents=True, exist_ok=True)
            path, n = self.path / f"{stem}.py", 1
            while path.exists():
                n += 1
                path = self.path / f"{stem}_{n}.py"
            path.write_text(text, encoding="utf-8")
        return path

    def add(self, source: DebugSource) -> None:
        with self.lock:
            self.sources.append(source)
            write_json(self.index, to_json(DebugIndex(self.sources)))


def read_debug_index(dump_root: Path) -> list[DebugSource]:
    """The debug sources a prepare_debug dump lists (none for a plain capture)."""
    path = Layout(Path(dump_root)).debug_index
    if not path.is_file():
        return []
    return from_json(DebugIndex, json.loads(path.read_text(encoding="utf-8"))).sources


class CodeSubstitution:
    """A bytecode hook: ``hook(original, transformed)`` returns the replacement."""

    def __init__(self, folder: DebugFolder, compile_id=lambda: None) -> None:
        self.folder = folder
        self.compile_id = compile_id

    def __call__(self, original: types.CodeType, transformed: types.CodeType):
        compile_id = _quietly(self.compile_id)
        record = DebugSource(
            kind="function",
            name=original.co_name,
            compile_id=compile_id,
            file="",
            line=0,
            substituted=False,
            original_file=original.co_filename,
            original_line=original.co_firstlineno,
        )
        try:
            replacement = self._replacement(transformed, record)
        except Exception as error:  # never break the user's program: keep Dynamo's code
            record.reason = _reason(error)
            replacement = None
        record.substituted = replacement is not None
        self.folder.add(record)
        return replacement

    def _replacement(self, transformed: types.CodeType, record: DebugSource):
        name = def_name(transformed.co_name)
        renames = renames_for(transformed)
        source = decompile(transformed, dynamo=True)  # what the report shows
        code = find_code(compile(source, "<decompiled>", "exec", dont_inherit=True), name)
        source = keep_cells(source, name, _missing_cells(code, transformed, renames))
        stem = f"{transformed.co_name}_{compile_id_slug(record.compile_id)}"
        path = self.folder.new_file(stem, source)
        record.file, record.line = str(path), body_line(source, name)
        module = compile(source, str(path), "exec", dont_inherit=True)
        code = relayout(find_code(module, name), transformed, renames)
        check_cells_passed(code, transformed)
        if sys.version_info >= (3, 11):
            code = code.replace(co_qualname=transformed.co_qualname)
        return code.replace(co_name=transformed.co_name)


def _missing_cells(code, target, renames: dict[str, str]) -> tuple[list[str], list[str]]:
    """Target cells and free variables the compiled source lacks, as ``keep_cells`` wants
    them: (names the function must bind, names a closure must read)."""
    back = {v: k for k, v in renames.items()}
    ours = {renames.get(n, n) for n in code.co_cellvars + code.co_freevars}
    cells = [back.get(n, n) for n in target.co_cellvars if n not in ours]
    free = [back.get(n, n) for n in target.co_freevars if n not in ours]
    locals_ = set(code.co_varnames)
    return [n for n in cells if n not in locals_], [n for n in cells if n in locals_] + free


def keep_cells(source: str, name: str, missing: tuple[list[str], list[str]]) -> str:
    """Make the names Dynamo keeps in cells cells here too.

    Dynamo's code may hold a cell it never reads (the original function's
    closure needed it); the source then has no reason to make one, and the
    frame layouts differ. A never-run block that binds the names and reads them
    from a lambda makes the compiler create the same cells and free variables.
    """
    bind, read = missing
    if not bind and not read:
        return source
    node = next(
        n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == name
    )
    indent = " " * node.body[0].col_offset
    names = bind + read
    block = [
        f"{indent}if False:  # depyf-report: the cells Dynamo's code keeps: {', '.join(names)}"
    ]
    if bind:
        block.append(f"{indent}    {' = '.join(bind)} = None")
    block.append(f"{indent}    lambda: ({', '.join(names)},)")
    lines = source.splitlines()
    lines[node.end_lineno : node.end_lineno] = block
    return "\n".join(lines) + "\n"


def check_cells_passed(code: types.CodeType, target: types.CodeType) -> None:
    """Source cannot hand a cell itself around (``LOAD_CLOSURE`` outside a closure)."""
    ours, theirs = _closure_loads(code), _closure_loads(target)
    if theirs - ours:
        names = sorted((theirs - ours).elements())
        raise Unfaithful(f"Dynamo's code passes the cells of {names} as values")


def _closure_loads(code: types.CodeType) -> Counter:
    """Names whose cell itself is pushed: ``LOAD_CLOSURE``, which 3.13 compiles to a
    ``LOAD_FAST`` of the cell's slot."""
    cells = set(code.co_cellvars + code.co_freevars)
    loads = Counter()
    for instruction in dis.get_instructions(code):
        if instruction.opname == "LOAD_CLOSURE":
            loads[instruction.argval] += 1
        elif instruction.opname.startswith("LOAD_FAST"):
            names = instruction.argval
            names = names if isinstance(names, tuple) else (names,)
            loads.update(n for n in names if n in cells)
    return loads


def compile_id_slug(compile_id: str | None) -> str:
    return re.sub(r"[^0-9A-Za-z]+", "_", compile_id or "unknown").strip("_")


def def_name(co_name: str) -> str:
    """The name the decompiler gives the ``def`` of a code object."""
    return co_name if co_name.isidentifier() else "_" + re.sub(r"\W", "_", co_name)


def renames_for(target: types.CodeType) -> dict[str, str]:
    """Source name -> target name, for target names the decompiler had to change."""
    names = {n for names in slot_names(target).values() for n in names}
    return {def_name(n): n for n in names if not n.isidentifier()}


def find_code(module: types.CodeType, name: str) -> types.CodeType:
    """The code of ``def name`` at the top of a module or inside its enclosure."""
    for outer in module.co_consts:
        if not isinstance(outer, types.CodeType):
            continue
        if outer.co_name == name:
            return outer
        for inner in outer.co_consts:
            if isinstance(inner, types.CodeType) and inner.co_name == name:
                return inner
    raise Unfaithful(f"the decompiled source defines no function {name!r}")


def body_line(source: str, name: str) -> int:
    """The line of the first statement inside ``def name``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node.body[0].lineno
    return 1


def _reason(error: Exception) -> str:
    if isinstance(error, Unfaithful):
        return f"no faithful replacement: {error}"
    return f"{type(error).__name__}: {error}"


def _quietly(fn):
    try:
        return fn()
    except Exception:
        return None
