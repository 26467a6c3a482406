"""``ast.unparse`` without two kinds of needless parentheses.

- The standard library's unparser raises the precedence it asks of each operand of
  a boolean operation by one more step than the operand before, so from the third
  operand on a comparison or a ``not`` comes out parenthesized:
  ``a and b and (c == 1)``. Every operand binds the same; here each one asks for the
  precedence just above the operator's, which keeps the parentheses that matter:
  ``a and (b or c)`` and ``(a and b) and c``, a tree of its own.
- A generator expression that is a call's only argument needs no parentheses of its
  own: ``all(x > 0 for x in xs)``, not ``all((x > 0 for x in xs))``.

Given a table of source lines (``StatementLines``), each simple statement noted in it
ends with a comment that names them: ``x = f(a)  # line 15``. Compound statements get
none: their bodies' statements say where they come from.
"""

from __future__ import annotations

import ast
import inspect

from ..simulation import nodes
from ..simulation.nodes import StatementLines
from .facts import is_comment
from .fstrings import fstring_source, same_fstring
from .numbers import ATOM, UNARY, int_source, number_source

_Base = getattr(ast, "_Unparser", None)  # private, but the same class from 3.9 to 3.14

# Statements that hold others: their own line comment would land after their body.
_COMPOUND = tuple(
    getattr(ast, name)
    for name in (
        "FunctionDef",
        "AsyncFunctionDef",
        "ClassDef",
        "If",
        "For",
        "AsyncFor",
        "While",
        "With",
        "AsyncWith",
        "Try",
        "TryStar",
        "Match",
    )
    if hasattr(ast, name)
)


if _Base is None:

    def unparse(tree: ast.AST, lines: StatementLines | None = None) -> str:
        return ast.unparse(tree)

else:
    # Before 3.12 an f-string's expression parts are written without backslashes.
    _AVOID_BACKSLASHES = (
        {"_avoid_backslashes": True}
        if "_avoid_backslashes" in inspect.signature(_Base).parameters
        else {}
    )

    class _Unparser(_Base):
        def __init__(self, lines: StatementLines | None = None, layout=False, **options):
            super().__init__(**options)  # f-strings' parts: a new unparser of this class
            self._lines = lines
            # Whether line breaks may go inside expressions: not in an f-string's parts,
            # which take none before 3.12.
            self._layout = layout

        def traverse(self, node):
            super().traverse(node)
            if self._lines is not None and isinstance(node, ast.stmt):
                text = self._lines.comment(node)
                if text is not None and not isinstance(node, _COMPOUND) and not is_comment(node):
                    self.write(f"  # {text}")

        def _write_constant(self, value):
            if type(value) is int:
                self.write(int_source(value))
            elif isinstance(value, (float, complex)):
                self.write(number_source(value)[0])  # a tuple's item: the comma binds less
            elif isinstance(value, tuple):  # nested: its items exactly too
                with self.delimit("(", ")"):
                    self.items_view(self._write_constant, value)
            else:
                super()._write_constant(value)

        def visit_Constant(self, node):
            """Signed zeros, nan and complex parts exactly; ``(-1) ** x`` and
            ``(-1.5).real`` keep the parentheses their sign needs."""
            value = node.value
            if type(value) not in (int, float, complex):
                return super().visit_Constant(node)
            source, binding = (
                (int_source(value), ATOM) if type(value) is int else number_source(value)
            )
            if binding == ATOM and source.startswith("-"):
                binding = UNARY
            if binding == ATOM:
                return self.write(source)
            precedence = ast._Precedence.FACTOR if binding == UNARY else ast._Precedence.ARITH
            with self.require_parens(precedence, node):
                self.write(source)
            return None

        def visit_JoinedStr(self, node):
            """As ``ast.unparse`` writes it where that reads back the same; else each
            expression part first, then a quote none of them holds (see fstrings.py)."""
            start = len(self._source)
            super().visit_JoinedStr(node)
            if same_fstring("".join(self._source[start:]), node):
                return
            source = fstring_source(node, self._expression_part)
            if source is not None and same_fstring(source, node):
                self._source[start:] = [source]

        def _expression_part(self, value) -> str:
            unparser = type(self)(**_AVOID_BACKSLASHES)
            unparser.set_precedence(ast._Precedence.TEST.next(), value)
            return unparser.visit(value)

        def visit_BoolOp(self, node):
            operator = self.boolops[node.op.__class__.__name__]
            precedence = self.boolop_precedence[operator]

            def operand(value):
                self.set_precedence(precedence.next(), value)
                self.traverse(value)

            with self.require_parens(precedence, node):
                self.interleave(lambda: self.write(f" {operator} "), operand, node.values)

        def visit_comprehension(self, node):
            """An if clause written below the clause before it stays there
            (``nodes.comprehension``): 3.12 compile its test differently."""
            breaks = nodes.if_breaks(node)
            if not (self._layout and any(breaks)):
                return super().visit_comprehension(node)
            self.write(" async for " if node.is_async else " for ")
            self.set_precedence(ast._Precedence.TUPLE, node.target)
            self.traverse(node.target)
            self.write(" in ")
            self.set_precedence(ast._Precedence.TEST.next(), node.iter, *node.ifs)
            self.traverse(node.iter)
            for test, below in zip(node.ifs, breaks):
                self.write("\n" + "    " * (self._indent + 1) + "if " if below else " if ")
                self.traverse(test)
            return None

        def visit_Call(self, node):
            if node.keywords or len(node.args) != 1 or type(node.args[0]) is not ast.GeneratorExp:
                return super().visit_Call(node)
            self.set_precedence(ast._Precedence.ATOM, node.func)
            self.traverse(node.func)
            self.traverse(node.args[0])  # its parentheses are the call's
            return None

    def unparse(tree: ast.AST, lines: StatementLines | None = None) -> str:
        """Source for ``tree``, as ``ast.unparse`` writes it but for the parentheses;
        with ``lines``, each simple statement noted there ends with its lines."""
        return _Unparser(lines, layout=True).visit(tree)
