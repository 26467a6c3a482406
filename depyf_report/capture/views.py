"""Decompiled source and ``dis`` listings, made off the compile path.

Decompiling a code object costs tens of milliseconds, while the user's program waits
on the compile that made it. So capture hands each code object to a decompiler
process of its own (``decompiler/service.py``) on the other core, and fills the
record in when the answer comes back. Until then the record says it is pending, so a
dump whose process was killed still renders and says why the source is missing.

Where no such process can run (no usable ``sys.executable``, a constant marshal
cannot write), the work is done in-process, as before.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from ..decompiler import service
from ..model import CodeView

PENDING = "the capture ended before the decompiler answered"
# How long closing a capture waits for the decompiler to finish what it was given.
FINISH_SECONDS = 60.0
_PACKAGE_PARENT = Path(__file__).resolve().parents[2]
# The decompiler alone: the package's __init__ would load capture and the data model
# too, a third of the process's start-up, taken from the core the program runs beside.
_SERVE = (
    "import sys, types; "
    "package = types.ModuleType('depyf_report'); package.__path__ = [{package!r}]; "
    "sys.modules['depyf_report'] = package; "
    "from depyf_report.decompiler.service import serve; serve()"
)


class CodeViews:
    """Fills ``CodeView`` records, through a decompiler process when one can run."""

    def __init__(self, lock: threading.RLock) -> None:
        self.lock = lock  # held while a record is changed or written
        self.pending: dict[int, tuple[CodeView, Callable[[], None]]] = {}
        self.keys = itertools.count()
        self.worker: subprocess.Popen | None = None
        self.outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.broken: str | None = None  # why the decompiler process is not used

    def start(self) -> None:
        """Start the decompiler process now, so its start-up overlaps the program's."""
        try:
            self.worker = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _SERVE.format(package=str(_PACKAGE_PARENT / "depyf_report")),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                # `-c` puts the working directory first on sys.path: this one holds the
                # depyf_report that is running now, and no file of the user's.
                cwd=_PACKAGE_PARENT,
            )
        except OSError as error:
            self.broken = f"cannot start {sys.executable}: {error}"
            return
        self.threads = [
            threading.Thread(target=self._send, name="depyf-report-send", daemon=True),
            threading.Thread(target=self._receive, name="depyf-report-receive", daemon=True),
        ]
        for thread in self.threads:
            thread.start()

    def fill(self, view: CodeView, code, written: Callable[[], None]) -> None:
        """Fill ``view`` from ``code``, now or later; ``written()`` saves the record
        holding it after a later fill."""
        try:
            request = service.frame(key := next(self.keys), code)
        except ValueError:  # a constant marshal cannot carry: decompile here
            request = None
        if request is None or self.worker is None or self.broken:
            _apply(view, service.views(code))
            return
        view.decompile_error = PENDING
        self.pending[key] = (view, written)
        self.outbox.put(request)

    def finish(self) -> None:
        """Wait for every answer (a bounded time), then stop the decompiler process."""
        if self.worker is None:
            return
        self.outbox.put(None)
        deadline = time.monotonic() + FINISH_SECONDS
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        if self.worker.poll() is None:
            self.worker.kill()
            self._give_up(
                f"still being decompiled after {FINISH_SECONDS:g} s, when the capture ended"
            )
        self._give_up(_stopped(self.worker.wait()))  # asked after the process died
        self.worker = None

    def _send(self) -> None:
        pipe = self.worker.stdin
        try:
            while (request := self.outbox.get()) is not None:
                pipe.write(request)
                pipe.flush()
            pipe.write(service.END)
            pipe.close()
        except OSError:
            pass  # the process died; _receive reports it

    def _receive(self) -> None:
        for line in self.worker.stdout:
            with self.lock:
                try:
                    answer = json.loads(line)
                    view, written = self.pending.pop(answer["key"])
                    _apply(view, answer)
                    written()
                except Exception:  # a record that cannot be saved keeps saying "pending"
                    pass
        code = self.worker.wait()
        if code != 0:
            with self.lock:
                self.broken = _stopped(code)  # later code objects are decompiled here
                self._give_up(self.broken)

    def _give_up(self, why: str) -> None:
        with self.lock:
            for view, written in self.pending.values():
                view.decompile_error = why
                with contextlib.suppress(Exception):
                    written()
            self.pending.clear()


def _stopped(exit_code: int) -> str:
    return f"the decompiler process stopped (exit code {exit_code})"


def _apply(view: CodeView, answer: dict) -> None:
    view.decompiled = answer["decompiled"]
    view.decompile_error = answer["error"]
    view.dis = answer["dis"]
