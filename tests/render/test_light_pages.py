"""Issue 27: every page stays light whatever the model, and what is folded away
is still there: in data files beside the page, found by search."""

import html
import json
import re

import pytest
from light_pages import (
    GUARD_TREE,
    MAX_DOM_NODES,
    MAX_PAGE_BYTES,
    elements,
    guard_rows,
    read_part,
    search_index,
)
from linkcheck import broken_links
from markupsafe import Markup
from synthetic import make_dump

from depyf_report.dump import load_dump
from depyf_report.render import render
from depyf_report.render.codeview import code_line
from depyf_report.render.deferred import PageParts, nodes, row_nodes, script
from depyf_report.render.views import Mark


@pytest.fixture(scope="module")
def big_site(tmp_path_factory):
    """120 graphs and 24,000 guards: 200 a cache entry, twenty layers deep in L['self']."""
    root = tmp_path_factory.mktemp("big")
    dump = make_dump(root / "dump", graphs=120, guards=24_000)
    return dump, render(dump, root / "site", progress=False).parent


def test_every_page_is_at_most_300_kb_and_3000_elements(big_site):
    _, site = big_site
    pages = sorted(site.glob("*.html"))
    assert len(pages) > 400
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert len(text.encode()) <= MAX_PAGE_BYTES, page.name
        assert elements(text) <= MAX_DOM_NODES, page.name


def test_every_link_resolves_with_the_data_files_loaded(big_site):
    """Links into folded chunks, guard lines in search results, rows of tables."""
    _, site = big_site
    assert broken_links(site) == []


def test_the_folded_parts_are_in_data_files_beside_their_page(big_site):
    _, site = big_site
    page = (site / "fn-f0.html").read_text()
    tree, first, number = GUARD_TREE.search(page).groups()
    assert tree.startswith("fn-f0.") and (site / tree).is_file()
    rows = guard_rows(site / tree, first, number)  # the whole tree, not what the page shows
    shown = len(re.findall(r'class="line[^"]*" id="entry-0-g\d+"', page))
    assert shown < 40 < len(rows)
    assert all(isinstance(depth, int) and row.startswith("<div ") for depth, row in rows)
    assert rows[0][1].startswith('<div class="line" id="entry-0-g1">')


def test_search_finds_every_guard_at_its_line_in_the_tree(big_site):
    dump, site = big_site
    index = (site / "index.html").read_text()
    rows = search_index(site / re.search(r'id="search-data" data-part="([^"]+)"', index)[1])
    found = {}
    for kind, text, _, href, *_ in rows:
        if kind == "guard":
            page, entry, line = re.fullmatch(r"(.+)#entry-(\d+)-g(\d+)", href).groups()
            found[page, int(entry), text] = int(line)
    (process,) = load_dump(dump).processes
    trees = {}
    for fn in process.functions.values():
        page = f"fn-{fn.id}.html"
        for number, entry in enumerate(fn.entries):
            for guard in entry.guards.guards:
                line = found[page, number, guard.expression]
                if (page, number) not in trees:
                    trees[page, number] = _tree_rows(site, page, number)
                assert guard.expression in _text(trees[page, number][line - 1][1])
    assert (
        sum(len(e.guards.guards) for f in process.functions.values() for e in f.entries) >= 24_000
    )


def _text(row: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", row))


def _tree_rows(site, page, number):
    text = (site / page).read_text()
    at = text.index(f'id="entry-{number}"')
    part, first, tree = GUARD_TREE.search(text, at).groups()
    return guard_rows(site / part, first, tree)


def test_a_data_file_holds_any_text_as_a_string():
    hostile = '"); alert(1); ("\\u2028\u2028\u2029</script><script>alert(2)</script>\\'
    text = script("fn-x.1.js", [[0, hostile]]).decode("ascii")
    assert text.startswith('depyfPart("fn-x.1.js",') and text.endswith(");\n")
    assert "\u2028" not in text and "</script>" in text  # inert in a script file of its own
    assert json.loads("[" + text[len("depyfPart(") : -3] + "]") == ["fn-x.1.js", [[0, hostile]]]


def test_recompiles_and_dynamic_shapes_come_before_the_guards(big_site):
    _, site = big_site
    page = (site / "fn-f2.html").read_text()  # model 2 recompiles
    glance = page.index('id="at-a-glance"')
    assert glance < page.index('id="source"') < page.index('id="entry-0"')
    head = page[glance : page.index('id="source"')]
    assert "size mismatch" not in head or "failed" in head
    assert "Recompiles" in head and "Dynamic shapes" in head and "s0" in head


def test_a_rerender_keeps_the_data_files_of_unchanged_pages(big_site, tmp_path):
    dump, _ = big_site
    site = tmp_path / "site"
    render(dump, site, progress=False)
    before = sorted(p.name for p in site.glob("*.js"))
    render(dump, site, progress=False)
    assert sorted(p.name for p in site.glob("*.js")) == before
    status = json.loads((site / ".depyf-report-status.json").read_text())
    assert set(before) <= set(status["files"])


def test_json_of_any_text_becomes_an_ascii_data_file(tmp_path):
    parts = PageParts("provenance-g0.html")
    text = '{"ids":["caf\u00e9 \U0001f600 \u2028"]}'
    name = parts.json(Markup(text))
    (data,) = parts.files
    (tmp_path / name).write_bytes(data.content)
    assert name == "provenance-g0.1.js"
    assert read_part(tmp_path / name) == json.loads(text)


def test_a_rows_cost_is_counted_without_drawing_it():
    """The budget counts a guard row's nodes from its source's markup alone
    (``row_nodes``): the count must be that of the row itself, marks included."""
    marks = (Mark("guard", "<failed>", "#x"), Mark("break", "b"))
    for html_text, marked in [("plain", ()), ('<span class="k">if</span> x', marks)]:
        line = code_line(7, "L7", Markup(html_text), marked)
        assert row_nodes(line) == nodes(line.row)
