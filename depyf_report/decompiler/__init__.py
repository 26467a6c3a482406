"""Bytecode to Python source. Standard library only: no torch, no jinja2."""

from .api import decompile

__all__ = ["decompile"]
