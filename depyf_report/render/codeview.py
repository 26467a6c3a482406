"""Code shown on pages: numbered, anchored, highlighted lines with marks."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from markupsafe import Markup, escape

from . import urls
from .highlight import Linker, SourceLinker, highlight_embedded, highlight_lines
from .views import CodeLine, Mark


def code_lines(
    text: str | None,
    *,
    language: str = "python",
    anchor: Callable[[int], str],
    first_line: int = 1,
    link: Linker | None = None,
    where: SourceLinker | None = None,
    marks: Mapping[int, tuple[Mark, ...]] | None = None,
    embedded: Sequence[tuple[str, str]] = (),
) -> tuple[CodeLine, ...]:
    """``text`` as numbered lines; ``first_line`` numbers them as in the user's file.

    ``embedded`` names code in other languages that ``text`` holds in whole lines
    (see ``highlight_embedded``)."""
    if not text:
        return ()
    marks = marks or {}
    if embedded:
        html_lines = highlight_embedded(text, language, embedded, link)
    else:
        html_lines = highlight_lines(text, language, link, where)
    return tuple(
        code_line(number, anchor(number), html, marks.get(number, ()))
        for number, html in enumerate(html_lines, start=first_line)
    )


def code_line(number: int, anchor: str, html: Markup, marks: tuple[Mark, ...] = ()) -> CodeLine:
    # Anchors come from urls, but a caller may hand in anything: the id is made
    # safe here too, since this row is markup no template escapes.
    anchor, html = urls.safe_anchor(anchor), escape(html)  # escape() keeps Markup as is
    css = "line"
    if marks:
        css += " marked " + " ".join(str(escape(m.kind)) for m in marks)
    notes = "".join(_mark_html(m) for m in marks)
    row = (
        f'<div class="{css}" id="{anchor}"><a class="ln" href="#{anchor}">{int(number)}</a>'
        f'<span class="src">{html}</span>{notes}</div>\n'
    )
    return CodeLine(number, anchor, html, marks, Markup(row))


def _mark_html(mark: Mark) -> str:
    label = escape(mark.label)
    if mark.href:
        return f'<a class="mark {escape(mark.kind)}" href="{escape(mark.href)}">{label}</a>'
    return f'<span class="mark {escape(mark.kind)}">{label}</span>'


# A guard tree line as torch prints it:
#   "| | +- TENSOR_MATCH: check_tensor(L['x'], ...)  # y = f(x)  # model.py:12 in forward"
_GUARD_LINE = re.compile(r"^(?P<tree>[|+\- ]*)(?P<kind>[A-Za-z_]+:)?(?P<rest>.*)$")
# The look-behind starts a file name only after a space or "#", so a long comment is
# scanned once; line numbers stop at nine digits, as int() refuses a few thousand.
_WHERE = re.compile(r"(?<![^\s#])(?P<file>[^\s#]+):(?P<line>\d{1,9})(?P<tail> in [\w<>.]+)?\s*$")


def guard_lines(
    tree: str,
    *,
    anchor: Callable[[int], str],
    source_href: Callable[[str, int], str | None],
) -> tuple[CodeLine, ...]:
    """The guard tree, highlighted; each "file:line" comment links to that source line."""
    return tuple(
        code_line(number, anchor(number), _guard_html(text, source_href))
        for number, text in enumerate(tree.splitlines(), start=1)
    )


def _guard_html(text: str, source_href: Callable[[str, int], str | None]) -> Markup:
    match = _GUARD_LINE.match(text)
    tree, kind, rest = match["tree"], match["kind"] or "", match["rest"]
    code, _, comment = rest.partition("  # ")
    parts = [f'<span class="tree">{escape(tree)}</span>']
    if kind:
        parts.append(f'<span class="guard-kind">{escape(kind)}</span>')
    parts.append("".join(highlight_lines(code, "python")) if code.strip() else str(escape(code)))
    if comment:
        parts.append(f'<span class="c1">  # {_comment_html(comment, source_href)}</span>')
    return Markup("".join(parts))


def _comment_html(comment: str, source_href: Callable[[str, int], str | None]) -> str:
    where = _WHERE.search(comment)
    href = source_href(where["file"], int(where["line"])) if where else None
    if not href:
        return str(escape(comment))
    start, end = where.span("file")[0], where.span("line")[1]
    linked = f'<a href="{escape(href)}">{escape(comment[start:end])}</a>'
    return f"{escape(comment[:start])}{linked}{escape(comment[end:])}"
