"""What every page must stay within, whatever the model, and how tests measure it."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from markupsafe import Markup

from depyf_report.render.codeview import code_line, line_parts, parts_html
from depyf_report.render.highlight import highlighted

MAX_PAGE_BYTES = 300 * 1024
MAX_DOM_NODES = 3000


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag, attrs):
        self.count += 1


def elements(html: str) -> int:
    """Elements the page's markup makes at load (the browser adds a few, such as tbody)."""
    parser = _Elements()
    parser.feed(html)
    return parser.count


def read_part(path: Path):
    """A data file's one call, ``depyfPart(name, data)``, read back as JSON: a file
    that did anything else would not match."""
    text = path.read_text(encoding="ascii")
    match = re.fullmatch(r"depyfPart\((.*)\);\n", text, re.S)
    assert match, text[:200]
    name, data = json.loads(f"[{match[1]}]")
    assert name == path.name
    return data


GUARD_TREE = re.compile(
    r'class="code guard-tree"[^>]* data-part="([^"]+)" data-first="([^"]+)"'
    r' data-last="[^"]+" data-tree="(\d+)"'
)


def guard_rows(path: Path, first: str, tree: str) -> list[tuple[int, str]]:
    """A guard tree in its page's guard data file, as the rows site.js draws from it:
    (depth, markup). ``first`` and ``tree`` are the tree's ``data-first`` and ``data-tree``."""
    prefix, start = re.fullmatch(r"(.*?)(\d+)", first).groups()
    part = read_part(path)
    flat, lines = part["trees"][int(tree)], part["lines"]
    rows = []
    for i, (depth, data) in enumerate(zip(flat[::2], (lines[n] for n in flat[1::2]))):
        if isinstance(data, dict) and "row" in data:  # a marked line: its whole row
            rows.append((depth, data["row"]))
            continue
        if isinstance(data, dict):
            parts = tuple(tuple(p) if isinstance(p, list) else p for p in data["parts"])
        elif isinstance(data, list):
            parts = line_parts(data[0], (data[1], data[2]))
        else:
            parts = line_parts(data, None)
        n = int(start) + i
        rows.append((depth, str(code_line(n, f"{prefix}{n}", parts_html(parts)).row)))
    return rows


# A long listing's button: its chunk's data file and the id of its first line.
LISTING_CHUNK = re.compile(
    r'class="more-lines" data-part="([^"]+)" data-first="([^"]+)"'
    r' data-last="[^"]+"(?: data-from="(\d+)")?'
)


def listing_rows(path: Path, first: str, skip: str = "") -> list[str]:
    """A listing chunk's data file as the rows site.js's listingHtml draws from it
    (from its line ``skip`` on), each plain line highlighted by render's own highlighter."""
    data = read_part(path)
    if isinstance(data, str):
        return [data]
    prefix, start = re.fullmatch(r"(.*?)(\d+)", first).groups()
    rows = []
    for i, line in enumerate(data["lines"][int(skip or 0) :]):
        n = int(start) + i
        if isinstance(line, dict) and "row" in line:
            rows.append(line["row"])
            continue
        if isinstance(line, dict):
            html = Markup(line["html"])
        else:
            language, text = line if isinstance(line, list) else (data["language"], line)
            html = highlighted(text, language).lines[0]
        rows.append(str(code_line(n, f"{prefix}{n}", html).row))
    return rows


def search_index(path: Path) -> list[list[str]]:
    """The search data file read back into rows [kind, text, detail, href, more?],
    as site.js's searchRows does."""
    data = read_part(path)
    s = data["strings"]
    rows = []
    for kind, text, detail, page, fragment, *more in data["rows"]:
        href = s[page] + (f"#{fragment}" if fragment else "")
        rows.append([kind, s[text], s[detail], href, *more])
    return rows
