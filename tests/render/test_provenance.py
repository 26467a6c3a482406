"""The provenance mapping and page, on a dump shaped like the toy example's first graph."""

import re

import pytest
from light_pages import read_part
from provenance_dump import (
    DYNAMO_LINES,
    HANDLE_LINE,
    KERNEL,
    KERNEL_LINES,
    POST_GRAD_LINES,
    make_provenance_dump,
    reached,
)

from depyf_report.dump import load_dump
from depyf_report.render import render
from depyf_report.render.build_provenance import made_from_lines, provenance_of
from depyf_report.render.plan import process_contexts
from depyf_report.render.provenance import SourceText, kernel_lines


def _provenance(root, **kwargs):
    dump = load_dump(make_provenance_dump(root, **kwargs))
    (ctx,) = process_contexts(dump)
    return provenance_of(ctx, dump.processes[0].graphs["g0"])


def test_line_13_reaches_its_nodes_and_the_fused_kernel(tmp_path):
    prov = _provenance(tmp_path)
    assert [p.key for p in prov.panes] == [
        "source",
        "dynamo",
        "post_grad_inference",
        "output_inference",
    ]
    assert reached(prov, "source:13") == {
        *(f"dynamo:{DYNAMO_LINES[n]}" for n in ("abs_1", "add", "x")),
        *(f"post_grad_inference:{POST_GRAD_LINES[n]}" for n in ("abs_1", "add", "div")),
        f"output_inference:{HANDLE_LINE}",
    }


def test_the_fused_kernel_points_back_to_lines_13_and_14(tmp_path):
    (kernel,) = _provenance(tmp_path).kernels
    assert kernel.name == KERNEL and kernel.key == f"{KERNEL}:1"
    assert kernel.lines == KERNEL_LINES and kernel.handle_line == HANDLE_LINE
    assert kernel.source_lines == (13, 14)
    assert kernel.post_grad_nodes == ("sum_1", "lt", "div", "add", "abs_1")
    assert sorted(kernel.dynamo_nodes) == ["abs_1", "add", "lt", "sum_1", "x"]
    assert sorted(kernel.aten) == ["aten.abs", "aten.add", "aten.div", "aten.lt", "aten.sum"]


def test_each_source_line_lists_the_nodes_and_kernels_made_from_it(tmp_path):
    assert made_from_lines(_provenance(tmp_path)) == {
        13: (["abs_1", "add", "x"], [KERNEL]),
        14: (["sum_1", "lt"], [KERNEL]),
    }


def test_without_a_mapping_kernels_link_to_nothing_and_the_panes_say_so(tmp_path):
    prov = _provenance(tmp_path, recorded=False)
    assert not any(b.startswith("output_") for _, b in prov.pairs())
    # Dynamo nodes reach post-grad nodes only through the source line both name.
    by_line = {"13": ("abs_1", "add", "x"), "14": ("sum_1", "lt")}
    post_of = {"13": ("abs_1", "add", "div"), "14": ("sum_1", "lt")}
    assert {(a, b) for a, b in prov.pairs() if a.startswith("dynamo:")} == {
        (f"dynamo:{DYNAMO_LINES[d]}", f"post_grad_inference:{POST_GRAD_LINES[p]}")
        for line in by_line
        for d in by_line[line]
        for p in post_of[line]
    }
    # The # File comments still say where each node came from.
    assert ("source:13", f"post_grad_inference:{POST_GRAD_LINES['div']}") in prov.pairs()
    notes = {p.key: p.note for p in prov.panes}
    assert notes["output_inference"].startswith("No provenance was recorded")
    assert notes["source"] == "" and notes["dynamo"] == ""


def test_a_kernel_defined_on_one_line_ends_there():
    source = "k_0 = async_compile.cpp_pybinding([], '''...''')\n\ncall()\n# [Provenance debug handles] k_0:1\nk_0(buf0)\n"
    assert kernel_lines(source) == {"k_0:1": (4, (1, 4, 5))}


@pytest.fixture(scope="module")
def provenance_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("provenance")
    return render(make_provenance_dump(root / "dump"), root / "site", progress=False).parent


def _page_data(site, html: str) -> dict:
    """The page's mapping: a data file beside it (deferred.py)."""
    return read_part(site / re.search(r'id="provenance-data" data-part="([^"]+)"', html)[1])


def test_the_page_holds_its_own_mapping_and_links_from_the_other_pages(provenance_site):
    page = (provenance_site / "provenance-g0.html").read_text()
    data = _page_data(provenance_site, page)
    ids = data["ids"]
    down = data["down"]
    edges = [[ids[a], ids[b]] for a, n in zip(down[::2], down[1::2]) for b in data["targets"][n]]
    assert ["source-L13", f"output_inference-L{HANDLE_LINE}"] in edges
    function = (provenance_site / "fn-toy_example.html").read_text()
    assert 'href="provenance-g0.html#source-L13"' in function
    assert "__compiled_fn_1: abs_1, add, x → cpp_fused_abs_add_div_lt_sum_0" in function
    assert 'href="provenance-g0.html"' in (provenance_site / "graph-g0.html").read_text()
    output = (provenance_site / "graph-g0-inference-code.html").read_text()
    assert f'href="provenance-g0.html#output_inference-L{HANDLE_LINE}"' in output
    assert (
        '<a href="fn-toy_example.html#L13">13</a>, <a href="fn-toy_example.html#L14">14</a>'
        in output
    )
    assert "<code>aten.abs</code>" in output


def test_an_old_dump_renders_and_says_the_mapping_is_missing(tmp_path):
    site = render(
        make_provenance_dump(tmp_path / "dump", recorded=False), tmp_path / "site", progress=False
    ).parent
    page = (site / "provenance-g0.html").read_text()
    assert "No provenance was recorded for this module" in page
    assert "mapping is not in this dump" in page


def test_hostile_names_and_paths_are_escaped_in_the_page(tmp_path):
    site = render(
        make_provenance_dump(tmp_path / "dump", hostile=True), tmp_path / "site", progress=False
    ).parent
    for path in [
        site / "provenance-g0.html",
        site / "graph-g0-inference-code.html",
        site / "fn-toy_example.html",
    ]:
        html = path.read_text()
        assert "<script>alert" not in html, path.name
    data = _page_data(site, (site / "provenance-g0.html").read_text())
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+", i) for i in data["ids"])


def test_a_relative_frame_matches_the_absolute_source_but_a_namesake_does_not():
    source = SourceText("/home/user/examples/toy.py", 12, "a\nb\nc\n")
    assert source.holds("examples/toy.py", 13)
    assert source.holds("/home/user/examples/toy.py", 14)
    assert not source.holds("/elsewhere/toy.py", 13)
    assert not source.holds("examples/toy.py", 15)
