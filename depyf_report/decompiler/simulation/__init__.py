"""Layer 4: symbolic execution of basic blocks into ``ast`` expressions and statements.

Importing the package registers every opcode handler (``handlers/``) in
``registry.HANDLERS``; this is the only import made for that purpose.
"""

from . import handlers

__all__ = ["handlers"]
