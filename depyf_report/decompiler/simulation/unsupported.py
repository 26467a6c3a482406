"""The one exception a strategy raises when it cannot write some code."""


class Unsupported(Exception):
    """This code cannot be handled by the current strategy; the caller falls back."""


class ReachedTwice(Unsupported):
    """The walk got to a block it had already written: two of its paths meet there,
    where no join was found for them."""

    def __init__(self, block: int):
        super().__init__(f"block {block} reached twice")
        self.block = block
