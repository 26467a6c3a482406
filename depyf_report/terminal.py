"""Text from a dump, made safe to print on a terminal.

A file name or message in a dump comes from someone else's machine. Printed raw,
an escape sequence in it can retitle the window, hide the lines above, write a
clickable link or move the cursor, and a bidi override can show a name other
than the one printed. Every such character is shown as the escape Python would
write for it instead.
"""

from __future__ import annotations

import re
import unicodedata

# Control (C0, DEL, C1), format (bidi overrides, zero-width), surrogate (an
# undecodable byte of a file name) and line/paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_ASCII_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")


def terminal_safe(text: str) -> str:
    """``text`` with every character that a terminal would act on written as
    ``\\x1b``, ``\\u202e`` or ``\\U000e0001``; everything else is kept as it is.

    Tab and newline are escaped too: one message is one line, so a file name
    cannot print a second, made-up one.
    """
    text = str(text)
    if text.isprintable():  # the usual case, checked in C: nothing to escape
        return text
    if text.isascii():
        return _ASCII_UNSAFE.sub(lambda m: _escape(m.group()), text)
    return "".join(_escape(c) if unicodedata.category(c) in _UNSAFE_CATEGORIES else c for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
