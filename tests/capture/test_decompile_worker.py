"""The decompiler process capture talks to: its framing and the view files it writes."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from depyf_report.capture import decompile_worker as worker
from depyf_report.capture.views import worker_command
from depyf_report.dump import Layout, ViewFile


def _serve(root: Path, requests: bytes) -> Layout:
    layout = Layout(root)
    layout.views.mkdir(parents=True)
    layout.decompiler_pid.write_text(str(os.getpid()))
    worker.serve(root, io.BytesIO(requests))
    return layout


def _view(layout: Layout, name: str) -> dict:
    return json.loads(layout.view(name).read_text(encoding="utf-8"))


def test_each_request_gets_a_view_file_with_source_and_listing(tmp_path):
    def first(x):
        return x + 1

    def second(items):
        return [i for i in items if i]

    requests = worker.frame("a", first.__code__) + worker.frame("b", second.__code__)
    layout = _serve(tmp_path, requests + worker.END)
    assert not layout.decompiler_pid.exists()  # removed once every view is written
    for name, function in (("a", "first"), ("b", "second")):
        view = _view(layout, name)
        assert set(view) == {"decompiled", "error", "dis"}  # a ViewFile, nothing more
        assert view["error"] is None
        assert f"def {function}(" in view["decompiled"]
        compile(view["decompiled"], function, "exec")
        assert "RETURN" in view["dis"]
    assert sorted(p.name for p in layout.views.iterdir()) == ["a.json", "b.json"]  # no temporaries


def test_the_session_ends_at_end_of_input_without_the_end_frame(tmp_path):
    layout = _serve(tmp_path, worker.frame("7", compile("x = 1", "m", "exec")))
    assert _view(layout, "7")["decompiled"] == "x = 1\n"


def test_a_constant_marshal_cannot_write_is_refused_before_sending():
    code = compile("x = 1", "m", "exec").replace(co_consts=(object(), None))
    with pytest.raises(ValueError):
        worker.frame("0", code)


def test_a_code_object_that_takes_too_long_gets_a_reason(monkeypatch):
    def endless(code, dynamo=False):
        while True:
            pass

    monkeypatch.setattr(worker, "views", endless)
    previous = signal.signal(signal.SIGALRM, worker._took_too_long)
    try:
        view = worker._views_within(compile("x = 1", "m", "exec"), False, 0.2)
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert isinstance(view, ViewFile)
    assert view.decompiled is None
    assert view.error == "decompiling took longer than 0.2 s; stopped"
    assert "LOAD_CONST" in view.dis


def test_the_process_runs_on_its_own_with_the_decompiler_and_the_dump_alone(tmp_path):
    layout = Layout(tmp_path)
    layout.views.mkdir()
    # Started as capture starts it, from another folder; at the end it says what it
    # loaded (on stderr: the process answers nothing on stdout).
    command = worker_command(layout)
    command[2] += "print('loaded', *sorted(m for m in sys.modules if 'depyf_report' in m))\n"
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
    layout.decompiler_pid.write_text(str(process.pid))
    request = worker.frame("0", compile("y = 2", "m", "exec"))
    err = process.communicate(request, timeout=60)[1].decode("utf-8", "replace")
    assert process.returncode == 0, err
    assert _view(layout, "0")["decompiled"] == "y = 2\n"
    assert not layout.decompiler_pid.exists()
    [loaded] = [line.split()[1:] for line in err.splitlines() if line.startswith("loaded ")]
    parts = {name.split(".")[1] for name in loaded if name.count(".") >= 1}
    assert parts == {"capture", "decompiler", "dump", "_version", "errors", "files"}, parts
    assert [name for name in loaded if name.startswith("depyf_report.capture.")] == [
        "depyf_report.capture.decompile_worker"
    ]
