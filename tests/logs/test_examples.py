"""A log of an example, converted, says what a capture of the same run says."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import REPO

pytest.importorskip("torch")
pytestmark = [pytest.mark.torch, pytest.mark.slow]

RUNS = [
    ("examples/toy_example.py", "eager"),
    ("examples/toy_example.py", "aot_eager"),
    ("examples/toy_example.py", "inductor"),
    ("examples/training_step.py",),
    ("examples/dynamic_shapes.py",),
    ("tests/capture/programs/breaks.py",),
    ("tests/capture/programs/recompiles.py",),
]


def _compile_facts(process, record) -> dict:
    """What a report shows of one compile."""
    graphs = [process.graphs[g] for g in record.graphs]
    function = process.functions.get(record.function)
    return {
        "function": (function.name, function.filename) if function else None,
        "status": record.status,
        "failure": record.failure,
        "restart_reasons": record.restart_reasons,
        "graph_breaks": [
            (b.gb_type, b.filename, b.line, b.reason, b.hints, b.user_stack)
            for b in record.graph_breaks
        ],
        "recompile_reasons": record.recompile_reasons,
        "guard_failures": record.guard_failures,
        "symbols": record.dynamic_symbols,
        "symbol_guards": record.symbol_guards,
        "specializations": record.specializations,
        "metrics": record.metrics,
        "stages": [[(s.kind, s.text) for s in g.stages] for g in graphs],
        "output_code": [g.output_code for g in graphs],
    }


@pytest.mark.parametrize("run", RUNS, ids=lambda run: " ".join(run))
def test_the_log_says_what_the_capture_says(traced, run):
    found = traced(*run)
    captured, logged = found.capture.processes[0], found.log.processes[0]
    assert sorted(logged.compiles) == sorted(captured.compiles)
    for compile_id, record in captured.compiles.items():
        assert _compile_facts(logged, logged.compiles[compile_id]) == _compile_facts(
            captured, record
        ), compile_id
    # Each cache entry torch installed (it built guards: guard_count) has its guards,
    # and the log has exactly the capture's entries (a skipped frame has none).
    entries = {e.compile_id: e for f in logged.functions.values() for e in f.entries}
    installed = {c.id for c in logged.compiles.values() if "guard_count" in c.metrics}
    assert set(entries) == installed
    captured_entries = {e.compile_id: e for f in captured.functions.values() for e in f.entries}
    assert set(captured_entries) == set(entries)
    for compile_id, entry in captured_entries.items():
        assert entries[compile_id].guards == entry.guards
        assert entries[compile_id].graphs == entry.graphs


def test_the_numbers_are_torchs_own(traced):
    found = traced("tests/capture/programs/recompiles.py")
    torch_rows = {row["compile_id"]: row for row in json.loads(found.torch_metrics.read_text())}
    logged = found.log.processes[0]
    assert sorted(logged.compiles) == sorted(torch_rows)
    for compile_id, row in torch_rows.items():
        record = logged.compiles[compile_id]
        assert record.metrics.get("guard_count") == row["guard_count"]
        assert (record.status == "failed") == bool(row["fail_type"])
        reasons = record.recompile_reasons
        assert (reasons[0] if reasons else None) == (row["recompile_reason"] or None)


def test_graph_breaks_and_resume_functions_of_the_toy_example(traced):
    logged = traced("examples/toy_example.py", "eager").log.processes[0]
    [top] = [f for f in logged.functions.values() if f.name == "toy_example"]
    resumes = [f for f in logged.functions.values() if f.resume is not None]
    assert sorted(f.resume.break_line for f in resumes) == [14, 14]
    assert {f.resume.parent for f in resumes} == {top.id}
    [entry] = top.entries
    assert sorted(entry.resume_functions) == sorted(f.id for f in resumes)
    assert "no bytecode" in entry.code.decompile_error
    assert "depyf-report run" in entry.code.decompile_error
    [record] = [
        logged.compiles[c] for c in logged.compiles if logged.compiles[c].function == top.id
    ]
    assert [(b.gb_type, b.line) for b in record.graph_breaks] == [("Data-dependent branching", 14)]


def _resume_functions(process) -> list[tuple]:
    """Each compiled resume function: where it breaks and resumes, whose it is, and the
    cache entry that calls it."""
    functions = process.functions
    compiled = {c.function for c in process.compiles.values()}
    callers = {
        r: e.compile_id for f in functions.values() for e in f.entries for r in e.resume_functions
    }
    return sorted(
        (
            f.name,
            f.resume.break_line,
            f.resume.resume_line,
            functions[f.resume.parent].name,
            functions[f.resume.original].name,
            callers.get(f.id),
        )
        for f in functions.values()
        if f.resume is not None and f.id in compiled
    )


@pytest.mark.parametrize(
    "run", [("examples/toy_example.py", "eager"), ("tests/capture/programs/breaks.py",)]
)
def test_resume_functions_are_the_captures(traced, run):
    found = traced(*run)
    logged, captured = found.log.processes[0], found.capture.processes[0]
    assert _resume_functions(logged) == _resume_functions(captured)
    assert len(_resume_functions(logged)) >= 2
    for function in logged.functions.values():
        if function.resume is not None:
            # the log's dis listings of a resume frame's bytecode, before and after
            assert "RESUME" in function.original.dis
            assert all("LOAD_GLOBAL" in e.code.dis for e in function.entries)


def _summary_numbers(site) -> dict:
    rows = {}
    for line in (site / "summary.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 2 and cells[1].isdigit():
            rows[cells[0]] = int(cells[1])
    return rows


def _render(source, site):
    command = [sys.executable, "-m", "depyf_report", str(source), "-o", str(site)]
    result = subprocess.run(
        [*command, "--no-progress"], capture_output=True, text=True, cwd=REPO, timeout=600
    )
    assert result.returncode == 0, result.stderr
    return result


def test_the_command_renders_a_log_as_a_capture_renders(traced, tmp_path):
    found = traced("examples/toy_example.py", "inductor")
    _render(found.trace, tmp_path / "from-log")
    _render(found.capture.root, tmp_path / "from-capture")
    numbers = _summary_numbers(tmp_path / "from-log")
    assert numbers == _summary_numbers(tmp_path / "from-capture")
    assert numbers["graph breaks"] == 1 and numbers["compiles"] == 3 and numbers["kernels"] > 0
    index = (tmp_path / "from-log" / "index.html").read_text()
    assert "TORCH_TRACE log" in index and "depyf-report run -o dump/" in index
    assert "2.13" in index or "2.14" in index  # torch's version, from the log
    # A function page says why it shows no source, and how to get it.
    page = (tmp_path / "from-log" / "fn-toy_example.html").read_text()
    assert "No source: a TORCH_TRACE log holds neither your source" in page
    assert "depyf-report run -o dump/" in page


def test_a_single_log_file_renders_too(traced, tmp_path):
    found = traced("examples/toy_example.py", "eager")
    [log] = found.trace.iterdir()
    _render(log, tmp_path / "site")
    assert _summary_numbers(tmp_path / "site")["graph breaks"] == 1
