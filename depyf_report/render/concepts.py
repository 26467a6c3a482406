"""Short explanation pages, written in Markdown under ``templates/concepts/``."""

from __future__ import annotations

import markdown
from markupsafe import Markup

from ..resources import templates
from . import urls
from .views import ConceptPage, Link

INDEX_CRUMB = Link("overview", urls.INDEX)


def concept_sources() -> dict[str, str]:
    """Each concept's name (the file's stem) -> its Markdown text."""
    folder = templates().joinpath("concepts")
    found = {}
    for item in folder.iterdir():
        if item.name.endswith(".md"):
            found[item.name[:-3]] = item.read_text(encoding="utf-8")
    return dict(sorted(found.items()))


def build_concept_page(name: str, text: str) -> ConceptPage:
    html = markdown.markdown(text, extensions=["fenced_code", "tables"], output_format="html")
    title = text.lstrip("# ").splitlines()[0] if text.strip() else name
    return ConceptPage(
        path=urls.concept_page(name),
        title=title,
        crumbs=(INDEX_CRUMB, Link("concepts", None), Link(title, None)),
        html=Markup(html),
    )
