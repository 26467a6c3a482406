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


def code_after_a_with_ending_a_named_clause_only_it_reaches(x):
    # the try body always raises, and the named clause ends with a with: the code
    # after the try is written inside the clause, after an explicit ``e = None; del e``
    # (random seed 3216 on 3.10 and 3.12)
    if x:
        try:
            raise KeyError(x)
        except KeyError as e:
            with Box():
                LOG.append(1)
        LOG.append(handled())
    return handled()


class Box:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        return False


CASES = [
    ("clause_goes_on_after_a_with_that_raises_in_a_finally", (1,)),
    ("code_after_a_with_ending_a_named_clause_only_it_reaches", (1,)),
]
