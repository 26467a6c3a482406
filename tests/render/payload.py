"""A dump whose every string is hostile, generated from the dump model itself.

``hostile_dump`` walks the records of ``depyf_report.dump.model`` (each file kind that
``FILE_RECORDS`` names, and every record reachable from it) with
``dataclasses.fields`` and the type hints, so a field added later holds hostile
text without anyone remembering it. Only the references between records are set
by hand, so that pages link to each other as in a real dump.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from html.parser import HTMLParser
from pathlib import Path

from depyf_report.dump import Layout, model, write_json

# What a stranger's dump may hold: markup for HTML text, attributes, ids, URLs,
# SVG and embedded JSON; Markdown for GitHub; Python for the story; escape
# sequences and line breaks for the terminal and for comments.
PAYLOADS = (
    "<script>alert(1)</script>",
    "\"'><svg onload=alert(2)>",
    "javascript:alert(3)",
    "</script><script>alert(4)</script>",
    "![x](http://evil.example/x.png) [a](http://evil.example) <http://evil.example>",
    "<img src=x onerror=alert(5)>",
    '"""; import os; print(\'pwned\')#',
    "x\n\n# heading\n\n<details open ontoggle=alert(6)>\n",
    "\r\u2028\u2029\x0b\x0c\x1c\x1d\x1e\x85 line breaks",
    "\x1b]8;;http://evil.example\x07link\x1b]8;;\x07\x1b[2J\x1b]0;title\x07",
    "www.evil.example http://evil.example/y a@evil.example @someone #1",
    "| a | b |\n|---|---|\n| c | d |",
    "`` ``` ```` `",
    "\u202egnp.exe \u200b\ufeff",
    "&lt;script&gt;alert(7)&lt;/script&gt; &amp; &#60;",
    "{{ 7*7 }} {% raw %} ${7*7}",
    "--></style></title></textarea><a href=javascript:alert(8)>x</a>",
)
HOSTILE = "".join(PAYLOADS)
# For the story: a program that runs if any of it is taken as code, with markup in it.
CODE = "__import__('os').system('echo pwned') or print('pwned')  # <img src=x onerror=alert(9)>\n"
MARKERS = ("pwned", "alert(")


def hostile_value(tp, where: str, text: str, classes: set):
    """A value of type ``tp`` in which every string is ``text`` (with ``where``)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        return hostile_value(inner, where, text, classes)
    if origin is list:
        (item,) = typing.get_args(tp)
        return [hostile_value(item, f"{where}[{i}]", text, classes) for i in range(2)]
    if origin is dict:
        _, item = typing.get_args(tp)
        return {f"{text} key {i}": hostile_value(item, where, text, classes) for i in range(2)}
    if dataclasses.is_dataclass(tp):
        classes.add(tp)
        hints = typing.get_type_hints(tp)
        values = {
            f.name: hostile_value(hints[f.name], f"{where}.{f.name}", text, classes)
            for f in dataclasses.fields(tp)
        }
        return tp(**values)
    if tp is str:
        return f"{text}#{where}"  # the field's path keeps ids apart, as a comment in code
    if tp is bool:
        return True
    if tp is int:
        return 3
    if tp is float:
        return 0.5
    return {f"{text} key": text}  # typing.Any: plain JSON


def hostile_dump(root: Path, text: str = HOSTILE) -> tuple[Path, set]:
    """Write a dump of one main process and one more; return it and the record
    classes it holds."""
    classes: set = set()
    _write_process(Layout(root), text, classes)
    _write_process(
        Layout(root).process("<img src=x onerror=alert(10)>\"'\x1b[2J\u202e"), text, classes
    )
    (root / "functions" / "\x1b]0;pwned\x07<img src=x onerror=alert(11)>.json").write_text("{")
    return root, classes


def _write_process(layout: Layout, text: str, classes: set) -> None:
    records = {
        name: hostile_value(getattr(model, record), record, text, classes)
        for name, record in model.FILE_RECORDS.items()
    }
    manifest, fn, compile_, graph = (
        records[k]
        for k in ("manifest.json", "functions/*.json", "compiles/*.json", "graphs/*.json")
    )
    resume = hostile_value(model.Function, "Resume", text, classes)
    _link(fn, resume, compile_, graph)
    manifest.schema_version = model.SCHEMA_VERSION
    files = {
        "manifest.json": manifest,
        "functions/*.json": fn,
        "compiles/*.json": compile_,
        "graphs/*.json": graph,
        "debug/index.json": records["debug/index.json"],
        "views/*.json": records["views/*.json"],
    }
    assert set(files) == set(model.FILE_RECORDS), "a new kind of file: add it here"
    for pattern, record in files.items():
        write_json(layout.root / pattern.replace("*", "a"), model.to_json(record))
    write_json(layout.root / "functions" / "b.json", model.to_json(resume))


def _link(fn, resume, compile_, graph) -> None:
    """The references between records, so pages link to each other."""
    fn.resume = None
    resume.resume.parent = resume.resume.original = fn.id
    fn.original.file = "views/a.json"
    fn.original.decompiled = None
    for entry in fn.entries + resume.entries:
        entry.compile_id = compile_.id
        entry.graphs = [graph.id]
        entry.resume_functions = [resume.id]
    compile_.function = graph.function = fn.id
    compile_.graphs = [graph.id]
    graph.compile_id = compile_.id


# --- checks -------------------------------------------------------------------------


class Tags(HTMLParser):
    """Every start tag of an HTML text, with its attributes."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def gfm_html(markdown: str) -> str:
    """``markdown`` as GitHub renders it: cmark-gfm with GitHub's extensions, raw
    HTML let through (GitHub's own sanitizer is not what makes it safe)."""
    import cmarkgfm
    from cmarkgfm.cmark import Options

    return cmarkgfm.markdown_to_html_with_extensions(
        markdown,
        options=Options.CMARK_OPT_UNSAFE,
        extensions=["table", "autolink", "strikethrough", "tagfilter"],
    )


# What summary.md may become: its own headings, tables, lists, code and details.
SUMMARY_TAGS = {"h2", "h3", "p", "code", "pre", "table", "thead", "tbody", "tr", "th", "td"}
SUMMARY_TAGS |= {"ul", "li", "details", "summary"}


def assert_inert_markdown(markdown: str, headings: int) -> None:
    """No link, image, raw HTML or heading that came from the dump."""
    html = gfm_html(markdown)
    tags = Tags(html).tags
    assert {t for t, _ in tags} <= SUMMARY_TAGS, html
    assert [t for t, _ in tags if t in ("h1", "h2", "h3", "h4", "h5", "h6")] == [
        "h2",
        *["h3"] * (headings - 1),
    ]
    assert all(set(attrs) <= {"lang", "class"} for _, attrs in tags), html
    assert "<a" not in html and "<img" not in html and "<script" not in html
