"""Decompiled source and ``dis`` listings, made off the compile path.

Decompiling a code object costs tens of milliseconds, while the user's program waits
on the compile that made it. So capture hands each code object to a decompiler
process of its own (``decompile_worker.py``), which writes the view into the dump
as a file of its own. The record names that file and says the view is pending; the
dump reader fills it in from the file, so neither the compile nor the end of the
capture waits for the decompiler, and a killed program's dump still renders.

Where no such process can run (no usable ``sys.executable``, a constant marshal
cannot write), the work is done in-process, as before.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from ..dump import CodeView, Layout, decompiler_pid_text
from . import decompile_worker

try:
    import fcntl
except ImportError:  # Windows: a reader of the dump goes by the process id alone
    fcntl = None

PENDING = "the decompiler had not written this view when the dump was read"
# How long closing a capture waits to hand the last requests over (not for answers).
SEND_SECONDS = 10.0
_PACKAGE_PARENT = Path(__file__).resolve().parents[2]
# The worker, the decompiler and the dump package alone: the __init__ of depyf_report
# and of capture would load all of capture too, a third of the process's start-up,
# taken from the core the program runs beside. So both stand empty in sys.modules.
_SERVE = """\
import sys, types
for name, path in {packages!r}:
    sys.modules[name] = package = types.ModuleType(name)
    package.__path__ = [path]
from depyf_report.capture.decompile_worker import serve
serve(*sys.argv[1:])
"""


def worker_command(layout: Layout) -> list[str]:
    """The command line of the decompiler process that writes ``layout``'s views."""
    package = _PACKAGE_PARENT / "depyf_report"
    packages = [("depyf_report", str(package)), ("depyf_report.capture", str(package / "capture"))]
    return [sys.executable, "-c", _SERVE.format(packages=packages), str(layout.root)]


class CodeViews:
    """Fills ``CodeView`` records, through a decompiler process when one can run."""

    def __init__(self, layout: Layout) -> None:
        # Absolute (CaptureSession made it so): the decompiler process runs in
        # another directory, and the program may change its own.
        self.layout = layout  # view files go to layout.views
        self.names = itertools.count()
        self.worker: subprocess.Popen | None = None
        self.outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.sender: threading.Thread | None = None
        # a compile thread and the capture's end; re-entrant, as a signal handler of
        # the program's may end it, and so close the capture, in the thread holding it
        self.sender_lock = threading.RLock()
        self.broken: str | None = None  # why the decompiler process is not used

    def start(self) -> None:
        """Start the decompiler process now, so its start-up overlaps the program's."""
        pid_file = self.layout.decompiler_pid
        try:
            self.layout.views.mkdir(parents=True, exist_ok=True)
            # Written here, not by the process, so a reader who comes before the
            # process has started still knows to wait; the process removes it.
            held = _locked(pid_file)
        except OSError as error:
            self.broken = f"cannot write {pid_file}: {error}"
            return
        try:
            self.worker = subprocess.Popen(
                worker_command(self.layout),
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                # `-c` puts the working directory first on sys.path: this one holds the
                # depyf_report that is running now, and no file of the user's.
                cwd=_PACKAGE_PARENT,
                # The process inherits the pid file's lock and holds it until it ends.
                pass_fds=(held,),
            )
        except OSError as error:
            os.close(held)
            pid_file.unlink(missing_ok=True)
            self.broken = f"cannot start {sys.executable}: {error}"
            return
        with os.fdopen(held, "w") as file:  # closing ours leaves the process's lock
            file.write(decompiler_pid_text(self.worker.pid))
        # The thread that feeds the pipe starts with the first request: starting it now
        # would wait on the scheduler while the new process takes the other core.
        self.sender = threading.Thread(target=self._send, name="depyf-report-send", daemon=True)

    def fill(self, view: CodeView, code, dynamo: bool = False) -> None:
        """Fill ``view`` from ``code``: now, or by naming the file the decompiler
        process will write it to. ``dynamo``: Dynamo's transformed code."""
        name = str(next(self.names))
        try:
            request = decompile_worker.frame(name, code, dynamo)
        except ValueError:  # a constant marshal cannot carry: decompile here
            request = None
        if request is None or self.worker is None or self.broken:
            view.fill(decompile_worker.views(code, dynamo))
            return
        view.file = self.layout.view_file(name)
        view.decompile_error = PENDING
        self.outbox.put(request)
        self._start_sender()

    def finish(self) -> None:
        """Hand the last requests over; the decompiler process finishes on its own."""
        if self.sender is None:
            return
        self.outbox.put(None)
        self._start_sender()  # if nothing was sent, the end still must be
        self.sender.join(SEND_SECONDS)
        self.sender = None

    def _start_sender(self) -> None:
        with self.sender_lock:
            if self.sender is not None and self.sender.ident is None:
                with _signals_left_to_the_program():
                    self.sender.start()

    def _send(self) -> None:
        pipe = self.worker.stdin
        try:
            while (request := self.outbox.get()) is not None:
                pipe.write(request)
                pipe.flush()
            pipe.write(decompile_worker.END)
            pipe.close()
        except OSError:  # the process died: what it did not write stays pending
            self.broken = _stopped(self.worker.wait())


# Faults a thread raises on itself; blocking them would hide a crash.
_FAULTS = frozenset(
    getattr(signal, name)
    for name in ("SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL")
    if hasattr(signal, name)
)


@contextlib.contextmanager
def _signals_left_to_the_program() -> Iterator[None]:
    """Threads started inside block the signals sent to the process.

    The kernel hands such a signal to any thread that does not block it, and only a
    signal that lands on the main thread wakes it from ``time.sleep()`` or a read to run
    Python's handler. A program with no threads of its own must see its signals as
    before: a worker terminated while asleep must not sleep on (`Pool.terminate()`).
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals() - _FAULTS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _locked(pid_file: Path) -> int:
    """The pid file, new, empty and locked (where the platform locks files)."""
    held = os.open(pid_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    if fcntl is not None:
        with contextlib.suppress(OSError):  # no locks here: readers go by the id
            fcntl.flock(held, fcntl.LOCK_EX)
    return held


def _stopped(exit_code: int) -> str:
    return f"the decompiler process stopped (exit code {exit_code})"
