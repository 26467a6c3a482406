"""Every artifact tlparse extracts from a log is shown in our site, or knowingly
left out (``tlparse_artifacts.py``); a shown one's text is in our records."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import DATA, convert
from .tlparse_artifacts import LEFT_OUT, SHOWN

TLPARSE = shutil.which("tlparse") or shutil.which("tlparse", path=str(Path(sys.executable).parent))
pytestmark = pytest.mark.skipif(TLPARSE is None, reason="tlparse is not installed")

_NUMBERED = re.compile(r"^(?P<kind>.+?)_\d+(?:_readable)?\.(?:txt|json|html)$")
_HASHED = re.compile(r"_[a-z0-9]{52}$")  # inductor_output_code_<hash>
_COMPILE = re.compile(r"^\[(?P<id>[^\]]+)\]$")


def _kind(name: str) -> str:
    kind = _HASHED.sub("", _NUMBERED.match(name)["kind"])
    for resume_kind in ("ORIGINAL_BYTECODE", "MODIFIED_BYTECODE"):
        if kind.endswith(resume_kind):
            return resume_kind
    return kind


def _artifacts(log: Path, out: Path) -> list[tuple[str, str, Path]]:
    """(compile id, kind, file) of each artifact tlparse writes for ``log``."""
    subprocess.run(
        [TLPARSE, str(log), "-o", str(out), "--no-browser", "--overwrite"],
        check=True,
        capture_output=True,
        timeout=300,
    )
    directory = json.loads((out / "compile_directory.json").read_text())
    found = []
    for key, entry in directory.items():
        compile_id = _COMPILE.match(key)["id"]
        for artifact in entry["artifacts"]:
            found.append((compile_id, _kind(artifact["name"]), out / artifact["url"]))
    return found


def _strings(record) -> list[str]:
    if isinstance(record, str):
        return [record]
    if dataclasses.is_dataclass(record):
        record = dataclasses.asdict(record)
    if isinstance(record, dict):
        return [s for value in record.values() for s in _strings(value)]
    if isinstance(record, list | tuple):
        return [s for value in record for s in _strings(value)]
    return []


def _check(log: Path, tmp_path: Path) -> None:
    process = convert(log, tmp_path / "dump").processes[0]
    artifacts = _artifacts(log, tmp_path / "tlparse")
    unknown = sorted({k for _, k, _ in artifacts if k not in SHOWN and k not in LEFT_OUT})
    assert not unknown, f"tlparse extracts artifacts neither shown nor left out: {unknown}"
    for compile_id, kind, path in artifacts:
        if kind not in SHOWN or not path.name.endswith(".txt"):
            continue
        record = process.compiles[compile_id]
        texts = _strings(record) + [
            s for graph in record.graphs for s in _strings(process.graphs[graph])
        ]
        texts += [
            s
            for function in process.functions.values()
            for entry in function.entries
            if entry.compile_id == compile_id
            for s in _strings(entry) + _strings(function.original)
        ]
        # A frame Dynamo skipped made no cache entry; its function has its bytecode.
        if record.function in process.functions:
            texts += _strings(process.functions[record.function].original)
        wanted = path.read_text(encoding="utf-8").strip()
        if kind == "dynamo_graph_break_reason":
            # kept as its parts: the reason, then where, then the user's stack
            reason = wanted.partition("User code traceback:")[0].strip().splitlines()
            wanted = "\n".join(reason[1:] if reason[0].startswith("Graph break in") else reason)
        assert any(wanted in text for text in texts), f"{compile_id} {kind}: {path.name}"
    kinds = {k for _, k, _ in artifacts}
    assert "dynamo_output_graph" in kinds and "compilation_metrics" in kinds


def test_the_committed_log(tmp_path):
    _check(DATA / "toy_eager.log", tmp_path)


@pytest.mark.torch
@pytest.mark.slow
@pytest.mark.parametrize(
    "run", [("examples/toy_example.py", "inductor"), ("examples/training_step.py",)]
)
def test_logs_of_the_examples(traced, tmp_path, run):
    [log] = traced(*run).trace.iterdir()
    _check(log, tmp_path)
