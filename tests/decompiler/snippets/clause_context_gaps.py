"""Shapes whose decompiled code still sees an exception the original has finished
handling (issue 25; listed in ``tests/known_gaps.py``). What each raises or returns
says what ``sys.exc_info()`` or ``__context__`` holds there."""

import sys

LOG = []


def handled():
    """The exception being handled where this is called, by type name."""
    return type(sys.exc_info()[1]).__name__


class Seen(Exception):
    """An error that says what was being handled where it was made."""

    def __init__(self, x):
        super().__init__(x, handled())


def picky(x):
    if x == 0:
        raise KeyError(x)
    return x > 5


def error_in_a_try_in_a_named_clause(t):
    # 3.10's state machine runs the inner try's body outside the clause, so the
    # AttributeError loses the KeyError as its context (seeds 527, 605, 1314)
    try:
        try:
            raise KeyError(1)
        except KeyError as e:
            try:
                t.last |= 16
            finally:
                pass
    except AttributeError as error:
        return type(error.__context__).__name__


CASES = [
    ("error_in_a_try_in_a_named_clause", (1,)),
]
