"""Which files of a path are TORCH_TRACE logs, and which process each one is.

A path is a log when it is a file whose first record line is a structured-trace
record, or a directory holding such files (``TORCH_TRACE=dir`` writes one per
process, ``dedicated_log_torch_trace_rank_N_*.log`` for rank N).
"""

from __future__ import annotations

from pathlib import Path

from ..dump import MANIFEST
from ..errors import UserError
from ..files import shown_path
from .reader import is_record_line, rank_from_name

# Lines read to find the first record: torch's own log lines may come first.
_PROBE_LINES = 50


def is_trace_log(path: Path) -> bool:
    """Whether ``path`` is a log file or a directory of them (and not a dump)."""
    path = Path(path)
    if path.is_file():
        return _starts_like_a_log(path)
    if not path.is_dir() or (path / MANIFEST).exists():
        return False  # a dump, even one that holds a log beside it
    return bool(_log_files(path))


def log_files(path: Path) -> list[Path]:
    """The log files ``path`` names, ordered by rank, then by name; a clear error
    when it names none."""
    path = Path(path)
    if path.is_file():
        if not _starts_like_a_log(path):
            raise UserError(
                f"{shown_path(path)}: not a TORCH_TRACE log (no structured-trace record "
                "in its first lines) and not a dump directory"
            )
        return [path]
    if not path.is_dir():
        raise UserError(f"{shown_path(path)}: no such file or directory")
    found = _log_files(path)
    if not found:
        raise UserError(
            f"{shown_path(path)}: holds no TORCH_TRACE log (files of structured-trace "
            "records, as TORCH_TRACE=dir writes them) and is not a depyf-report dump"
        )
    return found


def _log_files(folder: Path) -> list[Path]:
    try:
        candidates = [p for p in folder.iterdir() if p.is_file() and not p.is_symlink()]
    except OSError as error:
        raise UserError(f"{shown_path(folder)}: cannot be read: {error.strerror}") from None
    logs = [p for p in candidates if _starts_like_a_log(p)]
    return sorted(logs, key=lambda p: (rank_from_name(p) is None, rank_from_name(p) or 0, p.name))


def _starts_like_a_log(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as lines:
            for _, line in zip(range(_PROBE_LINES), lines):
                if is_record_line(line):
                    return True
    except OSError:
        return False
    return False
