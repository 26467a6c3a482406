"""Logs as they come: cut, damaged, from several ranks, or not logs at all.

``data/toy_eager.log`` is the log of ``TORCH_TRACE=dir python examples/toy_example.py
eager`` on torch 2.13.0: three compiles, one graph break. No torch is needed here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from depyf_report.errors import UserError
from depyf_report.logs import is_trace_log, log_files
from depyf_report.logs.reader import LogFile, read_records

from .conftest import DATA, REPO, convert

LOG = DATA / "toy_eager.log"


def _lines() -> list[str]:
    return LOG.read_text(encoding="utf-8").splitlines(keepends=True)


def _write(folder: Path, name: str, lines) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _breaks(process) -> int:
    return sum(len(c.graph_breaks) for c in process.compiles.values())


def test_the_whole_log_reads_without_a_problem(scratch):
    log = LogFile(LOG)
    records = list(read_records(log))
    assert log.summary() is None and log.pid is not None
    assert sum("compilation_metrics" in r.metadata for r in records) == 3
    process = convert(LOG, scratch / "d").processes[0]
    assert sorted(process.compiles) == ["0/0", "1/0", "2/0"]
    assert _breaks(process) == 1
    assert process.manifest.torch_version == "2.13.0+cpu"
    script = "/tmp/wt-logs/examples/toy_example.py"  # where the log was made
    assert process.manifest.argv == [script]
    assert process.manifest.notes == [
        "converted from the TORCH_TRACE log toy_eager.log by depyf-report",
        f"the program ran {script}; its arguments are not in the log",
    ]
    assert {u.artifact for u in process.manifest.unavailable} >= {"transformed code"}


def test_a_log_cut_inside_a_payload_keeps_what_came_before(scratch):
    lines = _lines()
    # Cut in the middle of the second compile's graph: its payload fails its checksum.
    second_graph = next(
        i
        for i, line in enumerate(lines)
        if '"dynamo_output_graph"' in line and '"frame_id": 1' in line
    )
    path = _write(scratch / "in", "cut.log", lines[: second_graph + 3])
    process = convert(path, scratch / "d").processes[0]
    assert process.compiles["0/0"].status == "ok" and _breaks(process) == 1
    assert "1/0" in process.compiles  # started, never finished: what it logged is kept
    assert "the log ends before compile 1/0 finished" in " ".join(process.manifest.notes)
    [note] = [n for n in process.manifest.notes if "skipped" in n]
    assert f"line {second_graph + 1}: the dynamo_output_graph record's payload is cut" in note


def test_garbage_lines_and_missing_payloads_are_skipped_and_named(scratch):
    lines = _lines()
    graph = next(i for i, line in enumerate(lines) if '"dynamo_output_graph"' in line)
    end = next(i for i in range(graph + 1, len(lines)) if not lines[i].startswith("\t"))
    damaged = [
        "this is not a record\n",
        *lines[: graph + 1],  # the first graph's record, its payload lines dropped
        *lines[end:],
        '\x00\xff{"broken json\n',
        'V1126 07:38:18.049000 1 x.py:1] {"dynamo_start": \n',
    ]
    path = _write(scratch / "in", "damaged.log", damaged)
    process = convert(path, scratch / "d").processes[0]
    [note] = [n for n in process.manifest.notes if "skipped" in n]
    assert "line 1: not a structured-trace record" in note
    assert f"line {graph + 2}: the dynamo_output_graph record's payload is missing" in note
    assert "its JSON does not parse" in note
    assert sorted(process.compiles) == ["0/0", "1/0", "2/0"]
    assert _breaks(process) == 1
    assert process.compiles["0/0"].graphs == []  # its graph's payload was the part lost


def test_the_ranks_of_a_run_become_the_processes_of_one_dump(scratch):
    lines = _lines()
    folder = scratch / "trace"
    _write(
        folder,
        "dedicated_log_torch_trace_rank_1_abc.log",
        [line if line.startswith("\t") else f"[rank1]:{line}" for line in lines],
    )
    _write(folder, "dedicated_log_torch_trace_rank_0_def.log", lines)
    assert is_trace_log(folder)
    assert log_files(folder)[0].name.startswith("dedicated_log_torch_trace_rank_0")
    dump = convert(folder, scratch / "d")
    assert [p.name for p in dump.processes] == ["", "rank-1"]
    assert [p.manifest.rank for p in dump.processes] == [0, 1]
    assert all(_breaks(p) == 1 for p in dump.processes)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "depyf_report", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("just some text\n", "not a TORCH_TRACE log"),
        ("", "not a TORCH_TRACE log"),
    ],
)
def test_a_file_that_is_not_a_log_is_a_clear_error(scratch, content, message):
    path = _write(scratch, "notes.txt", [content])
    result = _cli(str(path), "-o", str(scratch / "site"))
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    with pytest.raises(UserError, match=message):
        log_files(path)


def test_a_dump_folder_is_a_dump_even_with_a_log_beside(scratch):
    folder = scratch / "dump"
    _write(folder, "trace.log", _lines())
    assert is_trace_log(folder)
    _write(folder, "manifest.json", ["{}"])
    assert not is_trace_log(folder)


def test_a_folder_with_neither_a_dump_nor_a_log_is_a_clear_error(scratch):
    _write(scratch / "stuff", "a.txt", ["hello\n"])
    result = _cli(str(scratch / "stuff"), "-o", str(scratch / "site"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "not a depyf-report dump" in result.stderr


def test_a_damaged_log_renders_and_the_site_says_what_was_skipped(scratch):
    lines = _lines()
    path = _write(scratch / "in", "cut.log", lines[: len(lines) * 2 // 3])
    result = _cli(str(path), "-o", str(scratch / "site"), "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "could not be read and were skipped" in (scratch / "site" / "index.html").read_text()


def test_no_file_the_log_names_is_read(scratch):
    # The log names examples/toy_example.py (as it was where the log was made) in its
    # graphs; converting reads the log alone, so no graph carries that file's source.
    process = convert(LOG, scratch / "d").processes[0]
    assert process.graphs and all(graph.sources == [] for graph in process.graphs.values())
    assert all(function.source is None for function in process.functions.values())


def test_converting_a_log_never_loads_torch(scratch):
    probe = (
        "import sys; from pathlib import Path; from depyf_report.logs import *; "
        f"convert_logs(log_files(Path({str(LOG)!r})), Path({str(scratch / 'd')!r})); "
        "print('torch' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=300
    )
    assert result.stdout.strip() == "False", result.stderr
