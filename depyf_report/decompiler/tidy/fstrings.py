"""f-strings that read back as the same f-string, under each Python's rules.

``ast.unparse`` picks one quote for a whole f-string, part by part, and where no quote
fits it falls back on ``repr`` of the last part alone: on 3.10 an f-string that holds
three single quotes, a field, then three double quotes comes out with its single
quotes unescaped, and does not compile. Before 3.12 an expression part
may hold neither a backslash nor the f-string's own quote, while a literal part may
escape anything. So: write each expression part first, then take the first quote that
none of them holds, and escape the literal parts for it.
"""

from __future__ import annotations

import ast

from ..bytecode.constants import value_key

QUOTES = ("'", '"', "'''", '"""')


def fstring_source(node: ast.JoinedStr, expression) -> str | None:
    """Source for ``node``, where ``expression(value)`` writes one expression part
    (with an unparser that avoids backslashes); None when no quote fits."""
    parts = _parts(node, expression)
    if parts is None:
        return None
    expressions = [text for kind, text in parts if kind == "expr"]
    for quote in QUOTES:
        if any(quote in text or "\\" in text for text in expressions):
            continue
        body = "".join(text if kind == "expr" else _escaped(text, quote) for kind, text in parts)
        return f"f{quote}{body}{quote}"
    return None


def _parts(node: ast.JoinedStr, expression) -> list[tuple[str, str]] | None:
    """The literal text and the written expression parts of ``node``, in order;
    replacement fields written whole (``{x!r:>{w}}``) as expression text."""
    parts: list[tuple[str, str]] = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(("text", value.value.replace("{", "{{").replace("}", "}}")))
            continue
        if not isinstance(value, ast.FormattedValue):
            return None
        text = expression(value.value)
        parts.append(("expr", "{" + (" " if text.startswith("{") else "") + text))
        if value.conversion != -1:
            parts.append(("expr", "!" + chr(value.conversion)))
        if value.format_spec is not None:
            spec = _parts(value.format_spec, expression)
            if spec is None:
                return None
            parts.append(("expr", ":"))
            parts.extend(spec)
        parts.append(("expr", "}"))
    return parts


def _escaped(text: str, quote: str) -> str:
    """Literal text for inside ``quote``: backslashes, the quote's character and what
    is not printable escaped."""
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char == quote[0]:
            out.append("\\" + char)
        elif char == "\n" and len(quote) == 3:
            out.append(char)
        elif not char.isprintable():
            out.append(char.encode("unicode_escape").decode("ascii"))
        else:
            out.append(char)
    return "".join(out)


def same_fstring(source: str, node: ast.JoinedStr) -> bool:
    """Whether ``source`` parses back to the f-string ``node``."""
    try:
        parsed = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError):
        return False
    return isinstance(parsed, ast.JoinedStr) and _shape(parsed) == _shape(node)


def _shape(node: ast.JoinedStr) -> list:
    """``node``'s parts with adjacent literal parts joined and empty ones left out."""
    shape: list = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            if shape and isinstance(shape[-1], str):
                shape[-1] += value.value
            elif value.value:
                shape.append(value.value)
        elif isinstance(value, ast.FormattedValue):
            spec = _shape(value.format_spec) if value.format_spec is not None else None
            shape.append((_form(value.value), value.conversion, spec))
        else:
            shape.append(_form(value))
    return shape


def _form(node):
    """``node`` as nested tuples, for comparing (``ast.dump`` is a recursive closure:
    a reference cycle, and decompile runs with gc off); a number written as a constant
    expression (``-0.0``, ``0.0 - 125j``) as its value."""
    number = _number(node)
    if number is not None:
        return ("number", type(number).__name__, value_key(number))
    if isinstance(node, ast.AST):
        return (type(node).__name__, *(_form(getattr(node, f, None)) for f in node._fields))
    if isinstance(node, list):
        return tuple(_form(item) for item in node)
    return node


def _number(node):
    """The number a constant expression of signs, sums and differences folds to."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, complex):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _number(node.operand)
        if operand is not None:
            return -operand if isinstance(node.op, ast.USub) else +operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left, right = _number(node.left), _number(node.right)
        if left is not None and right is not None:
            return left + right if isinstance(node.op, ast.Add) else left - right
    return None
