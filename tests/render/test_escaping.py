"""Names, paths and guard keys come from user code: they must appear as text."""

import json
import re

from light_pages import read_part, search_index
from payload import Tags, assert_inert_markdown, gfm_html
from synthetic import make_dump

from depyf_report.dump import load_dump
from depyf_report.render import urls
from depyf_report.render.build_graph import build_graph_page
from depyf_report.render.codeview import code_line
from depyf_report.render.context import ProcessContext
from depyf_report.render.deferred import PageParts
from depyf_report.render.flowchart import flowchart
from depyf_report.render.summary import summary_markdown
from depyf_report.render.writer import environment


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


def test_search_data_is_a_data_file_that_holds_markup_as_text(markup_site):
    page = (markup_site / "index.html").read_text()
    name = re.search(r'id="search-data" data-part="([^"]+)"', page)[1]
    rows = search_index(markup_site / name)
    assert any(row[1] == "Model0.forward_0<b>&amp;" for row in rows)


def _guard_data_files(site) -> set[str]:
    pages = "".join(_pages(site).values())
    return set(re.findall(r'class="code guard-tree"[^>]* data-part="([^"]+)"', pages))


def test_markup_in_data_files_is_escaped(markup_site):
    """Data files other than the search index and guard trees hold markup the page
    inserts as is."""
    page = (markup_site / "index.html").read_text()
    search = re.search(r'id="search-data" data-part="([^"]+)"', page)[1]
    trees = _guard_data_files(markup_site)
    assert any(name.startswith("p-rank1-fn-") for name in trees)
    parts = [p for p in sorted(markup_site.glob("*.js")) if p.name not in {search, *trees}]
    texts = {path.name: json.dumps(read_part(path), ensure_ascii=False) for path in parts}
    for name, text in texts.items():
        assert "<script>alert" not in text, name
        assert "<b>&amp;" not in text, name


def test_guard_tree_data_holds_dump_text_as_text(markup_site):
    """A guard row is plain data (site.js escapes each part as it draws it): the
    key is there as the dump has it, never as markup."""
    trees = _guard_data_files(markup_site)
    lines = [line for name in trees for line in read_part(markup_site / name)["lines"]]
    assert any("'b<b>&amp;'" in (line if isinstance(line, str) else line[0]) for line in lines)
    assert not any(isinstance(line, dict) for line in lines)  # no markup, no marks here


def test_summary_does_not_pass_markup_through(markup_site):
    text = (markup_site / "summary.md").read_text()
    assert "<b>" not in text and "&lt;b&gt;" in text


# --- ids and anchors ------------------------------------------------------------

HOSTILE = 'x" onmouseover="alert(1)" data-x="<img src=x onerror=alert(1)>'
SAFE_ID = re.compile(r"[A-Za-z0-9_.-]+")


def _assert_ids_are_safe(html: str) -> None:
    tags = Tags(html).tags
    assert not [t for t, _ in tags if t == "img"]
    assert not [a for _, attrs in tags for a in attrs if a.startswith("on")]
    for _, attrs in tags:
        if "id" in attrs:
            assert SAFE_ID.fullmatch(attrs["id"]), attrs["id"]
        if (attrs.get("href") or "").startswith("#"):
            assert SAFE_ID.fullmatch(attrs["href"][1:]), attrs["href"]


def test_every_anchor_is_built_from_a_safe_alphabet():
    anchors = [
        urls.stage_anchor(HOSTILE),
        urls.kernel_anchor(HOSTILE),
        urls.compile_anchor(HOSTILE),
        urls.process_anchor(HOSTILE),
        urls.entry_anchor(HOSTILE),
        urls.entry_line(HOSTILE, HOSTILE, HOSTILE),
        urls.source_line(HOSTILE),
        urls.line_anchor(HOSTILE, HOSTILE),
        urls.resume_code_line(HOSTILE),
        urls.safe_anchor(HOSTILE),
        urls.anchor(HOSTILE, ""),
    ]
    for anchor in anchors:
        assert SAFE_ID.fullmatch(anchor), anchor
    assert urls.stage_anchor("aot_forward") == "stage-aot_forward"  # stable for links
    assert urls.with_anchor("p.html", HOSTILE).startswith("p.html#")
    assert SAFE_ID.fullmatch(urls.with_anchor("p.html", HOSTILE).split("#")[1])


def test_a_code_line_does_not_trust_the_anchor_or_html_it_is_given():
    line = code_line(1, HOSTILE, "<img src=x onerror=alert(1)>")
    _assert_ids_are_safe(line.row)


def test_a_hostile_stage_kind_stays_inside_its_attributes(tmp_path):
    # The stage kind reached id="..." and href="#..." raw: opening the page ran it.
    dump = load_dump(make_dump(tmp_path / "dump", graphs=1))
    ctx = ProcessContext.build(dump.processes[0], "")
    graph = ctx.graph("g1")
    graph.stages[0].kind = HOSTILE
    page = build_graph_page(ctx, graph, ())
    assets = {"css": "s.css", "js": "s.js", "pygments": "p.css"}
    parts = PageParts(page.path)
    html = environment().get_template(page.template).render(page=page, assets=assets, parts=parts)
    _assert_ids_are_safe(html)
    _assert_ids_are_safe(str(flowchart(ctx, ctx.roots()[0])))


# --- summary.md on GitHub ----------------------------------------------------------


def test_summary_is_inert_as_github_flavoured_markdown(tmp_path):
    # A blank line in a qualname made a heading, "|" in argv split the table, and
    # links and images in reasons became links and images.
    dump = load_dump(make_dump(tmp_path / "dump", graphs=2))
    process = dump.processes[0]
    process.manifest.argv = ["train.py", "--x", "a|b", "`", "www.evil.example"]
    process.manifest.status = "<img src=x onerror=alert(1)>"
    fn = process.functions["f0"]
    fn.qualname = "f\n\n# heading\n\n![x](http://evil.example/x.png)\n\n<b>x</b>"
    fn.source = "x = 1\n```\n# not a heading\n````\n</details>\n<script>alert(1)</script>\n"
    record = process.compiles["0/0"]
    record.graph_breaks[0].reason = "[a](http://evil.example) a@evil.example <http://x.example>"
    record.recompile_reasons = ["L['x'] == 'http://evil.example' **b** `c`"]
    text = summary_markdown(dump, [ProcessContext.build(process, "")])
    assert_inert_markdown(text, headings=1)
    html = gfm_html(text)
    rows = [row for row in html.split("<tr>")[1:]]
    assert all(row.count("<td>") in (0, 2) for row in rows)  # "|" split no cell
    assert "a|b" in html and "x = 1\n```\n# not a heading" in html
