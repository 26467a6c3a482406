"""Every string of every record hostile, rendered, opened in Chromium: nothing runs.

``payload.hostile_dump`` builds the dump from the model's own dataclasses, so a
field added later is covered. Each page is opened from file:// and must show no
dialog, hold no element or attribute the dump brought in, and ask for nothing
outside file://; each story file runs and prints nothing; summary.md stays
inert as GitHub-flavoured Markdown.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from payload import CODE, HOSTILE, MARKERS, Tags, assert_inert_markdown, hostile_dump
from test_browser import CHROMIUM, FLAGS

from depyf_report.dump import model
from depyf_report.render import render

# What our own pages are made of; an element or attribute outside these came
# from the dump. (Attributes "aria-*" and "data-*" are ours too.)
OUR_TAGS = set(
    [
        "html",
        "head",
        "meta",
        "title",
        "link",
        "body",
        "header",
        "a",
        "nav",
        "span",
        "form",
        "input",
        "button",
        "div",
        "dl",
        "dt",
        "dd",
        "kbd",
        "h2",
        "main",
        "footer",
        "script",
        "h1",
        "p",
        "section",
        "ul",
        "li",
        "code",
        "h3",
        "h4",
        "details",
        "summary",
        "pre",
        "b",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "figure",
        "svg",
        "text",
        "path",
        "rect",
        "g",
        "aside",
        "article",
        "em",
        "strong",
        "ol",
        "blockquote",
        "hr",
        "br",
        "i",
        "sup",
    ]
)
OUR_ATTRIBUTES = set(
    [
        "lang",
        "charset",
        "name",
        "content",
        "rel",
        "href",
        "class",
        "data-shortcut",
        "action",
        "method",
        "role",
        "id",
        "type",
        "placeholder",
        "autocomplete",
        "title",
        "hidden",
        "download",
        "src",
        "xmlns",
        "width",
        "height",
        "viewbox",
        "x",
        "y",
        "d",
        "rx",
        "open",
    ]
)
DOM_CHECK = r"""() => {
  const found = [];
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) found.push(`${el.localName} ${name}`);
      if (["href", "src", "action", "xlink:href", "formaction"].includes(name)) {
        const url = new URL(attr.value, document.baseURI);
        if (url.protocol !== "file:") found.push(`${el.localName} ${name}=${attr.value}`);
      }
    }
    const src = el.getAttribute("src") || "";
    // Besides our static scripts, a page may add its own data files (deferred.py),
    // named after it beside it: "fn-f0.3.js", and listing blocks named by their
    // content, which several pages share: "listing-<20 hex digits>.js".
    const dataFile = (/^[A-Za-z0-9_.-]+\.[0-9]+\.js$/.test(src) &&
      src.startsWith(location.pathname.split("/").pop().replace(/\.html$/, "") + ".")) ||
      /^listing-[0-9a-f]{20}\.js$/.test(src);
    if (el.localName === "script" && !(src.startsWith("static/site-") ||
        src.startsWith("static/provenance-") || dataFile)) found.push(`script ${el.outerHTML.slice(0, 80)}`);
  }
  return found;
}"""


def _dump_strings_cover_every_field(classes: set) -> None:
    """Every record kind reachable from the files a dump holds was generated."""
    todo = [getattr(model, name) for name in model.FILE_RECORDS.values()]
    seen: set = set()
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for hint in typing.get_type_hints(cls).values():
            todo += [t for t in _inner_types(hint) if dataclasses.is_dataclass(t)]
    assert seen <= classes, seen - classes


def _inner_types(tp) -> list:
    args = typing.get_args(tp)
    return [tp] if not args else [t for a in args for t in _inner_types(a)]


@pytest.fixture(scope="module", params=["markup", "code"])
def hostile_site(request, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp(f"hostile-{request.param}")
    text = HOSTILE if request.param == "markup" else CODE
    dump, classes = hostile_dump(root / "dump", text)
    _dump_strings_cover_every_field(classes)
    # Render must not lean on the reader's check of fields with a fixed set of
    # values (stage kinds, parts, statuses): with it off, those hold payloads too.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(model, "_ENUMS", {}, raising=False)
        site = render(dump, root / "site", progress=False).parent
    return site


def test_the_hostile_dump_reaches_the_pages(hostile_site):
    pages = {p.name: p.read_text(encoding="utf-8") for p in hostile_site.glob("*.html")}
    assert len(pages) >= 10
    assert sum(text.count("alert(") + text.count("pwned") for text in pages.values()) > 50


def test_no_page_holds_markup_from_the_dump(hostile_site):
    for page in hostile_site.glob("*.html"):
        for tag, attrs in Tags(page.read_text(encoding="utf-8")).tags:
            assert tag in OUR_TAGS, (page.name, tag)
            unknown = {a for a in attrs if not a.startswith(("aria-", "data-"))} - OUR_ATTRIBUTES
            assert not unknown, (page.name, tag, unknown)


def test_story_files_run_nothing(hostile_site):
    stories = sorted(hostile_site.glob("*.py"))
    assert stories
    for story in stories:
        compile(story.read_bytes(), story.name, "exec")
        result = subprocess.run(
            [sys.executable, str(story)], capture_output=True, text=True, timeout=60
        )
        assert (result.returncode, result.stdout, result.stderr) == (0, "", ""), story.name


def test_summary_is_inert_on_github(hostile_site):
    text = (hostile_site / "summary.md").read_text(encoding="utf-8")
    assert any(marker in text for marker in MARKERS)
    assert_inert_markdown(text, headings=3)  # the report, and one per process


@pytest.mark.browser
def test_no_page_runs_script_or_leaves_file_urls(hostile_site):
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail("needs Debian's chromium (apt-get install chromium); or -m 'not browser'")
    dialogs, requests, found = [], [], {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        page = browser.new_page()
        page.on("dialog", lambda d: dialogs.append(d.message) or d.dismiss())
        page.on("request", lambda r: r.url.startswith("file://") or requests.append(r.url))
        for path in sorted(hostile_site.glob("*.html")):
            page.goto(path.as_uri())
            page.mouse.move(5, 5)
            page.keyboard.press("d")  # opens every <details>
            problems = page.evaluate(DOM_CHECK)
            if problems:
                found[path.name] = problems
        page.goto((hostile_site / "index.html").as_uri() + "?q=script")
        page.wait_for_timeout(100)
        found["search"] = page.evaluate(DOM_CHECK) or None
        browser.close()
    assert dialogs == [] and requests == []
    assert {k: v for k, v in found.items() if v} == {}
