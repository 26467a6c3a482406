"""The rendered site as one document, for a frame in a notebook's output cell.

A notebook page cannot show the site's files directly: JupyterLab serves ``/files/``
with a sandboxing policy that gives each page an origin of its own, and then answers
403 to the style sheets, scripts and links that page asks for (measured with
JupyterLab 4.6 and jupyter_server 2.21). So the frame gets the site itself, in its
``srcdoc``: every page as text, the static files once, and a small router
(``static/notebook-frame.js``) that shows a page in an inner frame and turns each
click on a link of the site into showing that page. Nothing is fetched, so it works
the same from a Jupyter server, from ``file://`` and in a notebook shared with its
outputs.

Pages go in until ``limit`` characters: the overview first, then function pages,
graphs, and the rest. A link to a page left out says where that page is on disk
(opening it through the files route would hit the same 403s).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from markupsafe import Markup

from ..files import read_regular
from ..resources import templates
from . import urls
from .deferred import PART_NAME
from .writer import environment, site_files

BUNDLE_LIMIT = 8_000_000  # characters of pages: a notebook stays quick to open and save
# The order pages join the bundle in, by file-name prefix: what a reader opens first.
_ORDER = (urls.INDEX, "fn-", "graph-", "provenance-", "concept-", "p-")


def site_bundle(site: Path, folder: str, limit: int = BUNDLE_LIMIT) -> str:
    """The document for the frame's ``srcdoc``; ``folder`` is the site on disk, as
    the frame names it for pages left out."""
    names = site_files(site)
    known = set(names)
    assets = {n: _text(site / n) for n in names if n.startswith("static/")}
    # A page's data files (``deferred.py``) go with it, to be inlined when it is shown.
    parts: dict[str, list[str]] = {}
    for name in names:
        match = PART_NAME.fullmatch(name)
        if match and not name.startswith("static/"):
            parts.setdefault(f"{match['page']}.html", []).append(name)
    pages, data_files, left_out, size = {}, {}, [], 0
    for name in sorted((n for n in names if n.endswith((".html", ".py"))), key=_rank):
        text = _text(site / name)
        # and the data files it shares with other pages (a graph's listing blocks)
        shared = [n for n in dict.fromkeys(_SHARED.findall(text)) if n in known]
        parts[name] = parts.get(name, []) + shared
        texts = {p: _text(site / p) for p in parts[name] if p not in data_files}
        grown = size + len(text) + sum(map(len, texts.values()))
        if grown > limit and name != urls.INDEX:
            left_out.append(name)
            continue
        pages[name], size = text, grown
        data_files.update(texts)
    data = {
        "pages": pages,
        "assets": assets,
        "parts": {page: sorted(p) for page, p in parts.items() if page in pages and p},
        "data": data_files,
        "folder": folder,
        "start": urls.INDEX,
    }
    router = templates().joinpath("static", "notebook-frame.js").read_text(encoding="utf-8")
    return (
        environment()
        .get_template("notebook-frame.html")
        .render(data=Markup(_script_json(data)), router=Markup(router), left_out=len(left_out))
    )


_SHARED = re.compile(r'data-part="(listing-[0-9a-f]{20}\.js)"')


def _rank(name: str) -> tuple[int, str]:
    rank = next((i for i, prefix in enumerate(_ORDER) if name.startswith(prefix)), len(_ORDER))
    return rank, name


def _text(path: Path) -> str:
    return read_regular(path).decode("utf-8", "replace")


def _script_json(data: dict) -> str:
    """JSON that can stand inside a <script> element: no "<" can close it."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
