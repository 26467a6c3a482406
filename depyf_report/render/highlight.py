"""Source text -> highlighted HTML, one string per line.

Pygments' own formatter wraps a multi-line string token in one span, which
cannot be cut into lines; walking the tokens ourselves gives each line its own
closed markup, so pages can anchor, mark and link single lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from .fastlex import TOKENIZERS, Token
from .names import COMPILED_FN, short_name

# A linker gets a name token's text and returns an href for it, or None.
Linker = Callable[[str], "str | None"]
# A source linker gets a file name and a line number from a comment, e.g. FX's
# "# File: model.py:19 in forward", and returns an href for that line, or None.
SourceLinker = Callable[[str, int], "str | None"]

# A line longer than this (in characters) is data, not code to read: the text it
# is in is shown without colours, which keeps a 200 MB line a 200 MB page
# instead of a span per token.
LONG_LINE = 50_000

# "file.py:12"; the look-behind starts a match only where a file name can start,
# so a long run of name characters is scanned once, not once per character.
# Line numbers stop at nine digits: int() refuses a few thousand.
_WHERE = re.compile(r"(?<![^\s#,:;()'\"])([^\s#,:;()'\"]+\.py):(\d{1,9})(?!\d)")


def tokens(text: str, language: str) -> Iterator[Token]:
    """``(css class, text, is_name)`` per token; plain text for languages we do not scan.

    Pygments' lexers are not used: a dump names the language, and some lexers take
    time that grows faster than the text.
    """
    fast = TOKENIZERS.get(language)
    if fast:
        return fast(text)
    return iter((("", text, False),))


@dataclass
class Highlighted:
    """A text's lines as markup, and for each, the language whose plain scan of
    the line alone (site.js's ``highlight``) draws the same markup; None where
    the line's markup holds more: a link, a short name, a token over several lines.

    A plain line's markup is drawn on first use (``line``) from its text: most
    lines of a big listing reach the page as text that site.js draws."""

    lines: list[Markup | None]  # None: not drawn yet
    plain: list[str | None]
    texts: list[str] | None = None  # each line's text, where some are not drawn yet

    def __len__(self) -> int:
        return len(self.lines)

    def line(self, index: int) -> Markup:
        if self.lines[index] is None:
            self._draw_from(index)
        return self.lines[index]

    def _draw_from(self, index: int) -> None:
        """Draws the lines not drawn yet from ``index`` on, a window at a time in one
        scan (they scan alone as together): a page shows the first lines of a
        listing, and a scan a line costs more than one for all of them."""
        end = min(index + DRAWN_TOGETHER, len(self.lines))
        todo = [i for i in range(index, end) if self.lines[i] is None]
        text = "".join(self.texts[i] + "\n" for i in todo)
        for i, html in zip(todo, _scanned(text, self.plain[index], None, None).lines):
            self.lines[i] = html

    def drawn(self) -> list[Markup]:
        return [self.line(i) for i in range(len(self.lines))]


def highlight_lines(
    text: str,
    language: str = "python",
    link: Linker | None = None,
    where: SourceLinker | None = None,
) -> list[Markup]:
    """The highlighted HTML of each line of ``text``.

    Names ``link`` knows become links, and so do "file.py:line" places in comments
    that ``where`` knows.
    """
    return highlighted(text, language, link, where).drawn()


DRAWN_TOGETHER = 64  # lines a page shows at first, about (deferred.LISTING_LINES)

# The only tokens that span lines, per language: a text without them scans the
# same a line at a time (fastlex's promise), so its lines can wait to be drawn.
_SPANNING = {
    "python": ("'''", '"""'),
    "triton": ("'''", '"""'),
    "cpp": ("/*",),
    "c": ("/*",),
    "cuda": ("/*",),
}


def highlighted(
    text: str,
    language: str = "python",
    link: Linker | None = None,
    where: SourceLinker | None = None,
) -> Highlighted:
    """``highlight_lines``, with which lines site.js can draw from their text alone."""
    if len(text) > LONG_LINE and _has_long_line(text):
        language, link, where = "text", None, None
    spanning = _SPANNING.get(language)
    long = text.count("\n", 0, len(text) - 1) >= DRAWN_TOGETHER  # a page shows all of a short one
    if long and link is None and spanning is not None and not any(s in text for s in spanning):
        return _line_by_line(text, language, where)
    return _scanned(text, language, link, where)


def _scanned(
    text: str, language: str, link: Linker | None, where: SourceLinker | None
) -> Highlighted:
    """Every line of ``text`` drawn now, from one scan of the whole text."""
    lines: list[Markup] = []
    decorated: set[int] = set()  # lines whose markup is more than their own tokens
    line: list[str] = []  # the parts of the line being built; joined when it ends
    for css, value, is_name in tokens(text, language):
        if where and css == "c1" and ".py:" in value:
            places = _link_places(value, where)
            if "<a " in places:  # the text is escaped: only our links hold a tag
                decorated.add(len(lines))
            line.append(f'<span class="c1">{places}</span>')
            continue
        href = link(value) if link and is_name else None
        if is_name and (href or value.startswith(COMPILED_FN)):
            decorated.add(len(lines))
            line.append(_name(css, value, href))
            continue
        if "\n" not in value and not href:  # the common case, kept inline for speed
            if "&" in value or "<" in value or ">" in value:
                value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            line.append(f'<span class="{css}">{value}</span>' if css else value)
            continue
        for i, piece in enumerate(value.split("\n")):
            if i:
                lines.append(Markup("".join(line)))
                line = []
            if css:  # a string or comment over several lines: a line alone scans otherwise
                decorated.add(len(lines))
            if piece:
                line.append(_span(css, piece, href))
    if line or not lines:  # the text's final newline ends the last line, it adds none
        lines.append(Markup("".join(line)))
    plain = [None if i in decorated else language for i in range(len(lines))]
    return Highlighted(lines, plain)


def _line_by_line(text: str, language: str, where: SourceLinker | None) -> Highlighted:
    """``highlighted`` for a text whose lines scan alone: only the lines that may
    hold more than their tokens (a place ``where`` may link, a name Dynamo made up)
    are drawn now; the others are plain, and drawn when asked for."""
    texts = text.split("\n")
    if text.endswith("\n"):
        texts.pop()  # the final newline ends the last line, it adds none
    lines: list[Markup | None] = [None] * len(texts)
    plain: list[str | None] = [language] * len(texts)
    for i, line in enumerate(texts):
        if (where and ".py:" in line) or COMPILED_FN in line:
            found = _scanned(line, language, None, where)
            lines[i], plain[i] = found.lines[0], found.plain[0]
    return Highlighted(lines, plain, texts)


def highlight_embedded(
    text: str,
    language: str,
    embedded: Sequence[tuple[str, str]],
    link: Linker | None = None,
) -> Highlighted:
    """``highlighted(text)``, with each ``(inner text, language)`` it holds in whole
    lines (Inductor's C++ or Triton kernels, inside the strings of its Python
    module) highlighted in its own language rather than as one string."""
    outer = highlighted(text, language, link)
    lines, plain = outer.drawn(), outer.plain
    if len(lines) != text.count("\n") + (not text.endswith("\n")):
        return outer  # a long line made it plain text: keep it so
    at, line = 0, 0
    for inner, inner_language in embedded:
        start = text.find(inner, at) if inner.endswith("\n") else -1
        if start < 0 or (start and text[start - 1] != "\n"):
            continue  # not in whole lines of its own: it stays a string
        line += text.count("\n", at, start)
        count = inner.count("\n")
        found = highlighted(inner, inner_language, link)
        lines[line : line + count] = found.drawn()
        plain[line : line + count] = found.plain
        at, line = start + len(inner), line + count
    return Highlighted(lines, plain)


def _has_long_line(text: str) -> bool:
    pos = 0
    while pos < len(text):
        end = text.find("\n", pos, pos + LONG_LINE + 1)
        if end < 0:
            return len(text) - pos > LONG_LINE
        pos = end + 1
    return False


def _link_places(comment: str, where: SourceLinker) -> str:
    parts, last = [], 0
    for match in _WHERE.finditer(comment):
        href = where(match[1], int(match[2]))
        if href:
            parts += [str(escape(comment[last : match.start()])), f'<a href="{escape(href)}">']
            parts += [str(escape(match[0])), "</a>"]
            last = match.end()
    parts.append(str(escape(comment[last:])))
    return "".join(parts)


def _name(css: str, name: str, href: str | None) -> str:
    """A name token, linked when ``href``; a name Dynamo made up is shown short
    (``names.short_name``) with the whole name as its tooltip."""
    shown = short_name(name)
    if shown == name:
        return _span(css, name, href)
    inner = _span(css, shown, None)
    title = escape(name)
    if href:
        return f'<a class="code-link" href="{escape(href)}" title="{title}">{inner}</a>'
    return f'<span title="{title}">{inner}</span>'


def _span(css: str, piece: str, href: str | None) -> str:
    text = piece.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    inner = f'<span class="{css}">{text}</span>' if css else text
    if href:
        return f'<a class="code-link" href="{escape(href)}">{inner}</a>'
    return inner
