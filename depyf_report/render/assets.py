"""The site's static files: CSS, JS and Pygments colours, named by content hash.

Content-hashed names let browsers cache them forever and make a changed
stylesheet a changed page, which the incremental build then rewrites.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from pygments.formatters import HtmlFormatter

from ..resources import templates

LIGHT_STYLE, DARK_STYLE = "friendly", "github-dark"


@dataclass(frozen=True)
class Asset:
    path: str  # relative to the site root
    content: bytes


def pygments_css() -> str:
    light = HtmlFormatter(style=LIGHT_STYLE).get_style_defs(".code")
    dark = HtmlFormatter(style=DARK_STYLE).get_style_defs(".code")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"


def site_assets() -> dict[str, Asset]:
    """Each asset's role ("css", "js", "pygments") -> its hashed file."""
    static = templates().joinpath("static")
    sources = {
        "css": ("site", "css", static.joinpath("site.css").read_bytes()),
        "js": ("site", "js", static.joinpath("site.js").read_bytes()),
        "provenance": ("provenance", "js", static.joinpath("provenance.js").read_bytes()),
        "pygments": ("pygments", "css", pygments_css().encode()),
    }
    return {
        role: Asset(f"static/{stem}-{hashlib.sha1(data).hexdigest()[:10]}.{ext}", data)
        for role, (stem, ext, data) in sources.items()
    }


def templates_digest() -> str:
    """A hash of every template, static file and concept, for the incremental build."""
    h = hashlib.sha1()
    root = templates()
    for folder in (root, root.joinpath("static"), root.joinpath("concepts")):
        for item in sorted(folder.iterdir(), key=lambda i: i.name):
            if item.is_file() and not item.name.endswith((".pyc", ".py")):
                h.update(item.name.encode())
                h.update(item.read_bytes())
    h.update(pygments_css().encode())
    return h.hexdigest()
