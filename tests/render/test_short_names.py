"""Pages show ``__compiled_fn_1`` for Dynamo's ``__compiled_fn_1_<uuid>``; the link,
the tooltip, the search index and the story file keep the whole name."""

import html
import re

import pytest
from synthetic import UUID, make_dump, name_graph_one_with_uuid

from depyf_report.dump import CompiledGraph, load_dump
from depyf_report.render import render
from depyf_report.render.context import ProcessContext, graph_order
from depyf_report.render.highlight import highlight_lines
from depyf_report.render.names import short_name
from depyf_report.render.search import search_rows

FULL = f"__compiled_fn_1_{UUID}"


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    """The synthetic dump, with graph 1 named as torch 2.13 names it."""
    root = make_dump(tmp_path_factory.mktemp("names") / "dump", graphs=2)
    assert name_graph_one_with_uuid(root) == FULL
    return root


@pytest.fixture(scope="module")
def site(dump, tmp_path_factory):
    return render(dump, tmp_path_factory.mktemp("names") / "site", progress=False).parent


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        (FULL, "__compiled_fn_1"),
        (f"__compiled_fn_12_{UUID}", "__compiled_fn_12"),
        ("__compiled_fn_1", "__compiled_fn_1"),  # already short
        (f"__compiled_fn_1_{UUID.upper()}", f"__compiled_fn_1_{UUID.upper()}"),  # not uuid4's
        (f"__compiled_fn_1_{UUID}_x", f"__compiled_fn_1_{UUID}_x"),  # more after it
        (f"__resume_at_30_2_{UUID}", f"__resume_at_30_2_{UUID}"),
    ],
)
def test_only_a_whole_compiled_fn_name_with_a_uuid_is_shortened(name, shown):
    assert short_name(name) == shown


def _entry_code(page: str) -> str:
    """The transformed code of cache entry 0: its rows, markup and all."""
    start = page.index('id="entry-0-t1"')
    return page[start : page.index("</pre>", start)]


def test_transformed_code_links_the_short_name_to_the_graph_page(site):
    code = _entry_code((site / "fn-f0.html").read_text(encoding="utf-8"))
    (link,) = re.findall(r'<a class="code-link" href="([^"]*)" title="([^"]*)">(.*?)</a>', code)
    href, title, inner = link
    assert href == "graph-g1.html"
    assert html.unescape(title) == FULL
    assert re.sub(r"<[^>]+>", "", inner) == "__compiled_fn_1"
    # The uuid is in the tooltip and nowhere else the code view shows.
    assert code.count(UUID) == 1 and f'title="{FULL}"' in code


def test_other_places_show_the_short_name_with_the_whole_one_as_tooltip(site):
    function = (site / "fn-f0.html").read_text(encoding="utf-8")
    assert f'<a href="graph-g1.html" title="{FULL}">__compiled_fn_1</a>' in function
    graph = (site / "graph-g1.html").read_text(encoding="utf-8")
    assert f'<h1><code title="{FULL}">__compiled_fn_1</code>' in graph
    assert "<title>__compiled_fn_1 · depyf-report</title>" in graph
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f'<a href="graph-g1.html" title="{FULL}">__compiled_fn_1</a>' in index


def test_search_finds_the_graph_by_either_name(dump):
    (process,) = load_dump(dump).processes
    rows = [r for r in search_rows(ProcessContext.build(process, "")) if r[0] == "graph"]
    (row,) = [r for r in rows if r[3] == "graph-g1.html"]
    assert row[1] == "__compiled_fn_1"  # shown
    assert row[4] == FULL  # searched, never shown
    for query in ["__compiled_fn_1", FULL, UUID]:  # as the page's search matches a row
        assert query.lower() in " ".join([row[0], row[1], row[2], *row[4:]]).lower()


def test_graphs_are_ordered_by_their_number_not_by_their_uuid():
    names = [f"__compiled_fn_{n}_{UUID}" for n in (10, 2, 1)]
    graphs = [CompiledGraph(f"g{i}", n, "0/0", None) for i, n in enumerate(names)]
    assert [g.name for g in sorted(graphs, key=graph_order)] == names[::-1]


def test_the_story_file_keeps_the_name_the_code_reads(site):
    story = (site / "fn-f0.py").read_text(encoding="utf-8")
    assert f"= {FULL}(x)" in story
    compile(story, "fn-f0.py", "exec")


def test_an_unlinked_name_is_shortened_too():
    (line,) = highlight_lines(f"y = {FULL}(x)")
    assert f'<span title="{FULL}">__compiled_fn_1</span>(x)' in line
