"""The report in a notebook: a real notebook run headless, its saved outputs read
back and opened in Chromium, and the display objects on their own."""

from __future__ import annotations

import html
import json
import os
import re
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
import torch
from nbclient import NotebookClient
from playwright.sync_api import expect, sync_playwright

import depyf_report
from depyf_report.errors import UserError
from depyf_report.notebook import Report, load
from depyf_report.render.bundle import site_bundle

sys.path.insert(0, str(Path(__file__).parent / "render"))
from payload import HOSTILE, hostile_dump
from synthetic import make_dump

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

CELLS = [
    f"import sys\nsys.path.insert(0, {str(REPO / 'examples')!r})",
    "import torch, depyf_report\nfrom torch._dynamo.utils import counters\n"
    "from toy_example import toy_example",
    'with depyf_report.capture("dump/") as report:\n'
    '    f = torch.compile(toy_example, backend="eager")\n'
    "    for sign in (1, -1):\n"
    "        f(torch.randn(10), sign * torch.ones(10))\n"
    # torch's own counts, to hold the report's numbers against
    'print("breaks", sum(counters["unimplemented"].values()), "frames", counters["frames"]["ok"])',
    "report",
    "depyf_report.show(f)",
    "depyf_report.show(lambda x: x)",
    "depyf_report.show(42)",
]
RAISES = {5, 6}  # cells expected to fail, with one clear line


@pytest.fixture(scope="module")
def notebook(tmp_path_factory):
    """The notebook, run by a real kernel in a folder of its own, saved and read back."""
    folder = tmp_path_factory.mktemp("nb")
    nb = nbformat.v4.new_notebook()
    for i, source in enumerate(CELLS):
        cell = nbformat.v4.new_code_cell(source)
        if i in RAISES:
            cell.metadata["tags"] = ["raises-exception"]
        nb.cells.append(cell)
    env = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env) if p)
    try:
        NotebookClient(
            nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
        ).execute()
    finally:
        os.environ["PYTHONPATH"] = env
    saved = folder / "report.ipynb"
    nbformat.write(nb, saved)
    return folder, nbformat.read(saved, as_version=4)


def _outputs(nb, index: int) -> list:
    return nb.cells[index].outputs


def _html_of(nb, index: int) -> str:
    [output] = [o for o in _outputs(nb, index) if "text/html" in o.get("data", {})]
    return output["data"]["text/html"]


def _tags(markup: str) -> Counter:
    """The elements an HTML text holds, as a browser's parser finds them."""
    found = Counter()

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found[tag] += 1

    Tags().feed(markup)
    return found


def _srcdoc(markup: str) -> str:
    """The document in the frame of a report's output."""
    found = []

    class Frame(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "iframe":
                found.append(dict(attrs)["srcdoc"])

    Frame().feed(markup)
    [document] = found
    return document


def _numbers(summary: str) -> dict[str, str]:
    """The overview's numbers as the saved summary shows them: label -> value."""
    table = re.search(r'<table class="numbers">(.*?)</table>', summary, re.S)[1]
    labels = [html.unescape(t) for t in re.findall(r"<th>(.*?)</th>", table)]
    values = [html.unescape(t) for t in re.findall(r"<td>(.*?)</td>", table)]
    return dict(zip(labels, values, strict=True))


@pytest.mark.torch
@pytest.mark.slow
def test_the_saved_report_reads_without_script(notebook):
    folder, nb = notebook
    summary = _html_of(nb, 3)
    numbers = _numbers(summary)
    breaks, frames = re.search(r"breaks (\d+) frames (\d+)", _outputs(nb, 2)[0]["text"]).groups()
    assert numbers["graph breaks"] == breaks == "1"
    assert numbers["compiles"] == frames == "3"
    assert numbers["functions (2 resume)"] == "3"
    assert numbers["recompiles"] == "0"
    assert "Data-dependent branching" in summary
    assert "toy_example.py:14" in summary
    # No script in the output itself; the site is in the frame's srcdoc, as text.
    assert set(_tags(summary)) == {
        "div",
        "p",
        "strong",
        "code",
        "table",
        "tr",
        "th",
        "td",
        "h4",
        "span",
        "iframe",
    }
    assert "dump-site/index.html" in summary
    assert (folder / "dump-site" / "index.html").is_file()
    text = _outputs(nb, 3)[0]["data"]["text/plain"]
    assert "dump" in text and "dump-site" in text


@pytest.mark.torch
@pytest.mark.slow
def test_show_reads_the_cache_entries(notebook):
    _, nb = notebook
    shown = _html_of(nb, 4)
    assert shown.count("Cache entry 1") == 3  # toy_example and its two resume functions
    assert "toy_example, resumes at line 15 after the break at line 14" in shown
    text = html.unescape(re.sub(r"<[^>]+>", "", shown))
    assert "graph_out_0 = __compiled_fn_1(a, b)  # line 12" in text  # decompiled, highlighted
    assert "return __resume_at_102_2([], [], b, graph_out_0[1])  # line 14" in text
    assert "TENSOR_MATCH" in text  # the guard tree
    assert "toy_example(a, b)" in _outputs(nb, 4)[0]["data"]["text/plain"]


@pytest.mark.torch
@pytest.mark.slow
def test_show_errors_are_one_line(notebook):
    _, nb = notebook
    for index, words in ((5, "never compiled"), (6, "takes a function")):
        [error] = _outputs(nb, index)
        assert error["output_type"] == "error"
        assert error["ename"] == "UserError"
        assert len(error["traceback"]) == 1
        assert error["traceback"][0].startswith("depyf-report: error: ")
        assert words in error["traceback"][0]


@pytest.mark.torch
@pytest.mark.slow
@pytest.mark.browser
def test_the_output_in_a_browser(notebook):
    """The saved outputs placed in a page beside the notebook, as a frontend shows them."""
    folder, nb = notebook
    page_file = folder / "outputs.html"
    page_file.write_text(
        f"<!doctype html><meta charset=utf-8><body>{_html_of(nb, 3)}{_html_of(nb, 4)}</body>"
    )
    if not CHROMIUM.exists():
        pytest.fail("needs Debian's chromium (apt-get install chromium); or -m 'not browser'")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            _check_page(browser.new_page(), page_file)
        finally:
            browser.close()


def _check_page(page, page_file: Path) -> None:
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: r.url.startswith(("file://", "blob:")) or errors.append(r.url))
    page.goto(page_file.as_uri())
    assert page.locator(".depyf-report-nb table.numbers").first.is_visible()
    # The frame shows the overview, styled: its numbers and its flowchart.
    site = page.frame_locator("iframe.site").frame_locator("#view")
    site.locator(".stats").wait_for()
    assert site.locator("svg.flowchart").first.is_visible()
    assert site.locator(".topbar").evaluate("e => getComputedStyle(e).position") == "sticky"
    # Its links work inside the frame: a function page, a fragment, back by a shortcut.
    site.locator("svg.flowchart a[href='fn-toy_example.html']").first.click()
    heading = site.locator("main h1")
    heading.wait_for()
    assert heading.inner_text().startswith("toy_example")
    site.locator("body").press("i")
    site.locator(".stats").wait_for()
    # Search from the overview opens the result it chose.
    site.locator("#search").fill("resumes at line 16")
    site.locator("#search-results li").first.wait_for()  # the index is read on first use
    site.locator("#search").press("Enter")
    expect(site.locator("main h1")).to_contain_text("resumes at line 16")
    # A page of its own in a new tab, at the page shown now.
    with page.context.expect_page() as opened:
        page.frame_locator("iframe.site").locator("#new-tab").click()
    tab = opened.value
    tab.frame_locator("#view").locator("main h1").wait_for()
    assert "resumes at line 16" in tab.frame_locator("#view").locator("main h1").inner_text()
    assert errors == []


# --- the display objects, without a kernel ---------------------------------------


def test_a_report_stands_for_its_folder(tmp_path):
    report = Report(tmp_path / "dump")
    assert report == tmp_path / "dump"
    assert report / "x" == tmp_path / "dump" / "x"
    assert Path(report) == tmp_path / "dump"
    assert report.site == tmp_path / "dump-site"


def test_load_refuses_what_is_no_dump(tmp_path):
    with pytest.raises(UserError, match="no such directory"):
        load(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="not a depyf-report dump"):
        load(tmp_path / "empty")


def test_a_report_that_cannot_render_shows_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_dump(tmp_path / "dump", graphs=1)
    (tmp_path / "dump-site").mkdir()
    (tmp_path / "dump-site" / "mine.txt").write_text("not a site")
    shown = load("dump")._repr_html_()
    assert shown.startswith('<p class="depyf-report-error">depyf-report: error: ')
    assert "holds no depyf-report site" in shown
    assert (tmp_path / "dump-site" / "mine.txt").read_text() == "not a site"


def test_dump_text_is_escaped_in_the_summary(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_dump(tmp_path / "dump", graphs=3, processes=2, markup=True)
    shown = load("dump")._repr_html_()
    assert "script" not in _tags(shown) and "img" not in _tags(shown)
    assert "&lt;" in shown  # the markup is there, as text
    # Inside the frame, the markup stays in the pages' data: the frame's own elements only.
    document = _srcdoc(shown)
    assert set(_tags(document)) == {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "div",
        "a",
        "iframe",
        "script",
    }
    assert _tags(document)["script"] == 2  # the data, and the router


def test_the_frame_carries_the_site_up_to_a_limit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_dump(tmp_path / "dump", graphs=3)
    report = load("dump")
    report.render()
    whole = _site_data(site_bundle(report.site, "dump-site"))
    on_disk = sorted(p.name for p in report.site.glob("*.html"))
    assert sorted(n for n in whole["pages"] if n.endswith(".html")) == on_disk
    assert set(whole["assets"]) == {f"static/{p.name}" for p in (report.site / "static").iterdir()}
    cut = _site_data(site_bundle(report.site, "dump-site", limit=1))
    assert list(cut["pages"]) == ["index.html"]  # the overview, whatever its size
    assert "pages too big for the notebook" in site_bundle(report.site, "dump-site", limit=1)


def _site_data(bundle: str) -> dict:
    text = re.search(r'<script type="application/json" id="site-data">(.*?)</script>', bundle, re.S)
    return json.loads(text[1])


@pytest.mark.torch
def test_show_unwraps_what_torch_compile_returns():
    class Net(torch.nn.Module):
        def forward(self, x):
            return x.relu() + 1

    net = Net()
    compiled = torch.compile(net, backend="eager")
    compiled(torch.ones(3))
    for target in (compiled, net, Net.forward, net.forward):
        [function] = depyf_report.show(target).functions
        assert function.name == "forward"
        assert len(function.entries) == 1
        assert "relu" not in (function.entries[0].code.decompiled or "relu")


@pytest.mark.torch
def test_show_says_what_was_never_compiled():
    def never(x):
        return x

    with pytest.raises(UserError, match="nothing in torch's cache: it was never compiled"):
        depyf_report.show(never)
    with pytest.raises(UserError, match="got str"):
        depyf_report.show("toy_example")


@pytest.mark.browser
def test_a_hostile_dump_runs_nothing_in_the_frame(tmp_path, monkeypatch):
    """Every string of the dump is a payload: the output and each page in its frame
    open no dialog and ask for nothing outside file://."""
    monkeypatch.chdir(tmp_path)
    hostile_dump(tmp_path / "dump", HOSTILE)
    page_file = tmp_path / "outputs.html"
    page_file.write_text(f"<!doctype html><meta charset=utf-8><body>{load('dump')._repr_html_()}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            page = browser.new_page()
            ran = []
            page.on("dialog", lambda d: (ran.append(d.message), d.dismiss()))
            page.on(
                "request", lambda r: r.url.startswith(("file://", "blob:")) or ran.append(r.url)
            )
            page.goto(page_file.as_uri())
            site = page.frame_locator("iframe.site").frame_locator("#view")
            site.locator("main").wait_for()
            hrefs = site.locator("a[href$='.html']").evaluate_all(
                "links => [...new Set(links.map(a => a.getAttribute('href')))]"
            )
            assert hrefs
            for href in hrefs[:15]:  # each from the overview
                site.locator(f"a[href='{href}']").first.dispatch_event("click")
                site.locator("main").wait_for()
                page.wait_for_timeout(100)
                site.locator("a[href='index.html']").first.dispatch_event("click")
                site.locator(".stats").first.wait_for()
            assert ran == []
        finally:
            browser.close()
