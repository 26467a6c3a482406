"""prepare_debug on real torch.compile runs (eager and aot_eager only)."""

import contextlib
import importlib.util
import io
import json
import re
import sys
from pathlib import Path

import pytest
import torch
from dynamo_corpus import CORPUS, call

import depyf_report
from depyf_report.capture import adapter
from depyf_report.debug import session, substitute
from depyf_report.errors import UserError

pytestmark = pytest.mark.torch

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BACKENDS = ["eager", "aot_eager"]


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _example(name: str):
    spec = importlib.util.spec_from_file_location(f"debug_example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _printed(fn, *args) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args)
    return out.getvalue()


def _index(dump: Path) -> list[dict]:
    return json.loads((dump / "debug" / "index.json").read_text())["sources"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.py")))
def test_every_example_gives_the_same_results_under_prepare_debug(name, backend, tmp_path):
    # Each example's main() asserts compiled == eager; the printed lines must match too.
    expected = _printed(_example(name).main, backend)
    torch._dynamo.reset()
    with depyf_report.prepare_debug(tmp_path / "dump"):
        got = _printed(_example(name).main, backend)
    assert got == expected
    for record in _index(tmp_path / "dump") if (tmp_path / "dump/debug").exists() else []:
        assert record["substituted"] or record["reason"], record
        assert Path(record["file"]).is_file() or not record["substituted"]


def _results(function, calls) -> list:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        results = [call(function, args) for args in calls]
    return [*results, out.getvalue()]


def _same_values(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and torch.equal(a, b)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same_values, a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_values(a[k], b[k]) for k in a)
    return a == b


@pytest.mark.parametrize("kind", list(CORPUS))
def test_every_graph_break_kind_gives_the_same_results_under_prepare_debug(kind, tmp_path):
    # The transformed code runs from the report's simplified source (dynamo=True).
    function, calls = CORPUS[kind]
    expected = _results(torch.compile(function, backend="eager"), calls)
    torch._dynamo.reset()
    with depyf_report.prepare_debug(tmp_path / "dump"):
        got = _results(torch.compile(function, backend="eager"), calls)
    assert _same_values(got, expected)
    records = [r for r in _index(tmp_path / "dump") if r["kind"] == "function"]
    assert records and any(r["substituted"] for r in records), records
    assert all(r["substituted"] or r["reason"] for r in records), records


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_code_that_runs_comes_from_the_dump_files(backend, tmp_path):
    toy = _example("toy_example")
    dump = tmp_path / "dump"
    ran: set[str] = set()

    def profile(frame, event, arg):
        if event == "call":
            ran.add(frame.f_code.co_filename)

    with depyf_report.prepare_debug(dump):
        sys.setprofile(profile)
        try:
            toy.main(backend)
        finally:
            sys.setprofile(None)
    debug_dir = str((dump / "debug").resolve())
    records = _index(dump)
    functions = [r for r in records if r["kind"] == "function"]
    assert {r["name"] for r in functions} == {
        "toy_example",
        "torch_dynamo_resume_in_toy_example_at_14",
    }
    substituted = {r["file"] for r in functions if r["substituted"]}
    assert substituted, functions
    assert substituted <= ran  # the substituted functions ran from their files
    graphs = {r["file"] for r in records if r["kind"] == "graph"}
    assert graphs & ran  # and so did the graph code the backend calls
    assert all(f.startswith(debug_dir) for f in substituted | graphs)
    # Dynamo's cache holds the replacement itself, not its own code.
    [entry] = adapter.cache_entries(toy.toy_example.__code__)
    assert entry.code.co_filename in substituted
    assert entry.code.co_filename.endswith("toy_example_0_0.py")


def _recorded_code(dump: Path) -> list[str]:
    """The transformed code capture recorded, without the ids torch makes unique per run."""
    unique = re.compile(
        r"_[0-9a-f]{8}(_[0-9a-f]{4}){3}_[0-9a-f]{12}|(?<=__compiled_fn_)\d+|(?<=__resume_at_)\d+_\d+"
    )
    texts = []
    for path in sorted((dump / "functions").glob("*.json")):
        for entry in json.loads(path.read_text())["entries"]:
            texts.append(unique.sub("", entry["code"]["dis"]))
    return texts


def test_prepare_debug_captures_what_capture_captures(tmp_path):
    with depyf_report.capture(tmp_path / "plain"):
        _example("toy_example").main("eager")
    torch._dynamo.reset()
    with depyf_report.prepare_debug(tmp_path / "dump"):
        _example("toy_example").main("eager")
    manifest = json.loads((tmp_path / "dump" / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    # capture's hook runs first, so it records Dynamo's code, not the replacement.
    recorded = _recorded_code(tmp_path / "dump")
    assert len(recorded) == 3
    assert recorded == _recorded_code(tmp_path / "plain")


def test_debug_inside_prepare_debug_is_refused(tmp_path):
    refused = pytest.raises(UserError, match="cannot run inside prepare_debug")
    with depyf_report.prepare_debug(tmp_path / "dump"), refused:
        depyf_report.debug()


def test_prepare_debug_inside_prepare_debug_is_refused(tmp_path):
    refused = pytest.raises(UserError, match="inside another")
    outer, inner = tmp_path / "dump", tmp_path / "other"
    with depyf_report.prepare_debug(outer), refused, depyf_report.prepare_debug(inner):
        pass


def test_prepare_debug_after_the_function_was_compiled_says_what_to_do(tmp_path):
    toy = _example("toy_example")
    toy.main("eager")
    with pytest.raises(UserError) as raised, depyf_report.prepare_debug(tmp_path / "dump"):
        pass
    message = str(raised.value)
    assert "toy_example" in message and "torch._dynamo.reset()" in message
    assert "\n" not in message
    assert not (tmp_path / "dump").exists()  # nothing half-written
    torch._dynamo.reset()
    with depyf_report.prepare_debug(tmp_path / "dump"):
        toy.main("eager")


def test_debug_before_any_prepare_debug_says_what_to_do(monkeypatch):
    monkeypatch.setattr(session, "_prepared", None)
    with pytest.raises(UserError, match="first run the code inside"):
        depyf_report.debug()


def test_hooks_are_removed_when_prepare_debug_ends(tmp_path):
    with depyf_report.prepare_debug(tmp_path / "dump"):
        pass
    torch._dynamo.reset()
    toy = _example("toy_example")
    toy.main("eager")
    assert not (tmp_path / "dump" / "debug").exists()
    [entry] = adapter.cache_entries(toy.toy_example.__code__)
    assert "/debug/" not in entry.code.co_filename


def _no_pause(monkeypatch):
    monkeypatch.setattr(session.pdb.Pdb, "set_trace", lambda self, frame=None: None)


def test_a_recompile_inside_debug_also_runs_from_a_file(tmp_path, monkeypatch):
    _no_pause(monkeypatch)

    def double(x):
        return x * 2

    compiled = torch.compile(double, backend="eager")
    with depyf_report.prepare_debug(tmp_path / "dump"):
        compiled(torch.ones(2))
    with depyf_report.debug():
        compiled(torch.ones(2, dtype=torch.int64))  # a new dtype fails the guards
    files = [r["file"] for r in _index(tmp_path / "dump") if r["kind"] == "function"]
    assert [Path(f).name for f in files] == ["double_0_0.py", "double_0_1.py"]
    codes = {e.code.co_filename for e in adapter.cache_entries(double.__code__)}
    assert codes == set(files)


def test_debug_gives_back_the_trace_function_it_found(tmp_path, monkeypatch):
    _no_pause(monkeypatch)
    with depyf_report.prepare_debug(tmp_path / "dump"):
        pass

    def tracer(frame, event, arg):
        return None

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        with depyf_report.debug():
            pass
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(previous)


def test_a_cell_only_dynamo_keeps_is_kept_in_the_replacement(tmp_path):
    # combine() has a comprehension over `weights`, so its code keeps `weights` in a
    # cell; Dynamo's code keeps that cell though nothing in it reads the cell.
    example = _example("comprehensions")
    with depyf_report.prepare_debug(tmp_path / "dump"):
        example.main("eager")
    functions = [r for r in _index(tmp_path / "dump") if r["kind"] == "function"]
    assert functions and all(r["substituted"] for r in functions), functions
    entries = adapter.cache_entries(example.combine.__code__)
    assert {e.code.co_filename for e in entries} == {r["file"] for r in functions}
    for entry in entries:
        assert entry.code.co_cellvars == example.combine.__code__.co_cellvars
        assert "if False:  # depyf-report" in Path(entry.code.co_filename).read_text()


def test_a_decompiler_failure_keeps_dynamos_code_and_the_program_works(tmp_path, monkeypatch):
    def broken(code, **options):
        raise RuntimeError("decompiler bug")

    monkeypatch.setattr(substitute, "decompile", broken)
    toy = _example("toy_example")
    with depyf_report.prepare_debug(tmp_path / "dump"):
        toy.main("aot_eager")  # asserts compiled == eager itself
    functions = [r for r in _index(tmp_path / "dump") if r["kind"] == "function"]
    assert len(functions) == 3
    assert {r["reason"] for r in functions} == {"RuntimeError: decompiler bug"}
    [entry] = adapter.cache_entries(toy.toy_example.__code__)
    assert entry.code.co_filename == toy.toy_example.__code__.co_filename
