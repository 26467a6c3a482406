"""A dump directory on disk: where each record lives, and writing one.

Capture, its decompiler process and ``prepare_debug`` write through ``Layout`` and
``write_json``; the reader (``load.py``) finds files through ``Layout`` too, so
every name on disk is spelled here and nowhere else. One process's folder holds::

    manifest.json                 Manifest
    functions/<function id>.json  Function, with its cache entries
    compiles/<compile slug>.json  Compile, one per compile attempt
    graphs/<graph id>.json        CompiledGraph, with every stage and output code
    views/<n>.json                ViewFile, written by capture's decompiler process
    views/decompiler.pid          while that process still writes views
    debug/index.json              DebugIndex, for a prepare_debug capture
    debug/*.py                    the files prepare_debug runs Dynamo's code from

Other processes of the same run (ranks, workers) each write the same layout
under ``processes/<name>/`` of the first one's folder.
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from pathlib import Path

from ..files import replacing
from .model import compile_slug

MANIFEST = "manifest.json"
PROCESSES = "processes"
# Holds the decompiler process's id while it writes views
# (``capture/decompile_worker.py``).
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

    def view(self, name: str) -> Path:
        """The ``ViewFile`` of the decompiler process's request ``name``."""
        return self.views / f"{name}.json"

    def view_file(self, name: str) -> str:
        """``view(name)`` as a ``CodeView`` names it: relative to this folder."""
        return self.view(name).relative_to(self.root).as_posix()

    @property
    def decompiler_pid(self) -> Path:
        """Holds the decompiler process's id (``decompiler_pid_text``) while it works."""
        return self.views / DECOMPILER_PID

    @property
    def debug(self) -> Path:
        """Where ``prepare_debug`` writes the files Dynamo's code runs from."""
        return self.root / "debug"

    @property
    def debug_index(self) -> Path:
        """The files ``prepare_debug`` wrote, and where to set breakpoints in them."""
        return self.debug / "index.json"

    def process(self, name: str) -> Layout:
        """Where another process of the same run (a rank, a worker) writes."""
        return Layout(self.root / PROCESSES / name)


def write_json(path: Path, data) -> None:
    """Write ``data`` so that a reader sees the old file or the new, never half.

    A process killed mid-write leaves at most a stray temporary file, which
    readers ignore because it does not end in ``.json``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # No indent: json's C encoder only serves compact output, and capture
    # writes while the user's program waits on the compile.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    with replacing(path) as out:
        out.write(text.encode("utf-8"))


def decompiler_pid_text(pid: int) -> str:
    """The pid file's text: the id and the host, since a dump may be read elsewhere.

    An id alone names any process that took it after the decompiler ended, so the
    capture also locks the file (``flock``) and hands the lock to the decompiler
    process, which holds it until it ends: a reader waits only while it is held.
    """
    return f"{pid} {socket.gethostname()}"
