"""One capture: open the dump, hook into torch, record, and close the dump.

Every hook body runs inside ``_guarded``: an error in capture becomes a note in
the manifest and never reaches, or changes, the user's program.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import threading

from ..dump import Unavailable
from ..errors import UserError
from . import adapter, ending, trace
from .recorder import Recorder
from .spawned import wrap_spawned_workers
from .views import CodeViews
from .writer import DumpWriter, absolute, new_manifest, now, prepare_directory, process_name

_active: CaptureSession | None = None
_MAX_NOTES = 20


class _TraceHandler(logging.Handler):
    def __init__(self, session: CaptureSession) -> None:
        super().__init__(logging.DEBUG)
        self.session = session

    def emit(self, record: logging.LogRecord) -> None:
        metadata, payload = adapter.record_fields(record)
        self.session.guarded("structured trace", "on_trace", metadata, payload)

    def handleError(self, record) -> None:  # logging must never print capture's errors
        pass


class CaptureSession:
    def __init__(self, dump_dir, process: str | None = None, command=None) -> None:
        # Absolute once, at the start: the program, and so every later write and the
        # decompiler process, may run from another directory.
        self.root = absolute(dump_dir)
        self.process = process  # None: decided by the rank (see writer.process_name)
        self.command = command  # the command line to record; None: this interpreter's
        self.parent_pid: int | None = None  # set for a worker that records on its own
        self.removers: list = []
        self.lock = threading.RLock()
        self.failed_child: int | None = None  # a forked worker that could not record

    # --- opening and closing ---------------------------------------------------

    def open(self) -> None:
        global _active
        if _active is not None:
            raise UserError(
                f"capture is already recording into {_active.root}; "
                "a capture cannot run inside another"
            )
        rank, world_size = adapter.distributed_rank()
        process = self.process if self.process is not None else process_name(rank)
        prepare_directory(self.root, process)
        self.pid = os.getpid()
        manifest = new_manifest(process, rank, world_size, self.command)
        self.writer = DumpWriter(self.root, process, manifest)
        self.writer.manifest.parent_pid = self.parent_pid
        self.writer.claim()
        try:
            self._start_recording()
        except BaseException:
            self._remove_hooks()
            raise
        _active = self

    def _start_recording(self) -> None:
        manifest = self.writer.manifest
        manifest.torch_version = adapter.torch_version()
        for artifact, reason in adapter.missing_features():
            self._unavailable(artifact, reason)
        self.recorder = Recorder(self.writer, self._code_views())
        self.counters_before = self._counters()
        self._install("bytecode", adapter.add_bytecode_hook, self._on_bytecode)
        add_trace_handler = functools.partial(adapter.add_trace_handler, reads=trace.reads)
        self._install("structured trace", add_trace_handler, _TraceHandler(self))
        self._install("provenance", lambda _: adapter.track_provenance(), None)
        self.removers.append(wrap_spawned_workers(str(self.root), self.pid))
        self.writer.write_manifest()

    def _install(self, artifact: str, add, callback) -> None:
        try:
            self.removers.append(add(callback))
        except adapter.Unavailable as missing:
            self._unavailable(artifact, str(missing))

    def close(self, failed: bool) -> None:
        global _active
        try:
            self.guarded("live cache entries", "verify_entries")
            self._remove_hooks()
            self._finish_views()
            ending.close_ended_workers(self.root, self.pid)
            manifest = self.writer.manifest
            manifest.counters = _subtract(self._counters(), self.counters_before)
            manifest.status = "failed" if failed else "complete"
            manifest.ended = now()
            self.writer.write_manifest()
        finally:
            _active = None

    def _code_views(self) -> CodeViews:
        views = CodeViews(self.writer.layout)
        views.start()
        if views.broken:
            self._note(f"decompiling in this process: {views.broken}")
        return views

    def _finish_views(self) -> None:
        views = self.recorder.views
        views.finish()
        if views.broken and views.worker is not None:
            self._note(
                f"{views.broken}: the views it had not written stay pending, "
                "and later ones were decompiled in this process"
            )

    def _remove_hooks(self) -> None:
        while self.removers:
            self.removers.pop()()

    # --- hooks ---------------------------------------------------------------------

    def _on_bytecode(self, code, new_code):
        self.guarded("bytecode hook", "on_bytecode", code, new_code)
        return None  # never replace the code Dynamo built

    def guarded(self, where: str, method: str, *args) -> None:
        """Call ``self.recorder.<method>(*args)``; no error ever leaves here."""
        with self.lock:
            if os.getpid() != self.pid and not self._became_child():
                return
            try:
                getattr(self.recorder, method)(*args)
            except adapter.Unavailable as missing:
                self._unavailable(where, str(missing))
            except Exception as error:
                self._note(f"{where} failed: {type(error).__name__}: {error}")

    def _became_child(self) -> bool:
        """A forked worker records into its own folder, never over its parent's.

        Returns False (and the worker records nothing) when that folder cannot
        be made; the parent's files are never touched from here.
        """
        from multiprocessing import util

        pid = os.getpid()
        if pid == self.failed_child:
            return False
        rank_info, process = adapter.distributed_rank(), f"pid-{pid}"
        try:
            prepare_directory(self.root, process)
            writer = DumpWriter(self.root, process, new_manifest(process, *rank_info))
            writer.manifest.parent_pid = self.pid
            writer.manifest.torch_version = adapter.torch_version()
            writer.claim()
        except Exception:
            self.failed_child = pid
            return False
        self.pid, self.writer = pid, writer
        self.recorder = Recorder(writer, self._code_views())
        # multiprocessing workers leave through os._exit: close at its exit hook (one
        # that SIGTERM ends has its record closed by its parent, ending.py).
        util.Finalize(None, self._close_child, exitpriority=100)
        return True

    def _close_child(self) -> None:
        if os.getpid() == self.pid:
            self.close(failed=False)

    def _unavailable(self, artifact: str, reason: str) -> None:
        manifest = self.writer.manifest
        if all(u.artifact != artifact for u in manifest.unavailable):
            manifest.unavailable.append(Unavailable(artifact, reason))
            self._write_manifest()

    def _note(self, text: str) -> None:
        notes = self.writer.manifest.notes
        if len(notes) < _MAX_NOTES and text not in notes:
            notes.append(text)
            self._write_manifest()

    def _write_manifest(self) -> None:
        with contextlib.suppress(OSError):
            self.writer.write_manifest()

    def _counters(self) -> dict:
        try:
            return adapter.counters()
        except adapter.Unavailable as missing:
            self._unavailable("counters", str(missing))
            return {}


def _subtract(after: dict, before: dict) -> dict:
    """Counts made during the capture alone."""
    result = {}
    for group, values in after.items():
        old = before.get(group, {})
        changed = {k: v - old.get(k, 0) for k, v in values.items() if v != old.get(k, 0)}
        if changed:
            result[group] = changed
    return result
