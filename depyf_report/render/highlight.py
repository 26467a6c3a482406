"""Source text -> highlighted HTML, one string per line.

Pygments' own formatter wraps a multi-line string token in one span, which
cannot be cut into lines; walking the tokens ourselves gives each line its own
closed markup, so pages can anchor, mark and link single lines.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from markupsafe import Markup, escape
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.token import STANDARD_TYPES, Name
from pygments.util import ClassNotFound

from .fastlex import TOKENIZERS, Token

# A linker gets a name token's text and returns an href for it, or None.
Linker = Callable[[str], "str | None"]
# A source linker gets a file name and a line number from a comment, e.g. FX's
# "# File: model.py:19 in forward", and returns an href for that line, or None.
SourceLinker = Callable[[str, int], "str | None"]

_WHERE = re.compile(r"([^\s#,:;()'\"]+\.py):(\d+)")


@functools.cache
def _lexer(language: str) -> Lexer:
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


def _css_class(ttype) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def tokens(text: str, language: str) -> Iterator[Token]:
    """``(css class, text, is_name)`` per token; Pygments for languages we do not scan."""
    fast = TOKENIZERS.get(language)
    if fast:
        return fast(text)
    return ((_css_class(t), v, t in Name) for t, v in _lexer(language).get_tokens(text))


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
    lines: list[list[str]] = [[]]
    line = lines[0]
    for css, value, is_name in tokens(text, language):
        if where and css == "c1" and ".py:" in value:
            line.append(f'<span class="c1">{_link_places(value, where)}</span>')
            continue
        href = link(value) if link and is_name else None
        if "\n" not in value and not href:  # the common case, kept inline for speed
            if "&" in value or "<" in value or ">" in value:
                value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            line.append(f'<span class="{css}">{value}</span>' if css else value)
            continue
        for i, piece in enumerate(value.split("\n")):
            if i:
                line = []
                lines.append(line)
            if piece:
                line.append(_span(css, piece, href))
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the text's final newline ends the last line, it adds none
    return [Markup("".join(parts)) for parts in lines]


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


def _span(css: str, piece: str, href: str | None) -> str:
    text = piece.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    inner = f'<span class="{css}">{text}</span>' if css else text
    if href:
        return f'<a class="code-link" href="{escape(href)}">{inner}</a>'
    return inner
