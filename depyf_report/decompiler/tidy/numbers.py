"""Source for float and complex constants that compiles back to the same bits.

``repr`` does not round-trip every number as source: ``repr(complex(0.0, -125.0))``
is ``-125j``, which the compiler folds to ``complex(-0.0, -125.0)`` (a literal
imaginary part has no real part, and the unary minus negates both); ``(-0-0j)``
starts from the integer ``-0``; a nan has no literal. The compiler folds
arithmetic on constants, so each number is written as a small constant expression
whose folding gives exactly its bits: signed zeros, infinities and the sign of nan
(its payload beyond the sign has no source at all). Each candidate is checked by
compiling it, so what is written is what the compiler makes of it.
"""

from __future__ import annotations

import math
import struct
from functools import lru_cache

INF = "1e309"  # overflows to inf, as ast.unparse writes it
NAN = f"{INF}-{INF}"
_NAN_BITS = struct.pack("<d", math.inf - math.inf)  # what the compiler folds NAN to

# How tightly a number's source binds: an atom, a unary minus, or a sum.
ATOM, UNARY, SUM = 0, 1, 2


def _bits(value) -> bytes:
    if isinstance(value, complex):
        return struct.pack("<dd", value.real, value.imag)
    return struct.pack("<d", value)


def _negative(x: float) -> bool:
    return math.copysign(1.0, x) < 0


def _float_sources(x: float) -> list[str]:
    """Sources that fold to ``x``, bit for bit where one exists."""
    if math.isnan(x):
        plain = f"({NAN})"
        same = _negative(x) == _negative(struct.unpack("<d", _NAN_BITS)[0])
        return [plain, f"-{plain}"] if same else [f"-{plain}", plain]
    if math.isinf(x):
        return [f"-{INF}" if x < 0 else INF]
    return [repr(x)]


def _imaginary_sources(y: float) -> list[str]:
    """Sources of ``complex(0.0, y)`` for ``y`` without its sign bit."""
    if math.isnan(y):
        return [f"({INF}j-{INF}j)", f"-({INF}j-{INF}j)"]
    if math.isinf(y):
        return [f"{INF}j"]
    text = repr(y)
    return [f"{text[:-2] if text.endswith('.0') else text}j"]


def _complex_candidates(z: complex):
    r, i = z.real, z.imag
    for j in _imaginary_sources(abs(i)) if not math.isnan(i) else _imaginary_sources(i):
        yield j
        yield f"-{j}"
        for f in _float_sources(r):
            yield f"{f} + {j}"
            yield f"{f} - {j}"
            yield f"{f} - (0.0 - {j})"
            yield f"{f} - (0.0 + {j})"
        for f in _float_sources(-r):
            yield f"-({f} + {j})"
            yield f"-({f} - {j})"
            yield f"-({f} - (0.0 - {j}))"
            yield f"-({f} - (0.0 + {j}))"


def _folded(source: str):
    code = compile(f"({source},)", "<number>", "eval")
    values = [c for c in code.co_consts if isinstance(c, tuple) and len(c) == 1]
    return values[0][0] if values else None


@lru_cache(maxsize=1024)
def _exact(value_bits: bytes, kind: type) -> str | None:
    value = (
        complex(*struct.unpack("<dd", value_bits))
        if kind is complex
        else struct.unpack("<d", value_bits)[0]
    )
    candidates = _float_sources(value) if kind is float else _complex_candidates(value)
    for source in candidates:
        folded = _folded(source)
        if type(folded) is kind and _bits(folded) == value_bits:
            return source
    return None


def int_source(value: int) -> str:
    """Decimal, unless too long for ``repr`` (``sys.int_max_str_digits``, 4300 digits
    from 3.11 on, 3.10.7 too): hexadecimal has no limit."""
    return repr(value) if value.bit_length() < HEX_FROM_BITS else hex(value)


HEX_FROM_BITS = 4000 * 3  # well under 4300 decimal digits (about 14,284 bits)


def number_source(value: float | complex) -> tuple[str, int]:
    """Source for ``value`` and how tightly it binds (ATOM, UNARY or SUM)."""
    if type(value) is float and math.isfinite(value):
        return repr(value), ATOM  # repr round-trips, and ``-x`` folds to the signed value
    source = _exact(_bits(value), type(value))
    if source is None:  # a nan payload with no source: the nearest there is
        source = repr(value).replace("inf", INF).replace("nan", f"({NAN})")
    return source, _binding(source)


def _binding(source: str) -> int:
    depth = 0
    for at, char in enumerate(source):
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and at and char in "+-" and source[at - 1] not in "e(":
            return SUM
    return UNARY if source.startswith("-") else ATOM
