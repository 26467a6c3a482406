"""A dump directory on disk: where each record lives, and reading it back.

Capture writes through ``Layout`` and ``write_json``; render reads through
``load_dump``. Reading never fails as a whole: a damaged, foreign or newer file
becomes a ``Problem`` naming it, and everything else still loads.
"""

from __future__ import annotations

import json
import os
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import UserError
from .model import (
    SCHEMA_VERSION,
    Compile,
    CompiledGraph,
    DebugIndex,
    Function,
    Manifest,
    ViewFile,
    compile_slug,
    from_json,
)

MANIFEST = "manifest.json"
PROCESSES = "processes"
# How long reading a dump waits for capture's decompiler process to finish its views.
WAIT_SECONDS = 60.0
# Holds the decompiler process's id while it writes views (``decompiler/service.py``).
DECOMPILER_PID = "decompiler.pid"


@dataclass(frozen=True)
class Layout:
    """The paths of one process's records inside a dump."""

    root: Path

    @property
    def manifest(self) -> Path:
        return self.root / MANIFEST

    def function(self, function_id: str) -> Path:
        return self.root / "functions" / f"{function_id}.json"

    def compile(self, compile_id: str) -> Path:
        return self.root / "compiles" / f"{compile_slug(compile_id)}.json"

    def graph(self, graph_id: str) -> Path:
        return self.root / "graphs" / f"{graph_id}.json"

    @property
    def views(self) -> Path:
        """Where capture's decompiler process writes each ``ViewFile``."""
        return self.root / "views"

    @property
    def debug_index(self) -> Path:
        """The files ``prepare_debug`` wrote, and where to set breakpoints in them."""
        return self.root / "debug" / "index.json"

    def process(self, name: str) -> Layout:
        """Where another process of the same run (a rank, a worker) writes."""
        return Layout(self.root / PROCESSES / name)


def write_json(path: Path, data) -> None:
    """Write ``data`` so that a reader sees the old file or the new, never half.

    A process killed mid-write leaves at most a stray temporary file, which
    readers ignore because it does not end in ``.json``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        # No indent: json's C encoder only serves compact output, and capture
        # writes while the user's program waits on the compile.
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Problem:
    """A file that could not be read, and why, shown to the user."""

    path: Path
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class ProcessDump:
    """The records one process wrote."""

    layout: Layout
    manifest: Manifest
    functions: dict[str, Function] = field(default_factory=dict)
    compiles: dict[str, Compile] = field(default_factory=dict)
    graphs: dict[str, CompiledGraph] = field(default_factory=dict)
    debug: DebugIndex = field(default_factory=DebugIndex)

    @property
    def name(self) -> str:
        return self.manifest.process


@dataclass
class Dump:
    """Everything under one dump directory: the first process, then the others."""

    root: Path
    processes: list[ProcessDump]
    problems: list[Problem] = field(default_factory=list)


def load_dump(root: Path) -> Dump:
    """Read a dump. Raises ``UserError`` only when ``root`` is not a dump at all."""
    root = Path(root)
    if not root.is_dir():
        raise UserError(f"{root}: no such directory (expected a dump written by capture)")
    if not (root / MANIFEST).is_file():
        raise UserError(
            f"{root}: not a depyf-report dump (no {MANIFEST}); "
            "write one with `depyf_report.capture` or `depyf-report run`"
        )
    problems: list[Problem] = []
    layouts = [Layout(root)] + [
        Layout(sub) for sub in sorted((root / PROCESSES).glob("*")) if sub.is_dir()
    ]
    # One wait for the whole dump, however many process folders name a decompiler.
    deadline = time.monotonic() + WAIT_SECONDS
    processes = [p for p in (_load_process(x, problems, deadline) for x in layouts) if p]
    return Dump(root, processes, problems)


def _load_process(layout: Layout, problems: list[Problem], deadline: float) -> ProcessDump | None:
    manifest = _read_record(layout.manifest, Manifest, problems)
    if manifest is None:
        return None
    process = ProcessDump(layout, manifest)
    for kind, records, folder in (
        (Function, process.functions, "functions"),
        (Compile, process.compiles, "compiles"),
        (CompiledGraph, process.graphs, "graphs"),
    ):
        for path in sorted((layout.root / folder).glob("*.json")):
            record = _read_record(path, kind, problems)
            if record is not None:
                records[record.id] = record
    if layout.debug_index.is_file():
        process.debug = _read_record(layout.debug_index, DebugIndex, problems) or DebugIndex()
    _fill_views(process, problems, deadline)
    return process


def _fill_views(process: ProcessDump, problems: list[Problem], deadline: float) -> None:
    """Fill each pending view from the file capture's decompiler process wrote."""
    wait_for_decompiler(process.layout, deadline - time.monotonic())
    views = [function.original for function in process.functions.values()] + [
        entry.code for function in process.functions.values() for entry in function.entries
    ]
    for view in views:
        path = _view_path(process.layout, view.file)
        if path is None or not path.is_file() or view.decompiled is not None:
            continue  # no file yet: the record's "pending" reason stands
        written = _read_record(path, ViewFile, problems)
        if written is not None:
            view.fill(written)


def _view_path(layout: Layout, file: str | None) -> Path | None:
    """Where a view file named in a record lies; None for any name but
    ``views/<name>.json``, so a crafted dump cannot point a reader elsewhere."""
    name = Path(file or "")
    if name.parent != Path(layout.views.name) or name.suffix != ".json":
        return None
    return layout.views / name.name


def decompiler_pid_text(pid: int) -> str:
    """The pid file's text: the id and the host, since a dump may be read elsewhere."""
    return f"{pid} {socket.gethostname()}"


def wait_for_decompiler(layout: Layout, timeout: float = WAIT_SECONDS) -> bool:
    """Wait while capture's decompiler process, just after a capture, still writes
    views; False if it is still at work after ``timeout`` seconds."""
    pid_file = layout.views / DECOMPILER_PID
    deadline = time.monotonic() + timeout
    while _alive(pid_file):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _alive(pid_file: Path) -> bool:
    try:
        pid_text, host = pid_file.read_text().split()
        pid = int(pid_text)
    except (OSError, ValueError):
        return False  # no file: the process is done
    if host != socket.gethostname():
        return False  # written on another machine: nothing to wait for here
    try:  # our own child (a capture in this process) lingers as a zombie unless reaped
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except OSError:
        return False  # the file was left by a process that was killed
    return True


def _read_record(path: Path, kind: type, problems: list[Problem]):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(Problem(path, "missing"))
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        problems.append(Problem(path, f"damaged, skipped ({error})"))
        return None
    if kind is Manifest:
        version = data.get("schema_version") if isinstance(data, dict) else None
        if not isinstance(version, int):
            problems.append(Problem(path, "not a depyf-report manifest (no schema_version)"))
            return None
        if version > SCHEMA_VERSION:
            problems.append(
                Problem(
                    path,
                    f"written with dump schema {version}, newer than this depyf-report "
                    f"reads ({SCHEMA_VERSION}); upgrade depyf-report to see it",
                )
            )
            return None
    try:
        return from_json(kind, data)
    except (ValueError, TypeError) as error:
        problems.append(Problem(path, f"not a valid {kind.__name__} record, skipped ({error})"))
        return None
