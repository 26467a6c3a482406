"""Logs made from the examples, each together with a capture of the same run.

One process runs the example under ``depyf-report run`` with ``TORCH_TRACE`` set,
so the log and the capture record the very same compiles: a dump converted from
the log must say what the capture says, number for number.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from depyf_report.dump import Dump, load_dump
from depyf_report.logs import convert_logs, log_files

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class TracedRun:
    trace: Path  # the TORCH_TRACE directory
    capture: Dump  # what capture recorded of the same run
    log: Dump  # the dump converted from the log
    torch_metrics: Path  # torch's own compile records, where the program writes them


def convert(trace: Path, into: Path) -> Dump:
    return load_dump(convert_logs(log_files(trace), into))


@pytest.fixture(scope="session")
def traced(tmp_path_factory):
    """``traced(script, *args)`` -> a TracedRun, made once per session."""
    pytest.importorskip("torch")
    made: dict[tuple, TracedRun] = {}
    cache = tmp_path_factory.mktemp("inductor-cache")

    def make(script: str, *args: str) -> TracedRun:
        key = (script, *args)
        if key not in made:
            folder = tmp_path_factory.mktemp(Path(script).stem)
            env = {
                **os.environ,
                "TORCH_TRACE": str(folder / "trace"),
                "TORCH_METRICS": str(folder / "metrics.json"),
                "TORCHINDUCTOR_CACHE_DIR": str(cache),
            }
            command = [sys.executable, "-m", "depyf_report", "run", "-o", str(folder / "dump")]
            result = subprocess.run(
                [*command, "--", "python", str(REPO / script), *args],
                capture_output=True,
                text=True,
                cwd=REPO,
                env=env,
                timeout=600,
            )
            assert result.returncode == 0, result.stderr[-3000:]
            made[key] = TracedRun(
                trace=folder / "trace",
                capture=load_dump(folder / "dump"),
                log=convert(folder / "trace", folder / "from-log"),
                torch_metrics=folder / "metrics.json",
            )
        return made[key]

    return make


@pytest.fixture
def scratch():
    with tempfile.TemporaryDirectory(prefix="depyf-report-logs-test-") as folder:
        yield Path(folder)
