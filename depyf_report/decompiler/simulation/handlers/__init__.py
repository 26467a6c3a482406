"""Opcode handlers, one module per family of opcodes, each registered with ``@handles``."""

from . import calls, exceptions, expressions, matching, statements, typeparams

__all__ = ["calls", "exceptions", "expressions", "matching", "statements", "typeparams"]
