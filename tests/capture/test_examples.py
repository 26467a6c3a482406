"""Every example under eager and aot_eager gives a complete dump that validates."""

from __future__ import annotations

import pytest

from depyf_report.render.build_function import build_function_page
from depyf_report.render.context import ProcessContext

from .conftest import validate_dump

pytestmark = [pytest.mark.torch, pytest.mark.slow]

EXAMPLES = [
    "toy_example",
    "module_print",
    "dynamic_shapes",
    "training_step",
    "closures",
    "with_try",
    "comprehensions",
    "item_side_effects",
    "transformers_model",
]
# Stages each backend adds after Dynamo's own graph.
STAGES = {"eager": {"dynamo"}, "aot_eager": {"dynamo", "aot_inference"}}
TRAINING_STAGES = {"dynamo", "aot_joint", "aot_forward", "aot_backward"}


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_example_dump_is_complete_and_valid(example_dump, name, backend):
    dump = example_dump(name, backend)
    assert dump.problems == []
    (process,) = dump.processes
    assert process.manifest.status == "complete"
    assert process.manifest.unavailable == []
    view_files = [
        view
        for function in process.functions.values()
        for view in [function.original, *(entry.code for entry in function.entries)]
        if view.file
    ]
    assert validate_dump(dump.root) == 1 + len(view_files) + sum(
        len(records) for records in (process.functions, process.compiles, process.graphs)
    )
    assert process.graphs, "no graph captured"
    for graph in process.graphs.values():
        assert graph.name.startswith("__compiled_fn_")
        assert graph.backend == backend
        assert graph.function in process.functions
        kinds = {stage.kind for stage in graph.stages}
        expected = STAGES[backend]
        if name == "training_step" and backend == "aot_eager":
            expected = TRAINING_STAGES
        assert kinds == expected, graph.id
        assert graph.output_code == []  # only Inductor writes output code
    entries = [e for f in process.functions.values() for e in f.entries]
    assert entries and all(e.guards.guards for e in entries)
    for function in process.functions.values():
        # Code made by exec (dataclass __init__, "<string>") has no file to read.
        has_file = not function.filename.startswith("<")
        assert (function.source is not None) == has_file, function.id
        assert function.original.dis


@pytest.mark.parametrize("name", EXAMPLES)
def test_transformed_code_decompiles_to_python_that_compiles(example_dump, name):
    dump = example_dump(name, "eager")
    views = [
        view
        for function in dump.processes[0].functions.values()
        for view in (function.original, *(entry.code for entry in function.entries))
    ]
    assert views
    for view in views:
        # A decompile error is a bug (issue 3), and a finished capture has every answer.
        assert view.decompile_error is None, (view.name, view.decompile_error)
        compile(view.decompiled, f"<decompiled {view.name}>", "exec")
        assert view.dis.strip()


def test_graph_breaks_are_recorded_with_the_user_stack(example_dump):
    process = example_dump("module_print").processes[0]
    breaks = [b for c in process.compiles.values() for b in c.graph_breaks]
    assert len(breaks) == 1
    (graph_break,) = breaks
    assert "print" in graph_break.reason
    assert graph_break.filename.endswith("module_print.py")
    assert graph_break.line == 21
    last = graph_break.user_stack[-1]
    assert (last.name, last.line, last.code) == ("forward", 21, 'print("hidden norm computed")')
    assert graph_break.user_stack[0].filename.endswith("module_print.py")


def test_item_graph_break_keeps_side_effects_and_resumes_after_it(example_dump):
    process = example_dump("item_side_effects").processes[0]
    resumes = sorted(
        (f.resume.break_line, f.resume.resume_line)
        for f in process.functions.values()
        if f.is_resume
    )
    # .item() on line 13 breaks; execution resumes on that line, where the
    # result is stored into `peak`.
    assert resumes == [(13, 13)]


def test_with_try_resumes_after_the_try_block(example_dump):
    process = example_dump("with_try").processes[0]
    points = sorted(
        (f.resume.break_line, f.resume.resume_line)
        for f in process.functions.values()
        if f.is_resume
    )
    # The `if too_large:` on line 22 breaks; one resume function enters the
    # branch (line 23), the other goes on to the return (line 24).
    assert points == [(22, 23), (22, 24)]


def test_closures_resume_with_their_cells(example_dump):
    process = example_dump("closures").processes[0]
    (outer,) = [f for f in process.functions.values() if f.name == "accumulate"]
    assert outer.qualname == "make_accumulator.<locals>.accumulate"
    assert outer.id == "make_accumulator.locals.accumulate"
    resumes = [f for f in process.functions.values() if f.is_resume]
    assert resumes and all(f.resume.original == outer.id for f in resumes)
    assert {f.resume.break_line for f in resumes} == {21}


def test_training_step_records_backward_metrics(example_dump):
    process = example_dump("training_step", "aot_eager").processes[0]
    (graph,) = process.graphs.values()
    forward = next(s.text for s in graph.stages if s.kind == "aot_forward")
    backward = next(s.text for s in graph.stages if s.kind == "aot_backward")
    assert "primals_" in forward and "tangents_" in backward
    compile_record = process.compiles[graph.compile_id]
    assert "backward" in compile_record.metrics
    assert compile_record.metrics["entire_frame_compile_time_s"] > 0


def test_a_skipped_resume_frame_has_no_cache_entry_and_says_why(example_dump):
    # The resume function after `loss.backward()` breaks on its first call: torch
    # skips the frame (its metrics still say has_guarded_code) and installs nothing.
    process = example_dump("training_step", "aot_eager").processes[0]
    (resume,) = [f for f in process.functions.values() if f.resume is not None]
    (record,) = [c for c in process.compiles.values() if c.function == resume.id]
    assert record.status == "ok" and record.metrics["has_guarded_code"]
    assert "guard_count" not in record.metrics
    assert resume.entries == []
    ctx = ProcessContext.build(process, "")
    (view,) = build_function_page(ctx, resume, ()).compiles
    assert (
        view.entry.text == "no cache entry: Dynamo skipped this frame, which runs as plain Python"
    )


def test_transformers_model_is_split_by_the_hook_graph_break(example_dump):
    process = example_dump("transformers_model").processes[0]
    reasons = [b.reason for c in process.compiles.values() for b in c.graph_breaks]
    assert any("print" in reason for reason in reasons)
    assert len(process.graphs) >= 2
    assert any(f.qualname == "GPT2LMHeadModel.forward" for f in process.functions.values())
    restarted = [c for c in process.compiles.values() if c.status == "restarted"]
    assert all(c.attempt == 0 for c in restarted)
