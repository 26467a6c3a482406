"""Many ranks: the rank switcher and the divergence page, on synthetic dumps (no torch).

``ranks_dump.diverging_dump`` says how its four ranks differ.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
from linkcheck import broken_links
from ranks_dump import diverging_dump, edit
from synthetic import make_dump

from depyf_report.render import render


@pytest.fixture(scope="module")
def ranks_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ranks")
    return render(diverging_dump(root / "dump"), root / "site", progress=False).parent


def _text(page: Path) -> str:
    """The page's words, tags dropped and entities read, on one line."""
    words = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))
    return " ".join(html.unescape(words).split()).replace(" ,", ",")


def test_the_divergence_page_names_what_differs(ranks_site):
    text = _text(ranks_site / "divergence.html")
    assert "Ranks diverged in 2 functions: ranks 0, 3 agree; rank 1 differs; rank 2 differs." in (
        text
    )
    # Model0.forward_0: rank 2's break, guard and graph.
    section = text[text.index("Model0.forward_0 ranks 0, 1, 3 agree · rank 2") :]
    assert "graph breaks Compared on ranks 0, 1, 2, 3" in section
    assert "rank 2 print() on rank 2 at model.py:14" in section
    assert "guards of cache entry 0" in section
    assert "rank 2 G['LOUD'] == True" in section
    assert (
        "graph __compiled_fn_1 (compile 0, graph 0; rank 3 names it differently): Dynamo graph"
    ) in section
    assert "rank 2 : rank 2 — differs from ranks 0, 1, 3:" in section
    diff = (ranks_site / "divergence.html").read_text(encoding="utf-8")
    assert '<span class="del">-        return (mul_11,)</span>' in diff
    assert '<span class="add">+        return (mul_10,)</span>' in diff
    # Model2.forward_2: rank 1 compiled it once.
    section = text[text.index("Model2.forward_2 ranks 0, 2, 3 agree · rank 1") :]
    assert "compile 1: ok, recompiled: tensor 'L['x']' size mismatch" in section
    assert "made on some ranks only" in section
    # Object ids and graph uuids are not differences: rank 3 agrees with rank 0.
    assert "140234567890" not in text and "7e32b31e" not in text


def test_the_counts_table_has_each_function_on_each_rank(ranks_site):
    page = (ranks_site / "divergence.html").read_text(encoding="utf-8")
    row = re.search(r'<tr class="differs"><td><a href="[^"]*">Model2\.forward_2</a>.*?</tr>', page)
    assert row is not None
    cells = re.findall(r'title="compiles / recompiles / graph breaks">([^<]*)<', row[0])
    assert cells == ["2 / 1 / 1", "1 / 0 / 1", "2 / 1 / 1", "2 / 1 / 1"]


def test_function_pages_switch_to_the_same_function_on_each_rank(ranks_site):
    page = (ranks_site / "p-rank3-fn-f0.html").read_text(encoding="utf-8")
    switch = page[
        page.index('<nav class="rank-switch"') : page.index("</nav>", page.index("rank-switch"))
    ]
    assert '<a class="rank" href="fn-f0.html">rank 0</a>' in switch
    assert '<a class="rank" href="p-rank1-fn-f0.html">rank 1</a>' in switch
    assert '<a class="rank differs" href="p-rank2-fn-f0.html"' in switch
    assert '<span class="rank current" aria-current="page">rank 3</span>' in switch
    assert "Different on rank 2." in switch
    assert 'href="divergence.html#diverged-f0"' in switch


def test_graph_pages_say_where_the_graph_is_missing(ranks_site):
    page = _text(ranks_site / "p-rank2-graph-g6.html")
    assert "this graph on rank 0 rank 1 rank 2 rank 3 Not made on rank 1." in page
    page = (ranks_site / "p-rank2-graph-g6.html").read_text(encoding="utf-8")
    assert '<span class="rank missing" title="not on rank 1">rank 1</span>' in page


def test_the_overview_says_in_one_line_whether_ranks_diverged(ranks_site):
    text = _text(ranks_site / "index.html")
    assert "Ranks: rank 0 rank 1 rank 2 rank 3 Ranks diverged in 2 functions" in text
    page = (ranks_site / "index.html").read_text(encoding="utf-8")
    assert 'href="divergence.html"' in page
    assert '<a class="rank" href="index.html#process-main">rank 0</a>' in page
    assert '<a class="rank differs" href="index.html#process-rank1"' in page


def test_every_link_resolves(ranks_site):
    assert broken_links(ranks_site) == []


def test_ranks_that_agree_say_so(tmp_path):
    site = render(make_dump(tmp_path / "dump", graphs=3, processes=3), tmp_path / "site")
    assert "All 3 ranks compiled the same" in _text(site.parent / "divergence.html")
    assert "The same on every rank (3)." in _text(site.parent / "p-rank2-fn-f0.html")


def test_a_single_process_has_no_rank_noise(site):
    assert not (site / "divergence.html").exists()
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "rank-switch" not in text and "divergence.html" not in text, page.name


HOSTILE = '"><img src=x onerror=alert(1)>'


def test_hostile_process_names_are_escaped(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=3, processes=2, markup=True)
    shutil.copytree(dump / "processes" / "rank1", dump / "processes" / HOSTILE)

    def claim(manifest):
        manifest["process"] = f"processes/{HOSTILE}"

    edit(dump / "processes" / HOSTILE / "manifest.json", claim)
    site = render(dump, tmp_path / "site", progress=False).parent
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<img src=x" not in text, page.name
    text = _text(site / "divergence.html")
    assert f"rank 1 ({HOSTILE})" in text and "rank 1 (rank1)" in text
    assert broken_links(site) == []


def test_output_and_provenance_pages_switch_to_the_same_graph(ranks_site):
    page = (ranks_site / "p-rank3-graph-g1-forward-code.html").read_text(encoding="utf-8")
    assert '<a class="rank" href="graph-g1-forward-code.html">rank 0</a>' in page
    assert '<a class="rank differs" href="p-rank2-graph-g1-forward-code.html"' in page
    page = (ranks_site / "p-rank1-provenance-g1.html").read_text(encoding="utf-8")
    assert '<a class="rank" href="p-rank3-provenance-g1.html">rank 3</a>' in page


def test_functions_known_only_by_their_compiles_are_compared(tmp_path):
    """A dump read from trace logs names functions in compiles, with no records."""
    dump = make_dump(tmp_path / "dump", graphs=3, processes=2)
    for folder in (dump, dump / "processes" / "rank1"):
        for record in (folder / "functions").glob("*.json"):
            record.unlink()

    def recompile(record):
        record["recompile_reasons"] = ["tensor 'L['x']' size mismatch at index 0"]

    edit(dump / "processes" / "rank1" / "compiles" / "0-0.json", recompile)
    site = render(dump, tmp_path / "site", progress=False).parent
    text = _text(site / "divergence.html")
    assert "Ranks diverged in 1 function: no two ranks agree (ranks 0, 1)." in text
    assert "f0 rank 0 · rank 1" in text
    assert "+compile 0: ok, recompiled: tensor 'L['x']' size mismatch at index 0" in text
