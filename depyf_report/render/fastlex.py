"""A fast tokenizer for Python and C-like code, giving Pygments' CSS classes.

Pygments' lexers try many regular expressions at each position, which made a
thousand-graph dump take a minute to highlight. Here one compiled pattern per
language scans the text in C, and a token's class comes from a table, so
highlighting costs about a microsecond per token. The classes are Pygments'
short names, so the site keeps one Pygments stylesheet.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Iterator

# (css class, text, is_name): is_name marks identifiers, which pages may turn into links.
# Whitespace and punctuation come as one unstyled run, and plain names carry no
# class: the styles give neither a colour, and a big site has millions of them.
Token = tuple[str, str, bool]

_PYTHON = re.compile(
    r"""
    (?P<c1>\#[^\n]*)
  | (?P<s>[rRbBuUfF]{0,2}(?:'''[\s\S]*?(?:'''|\Z)|\"\"\"[\s\S]*?(?:\"\"\"|\Z)
        |'[^'\\\n]*'|"[^"\\\n]*"))
  | (?P<q>[rRbBuUfF]{0,2}['"])
  | (?P<m>(?:0[xXoObB][0-9a-fA-F_]+|\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?j?|\.\d+(?:[eE][+-]?\d+)?j?))
  | (?P<name>[^\W\d]\w*)
  | (?P<o>[-+*/%&|^~<>=!@]+)
  | (?P<ws>[\s()\[\]{},:;.]+)
  | (?P<x>.)
    """,
    re.VERBOSE,
)

_CLIKE = re.compile(
    r"""
    (?P<cm>/\*[\s\S]*?(?:\*/|\Z))
  | (?P<c1>//[^\n]*)
  | (?P<cp>^[ \t]*\#[^\n]*)
  | (?P<s>"[^"\\\n]*"|'[^'\\\n]*')
  | (?P<q>['"])
  | (?P<m>(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<o>[-+*/%&|^~<>=!?:]+)
  | (?P<ws>[\s()\[\]{},;.]+)
  | (?P<x>.)
    """,
    re.VERBOSE | re.MULTILINE,
)

_PY_WORDS = {
    **{w: "nb" for w in dir(builtins) if not w.startswith("_")},
    **{w: "k" for w in keyword.kwlist},
    **{w: "kc" for w in ("True", "False", "None")},
    **{w: "kn" for w in ("import", "from")},
    **{w: "ow" for w in ("and", "or", "not", "in", "is")},
    **{w: "bp" for w in ("self", "cls")},
}

_C_TYPES = (
    "auto bool char double float int long short signed unsigned void size_t "
    "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t half bfloat16"
)
_C_KEYWORDS = (
    "break case const constexpr continue default do else enum extern for goto if inline "
    "namespace return sizeof static struct switch template typedef typename union using "
    "volatile while restrict __restrict__ __global__ __device__ tl triton"
)
_C_WORDS = {
    **{w: "k" for w in _C_KEYWORDS.split()},
    **{w: "kt" for w in _C_TYPES.split()},
    **{w: "kc" for w in ("true", "false", "nullptr", "NULL")},
}

# Names right after these words are definitions, coloured as such.
_DEFINES = {"def": "nf", "class": "nc"}


def python_tokens(text: str) -> Iterator[Token]:
    define = None
    for kind, value in _pieces(_PYTHON, text):
        if kind == "name":
            css = define or _PY_WORDS.get(value, "")
            define = _DEFINES.get(value)
            yield css, value, css in ("", "nf", "nc")
            continue
        if kind == "ws":
            if not value.isspace():
                define = None
            yield "", value, False
            continue
        define = None
        if kind == "s":
            css = "sd" if value.startswith(('"""', "'''")) else "s1"
        elif kind == "m":
            css = "mf" if any(c in value for c in ".eEjJ") and not value.startswith("0x") else "mi"
        else:
            css = "" if kind == "x" else kind
        yield css, value, False


def clike_tokens(text: str) -> Iterator[Token]:
    for kind, value in _pieces(_CLIKE, text):
        if kind == "name":
            css = _C_WORDS.get(value, "")
            yield css, value, not css
        else:
            yield ("" if kind in ("ws", "x") else kind), value, False


def _pieces(pattern: re.Pattern, text: str) -> Iterator[tuple[str, str]]:
    """``(group name, text)`` of each of ``pattern``'s tokens; each one-line string
    with escapes comes whole, as an "s".

    The patterns match such a string's opening quote only ("q"), and Python finds
    its end: a regular expression that repeats a group, as ``(?:\\.|[^'])*`` does,
    keeps about 150 bytes of state per character, so a 200 MB string took 30 GB.
    """
    pos = 0
    while pos is not None:
        start, pos = pos, None
        for match in pattern.finditer(text, start):
            if match.lastgroup != "q":
                yield match.lastgroup, match.group()
                continue
            pos = _string_end(text, match.end(), match.group()[-1])
            yield "s", text[match.start() : pos]
            break


_STOPS = {"'": re.compile(r"[\\'\n]"), '"': re.compile(r'[\\"\n]')}


def _string_end(text: str, pos: int, quote: str) -> int:
    """Where a one-line string whose body starts at ``pos`` ends: after its closing
    quote, or at the end of its line when it has none; escapes are skipped."""
    stop = _STOPS[quote]
    while True:
        found = stop.search(text, pos)
        if found is None:
            return len(text)
        if found.group() == quote:
            return found.end()
        escaped = text[found.end() : found.end() + 1]
        if found.group() == "\n" or escaped in ("", "\n"):
            return found.start()
        pos = found.end() + 1


TOKENIZERS = {
    "python": python_tokens,
    "triton": python_tokens,
    "cpp": clike_tokens,
    "c": clike_tokens,
    "cuda": clike_tokens,
}
