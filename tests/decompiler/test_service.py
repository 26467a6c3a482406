"""The decompiler process capture talks to: its framing and the view files it writes."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from depyf_report.decompiler import service

REPO = Path(__file__).resolve().parents[2]


def _serve(folder: Path, requests: bytes) -> Path:
    pid_file = folder / "decompiler.pid"
    pid_file.write_text(str(os.getpid()))
    service.serve(folder, pid_file, io.BytesIO(requests))
    return pid_file


def _view(folder: Path, name: str) -> dict:
    return json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))


def test_each_request_gets_a_view_file_with_source_and_listing(tmp_path):
    def first(x):
        return x + 1

    def second(items):
        return [i for i in items if i]

    requests = service.frame("a", first.__code__) + service.frame("b", second.__code__)
    pid_file = _serve(tmp_path, requests + service.END)
    assert not pid_file.exists()  # removed once every view is written: readers stop waiting
    for name, function in (("a", "first"), ("b", "second")):
        view = _view(tmp_path, name)
        assert view["error"] is None
        assert f"def {function}(" in view["decompiled"]
        compile(view["decompiled"], function, "exec")
        assert "RETURN" in view["dis"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]  # no temporaries


def test_the_session_ends_at_end_of_input_without_the_end_frame(tmp_path):
    _serve(tmp_path, service.frame("7", compile("x = 1", "m", "exec")))
    assert _view(tmp_path, "7")["decompiled"] == "x = 1\n"


def test_a_constant_marshal_cannot_write_is_refused_before_sending():
    code = compile("x = 1", "m", "exec").replace(co_consts=(object(), None))
    with pytest.raises(ValueError):
        service.frame("0", code)


def test_a_code_object_that_takes_too_long_gets_a_reason(monkeypatch):
    def endless(code):
        while True:
            pass

    monkeypatch.setattr(service, "views", endless)
    previous = signal.signal(signal.SIGALRM, service._took_too_long)
    try:
        view = service._views_within(compile("x = 1", "m", "exec"), 0.2)
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert view["decompiled"] is None
    assert view["error"] == "decompiling took longer than 0.2 s; stopped"
    assert "LOAD_CONST" in view["dis"]


def test_the_process_runs_on_its_own(tmp_path):
    pid_file = tmp_path / "decompiler.pid"
    process = subprocess.Popen(
        [sys.executable, "-m", "depyf_report.decompiler.service", str(tmp_path), str(pid_file)],
        stdin=subprocess.PIPE,
        cwd=REPO,
    )
    pid_file.write_text(str(process.pid))
    process.communicate(service.frame("0", compile("y = 2", "m", "exec")), timeout=60)
    assert process.returncode == 0
    assert _view(tmp_path, "0")["decompiled"] == "y = 2\n"
    assert not pid_file.exists()
