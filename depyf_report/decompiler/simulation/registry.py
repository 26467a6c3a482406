"""The table from canonical opcode to the handler that simulates it.

Handler modules fill it with ``@handles``; ``simulation/__init__.py`` imports every one
of them, so the table is complete once the package is imported.
"""

from __future__ import annotations

HANDLERS: dict = {}


def handles(*ops):
    def register(fn):
        for op in ops:
            HANDLERS[op] = fn
        return fn

    return register
