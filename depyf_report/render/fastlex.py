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
        |'(?:\\.|[^'\\\n])*'?|"(?:\\.|[^"\\\n])*"?))
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
  | (?P<s>"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)
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
    for match in _PYTHON.finditer(text):
        kind, value = match.lastgroup, match.group()
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
    for match in _CLIKE.finditer(text):
        kind, value = match.lastgroup, match.group()
        if kind == "name":
            css = _C_WORDS.get(value, "")
            yield css, value, not css
        else:
            yield ("" if kind in ("ws", "x") else kind), value, False


TOKENIZERS = {
    "python": python_tokens,
    "triton": python_tokens,
    "cpp": clike_tokens,
    "c": clike_tokens,
    "cuda": clike_tokens,
}
