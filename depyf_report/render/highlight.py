"""Source text -> highlighted HTML, one string per line.

Pygments' own formatter wraps a multi-line string token in one span, which
cannot be cut into lines; walking the tokens ourselves gives each line its own
closed markup, so pages can anchor, mark and link single lines.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from markupsafe import Markup, escape
from pygments.lexer import Lexer
from pygments.lexers import CppLexer, PythonLexer, TextLexer
from pygments.token import STANDARD_TYPES, Name

# A linker gets a name token's text and returns an href for it, or None.
Linker = Callable[[str], "str | None"]

_LEXERS = {"python": PythonLexer, "cpp": CppLexer, "c": CppLexer, "triton": PythonLexer}


@functools.cache
def _lexer(language: str) -> Lexer:
    cls = _LEXERS.get(language, TextLexer)
    return cls(stripnl=False, ensurenl=False)


def _css_class(ttype) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def highlight_lines(
    text: str, language: str = "python", link: Linker | None = None
) -> list[Markup]:
    """The highlighted HTML of each line of ``text``; names ``link`` knows become links."""
    lines: list[list[str]] = [[]]
    for ttype, value in _lexer(language).get_tokens(text):
        css = _css_class(ttype)
        href = link(value) if link and ttype in Name else None
        for i, piece in enumerate(value.split("\n")):
            if i:
                lines.append([])
            if piece:
                lines[-1].append(_span(css, piece, href))
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the text's final newline ends the last line, it adds none
    return [Markup("".join(parts)) for parts in lines]


def _span(css: str, piece: str, href: str | None) -> str:
    inner = f'<span class="{css}">{escape(piece)}</span>' if css else str(escape(piece))
    if href:
        return f'<a class="code-link" href="{escape(href)}">{inner}</a>'
    return inner


def name_linker(targets: dict[str, str]) -> Linker | None:
    """A linker for exact names, e.g. ``__compiled_fn_3`` -> that graph's page."""
    return targets.get if targets else None


_PLAIN = re.compile(r"\s+")


def first_words(text: str, limit: int = 80) -> str:
    """A one-line preview of ``text`` for tables and search results."""
    flat = _PLAIN.sub(" ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
