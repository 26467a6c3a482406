"""``ast.unparse`` without two kinds of needless parentheses.

- The standard library's unparser raises the precedence it asks of each operand of
  a boolean operation by one more step than the operand before, so from the third
  operand on a comparison or a ``not`` comes out parenthesized:
  ``a and b and (c == 1)``. Every operand binds the same; here each one asks for the
  precedence just above the operator's, which keeps the parentheses that matter:
  ``a and (b or c)`` and ``(a and b) and c``, a tree of its own.
- A generator expression that is a call's only argument needs no parentheses of its
  own: ``all(x > 0 for x in xs)``, not ``all((x > 0 for x in xs))``.
"""

from __future__ import annotations

import ast

_Base = getattr(ast, "_Unparser", None)  # private, but the same class from 3.9 to 3.14


if _Base is None:
    unparse = ast.unparse
else:

    class _Unparser(_Base):
        def visit_BoolOp(self, node):
            operator = self.boolops[node.op.__class__.__name__]
            precedence = self.boolop_precedence[operator]

            def operand(value):
                self.set_precedence(precedence.next(), value)
                self.traverse(value)

            with self.require_parens(precedence, node):
                self.interleave(lambda: self.write(f" {operator} "), operand, node.values)

        def visit_Call(self, node):
            if node.keywords or len(node.args) != 1 or type(node.args[0]) is not ast.GeneratorExp:
                return super().visit_Call(node)
            self.set_precedence(ast._Precedence.ATOM, node.func)
            self.traverse(node.func)
            self.traverse(node.args[0])  # its parentheses are the call's
            return None

    def unparse(tree: ast.AST) -> str:
        """Source for ``tree``, as ``ast.unparse`` writes it but for the parentheses."""
        return _Unparser().visit(tree)
