"""Branches whose ends the walk of an if (or of a value that depends on a test) reads:
what follows a chained comparison used as a value, copied into the arm where it holds,
at the end of a class body (in an if branch too) or of a finally body. One function each, named after the shape."""


def chain_stored_last_in_a_class(a, b, c):
    """A chained comparison stored last in a class body: 3.10 copies the store and the
    class's implicit return into the arm where the chain holds, and its copies of that
    return are jumps to the last one (seed 580)."""

    class Box:
        held = a < b < c

    class Named:
        held = a is not None is not b

    return Box.held, Named.held


def chain_stored_last_in_a_class_branch(a, b, c):
    """As above, in an if branch: the store is copied before a jump to the class's
    implicit return on both arms of the chain, the original too (seed 1795)."""

    class Box:
        if c:
            held = 0 < a <= b < 5
        else:
            other = c

    return vars(Box).get("held"), vars(Box).get("other")


def chain_used_last_in_a_finally(a, b, log):
    """A chained comparison used last in a finally body: 3.10 copies what uses it and
    the RERAISE that ends the body's exceptional copy into the arm where the chain
    holds (seed 1184)."""
    try:
        log.append(a)
        if a is None:
            raise KeyError(b)
    finally:
        held = a == b != 8
    try:
        if b is None:
            raise KeyError(a)
    finally:
        if held or a:
            log.append(a < b < 8)
    return held, log


CASES = [
    ("chain_stored_last_in_a_class", (1, 2, 3)),
    ("chain_stored_last_in_a_class", (1, 3, 2)),
    ("chain_stored_last_in_a_class", (3, 2, 1)),
    ("chain_stored_last_in_a_class", (None, None, 1)),
    ("chain_stored_last_in_a_class", (0, None, None)),
    ("chain_stored_last_in_a_class_branch", (1, 2, True)),
    ("chain_stored_last_in_a_class_branch", (1, 9, True)),
    ("chain_stored_last_in_a_class_branch", (0, 2, True)),
    ("chain_stored_last_in_a_class_branch", (3, 2, True)),
    ("chain_stored_last_in_a_class_branch", (1, 2, 0)),
    ("chain_used_last_in_a_finally", (1, 1, [])),
    ("chain_used_last_in_a_finally", (8, 8, [])),
    ("chain_used_last_in_a_finally", (1, 2, [])),
    ("chain_used_last_in_a_finally", (None, 1, [])),
    ("chain_used_last_in_a_finally", (1, None, [])),
]
