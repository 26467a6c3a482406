"""capture() and run_script in this process: errors, exit codes, missing internals."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import depyf_report
from depyf_report.capture import adapter, run_script
from depyf_report.capture.recorder import Recorder
from depyf_report.dump import load_dump
from depyf_report.errors import UserError

from .conftest import validate_dump

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _compile_something():
    def add_one(x):
        return x + 1

    return torch.compile(add_one, backend="eager")(torch.zeros(2))


def test_capture_is_callable_from_the_package(tmp_path):
    with depyf_report.capture(tmp_path / "d") as report:
        assert _compile_something().tolist() == [1.0, 1.0]
    assert report == tmp_path / "d" == report.path  # a Report stands for its folder
    (process,) = load_dump(report).processes
    assert process.manifest.status == "complete"
    assert [f.name for f in process.functions.values()] == ["add_one"]
    validate_dump(report.path)


def test_capture_inside_capture_is_refused(tmp_path):
    inner = depyf_report.capture(tmp_path / "inner")
    with depyf_report.capture(tmp_path / "outer"), pytest.raises(UserError, match="inside another"):
        inner.__enter__()


def test_a_previous_dump_is_refused(tmp_path):
    with depyf_report.capture(tmp_path / "d"):
        pass
    with pytest.raises(UserError, match="already holds a previous dump"):
        depyf_report.capture(tmp_path / "d").__enter__()


def test_an_unwritable_place_is_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UserError, match="cannot create the dump directory"):
        depyf_report.capture(blocker / "d").__enter__()


def test_an_exception_in_the_block_still_closes_the_dump(tmp_path):
    with pytest.raises(ZeroDivisionError), depyf_report.capture(tmp_path / "d"):
        _compile_something()
        1 / 0  # noqa: B018
    manifest = load_dump(tmp_path / "d").processes[0].manifest
    assert manifest.status == "failed" and manifest.ended is not None


def test_a_missing_internal_is_recorded_and_the_rest_captured(tmp_path, monkeypatch):
    def missing(hook):
        raise adapter.Unavailable("register_bytecode_hook: not in this torch")

    monkeypatch.setattr(adapter, "add_bytecode_hook", missing)
    with depyf_report.capture(tmp_path / "d"):
        _compile_something()
    process = load_dump(tmp_path / "d").processes[0]
    assert [(u.artifact, u.reason) for u in process.manifest.unavailable] == [
        ("bytecode", "register_bytecode_hook: not in this torch")
    ]
    assert process.functions == {}  # the hook is what reports code objects
    (graph,) = process.graphs.values()
    assert graph.stages[0].kind == "dynamo"
    assert list(process.compiles) == ["0/0"]


def test_an_error_in_capture_never_reaches_the_program(tmp_path, monkeypatch):
    def broken(self, code, new_code):
        raise RuntimeError("capture bug")

    monkeypatch.setattr(Recorder, "on_bytecode", broken)
    with depyf_report.capture(tmp_path / "d"):
        assert _compile_something().tolist() == [1.0, 1.0]
    notes = load_dump(tmp_path / "d").processes[0].manifest.notes
    assert notes == ["bytecode hook failed: RuntimeError: capture bug"]


def test_run_script_passes_arguments_and_exit_code(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            import torch
            torch.compile(lambda x: x * 3, backend="eager")(torch.ones(1))
            json.dump(sys.argv, open(sys.argv[1], "w"))
            sys.exit(int(sys.argv[2]))
            """
        )
    )
    seen = tmp_path / "argv.json"
    assert run_script(tmp_path / "d", [str(script), str(seen), "3"]) == 3
    assert json.loads(seen.read_text()) == [str(script), str(seen), "3"]
    process = load_dump(tmp_path / "d").processes[0]
    assert process.manifest.argv == [str(script), str(seen), "3"]
    assert process.manifest.status == "failed"  # a nonzero exit is a failed run
    assert len(process.graphs) == 1


@pytest.mark.parametrize(("code", "status"), [(0, "complete"), (None, "complete"), (2, "failed")])
def test_sys_exit_inside_capture_sets_the_status_by_its_code(tmp_path, code, status):
    with pytest.raises(SystemExit), depyf_report.capture(tmp_path / "d"):
        _compile_something()
        sys.exit(code)
    assert load_dump(tmp_path / "d").processes[0].manifest.status == status


def _write(path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.parametrize("ending", ["", "sys.exit(0)", "sys.exit()"])
def test_a_script_that_exits_with_zero_completes(tmp_path, ending):
    script = _write(
        tmp_path / "script.py",
        f"""
        import sys, torch
        torch.compile(lambda x: x + 1, backend="eager")(torch.ones(1))
        {ending}
        """,
    )
    assert run_script(tmp_path / "d", [str(script)]) == 0
    assert load_dump(tmp_path / "d").processes[0].manifest.status == "complete"


def test_a_script_that_raises_fails_and_the_error_propagates(tmp_path):
    script = _write(
        tmp_path / "script.py",
        """
        import torch
        torch.compile(lambda x: x + 1, backend="eager")(torch.ones(1))
        raise ValueError("the user's own error")
        """,
    )
    with pytest.raises(ValueError, match="the user's own error"):
        run_script(tmp_path / "d", [str(script)])
    process = load_dump(tmp_path / "d").processes[0]
    assert process.manifest.status == "failed" and process.manifest.ended is not None
    assert len(process.graphs) == 1


def test_the_run_command_passes_a_failing_exit_code_through(tmp_path):
    script = _write(tmp_path / "script.py", "raise SystemExit(5)\n")
    dump = tmp_path / "d"
    command = [sys.executable, "-m", "depyf_report", "run", "-o", str(dump), "--", "python"]
    assert subprocess.run([*command, str(script)], capture_output=True).returncode == 5
    assert load_dump(dump).processes[0].manifest.status == "failed"
    validate_dump(dump)


MODULE_MAIN = """
import json, sys
import torch
from . import helper

torch.compile(helper.triple, backend="eager")(torch.ones(1))
json.dump({"argv": sys.argv, "name": __name__, "package": __package__}, open(sys.argv[1], "w"))
"""


@pytest.mark.parametrize("module", ["app.main", "app"])
def test_run_script_runs_a_module_as_python_m_does(tmp_path, monkeypatch, module):
    package = tmp_path / "project" / "app"
    _write(package / "__init__.py", "")
    _write(package / "helper.py", "def triple(x):\n    return x * 3\n")
    main = _write(package / "main.py", MODULE_MAIN)
    _write(package / "__main__.py", MODULE_MAIN)
    main_file = main if module == "app.main" else package / "__main__.py"
    monkeypatch.chdir(tmp_path / "project")
    seen = tmp_path / "seen.json"
    try:
        assert run_script(tmp_path / "d", ["-m", module, str(seen), "x"]) == 0
    finally:  # the next case imports a new `app` from its own folder
        for name in [n for n in sys.modules if n == "app" or n.startswith("app.")]:
            del sys.modules[name]
    ran = json.loads(seen.read_text())
    assert ran["argv"] == [str(main_file), str(seen), "x"]
    assert ran["name"] == "__main__" and ran["package"] == "app"
    process = load_dump(tmp_path / "d").processes[0]
    assert process.manifest.argv == [str(main_file), str(seen), "x"]
    assert process.manifest.status == "complete"
    assert "triple" in process.functions


def test_run_script_with_an_unknown_module_is_a_user_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match="no module named 'nowhere_to_be_found'"):
        run_script(tmp_path / "d", ["-m", "nowhere_to_be_found"])
    _write(tmp_path / "bare_package" / "__init__.py", "")
    with pytest.raises(UserError, match="bare_package: it is a package without __main__"):
        run_script(tmp_path / "d", ["-m", "bare_package"])
    sys.modules.pop("bare_package", None)


def test_run_script_without_a_script_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="no such script"):
        run_script(tmp_path / "d", [str(tmp_path / "missing.py")])


def test_importing_capture_does_not_load_torch():
    probe = "import sys, depyf_report.capture; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _capture_at_the_same_moment(root, barrier, results) -> None:
    barrier.wait()
    try:
        with depyf_report.capture(root):
            pass
        results.put("recorded")
    except UserError as error:
        results.put(f"refused: {error}")


def test_two_captures_racing_into_one_folder_one_is_refused(tmp_path):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    for attempt in range(8):
        root = tmp_path / f"d{attempt}"
        barrier, results = context.Barrier(2), context.Queue()
        racers = [
            context.Process(target=_capture_at_the_same_moment, args=(root, barrier, results))
            for _ in range(2)
        ]
        for racer in racers:
            racer.start()
        outcomes = sorted(results.get(timeout=120) for _ in racers)
        for racer in racers:
            racer.join(60)
        assert outcomes[0] == "recorded", outcomes
        assert outcomes[1].startswith("refused: ") and "already holds" in outcomes[1], outcomes
        assert load_dump(root).processes[0].manifest.status == "complete"
