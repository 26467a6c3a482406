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


def clause_in_a_loop_goes_on_after_a_with_that_raises_in_a_finally(x):
    """3.13: the same inner try in a clause in a loop: the code after the outer try
    (the rest of the round) was written in the clause, and the loop's jump back was no
    back edge (ctxe sweep, loop-raise-try_finally_with)."""
    for k in range(2):
        try:
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
            LOG.append(sys.exc_info()[0].__name__)
        else:
            LOG.append(handled())
        LOG.append((k, handled()))
    return handled()


def clause_goes_on_after_an_inner_try_that_raises_in_a_loop(x):
    """Every Python: a try body that always raises, in a loop, whose clause goes on
    after an inner try whose body always raises: the walk of the clause to where it
    goes on stopped at the inner raise, so the rest of the round was written in the
    clause, seeing the handled exception (ctxe sweep, loop-raise-try_except)."""
    for k in range(2):
        try:
            raise KeyError(x)
        except KeyError:
            try:
                raise ValueError(x)
            except ValueError:
                pass
            LOG.append(("after", handled()))
        LOG.append(("round", k, handled()))
    return handled()


def clause_goes_on_after_a_with_that_suppresses_in_a_loop(x):
    """As above, the inner statement a with whose body always raises and whose
    ``__exit__`` suppresses it (ctxe sweep, loop-raise-with_suppress)."""
    for k in range(2):
        try:
            raise KeyError(x)
        except KeyError as e:
            with Box(True):
                raise ValueError(x)
            LOG.append(("after", handled()))
        LOG.append(("round", k, handled()))
    return handled()


def return_computed_in_a_clause_through_a_finally(x):
    """A return in a clause, inside a try/finally, after an if that returns: the
    value (computed in the clause, kept over its POP_EXCEPT for the finally body's
    copy) was written as a return after the inner try, where a call in it no longer
    sees the handled exception; it falls back where it cannot be read as written
    (ctxe sweep, try_finally-raise-if_return)."""
    try:
        try:
            raise KeyError(x)
        except KeyError:
            if x > 1:
                return ("early", handled())
            return ("clause", handled())
    finally:
        LOG.append(("outer", handled()))


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
    ("clause_in_a_loop_goes_on_after_a_with_that_raises_in_a_finally", (1,)),
    ("clause_goes_on_after_an_inner_try_that_raises_in_a_loop", (1,)),
    ("clause_goes_on_after_a_with_that_suppresses_in_a_loop", (1,)),
    ("return_computed_in_a_clause_through_a_finally", (1,)),
    ("return_computed_in_a_clause_through_a_finally", (2,)),
]
