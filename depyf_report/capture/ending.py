"""Closing the records of workers that ended without closing them.

``Pool.terminate()`` (and so the end of a ``with Pool(...)`` block) stops its
workers with SIGTERM, whose default action ends a process at once: no atexit hook
and no ``multiprocessing`` finalizer runs, and the worker's manifest still says
running. Capture leaves SIGTERM as the program set it. A Python handler runs only
between bytecodes: a worker blocked in a read or a lock when the signal lands just
before the call would never end, and ``Pool.terminate()`` would wait on it for ever.
So the parent closes such a worker's record when it closes its own.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
from pathlib import Path

from ..dump import MANIFEST, PROCESSES, Layout, Manifest, from_json, to_json, write_json

ENDED = (
    "ended without closing its record, as SIGTERM (what Pool.terminate() and the end of a "
    "`with Pool(...)` block send), SIGKILL or a crash end a worker; everything it compiled "
    "before is recorded"
)


def close_ended_workers(root: Path, parent_pid: int) -> None:
    """Close the records of ``parent_pid``'s workers that have ended and still say
    running; a worker's record that cannot be read is left as it is."""
    for path in sorted((Path(root) / PROCESSES).glob(f"*/{MANIFEST}")):
        with contextlib.suppress(Exception):  # never let a worker's record stop a close
            _close_if_ended(path, parent_pid)


def _close_if_ended(path: Path, parent_pid: int) -> None:
    manifest = from_json(Manifest, json.loads(path.read_text(encoding="utf-8")))
    if manifest.parent_pid != parent_pid or manifest.status != "running":
        return
    if _running(manifest.pid):
        return
    manifest.status = "complete"
    manifest.ended = _last_written(path.parent)
    manifest.notes.append(ENDED)
    write_json(path, to_json(manifest))


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs: a zombie, ended but not yet waited for by
    its parent, does not (Linux tells; elsewhere it counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError, IndexError):
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    return True


def _last_written(folder: Path) -> str:
    """When the worker last wrote a record: the time its record ends. (Its decompiler
    process may write views later.)"""
    views = Layout(folder).views
    times = [p.stat().st_mtime for p in folder.glob("**/*.json") if views not in p.parents]
    moment = datetime.datetime.fromtimestamp(max(times), datetime.timezone.utc)
    return moment.isoformat(timespec="milliseconds")
