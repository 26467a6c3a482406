"""Reading a dump back: ``load_dump``, the reader that trusts nothing.

Render reads through ``load_dump``. Reading never fails as a whole: a damaged,
foreign or newer file becomes a ``Problem`` naming it, and everything else still
loads.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from .._version import __version__
from ..errors import UserError
from ..files import NO_FOLLOW, NotRegularFile, is_folder, read_regular, shown_path
from .layout import MANIFEST, PROCESSES, Layout
from .model import (
    SCHEMA_VERSION,
    Compile,
    CompiledGraph,
    DebugIndex,
    Function,
    Manifest,
    ViewFile,
    from_json,
)

try:  # the decompiler's pid file is locked where the platform has flock
    import fcntl
except ImportError:
    fcntl = None

# How long reading a dump waits for capture's decompiler process to finish its views.
WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class Problem:
    """A file that could not be read, and why, shown to the user."""

    path: Path
    message: str

    def __str__(self) -> str:
        return f"{shown_path(self.path)}: {self.message}"


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
        """The process's folder under ``processes/``; "" for the dump's own."""
        return self.manifest.process.rpartition("/")[2]


@dataclass
class Dump:
    """Everything under one dump directory: the first process, then the others."""

    root: Path
    processes: list[ProcessDump]
    problems: list[Problem] = field(default_factory=list)


def load_dump(root: Path) -> Dump:
    """Read a dump. Raises ``UserError`` only when ``root`` is not a dump at all,
    or one written for a newer depyf-report."""
    root = Path(root)
    require_dump(root)
    problems: list[Problem] = []
    layouts = [Layout(root)] + [
        Layout(root / PROCESSES / name) for name in _entries(root / PROCESSES, "dir", problems)
    ]
    # One wait for the whole dump, however many process folders name a decompiler.
    deadline = time.monotonic() + WAIT_SECONDS
    processes = [_load_process(root, layout, problems, deadline) for layout in layouts]
    return Dump(root, processes, problems)


def require_dump(root: Path) -> None:
    """Raise ``UserError`` when ``root`` is not a dump at all; reads no record."""
    if not root.is_dir():
        raise UserError(f"{root}: no such directory (expected a dump written by capture)")
    if not any(_exists(root / name) for name in (MANIFEST, *RECORD_FOLDERS)):
        raise UserError(
            f"{root}: not a depyf-report dump (no {MANIFEST}); "
            "write one with `depyf_report.capture` or `depyf-report run`"
        )


RECORD_FOLDERS = {"functions": Function, "compiles": Compile, "graphs": CompiledGraph}


def _load_process(root: Path, layout: Layout, problems: list[Problem], deadline: float):
    name = layout.root.relative_to(root).as_posix().removeprefix(".")
    manifest = _read_manifest(layout, name, problems)
    process = ProcessDump(layout, manifest)
    for folder, kind in RECORD_FOLDERS.items():
        records = getattr(process, folder)
        for file in _entries(layout.root / folder, "json", problems):
            path = layout.root / folder / file
            record = _read_record(path, kind, problems)
            if record is None:
                continue
            if record.id in records:
                problems.append(Problem(path, f"another record has the id {record.id!r}, skipped"))
                continue
            records[record.id] = record
    if layout.debug_index.name in _entries(layout.debug_index.parent, "json", problems):
        process.debug = _read_record(layout.debug_index, DebugIndex, problems) or DebugIndex()
    _fill_views(process, problems, deadline)
    return process


def _read_manifest(layout: Layout, name: str, problems: list[Problem]) -> Manifest:
    """The process's manifest; a stand-in saying what is unknown when it is damaged."""
    data = _read_json(layout.manifest, problems)
    version = data.get("schema_version") if isinstance(data, dict) else None
    if isinstance(version, int) and version > SCHEMA_VERSION:
        writer = data.get("tool_version")
        raise UserError(
            f"{shown_path(layout.manifest)}: this dump has schema version {version}"
            + (f", written by depyf-report {writer}" if isinstance(writer, str) else "")
            + f"; depyf-report {__version__} reads versions up to {SCHEMA_VERSION}. "
            "Upgrade depyf-report (pip install -U depyf-report) to render it."
        )
    manifest = None
    if data is not _UNREADABLE and not isinstance(version, int):
        problems.append(Problem(layout.manifest, "not a depyf-report manifest (no schema_version)"))
    elif data is not _UNREADABLE:
        manifest = _record(layout.manifest, Manifest, data, problems)
    if manifest is None:
        manifest = _unknown_manifest()
    # Pages are named after the folder a process was read from, never after what
    # its manifest claims, so no process can take another's pages.
    manifest.process = name
    return manifest


def _unknown_manifest() -> Manifest:
    return Manifest(
        schema_version=SCHEMA_VERSION,
        tool_version="unknown",
        python_version="unknown",
        torch_version=None,
        platform="unknown",
        argv=[],
        cwd="",
        pid=0,
        started="",
        notes=[
            f"{MANIFEST} could not be read: what ran, and how it ended, are unknown; "
            "the records below were read without it"
        ],
    )


def _fill_views(process: ProcessDump, problems: list[Problem], deadline: float) -> None:
    """Fill each pending view from the file capture's decompiler process wrote."""
    wait_for_decompiler(process.layout, deadline - time.monotonic())
    views = [function.original for function in process.functions.values()] + [
        entry.code for function in process.functions.values() for entry in function.entries
    ]
    written = set(_entries(process.layout.views, "json", problems))
    for view in views:
        name = _view_name(process.layout, view.file)
        if name not in written or view.decompiled is not None:
            continue  # no file yet: the record's "pending" reason stands
        record = _read_record(process.layout.views / name, ViewFile, problems)
        if record is not None:
            view.fill(record)


def _view_name(layout: Layout, file: str | None) -> str | None:
    """The name of a view file a record names; None for any name but
    ``views/<name>.json``, so a crafted dump cannot point a reader elsewhere."""
    folder, _, name = (file or "").partition("/")
    return name if folder == layout.views.name and "/" not in name else None


def wait_for_decompiler(layout: Layout, timeout: float = WAIT_SECONDS) -> bool:
    """Wait while capture's decompiler process, just after a capture, still writes
    views; False if it is still at work after ``timeout`` seconds."""
    pid_file = layout.decompiler_pid
    deadline = time.monotonic() + timeout
    while _alive(pid_file):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _alive(pid_file: Path) -> bool:
    if not is_folder(pid_file.parent):
        return False  # a linked views folder is skipped; nothing in it is waited for
    try:  # never follow a link, nor wait on a FIFO, in a dump from elsewhere
        fd = os.open(pid_file, os.O_RDONLY | NO_FOLLOW)
    except (OSError, ValueError):
        return False  # no file: the process is done
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        pid_text, host = os.read(fd, 256).decode("utf-8").split()
        if host != socket.gethostname():
            return False  # written on another machine: nothing to wait for here
        locked = _held_by_another(fd)
        return locked if locked is not None else _pid_alive(int(pid_text))
    except (OSError, ValueError):
        return False
    finally:
        os.close(fd)


def _held_by_another(fd: int) -> bool | None:
    """Whether some process holds the pid file's lock; None where there are no locks
    (Windows, or a file system without them)."""
    if fcntl is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # released when fd closes
    except BlockingIOError:
        return True
    except OSError:
        return None
    return False  # nobody holds it: the decompiler ended, or never locked it


def _pid_alive(pid: int) -> bool:
    """Without locks, the id is all there is: alive if some process has it."""
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


# --- reading files a stranger may have made -----------------------------------


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _entries(folder: Path, kind: str, problems: list[Problem]) -> list[str]:
    """The names of the real sub-folders (``kind`` "dir") or ``.json`` files in a
    folder of the dump, sorted; links and anything else become problems."""
    if _exists(folder) and not is_folder(folder):
        problems.append(Problem(folder, "not a folder (a link or a file), skipped"))
        return []
    try:
        with os.scandir(folder) as scan:
            found = list(scan)
    except FileNotFoundError:
        return []
    except OSError as error:
        problems.append(Problem(folder, f"cannot be read ({error.strerror}), skipped"))
        return []
    names = []
    for entry in found:
        if kind == "json" and not entry.name.endswith(".json"):
            continue  # a writer's temporary file, or something of the user's
        real = (
            entry.is_dir(follow_symlinks=False)
            if kind == "dir"
            else entry.is_file(follow_symlinks=False)
        )
        if real:
            names.append(entry.name)
        else:
            what = "a folder" if kind == "dir" else "a regular file"
            problems.append(Problem(Path(entry.path), f"not {what} (a link?), skipped"))
    return sorted(names)


# What _read_json gives for a file it could not read; None is valid JSON.
_UNREADABLE = object()


def _read_json(path: Path, problems: list[Problem]):
    """The JSON in a regular file of the dump, or _UNREADABLE with a problem saying why.

    Links are never followed, and a FIFO or device is refused without waiting on it.
    """
    try:
        return json.loads(read_regular(path).decode("utf-8"))
    except FileNotFoundError:
        problems.append(Problem(path, "missing"))
    except NotRegularFile:
        problems.append(Problem(path, "not a regular file, skipped"))
    except OSError as error:
        problems.append(Problem(path, f"cannot be opened ({_reason(error)}), skipped"))
    except RecursionError:
        problems.append(Problem(path, "damaged, skipped (nested too deeply)"))
    except ValueError as error:  # UnicodeDecodeError and JSONDecodeError too
        problems.append(Problem(path, f"damaged, skipped ({_reason(error)})"))
    return _UNREADABLE


def _reason(error: Exception) -> str:
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error)


def _read_record(path: Path, kind: type, problems: list[Problem]):
    data = _read_json(path, problems)
    return None if data is _UNREADABLE else _record(path, kind, data, problems)


def _record(path: Path, kind: type, data, problems: list[Problem]):
    fields: list[str] = []
    try:
        record = from_json(kind, data, fields)
    except ValueError as error:
        problems.append(Problem(path, f"not a valid {kind.__name__} record, skipped ({error})"))
        return None
    problems += [Problem(path, field) for field in fields]
    return record
