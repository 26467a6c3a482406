"""Text from a dump, made safe to print on a terminal.

A file name or message in a dump comes from someone else's machine. Printed raw,
an escape sequence in it can retitle the window, hide the lines above, write a
clickable link or move the cursor, and a bidi override can show a name other
than the one printed. Every such character is shown as the escape Python would
write for it instead.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

# Control (C0, DEL, C1), format (bidi overrides, zero-width), surrogate (an
# undecodable byte of a file name) and line/paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def terminal_safe(text: str) -> str:
    """``text`` with every character that a terminal would act on written as
    ``\\x1b``, ``\\u202e`` or ``\\U000e0001``; everything else is kept as it is.

    Tab and newline are escaped too: one message is one line, so a file name
    cannot print a second, made-up one.
    """
    text = str(text)
    if text.isprintable():  # the usual case, checked in C: nothing to escape
        return text
    return _unsafe().sub(_escape, text)


@functools.cache
def _unsafe() -> re.Pattern:
    """One character class of every unsafe code point (two dozen ranges), built
    from this Python's Unicode tables the first time it is needed (0.2 s)."""
    ranges, start = [], None
    for code in range(sys.maxunicode + 2):
        unsafe = code <= sys.maxunicode and unicodedata.category(chr(code)) in _UNSAFE_CATEGORIES
        if unsafe and start is None:
            start = code
        elif not unsafe and start is not None:
            ranges.append(f"\\U{start:08x}-\\U{code - 1:08x}")
            start = None
    return re.compile(f"[{''.join(ranges)}]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
