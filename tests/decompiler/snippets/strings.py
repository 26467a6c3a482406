"""f-strings with conversions and format specs, and other string building."""


def conversions(value):
    return f"{value!r}", f"{value!s}", f"{value!a}", f"{value}"


def format_specs(number, width):
    return (
        f"{number:>10}",
        f"{number:08.3f}",
        f"{number:{width}.{width - 2}f}",
        f"{number!r:^12}",
        f"{number:,}",
    )


def mixed_text(name, count):
    return f"hello {name}, you have {count} new {'message' if count == 1 else 'messages'}!"


def self_documenting(x, y):
    return f"{x=}, {y = }, {x + y=:>5}"


def nested_quotes_and_braces(items):
    return f"{{literal}} {', '.join(f'<{i}>' for i in items)} {len(items)}"


def percent_and_format(a, b):
    return "%s-%d" % (a, b), "{}:{b}".format(a, b=b), "%(k)s" % {"k": a}


def concatenation(a):
    return "implicit " "join " + a, a * 3, a[::-1], b"bytes" + a.encode()


def multiline(text):
    return f"""first
{text}
last"""


def every_quote(a, w):
    """f-strings holding every kind of quote: 3.10 allows no backslash and no quote
    of its own in an expression part, and ast.unparse may fall back on repr."""
    return [
        f'\'\'\'{a}"""',
        f"'''{a}\"\"\"",
        f'{a}\'"{a}"\'',
        f'{a}"""' f"'''{a}",
        f"{a['k'] if isinstance(a, dict) else a}'\"",
        f'{a!r}\r\n{a}\'\'\\',
        f'{a = !s:^{w}}{a!r:>{w}}\x00\N{BULLET}',
        f"{f'{a}'}\"'",
        f"{-0.0}{a!r:>{w}}{-1j}{0.0 - 125j}",
    ]


CASES = [
    ("every_quote", ("x", 5)), ("every_quote", ({"k": 1}, 3)),
    ("conversions", ("text",)), ("conversions", ("ünï",)), ("conversions", (3,)),
    ("format_specs", (3.14159, 8)), ("format_specs", (1234567.0, 12)),
    ("mixed_text", ("ana", 1)), ("mixed_text", ("bo", 3)),
    ("self_documenting", (1, 2)),
    ("nested_quotes_and_braces", ([1, 2],)),
    ("percent_and_format", ("a", 2)),
    ("concatenation", ("xy",)),
    ("multiline", ("middle",)),
]
