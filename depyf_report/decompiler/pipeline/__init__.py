"""Layer 7: code objects to definitions, and ``decompile`` itself."""

from .api import decompile

__all__ = ["decompile"]
