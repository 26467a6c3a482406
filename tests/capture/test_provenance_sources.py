"""Provenance of a model whose ops live in its child modules: capture stores the
source of each ``forward`` the nodes come from, and every pane links to its lines.

The program is ``programs/nested_modules.py``: ``Model.forward`` (line 39) calls
``Block.forward`` (29), which calls ``Mlp.forward`` (19).
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from depyf_report.dump import load_dump
from depyf_report.render.build_provenance import made_from_lines, provenance_of
from depyf_report.render.plan import process_contexts
from depyf_report.render.provenance import NO_STACK_TRACES, NO_TRACE_NOTE, fx_nodes

from .conftest import REPO, run_capture

pytestmark = [pytest.mark.torch, pytest.mark.slow]

PROGRAM = REPO / "tests" / "capture" / "programs" / "nested_modules.py"
MLP, BLOCK = "source_1", "source_2"  # the regions after the compiled function's own


@pytest.fixture(scope="module")
def nested(tmp_path_factory, inductor_cache):
    made = {}

    def make(backend):
        if backend not in made:
            dump = tmp_path_factory.mktemp(f"nested-{backend}") / "dump"
            run_capture(
                dump, PROGRAM, backend, env={"TORCHINDUCTOR_CACHE_DIR": str(inductor_cache)}
            )
            (ctx,) = process_contexts(load_dump(dump))
            graph = ctx.dump.graphs["graph-0-0"]
            made[backend] = graph, provenance_of(ctx, graph)
        return made[backend]

    return make


def _text(pane):
    (region,) = pane.regions
    return region.text


def _nodes_from(prov, pane_key):
    """Each source spot ("source_1:20") -> the names of the nodes of one pane it became."""
    pane = next(p for p in prov.panes if p.key == pane_key)
    names = {f"{pane_key}:{n.line}": n.name for n in fx_nodes(_text(pane)).values()}
    found = defaultdict(list)
    for a, b in prov.pairs():
        if a.startswith("source") and b in names:
            found[a].append(names[b])
    return {spot: sorted(nodes) for spot, nodes in found.items()}


def _linked(prov, start, pane_key):
    pane = next(p for p in prov.panes if p.key == pane_key)
    names = {f"{pane_key}:{n.line}": n.name for n in fx_nodes(_text(pane)).values()}
    return sorted(names[b] for a, b in prov.pairs() if a == start and b in names)


def _traced(prov, pane_key):
    """Whether the graph in ``pane_key`` carries stack traces (# File comments)."""
    (pane,) = [p for p in prov.panes if p.key == pane_key]
    return any(node.source_line for node in fx_nodes(pane.regions[0].text).values())


def _dynamo_line(prov, name):
    pane = next(p for p in prov.panes if p.key == "dynamo")
    return f"dynamo:{fx_nodes(_text(pane))[name].line}"


def test_capture_stores_the_source_of_each_child_forward(nested):
    graph, prov = nested("aot_eager")
    assert [(s.qualname, s.first_line) for s in graph.sources] == [
        ("Mlp.forward", 19),
        ("Block.forward", 29),
    ]
    assert graph.sources[0].text == (
        "    def forward(self, x):\n"
        "        h = torch.relu(self.up(x))\n"
        "        return self.down(h)\n"
    )
    (source,) = [p for p in prov.panes if p.key == "source"]
    assert [(r.key, r.label, r.first_line) for r in source.regions] == [
        ("source", "nested_modules.py:Model.forward", 39),
        (MLP, "nested_modules.py:Mlp.forward", 19),
        (BLOCK, "nested_modules.py:Block.forward", 29),
    ]
    assert source.note == ""


def test_each_dynamo_node_links_to_its_innermost_user_line(nested):
    _, prov = nested("aot_eager")
    assert _nodes_from(prov, "dynamo") == {
        "source:41": ["sum_1"],
        f"{MLP}:20": ["h", "linear"],
        f"{MLP}:21": ["linear_1"],
        f"{BLOCK}:30": ["sigmoid", "y"],
        f"{BLOCK}:31": ["z"],
    }
    # The function page marks the compiled function's own lines only.
    assert made_from_lines(prov) == {41: (["sum_1"], [])}


def test_aot_graphs_link_to_dynamo_nodes_through_their_source_line(nested):
    _, prov = nested("aot_eager")
    assert [p.key for p in prov.panes] == ["source", "dynamo", "aot_forward", "aot_backward"]
    assert _linked(prov, _dynamo_line(prov, "h"), "aot_forward") == ["addmm", "relu", "t"]
    notes = {p.key: p.note for p in prov.panes}
    if not _traced(prov, "aot_backward"):  # torch 2.14 prints a backward without traces
        assert _linked(prov, _dynamo_line(prov, "h"), "aot_backward") == []
        assert notes["aot_backward"] == NO_TRACE_NOTE
        return
    # The backward nodes of the relu's line are the ones that differentiate it.
    assert _linked(prov, _dynamo_line(prov, "h"), "aot_backward") == [
        "detach",
        "detach_1",
        "mm_2",
        "sum_3",
        "t_6",
        "t_7",
        "t_8",
        "threshold_backward",
        "view_1",
    ]
    assert notes["aot_backward"].startswith("torch records no map from Dynamo nodes")
    assert notes["dynamo"] == ""


def test_inductor_kernels_point_to_the_child_lines_and_their_callers(nested):
    _, prov = nested("inductor")
    forward = {k.key: (k.sources, k.callers) for k in prov.kernels if k.part == "forward"}
    assert forward == {
        "cpp_fused_mul_sigmoid_0:1": (((BLOCK, 30),), (("source", 40),)),
        "extern_kernels.addmm:2": (((MLP, 20),), (("source", 40), (BLOCK, 31))),
        "cpp_fused_relu_1:3": (((MLP, 20),), (("source", 40), (BLOCK, 31))),
        "extern_kernels.addmm:4": (((MLP, 21),), (("source", 40), (BLOCK, 31))),
        "cpp_fused_add_sum_2:5": ((("source", 41), (BLOCK, 31)), (("source", 40),)),
    }
    # Line 40 calls Block.forward: every kernel, forward and backward, came through it.
    assert made_from_lines(prov)[40] == (
        [],
        [
            "cpp_fused_mul_sigmoid_0",
            "extern_kernels.addmm",
            "cpp_fused_relu_1",
            "cpp_fused_add_sum_2",
            "cpp_fused_expand_mm_t_0",
            "extern_kernels.mm",
            "cpp_fused_expand_sum_threshold_backward_1",
            "cpp_fused_sum_2",
        ],
    )


def test_inductor_backward_kernels_use_the_source_nodes_comment(nested):
    _, prov = nested("inductor")
    backward = {k.key: k for k in prov.kernels if k.part == "backward"}
    mm = backward["extern_kernels.mm:2"]
    assert mm.post_grad_nodes == ("expand", "permute_2", "mm")
    assert mm.dynamo_nodes == ("expand", "linear_1", "permute_2", "mm")
    assert mm.aten == ("aten.expand", "aten.t", "aten.mm")
    notes = {p.key: p.note for p in prov.panes}
    if not _traced(prov, "post_grad_backward"):  # torch 2.14 prints none for a backward
        assert mm.sources == ((MLP, 21),)  # the kernel's own stack trace only
        assert _linked(prov, _dynamo_line(prov, "h"), "post_grad_backward") == []
        assert notes["post_grad_backward"].endswith(NO_STACK_TRACES)
        return
    # Its stack trace names line 21; the expand its comment names is line 41's.
    assert mm.sources == (("source", 41), (MLP, 21))
    # The Dynamo node of Mlp's relu line reaches the backward post-grad nodes of that line.
    assert _linked(prov, _dynamo_line(prov, "h"), "post_grad_backward") == [
        "full_default",
        "le",
        "mm_2",
        "permute_6",
        "sum_3",
        "view_1",
        "where",
    ]
    assert notes["post_grad_backward"].startswith("Inductor logged no node-to-kernel mapping")
    assert notes["post_grad_forward"] == ""


def test_a_transformers_model_shows_its_modules_forward_methods(example_dump):
    """GPT-2's block graph: its nodes come from the layers' ``forward`` methods in
    transformers' files, each a region of the source pane."""
    (ctx,) = process_contexts(example_dump("transformers_model"))
    graph = next(
        g for g in ctx.dump.graphs.values() if "forward_with_checkpointing" in (g.function or "")
    )
    prov = provenance_of(ctx, graph)
    regions = {r.label: r for r in prov.panes[0].regions}
    assert {
        "modeling_gpt2.py:GPT2Attention.forward",
        "modeling_gpt2.py:GPT2MLP.forward",
        "modeling_gpt2.py:GPT2Block.forward",
        "pytorch_utils.py:Conv1D.forward",
        "activations.py:NewGELUActivation.forward",
    } <= set(regions)
    mlp = regions["modeling_gpt2.py:GPT2MLP.forward"]
    assert mlp.first_line == 240
    assert mlp.text.splitlines()[4] == "        hidden_states = self.dropout(hidden_states)"
    assert _nodes_from(prov, "dynamo")[f"{mlp.key}:244"] == ["hidden_states_4"]
    assert prov.panes[0].note == ""
