"""Decompile code objects sent over a pipe, in a process of its own, into view files.

Capture (``views.py``) runs this beside the user's program so that decompiling
never sits on the compile path, and so that a decompiler bug (a crash, a runaway
recursion) can never take the user's process down with it. The process writes each
answer into the dump itself, so the capture never waits for it: it may go on for a
moment after the user's program has ended, and a reader of the dump waits for it
(``dump/load.py``).

Protocol, on stdin: frames of a 4-byte little-endian length and that many bytes of
``marshal.dumps((name, code, dynamo))`` (``dynamo``: the code is Dynamo's transformed
code, decompiled with ``decompile(code, dynamo=True)``); a zero length or the end of input ends the session
once every view received is written. Each view is a ``ViewFile`` record, written
atomically to ``Layout.view(name)`` of the process folder it was started for. The
capturing process writes this process's id into ``Layout.decompiler_pid``; this
process removes it once it is done, so a reader knows when to stop waiting.

It needs the decompiler and the dump package alone: capture starts it without
loading the rest of depyf_report (see ``views.py``).
"""

from __future__ import annotations

import contextlib
import dis
import marshal
import os
import queue
import signal
import struct
import sys
import threading
from pathlib import Path

from ..decompiler import decompile
from ..dump import Layout, ViewFile, to_json, write_json

HEADER = struct.Struct("<I")
END = HEADER.pack(0)
# One code object that takes longer than this is a decompiler bug: give up on it so
# that the process, which may outlive the user's program, always ends.
SECONDS_PER_CODE = 60


def frame(name: str, code, dynamo: bool = False) -> bytes:
    """One request; raises ValueError when the code holds constants marshal cannot write."""
    blob = marshal.dumps((name, code, dynamo))
    return HEADER.pack(len(blob)) + blob


def views(code, dynamo: bool = False) -> ViewFile:
    """The decompiled source (or why there is none) and the ``dis`` listing of ``code``;
    ``dynamo``: code Dynamo wrote, simplified and with its source lines."""
    decompiled = error = None
    try:
        decompiled = decompile(code, dynamo=dynamo)
    except Exception as failure:
        error = f"{type(failure).__name__}: {failure}"
    return ViewFile(decompiled=decompiled, error=error, dis=_listing(code))


def _listing(code) -> str:
    try:
        return dis.Bytecode(code).dis()
    except Exception as error:
        return f"# dis failed: {type(error).__name__}: {error}"


class TookTooLong(BaseException):
    """Raised by the timer; a BaseException, so no ``except Exception`` inside swallows it."""


def serve(process_folder, requests=None, limit: float | None = None) -> None:
    """Write a view file into the dump's ``process_folder`` for every request read
    from ``requests`` (stdin when None, in the process of its own)."""
    layout = Layout(Path(process_folder))
    layout.views.mkdir(parents=True, exist_ok=True)
    standalone = requests is None
    if standalone:  # the process of its own: the user's program comes first
        with contextlib.suppress(OSError, AttributeError):
            os.nice(19)
        # Ctrl-C is for the user's program; this process ends on its own once the
        # capture, which closes on KeyboardInterrupt too, has sent everything.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if hasattr(signal, "setitimer"):  # not on Windows: there, no time limit
            signal.signal(signal.SIGALRM, _took_too_long)
            limit = SECONDS_PER_CODE
        sys.stdout = sys.stderr  # nothing is answered on stdout
    try:
        for name, code, dynamo in _received(requests or sys.stdin.buffer):
            write_json(layout.view(name), to_json(_views_within(code, dynamo, limit)))
    finally:
        layout.decompiler_pid.unlink(missing_ok=True)


def _received(requests):
    """The requests in order. A thread reads them as they come, so the capturing
    process never waits on a full pipe while a slow code object is decompiled."""
    inbox: queue.SimpleQueue = queue.SimpleQueue()

    def read() -> None:
        try:
            while True:
                header = requests.read(HEADER.size)
                if len(header) < HEADER.size:
                    break  # the capturing process is gone: finish what was sent
                (size,) = HEADER.unpack(header)
                if size == 0:
                    break
                inbox.put(marshal.loads(requests.read(size)))
        finally:
            inbox.put(None)

    threading.Thread(target=read, name="depyf-report-requests", daemon=True).start()
    while (request := inbox.get()) is not None:
        yield request


def _views_within(code, dynamo: bool, limit: float | None) -> ViewFile:
    if limit is None:
        return views(code, dynamo)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return views(code, dynamo)
    except TookTooLong:
        return ViewFile(
            decompiled=None,
            error=f"decompiling took longer than {limit:g} s; stopped",
            dis=dis.Bytecode(code).dis(),
        )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _took_too_long(signum, frame) -> None:
    raise TookTooLong
