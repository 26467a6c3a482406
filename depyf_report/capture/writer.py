"""Where this process writes in a dump, and writing records there atomically."""

from __future__ import annotations

import datetime
import os
import platform
import sys
from pathlib import Path

from .._version import __version__
from ..dump import MANIFEST, PROCESSES, Layout, write_json
from ..errors import UserError
from ..model import SCHEMA_VERSION, Manifest, to_json


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")


class DumpWriter:
    """Writes one process's records under its own folder of a dump."""

    def __init__(self, root: Path, process: str, manifest: Manifest) -> None:
        self.root = Path(root)
        self.layout = Layout(self.root) if not process else Layout(self.root).process(process)
        self.manifest = manifest

    def write_manifest(self) -> None:
        write_json(self.layout.manifest, to_json(self.manifest))

    def write_function(self, function) -> None:
        write_json(self.layout.function(function.id), to_json(function))

    def write_compile(self, compile_record) -> None:
        write_json(self.layout.compile(compile_record.id), to_json(compile_record))

    def write_graph(self, graph) -> None:
        write_json(self.layout.graph(graph.id), to_json(graph))


def new_manifest(process: str, rank: int | None, world_size: int | None) -> Manifest:
    return Manifest(
        schema_version=SCHEMA_VERSION,
        tool_version=__version__,
        python_version=platform.python_version(),
        torch_version=None,
        platform=platform.platform(),
        argv=list(sys.argv),
        command=list(getattr(sys, "orig_argv", sys.argv)),
        cwd=os.getcwd(),
        pid=os.getpid(),
        started=now(),
        rank=rank,
        world_size=world_size,
        process=f"{PROCESSES}/{process}" if process else "",
    )


def process_name(rank: int | None) -> str:
    """ "" for the process that owns the dump root; "rank-N" for other ranks."""
    return f"rank-{rank}" if rank else ""


def prepare_directory(root: Path, process: str) -> Path:
    """Create this process's folder; refuse a previous dump or an unwritable place."""
    folder = Path(root) if not process else Path(root) / PROCESSES / process
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create the dump directory {folder}: {error.strerror}") from None
    if not folder.is_dir():
        raise UserError(f"{folder} is a file, not a directory; choose a directory for the dump")
    # Other ranks may already have made processes/ beside us; that is not a previous dump.
    leftovers = [p.name for p in folder.iterdir() if not (not process and p.name == PROCESSES)]
    if leftovers:
        what = "a previous dump" if MANIFEST in leftovers else "other files"
        raise UserError(
            f"{folder} already holds {what} ({', '.join(sorted(leftovers)[:3])}); "
            "remove it or choose an empty directory"
        )
    probe = folder / ".depyf-report-write-test"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise UserError(f"cannot write to the dump directory {folder}: {error.strerror}") from None
    return folder
