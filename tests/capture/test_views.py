"""Decompiling off the compile path: the decompiler process, and what happens without it."""

from __future__ import annotations

import os
import signal
import socket
import stat
import sys
import time
from pathlib import Path

import pytest

from depyf_report.capture.views import PENDING, CodeViews
from depyf_report.dump import (
    DECOMPILER_PID,
    CodeView,
    Layout,
    ViewFile,
    decompiler_pid_text,
    from_json,
    load,
    wait_for_decompiler,
)


def _sample(x, ys):
    total = 0
    for y in ys:
        if y > x:
            total += y
    return total


def _fill(code_views: CodeViews, n: int = 3) -> list[CodeView]:
    filled = [CodeView(name=f"view{i}") for i in range(n)]
    for view in filled:
        code_views.fill(view, _sample.__code__)
    return filled


def _started(tmp_path) -> CodeViews:
    code_views = CodeViews(Layout(tmp_path))
    code_views.start()
    return code_views


def _written(layout: Layout, view: CodeView) -> ViewFile:
    import json

    return from_json(ViewFile, json.loads((layout.root / view.file).read_text()))


def test_views_are_pending_and_the_decompiler_process_writes_their_files(tmp_path):
    code_views = _started(tmp_path)
    filled = _fill(code_views)
    assert [v.decompile_error for v in filled] == [PENDING] * 3
    assert [v.file for v in filled] == ["views/0.json", "views/1.json", "views/2.json"]
    code_views.finish()  # returns without waiting for the answers
    assert wait_for_decompiler(code_views.layout, timeout=60)
    assert not (tmp_path / "views" / DECOMPILER_PID).exists()
    for view in filled:
        written = _written(code_views.layout, view)
        assert written.error is None
        assert "def _sample(x, ys):" in written.decompiled
        assert "FOR_ITER" in written.dis


def test_a_close_from_a_signal_that_came_while_a_view_was_sent_finishes(tmp_path):
    """SIGTERM's handler closes the capture in the main thread, which may be inside
    ``fill`` starting the sender: the close takes the sender's lock again and must
    not wait on itself (the worker would never end)."""
    code_views = _started(tmp_path)
    filled = _fill(code_views, 1)

    def stuck(signum, frame):
        raise TimeoutError("the close waited on a lock its own thread holds")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.setitimer(signal.ITIMER_REAL, 5)
    try:
        with code_views.sender_lock:  # where the handler interrupts ``_start_sender``
            code_views.finish()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert wait_for_decompiler(code_views.layout, timeout=60)
    assert _written(code_views.layout, filled[0]).error is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_sender_thread_leaves_the_programs_signals_to_its_main_thread(tmp_path):
    """A signal sent to the process goes to any thread that does not block it, and one
    that lands on the sender never wakes a main thread asleep to run its handler: a
    terminated worker slept on (seen as a flaky ``test_processes`` under load)."""
    main_before = _blocked_signals(os.getpid())
    code_views = _started(tmp_path)
    _fill(code_views, 1)
    blocked = _blocked_signals(code_views.sender.native_id)
    code_views.finish()
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM, signal.SIGUSR1, signal.SIGCHLD):
        assert blocked & (1 << (signum - 1)), signal.Signals(signum).name
    assert not blocked & (1 << (signal.SIGSEGV - 1))  # a fault in the thread still crashes
    assert _blocked_signals(os.getpid()) == main_before  # the main thread's are as they were


def _blocked_signals(thread_id: int) -> int:
    """The signal mask of one of this process's threads, as a bit set (Linux)."""
    status = Path(f"/proc/self/task/{thread_id}/status").read_text()
    return int(next(ln for ln in status.splitlines() if ln.startswith("SigBlk:")).split()[1], 16)


def test_without_a_python_to_run_the_work_is_done_in_process(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    code_views = _started(tmp_path)
    [view] = _fill(code_views, 1)
    assert "def _sample(x, ys):" in view.decompiled
    assert view.file is None
    assert "cannot start /nonexistent/python" in code_views.broken
    code_views.finish()


def test_after_the_decompiler_process_dies_the_work_is_done_in_process(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", "/bin/false")
    code_views = _started(tmp_path)
    code_views.worker.wait()
    sent = _fill(code_views, 1)
    code_views.finish()
    assert code_views.broken == "the decompiler process stopped (exit code 1)"
    assert sent[0].decompile_error == PENDING  # never written: stays pending
    assert wait_for_decompiler(code_views.layout, timeout=5)  # a dead process: no wait
    [later] = _fill(code_views, 1)
    assert "def _sample(x, ys):" in later.decompiled


def test_a_decompiler_that_never_finishes_is_waited_for_a_bounded_time(monkeypatch, tmp_path):
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\nexec sleep 60\n")
    silent.chmod(silent.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(sys, "executable", str(silent))
    code_views = _started(tmp_path)
    _fill(code_views, 1)
    code_views.finish()  # the capture does not wait for answers at all
    assert not wait_for_decompiler(code_views.layout, timeout=0.3)
    code_views.worker.kill()
    code_views.worker.wait()
    assert wait_for_decompiler(code_views.layout, timeout=0.3)  # killed: a stale pid file


def test_code_that_marshal_cannot_carry_is_decompiled_in_process(tmp_path):
    code = _sample.__code__.replace(co_consts=(*_sample.__code__.co_consts, object()))
    code_views = _started(tmp_path)
    view = CodeView(name="odd")
    code_views.fill(view, code)
    assert view.decompile_error != PENDING and view.dis and view.file is None
    code_views.finish()


def test_a_pid_file_from_another_machine_is_not_waited_for(tmp_path):
    layout = Layout(tmp_path)
    layout.views.mkdir()
    (layout.views / DECOMPILER_PID).write_text(f"{os.getpid()} some-other-host")
    assert wait_for_decompiler(layout, timeout=0.1)


@pytest.mark.parametrize("pid", [1, os.getpid()])
def test_a_pid_file_naming_a_live_stranger_is_not_waited_for(tmp_path, pid):
    layout = Layout(tmp_path)
    layout.views.mkdir()
    for text in (f"{pid} {socket.gethostname()}", decompiler_pid_text(pid)):
        (layout.views / DECOMPILER_PID).write_text(text)
        assert wait_for_decompiler(layout, timeout=5)  # alive, but not a decompiler
        started = time.monotonic()
        wait_for_decompiler(layout)
        assert time.monotonic() - started < 1


def test_a_pid_file_that_is_not_a_regular_file_is_not_read(tmp_path):
    layout = Layout(tmp_path)
    layout.views.mkdir()
    os.mkfifo(layout.views / DECOMPILER_PID)  # reading it would block for ever
    assert wait_for_decompiler(layout, timeout=5)


def test_a_record_cannot_point_a_reader_outside_the_views_folder(tmp_path):
    layout = Layout(tmp_path)
    assert load._view_name(layout, "views/3.json") == "3.json"
    for crafted in ("../secret.json", "views/../../secret.json", "/etc/views/x.json", None):
        assert load._view_name(layout, crafted) is None
