"""Where this process writes in a dump, and writing records there atomically."""

from __future__ import annotations

import datetime
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

from .._version import __version__
from ..dump import MANIFEST, PROCESSES, SCHEMA_VERSION, Layout, Manifest, to_json, write_json
from ..errors import UserError

# The first manifest's temporary name while a capture claims a folder.
CLAIM_PREFIX = ".depyf-report-claim."


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")


class DumpWriter:
    """Writes one process's records under its own folder of a dump."""

    def __init__(self, root: Path, process: str, manifest: Manifest) -> None:
        self.root = Path(root)  # absolute: CaptureSession made it so
        self.layout = Layout(self.root) if not process else Layout(self.root).process(process)
        self.manifest = manifest

    def claim(self) -> None:
        """Write the first manifest, unless another capture has just claimed the folder.

        ``prepare_directory`` only looks: two captures starting at the same moment both
        find the folder empty. Linking a finished file onto the manifest's name either
        creates it or fails, so exactly one of them gets the folder.
        """
        path = self.layout.manifest
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=CLAIM_PREFIX, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(to_json(self.manifest), out, ensure_ascii=False)
            _create(Path(tmp), path)
        except FileExistsError:
            raise UserError(
                f"{path.parent} already holds a dump: another capture started there at "
                "the same moment; choose an empty directory for each capture"
            ) from None
        except OSError as error:
            raise UserError(f"cannot write to the dump directory {path.parent}: {error}") from None
        finally:
            Path(tmp).unlink(missing_ok=True)

    def write_manifest(self) -> None:
        write_json(self.layout.manifest, to_json(self.manifest))

    def write_function(self, function) -> None:
        write_json(self.layout.function(function.id), to_json(function))

    def write_compile(self, compile_record) -> None:
        write_json(self.layout.compile(compile_record.id), to_json(compile_record))

    def write_graph(self, graph) -> None:
        write_json(self.layout.graph(graph.id), to_json(graph))


def _create(finished: Path, path: Path) -> None:
    """Put ``finished`` at ``path`` only if nothing is there; FileExistsError otherwise."""
    try:
        os.link(finished, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: claim the name, then fill it
        with open(path, "x", encoding="utf-8") as out:
            out.write(finished.read_text(encoding="utf-8"))


def absolute(path) -> Path:
    """``path`` made absolute against today's working directory, ``..`` resolved
    by name as the shell does, symlinks kept."""
    return Path(os.path.abspath(path))


def new_manifest(
    process: str, rank: int | None, world_size: int | None, command: list[str] | None = None
) -> Manifest:
    return Manifest(
        schema_version=SCHEMA_VERSION,
        tool_version=__version__,
        python_version=platform.python_version(),
        torch_version=None,
        platform=platform.platform(),
        argv=list(sys.argv),
        command=list(command or getattr(sys, "orig_argv", sys.argv)),
        cwd=os.getcwd(),
        pid=os.getpid(),
        started=now(),
        rank=rank,
        world_size=world_size,
        process=f"{PROCESSES}/{process}" if process else "",
    )


def process_name(rank: int | None) -> str:
    """ "" for the process that owns the dump root; "rank-N" for other ranks."""
    return rank_folder(rank) if rank else ""


def rank_folder(rank: int) -> str:
    """The folder of a rank under ``processes/``."""
    return f"rank-{rank}"


def prepare_directory(root: Path, process: str) -> Path:
    """Create this process's folder; refuse a previous dump or an unwritable place.

    ``DumpWriter.claim`` then takes the folder, or finds another capture took it first.
    """
    folder = Path(root) if not process else Path(root) / PROCESSES / process
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create the dump directory {folder}: {error.strerror}") from None
    if not folder.is_dir():
        raise UserError(f"{folder} is a file, not a directory; choose a directory for the dump")
    # Other ranks may already have made processes/ beside us; that is not a previous dump,
    # and neither is a capture's claim in progress (claim() tells that one apart).
    leftovers = [
        p.name
        for p in folder.iterdir()
        if not (not process and p.name == PROCESSES) and not p.name.startswith(CLAIM_PREFIX)
    ]
    if leftovers:
        what = "a previous dump" if MANIFEST in leftovers else "other files"
        raise UserError(
            f"{folder} already holds {what} ({', '.join(sorted(leftovers)[:3])}); "
            "remove it or choose an empty directory"
        )
    return folder
