"""Code shown on pages: numbered, anchored, highlighted lines with marks."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Mapping, Sequence

from markupsafe import Markup, escape

from . import urls
from .highlight import (
    LONG_LINE,
    Highlighted,
    Linker,
    SourceLinker,
    highlight_embedded,
    highlighted,
    tokens,
)
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
        found = highlight_embedded(text, language, embedded, link)
    else:
        found = highlighted(text, language, link, where)
    texts = text.split("\n")
    if text.endswith("\n"):
        texts.pop()  # the final newline ends the last line, it adds none
    if len(texts) != len(found):  # never expected: draw every line from its markup
        texts = [""] * len(found)
        found = Highlighted([found.line(i) for i in range(len(found))], [None] * len(found))
    return tuple(
        CodeLine(
            number,
            urls.safe_anchor(anchor(number)),
            functools.partial(found.line, index),
            marks.get(number, ()),
            language=found.plain[index],
            text=line_text if found.plain[index] else "",
        )
        for index, (number, line_text) in enumerate(zip(itertools.count(first_line), texts))
    )


def code_line(
    number: int, anchor: str, html: Markup | str, marks: tuple[Mark, ...] = ()
) -> CodeLine:
    """A listing's row from its markup. Anchors come from urls, but a caller may hand
    in anything: the id is made safe here too, since the row is markup no template
    escapes; ``html`` is escaped unless it is Markup."""
    return CodeLine(int(number), urls.safe_anchor(anchor), functools.partial(escape, html), marks)


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
    found = []
    for number, text in enumerate(tree.splitlines(), start=1):
        link = guard_link(text, source_href)
        draw = functools.partial(_guard_html, text, link)  # only for the rows a page shows
        data = guard_data(text, link)
        found.append(CodeLine(number, urls.safe_anchor(anchor(number)), draw, parts=data))
    return tuple(found)


# A guard line as site.js's guardRow reads it: its text, or [text, href, place] where
# its comment's "file:line" place links to the source; site.js splits and highlights
# it as line_parts does. A tree of a large model has tens of thousands of lines: as
# text they are a tenth of the bytes of their markup. A line too long to highlight
# keeps its parts ({"parts": [...]}: text, [css, text] or [css, text, href]).
def guard_data(text: str, link: tuple[str, str] | None):
    if len(text) > LONG_LINE // 2:  # JavaScript counts UTF-16 units: twice as many, at most
        parts = line_parts(text, link)
        return {"parts": [list(p) if isinstance(p, tuple) else p for p in parts]}
    return [text, *link] if link else text


def _guard_html(text: str, link: tuple[str, str] | None) -> Markup:
    return parts_html(line_parts(text, link))


def guard_parts(text: str, source_href: Callable[[str, int], str | None]) -> tuple:
    """A guard line's parts: plain text, ``(css, text)`` or ``(css, text, href)``."""
    return line_parts(text, guard_link(text, source_href))


# A function's cache entries share most lines, and build_function hands all of
# them one ``source_href``: each distinct line is looked at once.
@functools.lru_cache(maxsize=1 << 16)
def guard_link(text: str, source_href: Callable[[str, int], str | None]) -> tuple[str, str] | None:
    """(href, the "file:line" place it is on) where the line's comment names a
    source line the site has."""
    _, _, _, comment = _split(text)
    where = _WHERE.search(comment)
    href = source_href(where["file"], int(where["line"])) if where else None
    return (href, comment[where.start("file") : where.end("line")]) if href else None


def _split(text: str) -> tuple[str, str, str, str]:
    """(tree, kind, code, comment): "| +- ", "TYPE_MATCH:", the check, what follows "  # "."""
    match = _GUARD_LINE.match(text)
    code, _, comment = match["rest"].partition("  # ")
    return match["tree"], match["kind"] or "", code, comment


# A function's cache entries share most lines: each distinct line is split once.
@functools.lru_cache(maxsize=1 << 16)
def line_parts(text: str, link: tuple[str, str] | None) -> tuple:
    """A guard line's parts, its comment's place linked to ``link``'s href; site.js's
    guardParts is the same function."""
    tree, kind, code, comment = _split(text)
    parts: list = [("tree", tree)]
    if kind:
        parts.append(("guard-kind", kind))
    if code.strip() and len(code) <= LONG_LINE:
        parts += _code_parts(code)
    else:
        parts.append(code)
    if comment:
        parts += _comment_parts(comment, link)
    return tuple(_merged(parts))


# A function's cache entries repeat most of their checks, and a model's layers
# repeat their code: each distinct check is scanned, and each line drawn, once.
@functools.lru_cache(maxsize=1 << 16)
def _code_parts(code: str) -> tuple:
    return tuple((css, value) if css else value for css, value, _ in tokens(code, "python"))


def _merged(parts: list) -> list:
    """Neighbouring plain texts as one, so the data holds fewer strings."""
    out: list = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        elif part != "":
            out.append(part)
    return out


def _comment_parts(comment: str, link: tuple[str, str] | None) -> list:
    if not link:
        return [("c1", f"  # {comment}")]
    href, place = link
    start = comment.rindex(place)  # the last: only a function name may follow it
    end = start + len(place)
    out = [("c1", f"  # {comment[:start]}"), ("c1", place, href)]
    return out + ([("c1", comment[end:])] if end < len(comment) else [])


@functools.lru_cache(maxsize=1 << 16)
def parts_html(parts: tuple) -> Markup:
    """The markup of a guard line's parts: what site.js's guardRow draws from them."""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(_text(part))
            continue
        span = f'<span class="{escape(part[0])}">{_text(part[1])}</span>'
        out.append(f'<a href="{escape(part[2])}">{span}</a>' if len(part) > 2 else span)
    return Markup("".join(out))


def _text(text: str) -> str:
    """Text between tags, escaped as highlight.py escapes code."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
