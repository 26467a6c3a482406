"""Inductor: every stage, output code with kernels, forward and backward apart,
and the same artifacts again when the compile is served from a warm cache."""

from __future__ import annotations

import pytest

from depyf_report.dump import load_dump
from depyf_report.render import render
from depyf_report.render.compile_time import compile_time

from .conftest import EXAMPLES, run_capture, validate_dump

pytestmark = [pytest.mark.torch, pytest.mark.slow]

INFERENCE_STAGES = ["dynamo", "pre_grad", "aot_inference", "post_grad_inference"]
TRAINING_STAGES = [
    "dynamo",
    "pre_grad",
    "aot_joint",
    "aot_forward",
    "aot_backward",
    "post_grad_forward",
    "post_grad_backward",
]


def _check_inference_graphs(process, stages):
    assert len(process.graphs) == 3
    for graph in process.graphs.values():
        assert [s.kind for s in graph.stages] == stages
        (output,) = graph.output_code
        assert output.part == "inference"
        assert output.kernels, graph.id
        for kernel in output.kernels:
            assert kernel.language == "cpp"
            assert kernel.name.startswith("cpp_fused_")
            assert f"{kernel.name}(" in output.source
            assert 'extern "C"' in kernel.source


def test_toy_example_inductor(example_dump):
    dump = example_dump("toy_example", "inductor")
    assert dump.problems == []
    validate_dump(dump.root)
    _check_inference_graphs(dump.processes[0], INFERENCE_STAGES)


def test_training_step_inductor_keeps_forward_and_backward_apart(example_dump):
    process = example_dump("training_step", "inductor").processes[0]
    (graph,) = process.graphs.values()
    assert sorted(s.kind for s in graph.stages) == sorted(TRAINING_STAGES)
    parts = {o.part: o for o in graph.output_code}
    assert sorted(parts) == ["backward", "forward"]
    assert "# AOT ID: ['0_forward']" in parts["forward"].source
    assert "# AOT ID: ['0_backward']" in parts["backward"].source
    assert all(o.kernels for o in parts.values())
    metrics = process.compiles[graph.compile_id].metrics
    assert metrics["inductor_compile_time_s"] > 0
    assert metrics["backward"]["inductor_compile_time_s"] > 0


def test_warm_cache_still_gives_output_code(example_dump, inductor_cache, tmp_path):
    example_dump("toy_example", "inductor")  # fills the cache
    dump = tmp_path / "warm"
    run_capture(
        dump,
        EXAMPLES / "toy_example.py",
        "inductor",
        env={"TORCHINDUCTOR_CACHE_DIR": str(inductor_cache)},
    )
    process = load_dump(dump).processes[0]
    hits = sum(
        c.metrics.get("inductor_fx_local_cache_hit_count", 0) for c in process.compiles.values()
    )
    assert hits == 3
    aot_hits = sum(
        c.metrics["aotautograd_local_cache_hit_count"] for c in process.compiles.values()
    )
    assert aot_hits == 3  # AOTAutograd's cache served all three as well
    # A cache hit skips the pre-grad passes; the rest is replayed from the cache.
    _check_inference_graphs(process, ["dynamo", "aot_inference", "post_grad_inference"])


def test_inductor_report_splits_the_time_and_colours_the_kernels(example_dump, tmp_path):
    dump = example_dump("toy_example", "inductor")
    process = dump.processes[0]
    for record in process.compiles.values():
        time = compile_time(record.metrics)
        assert all(seconds > 0 for seconds in time.seconds), record.id  # all four phases
        assert time.total == pytest.approx(record.metrics["entire_frame_compile_time_s"])
    site = render(dump.root, tmp_path / "site", progress=False).parent
    index = (site / "index.html").read_text()
    assert "Inductor" in index and "code generation" in index  # the program's bar
    (code_page,) = sorted(site.glob("graph-*-code.html"))[:1]
    code = code_page.read_text().split('<section class="kernel"')[0]  # the module alone
    assert 'extern <span class="s">"C"</span>' in code or '<span class="kt">float</span>' in code
