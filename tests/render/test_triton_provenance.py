"""Triton output code (recorded sample, ``data/triton/``): kernel parsing, the
output-code page's lists per kernel, and the provenance mapping, exactly."""

import re

import pytest
from provenance_dump import TRITON, make_provenance_dump, reached, triton_graph

from depyf_report.dump import load_dump
from depyf_report.render import render
from depyf_report.render.build_provenance import made_from_lines, provenance_of
from depyf_report.render.plan import process_contexts
from depyf_report.render.provenance import kernel_lines

RED, POI = "triton_red_fused_lt_sum_0", "triton_poi_fused_abs_add_div_1"
# Lines of data/triton/output_code.txt.
RED_DEFINITION = range(34, 82)  # "# kernel path:" to "''', device_str='cuda')"
POI_DEFINITION = range(84, 120)
RED_CALL = (143, 144, 146)  # Source Nodes comment, handle, launch (get_raw_stream between)
POI_CALL = (149, 150, 151)
# Lines of data/triton/dynamo.txt and post_grad.txt.
DYNAMO = {"abs_1": 7, "add": 8, "x": 9, "sum_1": 12, "lt": 13}
POST_GRAD = {"sum_1": 4, "lt": 5, "abs_1": 8, "add": 9, "div": 10}


def test_capture_parses_both_triton_kernels():
    _, output = triton_graph("/home/user/toy.py")
    assert output.part == "inference"
    assert [(k.name, k.language) for k in output.kernels] == [(RED, "triton"), (POI, "triton")]
    red, poi = output.kernels
    assert red.source.startswith("import triton\n") and red.source.endswith("None)\n")
    assert "@triton.jit\ndef triton_red_fused_lt_sum_0(in_ptr0, out_ptr1," in red.source
    assert "    tmp4 = (tmp0 / tmp3)\n" in poi.source
    assert output.provenance.kernel_to_post == {
        f"{RED}:1": ["sum_1", "lt"],
        f"{POI}:2": ["div", "add", "abs_1"],
    }
    assert sorted(output.provenance.kernel_stacks) == [f"{POI}:2", f"{RED}:1"]


def test_each_kernel_call_is_its_definition_comments_handle_and_launch():
    source = (TRITON / "output_code.txt").read_text()
    assert kernel_lines(source) == {
        f"{RED}:1": (144, (*RED_DEFINITION, *RED_CALL)),
        f"{POI}:2": (150, (*POI_DEFINITION, *POI_CALL)),
    }


@pytest.fixture(scope="module")
def triton_dump(tmp_path_factory):
    return make_provenance_dump(tmp_path_factory.mktemp("triton") / "dump", triton=True)


def _provenance(root):
    (ctx,) = process_contexts(load_dump(root))
    return provenance_of(ctx, ctx.dump.graphs["g0"])


def test_line_13_reaches_the_pointwise_kernel_and_line_14_the_reduction(triton_dump):
    prov = _provenance(triton_dump)
    assert reached(prov, "source:13") == {
        *(f"dynamo:{DYNAMO[n]}" for n in ("abs_1", "add", "x")),
        *(f"post_grad_inference:{POST_GRAD[n]}" for n in ("abs_1", "add", "div")),
        "output_inference:150",
    }
    assert reached(prov, "source:14") == {
        *(f"dynamo:{DYNAMO[n]}" for n in ("sum_1", "lt")),
        *(f"post_grad_inference:{POST_GRAD[n]}" for n in ("sum_1", "lt")),
        "output_inference:144",
    }
    assert made_from_lines(prov) == {
        13: (["abs_1", "add", "x"], [POI]),
        14: (["sum_1", "lt"], [RED]),
    }


def test_each_triton_kernel_points_back_to_its_nodes_operators_and_line(triton_dump):
    red, poi = _provenance(triton_dump).kernels
    assert (red.key, red.name, red.handle_line) == (f"{RED}:1", RED, 144)
    assert red.post_grad_nodes == ("sum_1", "lt")
    assert red.dynamo_nodes == ("sum_1", "lt")
    assert red.aten == ("aten.sum", "aten.lt")
    assert red.source_lines == (14,)
    assert (poi.key, poi.handle_line) == (f"{POI}:2", 150)
    assert poi.post_grad_nodes == ("div", "add", "abs_1")
    assert poi.dynamo_nodes == ("abs_1", "add", "x")
    assert poi.aten == ("aten.abs", "aten.add", "aten.div")
    assert poi.source_lines == (13,)


def _kernel_section(html: str, name: str) -> str:
    found = re.search(rf'<section[^>]*id="kernel-{name}".*?</section>', html, re.S)
    assert found, name
    return found[0]


def test_the_output_page_lists_each_triton_kernels_origins(triton_dump, tmp_path):
    site = render(triton_dump, tmp_path / "site", progress=False).parent
    html = (site / "graph-g0-inference-code.html").read_text()
    red, poi = _kernel_section(html, RED), _kernel_section(html, POI)
    assert "<code>sum_1</code>, <code>lt</code>" in red
    assert "<code>aten.sum</code>, <code>aten.lt</code>" in red
    assert '<a href="fn-toy_example.html#L14">14</a>' in red
    assert 'href="provenance-g0.html#output_inference-L144"' in red
    assert "<code>div</code>, <code>add</code>, <code>abs_1</code>" in poi
    assert "<code>aten.abs</code>, <code>aten.add</code>, <code>aten.div</code>" in poi
    assert '<a href="fn-toy_example.html#L13">13</a>' in poi
    assert "fn-toy_example.html#L14" not in poi
    assert 'href="provenance-g0.html#output_inference-L150"' in poi
