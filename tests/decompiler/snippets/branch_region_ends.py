"""Branches whose ends the walk of an if (or of a value that depends on a test) reads:
what follows a chained comparison used as a value, copied into the arm where it holds,
at the end of a class body. One function each, named after the shape."""


def chain_stored_last_in_a_class(a, b, c):
    """A chained comparison stored last in a class body: 3.10 copies the store and the
    class's implicit return into the arm where the chain holds, and its copies of that
    return are jumps to the last one (seed 580)."""

    class Box:
        held = a < b < c

    class Named:
        held = a is not None is not b

    return Box.held, Named.held


CASES = [
    ("chain_stored_last_in_a_class", (1, 2, 3)),
    ("chain_stored_last_in_a_class", (1, 3, 2)),
    ("chain_stored_last_in_a_class", (3, 2, 1)),
    ("chain_stored_last_in_a_class", (None, None, 1)),
    ("chain_stored_last_in_a_class", (0, None, None)),
]
