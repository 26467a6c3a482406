"""Except clauses whose code after an inner statement must still run inside the
clause, seeing the exception it handles (issue 25): what each logs, returns or raises
says what ``sys.exc_info()`` or an error's ``__context__`` holds there."""

import sys

LOG = []


def handled():
    """The exception being handled where this is called, by type name."""
    return type(sys.exc_info()[1]).__name__


def clause_goes_on_after_a_with_that_raises_in_a_finally(x):
    """3.13: the clause's code after its inner try (a with whose body always raises,
    in a try/finally) was written after the outer try, and the return in an else: the
    inner handler, reached only through the finally body's re-raise, left the clause
    undominated by its handler (the last known wrong result of round 11)."""
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
    def __init__(self, suppress=False):
        self.suppress = suppress

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", handled()))
        return self.suppress


CASES = [
    ("clause_goes_on_after_a_with_that_raises_in_a_finally", (1,)),
    ("clause_goes_on_after_a_with_that_raises_in_a_finally", (0,)),
]
