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


def raise_only_a_clause_reaches(xs):
    # the body returns or continues, so only the clause goes on to the raise: it is
    # written inside the clause, where the KeyError is still being handled
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            pass
        raise Seen(x)


def clause_goes_on_after_a_with_that_raises_in_a_finally(x):
    # 3.13: the clause's code after its inner try (a with whose body always raises,
    # in a try/finally) is written after the outer try, and its return in an else
    try:
        if x:
            raise KeyError(x)
    except KeyError:
        try:
            try:
                with Box():
                    raise ValueError(x)
            finally:
                pass
        except ValueError:
            pass
        LOG.append(handled())
    return handled()


class Box:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        return False


CASES = [
    ("raise_only_a_clause_reaches", ([7, 0, 1],)),
    ("clause_goes_on_after_a_with_that_raises_in_a_finally", (1,)),
]
