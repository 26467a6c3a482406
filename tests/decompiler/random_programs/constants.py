"""Literal constants of every type, written as a program would write them.

Each entry is source text; some are folded by the compiler into one constant (``2**70``,
``1e999 - 1e999``, ``0 - 125j``), so the decompiler must write back a value it only has
as an object: big and negative ints, signed zeros, infinities and nan, every mix of
quotes and escapes, bytes, f-strings with nested quotes, format specs and conversions,
tuples and frozensets of constants.
"""

INTS = [
    "0",
    "-1",
    "7",
    "2**70",
    "-9223372036854775809",
    "0x7FFFFFFFFFFFFFFF",
    "1_000_000",
    "-(2**63)",
    "~5",
    "True + 1",
]

FLOATS = [
    "-0.0",
    "0.0",
    "1.5",
    "-2.5e-300",
    "1e999",
    "-1e999",
    "1e999 - 1e999",
    "0.1 + 0.2",
    "-(0.0)",
]

COMPLEX = [
    "-0j",
    "0 - 125j",
    "-(0j)",
    "1 + 2j",
    "-0.0 - 0j",
    "0j",
    "-1j",
    "1e999j",
    "-(1e999j)",
    "2j * 2j",
]

STRINGS = [
    "'a\"b'",
    '"it\'s"',
    "'''tri'ple'''",
    '"""q"uote"""',
    "'\\n\\t\\x00\\u00e9\\\\'",
    "'\\''",
    "'\\'\\'\\''",
    '"\\"\\"\\""',
    "'\\'\"'",
    "r'raw\\d'",
    "'é☃'",
    "''",
    "'\\r\\x7f'",
    "'\\U0001f600'",
    "'a' 'b'",
    '"""\\"""\\""""',
]

BYTES = [
    "b''",
    "b'\\x00\\xff'",
    "b'\"\\''",
    "rb'\\d'",
    "b'\\n' * 3",
]

FSTRINGS = [
    "f'{x!r:>8}'",
    'f"{x:{K}}"',
    "f'\\'\\'\\'{x}\"\"\"'",
    "f'{{{x}}}'",
    "f'{y!s:.3}{x!a}'",
    "f'{x=}'",
    "f\"{'a' if x else 'b'}\"",
    "f'{x:0{K}d}'",
    "f'{x:#x}'",
    "f'{3.5:e}'",
    "f'a\\nb{x}'",
    "f'{x}' f'{y}' 'z'",
    "f'{y[0:1]!r}'",
    "f'''{x}'\"'''",
    "f'{x:{\"<\"}{K}}'",
]

OTHERS = [
    "(1, 'a', (2.5, None))",
    "()",
    "(-0.0, -0j, 0.0, 0j)",
    "((),)",
    "(True, ..., None)",
    "None",
    "...",
    "True",
    "False",
    "x in {1, 2, 3}",
    "x not in {'a', b'b', 1.5, -0.0}",
    "(0.0, -0.0)",
    "[-0.0, 0.0]",
    "{1: -0j, 'k': (1e999,)}",
]

ALL = [*INTS, *FLOATS, *COMPLEX, *STRINGS, *BYTES, *FSTRINGS, *OTHERS]
