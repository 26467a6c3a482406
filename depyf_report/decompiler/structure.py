"""Structured control flow (stub)."""

from .sim import Unsupported


def structured_body(ctx, graph):
    raise Unsupported("not yet")
