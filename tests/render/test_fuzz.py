"""Render holds up under damaged real dumps (issue 21).

A fixed seed and a bounded number of hypothesis examples, plus one hand-picked
case of each kind of damage; ``fuzz_render`` says what is checked.
``benchmarks/render_fuzz.py`` runs the same fuzzer longer:

    DEPYF_FUZZ_EXAMPLES=40 DEPYF_FUZZ_SEED=21 .venv/bin/pytest tests/render/test_fuzz.py
"""

from __future__ import annotations

import os

import mutations as m
import pytest
from fuzz_render import fuzz, make_seeds, run_example

from depyf_report.dump import SCHEMA_VERSION
from depyf_report.render import urls

pytestmark = pytest.mark.slow
EXAMPLES = int(os.environ.get("DEPYF_FUZZ_EXAMPLES", 40))
SEED = int(os.environ.get("DEPYF_FUZZ_SEED", 21))
STEP = "functions/step.json"
RESUME = "functions/torch_dynamo_resume_in_step_at_15.json"

# One case of each kind of damage, so each is tried whatever hypothesis draws.
CASES = {
    "manifest truncated": ("real", [m.Truncate("manifest.json", 200)]),
    "manifest deleted": ("real", [m.Delete("manifest.json")]),
    "manifest a FIFO": ("real", [m.Fifo("manifest.json")]),
    "manifest wrong type": ("real", [m.ReplaceValue("manifest.json", ("argv",), "string")]),
    "null qualname": ("real", [m.ReplaceValue(STEP, ("qualname",), "null")]),
    "string line number": ("real", [m.ReplaceValue(STEP, ("first_line",), "digits string")]),
    "int reason": (
        "real",
        [m.ReplaceValue("compiles/0-0.json", ("graph_breaks", 0, "reason"), "zero")],
    ),
    "NaN line": ("real", [m.ReplaceValue(STEP, ("last_line",), "NaN")]),
    "5000-digit int": (
        "real",
        [m.ReplaceValue("compiles/0-0.json", ("metrics",), "int of 5000 digits")],
    ),
    "file nested 100,000 deep": (
        "real",
        [m.ReplaceText("graphs/graph-1-0.json", "nested 100,000 deep")],
    ),
    "field nested 100,000 deep": (
        "real",
        [m.ReplaceValue(STEP, ("entries", 0, "guards"), "nested 100,000 deep")],
    ),
    "lone surrogate": ("real", [m.ReplaceValue(STEP, ("source",), "lone surrogate")]),
    "id with ../": ("real", [m.ReplaceValue(STEP, ("id",), "path traversal")]),
    "terminal escape in id": ("real", [m.ReplaceValue(RESUME, ("id",), "terminal escape")]),
    "invalid UTF-8": ("real", [m.InvalidUtf8(STEP, 50)]),
    "UTF-16 file": ("real", [m.ReplaceText("compiles/1-0.json", "UTF-16")]),
    "huge string": ("real", [m.ReplaceValue(STEP, ("source",), "huge string")]),
    "link out of the dump": ("real", [m.Symlink(STEP, "outside the dump")]),
    "folder linked to another dump": ("real", [m.Symlink("functions", "other dump")]),
    "views folder linked out of the dump": ("real", [m.Symlink("views", "outside the dump")]),
    "debug folder linked out of the dump": ("synthetic", [m.Symlink("debug", "outside the dump")]),
    "link loops": ("real", [m.Symlink("graphs", "its folder"), m.Symlink(RESUME, "itself")]),
    "FIFO": ("real", [m.Fifo("compiles/0-0.json")]),
    "folder for a file, file for a folder": (
        "real",
        [m.FolderForFile("graphs/graph-1-0.json"), m.FileForFolder("views")],
    ),
    "odd file names": (
        "synthetic",
        [
            m.OddName("functions", "invalid UTF-8"),
            m.OddName("compiles", "terminal escape"),
            m.OddName("graphs", "newline"),
        ],
    ),
    "unknown keys and a copied record": (
        "real",
        [m.AddKey(STEP, ("entries", 0)), m.AddKey("manifest.json", ()), m.CopyRecord(RESUME)],
    ),
    "live decompiler pid": ("real", [m.LiveDecompilerPid("views/decompiler.pid")]),
    "newer schema in a process folder": (
        "synthetic",
        [m.ReplaceValue("processes/rank1/manifest.json", ("schema_version",), "newer schema")],
    ),
}


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    return make_seeds(tmp_path_factory.mktemp("fuzz-seeds"))


@pytest.mark.parametrize("case", CASES)
def test_each_kind_of_damage(seeds, tmp_path, case):
    seed, mutations = CASES[case]
    result = run_example(seeds[seed], mutations, tmp_path, seeds)
    assert not result.failures, result.describe()


def test_a_newer_dump_exits_2_naming_both_versions(seeds, tmp_path):
    newer = m.ReplaceValue("manifest.json", ("schema_version",), "newer schema")
    result = run_example(seeds["real"], [newer], tmp_path, seeds)
    assert result.returncode == 2, result.describe()
    (line,) = result.stderr.splitlines()
    assert line.startswith("depyf-report: error: ")
    assert str(SCHEMA_VERSION + 1) in line and str(SCHEMA_VERSION) in line


def test_a_damaged_manifest_renders_the_intact_records_under_a_banner(seeds, tmp_path):
    result = run_example(
        seeds["real"], [m.Truncate("manifest.json", 300)], tmp_path, seeds, keep=tmp_path / "case"
    )
    assert result.returncode == 0, result.describe()
    assert any("manifest.json" in line for line in result.stderr.splitlines())
    site = tmp_path / "case" / "site"
    for function_id in ("step", "torch_dynamo_resume_in_step_at_15"):
        assert (site / urls.function_page("", function_id)).is_file()
    assert "manifest.json" in (site / urls.INDEX).read_text(encoding="utf-8")


def test_render_survives_mutated_dumps(seeds, tmp_path):
    report = fuzz(EXAMPLES, SEED, seeds, tmp_path)
    print(
        f"{report.examples} examples, seed {SEED}, {report.seconds:.0f} s rendering, "
        f"peak {report.peak_kb // 1024} MB"
    )
    assert report.examples >= min(EXAMPLES, 10)
    assert not report.by_kind, report.describe()
