"""What every page must stay within, whatever the model, and how tests measure it."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

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
