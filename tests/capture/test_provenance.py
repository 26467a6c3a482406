"""Provenance on real Inductor runs: what capture records, the mapping render draws
from it, and that switching provenance tracking on changes no compiled code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from depyf_report.render.build_provenance import made_from_lines, provenance_of
from depyf_report.render.plan import process_contexts

from .conftest import REPO

pytestmark = [pytest.mark.torch, pytest.mark.slow]

FUSED = "cpp_fused_abs_add_div_lt_sum_0"
HANDLE = re.compile(r"^\s*# \[Provenance debug handles\] .*\n", re.MULTILINE)


def _graph(dump, graph_id):
    (ctx,) = process_contexts(dump)
    graph = ctx.dump.graphs[graph_id]
    return graph, provenance_of(ctx, graph)


def test_toy_example_records_inductors_node_mappings(example_dump):
    graph, _ = _graph(example_dump("toy_example", "inductor"), "graph-0-0")
    (output,) = graph.output_code
    assert output.provenance.pre_to_post == {
        "sum_1": ["sum_1"],
        "lt": ["lt"],
        "abs_1": ["abs_1"],
        "add": ["add"],
        "x": ["div"],
    }
    assert output.provenance.kernel_to_post == {
        f"{FUSED}:1": ["sum_1", "lt", "div", "add", "abs_1"]
    }
    assert f"# [Provenance debug handles] {FUSED}:1\n" in output.source


def test_toy_example_line_13_reaches_the_fused_kernel_and_back(example_dump):
    _, prov = _graph(example_dump("toy_example", "inductor"), "graph-0-0")
    assert made_from_lines(prov) == {
        13: (["abs_1", "add", "x"], [FUSED]),
        14: (["sum_1", "lt"], [FUSED]),
    }
    (kernel,) = prov.kernels
    assert kernel.name == FUSED and kernel.source_lines == (13, 14)
    assert sorted(kernel.aten) == ["aten.abs", "aten.add", "aten.div", "aten.lt", "aten.sum"]
    assert sorted(kernel.dynamo_nodes) == ["abs_1", "add", "lt", "sum_1", "x"]


def test_resume_function_graphs_map_to_their_own_lines(example_dump):
    _, prov = _graph(example_dump("toy_example", "inductor"), "graph-1-0")
    assert made_from_lines(prov) == {
        15: (["b"], ["cpp_fused_mul_0"]),
        16: (["mul_1"], ["cpp_fused_mul_0"]),
    }


def test_training_backward_maps_to_the_forward_line_it_differentiates(example_dump):
    process = example_dump("training_step", "inductor").processes[0]
    (graph_id,) = process.graphs
    graph, prov = _graph(example_dump("training_step", "inductor"), graph_id)
    backward = next(o for o in graph.output_code if o.part == "backward")
    # torch 2.13 logs kernel stack traces for a backward, but no node mappings.
    assert backward.provenance.kernel_to_post == {}
    assert sorted(backward.provenance.kernel_stacks) == [
        "cpp_fused_mm_mse_loss_backward_t_tanh_backward_1:3",
        "cpp_fused_mse_loss_backward_sum_0:1",
        "cpp_fused_sum_2:5",
        "extern_kernels.mm:2",
        "extern_kernels.mm:4",
    ]
    kernels = [k for k in prov.kernels if k.part == "backward"]
    assert len(kernels) == 5 and all(k.source_lines == (19,) for k in kernels)
    post = {b for a, b in prov.pairs() if b.startswith("post_grad_backward:")}
    post_grad = next(s.text for s in graph.stages if s.kind == "post_grad_backward")
    if "# File:" in post_grad:  # torch 2.13 keeps the forward line's stack on backward nodes
        assert len(post) == 15 and all(("source:19", b) in prov.pairs() for b in post)
    else:  # torch 2.14 prints none there: nothing to link, and nothing is guessed
        assert post == set()
    notes = {p.key: p.note for p in prov.panes}
    assert notes["output_backward"].startswith("Inductor logged no node-to-kernel mapping")
    forward = [k for k in prov.kernels if k.part == "forward"]
    found = [(k.key, k.post_grad_nodes) for k in forward]
    assert found[:3] == [
        ("extern_kernels.addmm:1", ("addmm",)),
        ("cpp_fused_tanh_0:2", ("tanh",)),
        ("extern_kernels.addmm:3", ("addmm_1",)),
    ]
    loss = ("mean", "pow_1", "sub", "mul")
    # torch 2.14's Inductor fuses one node more (sub_1) into the loss kernel
    assert found[3] in [
        ("cpp_fused_mse_loss_mse_loss_backward_1:4", loss),
        ("cpp_fused_mse_loss_mse_loss_backward_1:4", (*loss, "sub_1")),
    ]


def test_the_switch_changes_no_compiled_code(example_dump, tmp_path):
    """Inductor's output code with the switch (captured) and without (a plain run)
    is the same, but for the comment naming each kernel call."""
    captured = example_dump("toy_example", "inductor").processes[0]
    with_switch = [o.source for g in captured.graphs.values() for o in g.output_code]
    plain_file = tmp_path / "plain.json"
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "cache")}
    program = REPO / "tests" / "capture" / "programs" / "output_code.py"
    subprocess.run(
        [sys.executable, str(program), str(plain_file)], check=True, env=env, timeout=600
    )
    plain = json.loads(plain_file.read_text())
    assert len(plain) == len(with_switch) == 3
    assert not any(HANDLE.search(code) for code in plain)
    assert [HANDLE.sub("", code) for code in with_switch] == plain


def test_capture_puts_the_users_level_back():
    import torch._inductor.config as config

    from depyf_report.capture import adapter

    before = config.trace.provenance_tracking_level
    remove = adapter.track_provenance()
    assert config.trace.provenance_tracking_level == 1
    remove()
    assert config.trace.provenance_tracking_level == before
