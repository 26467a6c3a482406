"""Names, paths and guard keys come from user code: they must appear as text."""

import json
import re


def _pages(site):
    return {p.name: p.read_text() for p in site.glob("*.html")}


def test_markup_in_user_data_is_escaped_everywhere(markup_site):
    for name, text in _pages(markup_site).items():
        assert "<script>alert" not in text, name
        assert "<b>&amp;" not in text, name


def test_markup_in_names_paths_and_guards_shows_as_text(markup_site):
    page = (markup_site / "fn-f0.html").read_text()
    assert "forward_0&lt;b&gt;&amp;amp;" in page  # the function name
    assert "model.py&lt;b&gt;&amp;amp;:10" in page  # the path
    text = re.sub(r"<[^>]+>", "", page)  # highlighting splits the key into spans
    assert "L['b&lt;b&gt;&amp;amp;']" in text  # the guard key
    graph = (markup_site / "graph-g1.html").read_text()
    assert "L_&lt;script&gt;alert(1)&lt;/script&gt;_" in re.sub(r"<[^>]+>", "", graph)


def test_search_data_cannot_close_its_script_element(markup_site):
    page = (markup_site / "index.html").read_text()
    data = page.split('<script type="application/json" id="search-data">')[1].split("</script>")[0]
    assert "<" not in data
    rows = json.loads(data)
    assert any(row[1] == "Model0.forward_0<b>&amp;" for row in rows)


def test_summary_does_not_pass_markup_through(markup_site):
    text = (markup_site / "summary.md").read_text()
    assert "<b>" not in text and "&lt;b&gt;" in text
