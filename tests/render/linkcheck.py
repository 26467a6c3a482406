"""Collects every link and id of a rendered site, to check that links resolve."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from light_pages import (
    GUARD_TREE,
    LISTING_CHUNK,
    guard_rows,
    listing_rows,
    read_part,
    search_index,
)

from depyf_report.render import urls


class PageLinks(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in ("href", "src") and value is not None:
                self.links.append(value)


def scan(path: Path) -> PageLinks:
    """A page's links and ids, with those of the data files it loads on demand:
    a link into a folded listing resolves once the page loads its chunk."""
    parser = PageLinks()
    text = path.read_text(encoding="utf-8")
    parser.feed(text)
    trees = GUARD_TREE.findall(text)
    for name, first, number in trees:  # rows of plain data, drawn as site.js draws them
        for _, html in guard_rows(path.parent / name, first, number):
            parser.feed(html)
    listings = LISTING_CHUNK.findall(text)
    for name, first, skip in listings:  # text drawn as site.js draws it
        for html in listing_rows(path.parent / name, first, skip):
            parser.feed(html)
    done = {name for name, _, _ in trees} | {name for name, _, _ in listings}
    for name in sorted(set(DATA_FILE.findall(text)) - done):
        if f'id="search-data" data-part="{name}"' in text:
            # search results: [kind, text, detail, href]
            parser.links += [row[3] for row in search_index(path.parent / name)]
        else:
            data = read_part(path.parent / name)
            for html in _strings(data):
                parser.feed(html)
    return parser


DATA_FILE = re.compile(r'data-part="([A-Za-z0-9_.-]+\.[0-9]+\.js)"')


def _strings(data):
    if isinstance(data, str):
        yield data
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)


def broken_links(site: Path) -> list[str]:
    """Every relative link whose file or ``#anchor`` is missing, and every link out
    of the site but to torch's own pages (``urls.torch_doc``), as "page: link"."""
    pages = {p: scan(p) for p in site.rglob("*.html")}
    broken = []
    for page, found in pages.items():
        for link in found.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                if urls.torch_doc(link) == link:  # torch's own pages, checked by urls
                    continue
                broken.append(f"{page.name}: not relative: {link}")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_file():
                broken.append(f"{page.name}: missing file {link}")
            elif parts.fragment and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{page.name}: missing anchor {link}")
    return broken
