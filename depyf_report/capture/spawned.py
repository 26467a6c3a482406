"""Workers that start a fresh interpreter (the spawn and forkserver start methods).

A forked worker inherits the running capture (``CaptureSession._became_child``);
a spawned one starts with none, so ``torch.multiprocessing.spawn`` and spawn
pools would go unrecorded. While a capture runs, ``Process.start`` wraps such a
worker's target in ``SpawnedTarget``, which travels to the new interpreter with
it (by pickle, as the target itself does) and records the worker into
``processes/pid-<pid>/`` of the same dump around the call.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.process import BaseProcess


class SpawnedTarget:
    """A worker's target that records the worker's compiles into the parent's dump."""

    def __init__(self, target: Callable, root: str, parent_pid: int) -> None:
        self.target, self.root, self.parent_pid = target, root, parent_pid

    def __call__(self, *args, **kwargs):
        from .session import CaptureSession

        session = CaptureSession(self.root, process=f"pid-{os.getpid()}")
        session.parent_pid = self.parent_pid
        try:
            session.open()
        except Exception:  # the worker runs as it would have; only its record is lost
            return self.target(*args, **kwargs)
        failed = True
        try:
            result = self.target(*args, **kwargs)
            failed = False
            return result
        finally:
            session.close(failed=failed)


def wrap_spawned_workers(root: str, parent_pid: int) -> Callable[[], None]:
    """Make workers started from now on record; returns the undo."""
    original = BaseProcess.start

    def start(self: BaseProcess) -> None:
        target = getattr(self, "_target", None)
        if target is not None and not isinstance(target, SpawnedTarget) and _starts_fresh(self):
            self._target = SpawnedTarget(target, root, parent_pid)
        original(self)

    BaseProcess.start = start
    return lambda: setattr(BaseProcess, "start", original)


def _starts_fresh(process: BaseProcess) -> bool:
    method = getattr(process, "_start_method", None)  # set by a context's Process class
    if method is None:  # multiprocessing.Process: the default context decides
        method = multiprocessing.get_context().get_start_method()
    return method != "fork"
