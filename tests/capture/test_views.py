"""Decompiling off the compile path: the decompiler process, and what happens without it."""

from __future__ import annotations

import stat
import sys
import threading

from depyf_report.capture import views
from depyf_report.capture.views import PENDING, CodeViews
from depyf_report.model import CodeView


def _sample(x, ys):
    total = 0
    for y in ys:
        if y > x:
            total += y
    return total


def _fill(code_views: CodeViews, n: int = 3) -> tuple[list[CodeView], list[int]]:
    saved: list[int] = []
    filled = [CodeView(name=f"view{i}") for i in range(n)]
    for i, view in enumerate(filled):
        code_views.fill(view, _sample.__code__, lambda i=i: saved.append(i))
    return filled, saved


def _started(lock=None) -> CodeViews:
    code_views = CodeViews(lock or threading.RLock())
    code_views.start()
    return code_views


def test_views_are_pending_until_the_decompiler_answers_then_saved():
    lock = threading.RLock()
    code_views = _started(lock)
    with lock:  # answers wait for the lock, so nothing can arrive yet
        filled, saved = _fill(code_views)
        assert [v.decompile_error for v in filled] == [PENDING] * 3
    code_views.finish()
    assert sorted(saved) == [0, 1, 2]
    for view in filled:
        assert view.decompile_error is None
        assert "def _sample(x, ys):" in view.decompiled
        assert "FOR_ITER" in view.dis


def test_without_a_python_to_run_the_work_is_done_in_process(monkeypatch):
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    code_views = _started()
    filled, saved = _fill(code_views, 1)
    assert "def _sample(x, ys):" in filled[0].decompiled
    assert saved == []  # filled before the caller writes its record
    assert "cannot start /nonexistent/python" in code_views.broken
    code_views.finish()


def test_a_decompiler_process_that_dies_leaves_the_reason(monkeypatch):
    monkeypatch.setattr(sys, "executable", "/bin/false")
    lock = threading.RLock()
    with lock:  # asked before the death can be noticed
        code_views = _started(lock)
        filled, saved = _fill(code_views, 1)
    code_views.finish()
    assert saved == [0]
    assert filled[0].decompile_error == ("the decompiler process stopped (exit code 1)")
    # From then on the work is done in-process.
    later, _ = _fill(code_views, 1)
    assert "def _sample(x, ys):" in later[0].decompiled


def test_a_decompiler_that_never_answers_is_stopped_at_the_end(monkeypatch, tmp_path):
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\nexec sleep 60\n")
    silent.chmod(silent.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(sys, "executable", str(silent))
    monkeypatch.setattr(views, "FINISH_SECONDS", 0.5)
    code_views = _started()
    filled, saved = _fill(code_views, 1)
    code_views.finish()
    assert filled[0].decompile_error == "still being decompiled after 0.5 s, when the capture ended"
    assert saved == [0]


def test_code_that_marshal_cannot_carry_is_decompiled_in_process():
    code = _sample.__code__.replace(co_consts=(*_sample.__code__.co_consts, object()))
    code_views = _started()
    view = CodeView(name="odd")
    code_views.fill(view, code, lambda: None)
    assert view.decompile_error != PENDING and view.dis
    assert code_views.pending == {}  # nothing was sent
    code_views.finish()
