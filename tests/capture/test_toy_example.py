"""Exact facts about the README's toy example: resume lines, guards, graphs."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.torch, pytest.mark.slow]
torch = pytest.importorskip("torch")

# examples/toy_example.py: `def toy_example` is line 12, the `if` line 14,
# `b = b * -1` line 15 and `return x * b` line 16.
DEF, BRANCH, NEGATE, RETURN = 12, 14, 15, 16


@pytest.fixture(scope="module")
def toy(example_dump):
    return example_dump("toy_example", "eager").processes[0]


def test_functions_and_resume_points(toy):
    assert sorted(toy.functions) == [
        "torch_dynamo_resume_in_toy_example_at_14",
        "torch_dynamo_resume_in_toy_example_at_14-2",
        "toy_example",
    ]
    toy_fn = toy.functions["toy_example"]
    assert (toy_fn.first_line, toy_fn.last_line) == (DEF, RETURN)
    assert toy_fn.source.startswith("def toy_example(a, b):\n")
    assert toy_fn.resume is None
    points = {
        f.resume.resume_line: (f.resume.parent, f.resume.original, f.resume.break_line)
        for f in toy.functions.values()
        if f.is_resume
    }
    # One resume function continues inside the `if` (b < 0), one after it.
    assert points == {
        NEGATE: ("toy_example", "toy_example", BRANCH),
        RETURN: ("toy_example", "toy_example", BRANCH),
    }
    offsets = [f.resume.offset for f in toy.functions.values() if f.is_resume]
    assert all(isinstance(offset, int) for offset in offsets)


def test_cache_entry_links_graph_and_resume_functions(toy):
    (entry,) = toy.functions["toy_example"].entries
    assert entry.compile_id == "0/0"
    assert entry.graphs == ["graph-0-0"]
    assert sorted(entry.resume_functions) == [
        "torch_dynamo_resume_in_toy_example_at_14",
        "torch_dynamo_resume_in_toy_example_at_14-2",
    ]
    assert toy.graphs["graph-0-0"].name in entry.code.dis
    assert entry.code.name == "toy_example"


def test_guards_check_both_tensors_with_their_source_lines(toy):
    (entry,) = toy.functions["toy_example"].entries
    guards = entry.guards
    assert guards.tree.startswith("TREE_GUARD_MANAGER:")
    assert "# x = a / (torch.abs(a) + 1)" in guards.tree
    tensor_guards = {g.user_source: g for g in guards.guards if g.kind == "TENSOR_MATCH"}
    assert set(tensor_guards) == {"L['a']", "L['b']"}
    for source, line in (("L['a']", DEF + 1), ("L['b']", BRANCH)):
        guard = tensor_guards[source]
        assert guard.expression.startswith(f"check_tensor({source}, Tensor,")
        assert "torch.float32" in guard.expression and "size=[10]" in guard.expression
        assert guard.line == line and guard.filename.endswith("toy_example.py")
    assert guards.shape_guards == []  # static shapes: no symbolic size to check


def test_graph_break_and_compiles(toy):
    assert sorted(toy.compiles) == ["0/0", "1/0", "2/0"]
    first = toy.compiles["0/0"]
    assert (first.function, first.backend, first.status) == ("toy_example", "eager", "ok")
    (graph_break,) = first.graph_breaks
    assert graph_break.reason.startswith("Graph Break Reason: Data-dependent branching")
    assert graph_break.line == BRANCH
    last = graph_break.user_stack[-1]
    assert (last.name, last.line, last.code) == ("toy_example", BRANCH, "if b.sum() < 0:")
    assert first.metrics["graph_op_count"] == 5
    assert first.recompile_reasons == [] and first.dynamic_symbols == []


def test_dynamo_graph_has_shapes(toy):
    graph = toy.graphs["graph-0-0"]
    (stage,) = graph.stages
    assert stage.kind == "dynamo"
    assert 'L_a_: "f32[10][1]cpu"' in stage.text
    assert "torch.abs(l_a_)" in stage.text


def test_manifest_describes_the_run(toy):
    manifest = toy.manifest
    assert manifest.argv[0].endswith("toy_example.py") and manifest.argv[1:] == ["eager"]
    assert manifest.command[1:5] == ["-m", "depyf_report", "run", "-o"]
    assert manifest.torch_version == torch.__version__
    assert manifest.ended is not None and manifest.rank is None and manifest.process == ""
    assert manifest.counters["stats"]["unique_graphs"] == 3
