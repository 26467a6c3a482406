# requires: 3.11
"""except* shapes around blocks that 3.13 inlines into each jump to them (an except
clause's end), read as the one block the source has; and 3.13's jump that ends an
except* clause body straight to the next clause. One function each, named after the
shape."""


class Gate:
    """A context manager that logs and suppresses an exception when told to."""

    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", kind.__name__ if kind else None))
        return self.suppress


def clause_end_copied_around_a_star_try(flag, value, log):
    """3.13 copies the clause's end (clear ``e``, then the return after the try) into
    the inner try body's end and into its handler's way on, and no original is left:
    the first copy stands for it (seed 118)."""
    try:
        log.append(1 // value)
    except ZeroDivisionError as e:
        try:
            log.append(len(log) // value)
        except* ZeroDivisionError:
            if flag:
                raise TypeError("flag")
            log.append(27)
    else:
        log.append(38)
    return log


def star_try_in_a_star_clause_before_a_named_clause(value, log):
    """The inner try/except* ends the first clause's body; 3.13 sends its way on
    straight to the next clause's test, a jump under the outer handler's cleanup
    (seed 163)."""
    try:
        log.append(1 // value)
    except* ZeroDivisionError:
        try:
            raise KeyError(value)
        except* Exception:
            log.append("inner")
    except* TypeError as e:
        log.append(("type", len(e.exceptions)))
    return log


def with_raising_in_a_named_star_clause(value, suppress, log):
    """The with's suppressing way out runs on into the clause's end, which 3.13
    copied there (seed 95)."""
    try:
        log.append(1 // value)
    except* ZeroDivisionError as e:
        with Gate(log, suppress):
            raise ValueError(len(e.exceptions))
    log.append("after")
    return log


CASES = [
    ("clause_end_copied_around_a_star_try", (True, 0, [])),
    ("clause_end_copied_around_a_star_try", (False, 0, [])),
    ("clause_end_copied_around_a_star_try", (False, 0, [1])),
    ("clause_end_copied_around_a_star_try", (False, 1, [])),
    ("star_try_in_a_star_clause_before_a_named_clause", (0, [])),
    ("star_try_in_a_star_clause_before_a_named_clause", ("x", [])),
    ("star_try_in_a_star_clause_before_a_named_clause", (1, [])),
    ("with_raising_in_a_named_star_clause", (0, True, [])),
    ("with_raising_in_a_named_star_clause", (0, False, [])),
    ("with_raising_in_a_named_star_clause", (1, False, [])),
]
