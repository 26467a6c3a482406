"""Shapes whose decompiled code still sees an exception the original has finished
handling (issue 25; listed in ``tests/known_gaps.py``). What each raises or returns
says what ``sys.exc_info()`` or ``__context__`` holds there."""

import sys

LOG = []


def handled():
    """The exception being handled where this is called, by type name."""
    return type(sys.exc_info()[1]).__name__


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
    ("clause_goes_on_after_a_with_that_raises_in_a_finally", (1,)),
]
