"""The one exception a strategy raises when it cannot write some code."""


class Unsupported(Exception):
    """This code cannot be handled by the current strategy; the caller falls back."""
