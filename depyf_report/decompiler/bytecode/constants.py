"""Constants compared by what they are, for the scans that match instruction runs."""

from __future__ import annotations


def value_key(value) -> str:
    """A constant's repr, to compare by: it tells 0.0 from -0.0 and 1 from True. An int
    too long for repr (``sys.int_max_str_digits``) in hexadecimal; anything else repr
    refuses, by identity."""
    try:
        return repr(value)
    except ValueError:
        return hex(value) if isinstance(value, int) else f"<{type(value).__name__} {id(value)}>"
