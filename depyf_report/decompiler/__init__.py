"""Bytecode to Python source. Standard library only: no torch, no jinja2.

The stages, in pipeline order; each imports only the ones above it:

1. ``bytecode``: raw decoding and the canonical instruction form of every Python version;
2. ``rewrites``: compiler templates read back (match, except*, copied tails, loop tests);
3. ``graph``: the control-flow graph and its dominators;
4. ``simulation``: the stack machine that turns blocks into ``ast`` nodes;
5. ``structuring``: statements recovered from the graph, or the state machine;
6. ``tidy``: readability passes and printing;
7. ``pipeline``: code objects to definitions, and ``decompile`` itself.

``docs/architecture.md`` describes each stage.
"""

from .pipeline import decompile

__all__ = ["decompile"]
