"""The adapter probes torch's internals by name, never by version: each one missing
is named, with what it costs the report, and the rest is still captured."""

from __future__ import annotations

import importlib
import sys
import types

import pytest

import depyf_report
from depyf_report.capture import adapter
from depyf_report.dump import load_dump

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _remove(monkeypatch, feature: adapter.Feature) -> None:
    """Make one internal missing: the import system hands out its module without it."""
    module = importlib.import_module(feature.module)
    head = feature.attribute.split(".")[0]
    rest = {name: value for name, value in vars(module).items() if name != head}
    monkeypatch.setitem(sys.modules, feature.module, types.SimpleNamespace(**rest))


def test_this_torch_has_every_internal_capture_uses():
    assert adapter.missing_features() == []


@pytest.mark.parametrize("feature", adapter.FEATURES, ids=lambda f: f"{f.module}.{f.attribute}")
def test_a_missing_internal_is_named_with_its_cost(monkeypatch, feature):
    _remove(monkeypatch, feature)
    [(artifact, reason)] = adapter.missing_features()
    assert artifact == feature.artifact
    assert f"{feature.module}.{feature.attribute} not found" in reason
    assert reason.endswith(feature.cost)


def test_a_missing_module_is_named():
    probe = adapter.Feature("thing", "torch._no_such_module", "f", "no thing")
    [(artifact, reason)] = adapter.missing_features([probe])
    assert artifact == "thing"
    assert reason.startswith("torch._no_such_module.f not found (No module named")
    assert reason.endswith(": no thing")


def test_two_missing_internals_of_one_artifact_make_one_line():
    probes = [
        adapter.Feature("thing", "torch._no_such_module", "f", "no f"),
        adapter.Feature("thing", "torch", "no_such_attribute", "no g"),
    ]
    assert [(a, r.count("not found")) for a, r in adapter.missing_features(probes)] == [
        ("thing", 2)
    ]


def _add_one(x):
    return x + 1


def test_a_capture_names_what_it_did_not_find_and_records_the_rest(tmp_path, monkeypatch):
    monkeypatch.delattr(torch._dynamo.convert_frame, "register_bytecode_hook")
    with depyf_report.capture(tmp_path / "d"):
        torch.compile(_add_one, backend="eager")(torch.zeros(2))
    process = load_dump(tmp_path / "d").processes[0]
    manifest = process.manifest
    [(artifact, reason)] = [(u.artifact, u.reason) for u in manifest.unavailable]
    assert artifact == "bytecode"
    assert reason.startswith("torch._dynamo.convert_frame.register_bytecode_hook not found")
    assert "no transformed code" in reason
    # no blanket warning about the version: the note names what is missing, no more
    assert not [n for n in manifest.notes if "version" in n]
    (graph,) = process.graphs.values()
    assert graph.stages[0].kind == "dynamo"
    assert process.compiles["0/0"].metrics["guard_count"] > 0


def test_a_capture_on_a_torch_with_everything_has_no_note(tmp_path):
    with depyf_report.capture(tmp_path / "d"):
        torch.compile(_add_one, backend="eager")(torch.zeros(2))
    manifest = load_dump(tmp_path / "d").processes[0].manifest
    assert manifest.unavailable == []
    assert manifest.notes == []
