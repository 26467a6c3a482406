"""Dumps of the examples, each made once per test session in a fresh process.

A fresh process per dump keeps compile ids ("0/0", "1/0", ...) the same as a
user's run gives, so tests can name them exactly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")  # the stdlib-only Pythons skip capture altogether

from depyf_report.dump import load_dump

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def run_capture(dump: Path, script: Path, *args: str, env: dict | None = None, check=True):
    """`depyf-report run -o DUMP -- python SCRIPT ARGS` in a new process."""
    command = [sys.executable, "-m", "depyf_report", "run", "-o", str(dump), "--", "python"]
    result = subprocess.run(
        [*command, str(script), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        timeout=600,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"capture of {script.name} failed:\n{result.stderr[-3000:]}")
    return result


@pytest.fixture(scope="session")
def inductor_cache(tmp_path_factory) -> Path:
    """One Inductor cache for the session: the first compile is cold, reruns are warm."""
    return tmp_path_factory.mktemp("inductor-cache")


@pytest.fixture(scope="session")
def example_dump(tmp_path_factory, inductor_cache):
    """``example_dump(name, backend)`` -> the loaded Dump, made once per session."""
    made: dict[tuple[str, str], Path] = {}

    def make(name: str, backend: str = "eager"):
        key = (name, backend)
        if key not in made:
            dump = tmp_path_factory.mktemp(f"{name}-{backend}") / "dump"
            env = {"TORCHINDUCTOR_CACHE_DIR": str(inductor_cache)}
            run_capture(dump, EXAMPLES / f"{name}.py", backend, env=env)
            made[key] = dump
        return load_dump(made[key])

    return make


def dump_files(root: Path):
    """(path, record name) for every record file under a dump, all processes."""
    from depyf_report.dump import FILE_RECORDS

    for pattern, name in FILE_RECORDS.items():
        for path in sorted(root.rglob(pattern)):
            yield path, name


def validate_dump(root: Path) -> int:
    """Check every file against the shipped schema; return how many were checked."""
    import jsonschema

    from depyf_report.resources import schema_text

    schema = json.loads(schema_text())
    count = 0
    for path, name in dump_files(root):
        record_schema = {**schema, "anyOf": [{"$ref": f"#/$defs/{name}"}]}
        jsonschema.validate(json.loads(path.read_text()), record_schema)
        count += 1
    return count
