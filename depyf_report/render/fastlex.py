"""A fast tokenizer for Python and C-like code, giving Pygments' CSS classes.

Pygments' lexers try many regular expressions at each position, which made a
thousand-graph dump take a minute to highlight. Here one compiled pattern per
language scans the text in C, and a token's class comes from a table, so
highlighting costs about a microsecond per token. The classes are Pygments'
short names, so the site keeps one Pygments stylesheet.

site.js holds the same tokenizer (its ``highlight``), which draws the chunks of a
long listing that its data files hold as plain text; the two must give the same
classes. So the patterns use no class whose meaning differs between Python's and
JavaScript's regular expressions (``\\w``, ``\\d``, ``\\s``, ``.``), every
non-ASCII character counts as a name character (unstyled either way), and no
token but a multi-line string or comment spans a newline: a line's markup is the
same whether it is scanned alone or in its text. ``tests/render/test_js_lexer.py``
compares the two.
"""

from __future__ import annotations

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
  | (?P<m>(?:0[xXoObB][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?j?
        |\.[0-9]+(?:[eE][+-]?[0-9]+)?j?))
  | (?P<name>[A-Za-z_\u0080-\U0010ffff][A-Za-z0-9_\u0080-\U0010ffff]*)
  | (?P<o>[-+*/%&|^~<>=!@]+)
  | (?P<ws>[ \t\r\f\v()\[\]{},:;.]+|\n)
  | (?P<x>[^\n])
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
  | (?P<m>(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)
        [uUlLfF]*)
  | (?P<name>[A-Za-z_\u0080-\U0010ffff][A-Za-z0-9_\u0080-\U0010ffff]*)
  | (?P<o>[-+*/%&|^~<>=!?:]+)
  | (?P<ws>[ \t\r\f\v()\[\]{},;.]+|\n)
  | (?P<x>[^\n])
    """,
    re.VERBOSE | re.MULTILINE,
)

# Python 3.11's builtins, written out: every Python colours the same names, as
# site.js does.
_BUILTINS = (
    "ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup "
    "BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError "
    "ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError "
    "DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception "
    "ExceptionGroup FileExistsError FileNotFoundError FloatingPointError FutureWarning "
    "GeneratorExit IOError ImportError ImportWarning IndentationError IndexError "
    "InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError "
    "ModuleNotFoundError NameError NotADirectoryError NotImplemented NotImplementedError "
    "OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError "
    "RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning "
    "StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit "
    "TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError "
    "UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning "
    "ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint bytearray bytes "
    "callable chr classmethod compile complex copyright credits delattr dict dir divmod "
    "enumerate eval exec exit filter float format frozenset getattr globals hasattr hash "
    "help hex id input int isinstance issubclass iter len license list locals map max "
    "memoryview min next object oct open ord pow print property quit range repr reversed "
    "round set setattr slice sorted staticmethod str sum super tuple type vars zip"
)
_KEYWORDS = (
    "False None True and as assert async await break class continue def del elif else "
    "except finally for from global if import in is lambda nonlocal not or pass raise "
    "return try while with yield"
)

_PY_WORDS = {
    **{w: "nb" for w in _BUILTINS.split()},
    **{w: "k" for w in _KEYWORDS.split()},
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
            if value == "\n" or not value.isspace():
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
