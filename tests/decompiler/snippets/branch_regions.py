"""Branches whose ways end in different regions, or with different stacks, because
the walk took the wrong block for where a statement ends: one function each, named
after the shape (the brs group)."""


class Gate:
    """A context manager that logs and suppresses an exception when told to."""

    def __init__(self, log, suppress=False):
        self.log, self.suppress = log, suppress

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", kind.__name__ if kind else None))
        return self.suppress


def continues_before_a_raise_after_a_finally(values, log):
    """A continue out of a try/finally body runs its copy of the finally body, laid out
    before the copy the body's end runs, which the raise after the try follows: the
    body ends there, not at the continue (seed 11096's shape, without the with)."""
    while values:
        try:
            if values.pop() % 2:
                continue
        finally:
            log.append(len(values))
        raise ValueError(len(log))
    return log


def continues_from_a_with_before_a_raise_after_a_finally(values, log):
    """The same through a with inside the try body: the branch that continues ran on
    to the continue's copy, the other to the with's end (seed 11096)."""
    while values:
        try:
            with Gate(log):
                if values.pop() % 2 and len(values) > 1:
                    continue
        finally:
            log.append(len(values))
        raise ValueError(len(log))
    return log


CASES = [
    ("continues_before_a_raise_after_a_finally", ([1, 3, 2], [])),
    ("continues_before_a_raise_after_a_finally", ([2], [])),
    ("continues_before_a_raise_after_a_finally", ([1, 1], [])),
    ("continues_before_a_raise_after_a_finally", ([], [])),
    ("continues_from_a_with_before_a_raise_after_a_finally", ([1, 3, 5, 2], [])),
    ("continues_from_a_with_before_a_raise_after_a_finally", ([4, 1], [])),
    ("continues_from_a_with_before_a_raise_after_a_finally", ([1, 1, 1], [])),
    ("continues_from_a_with_before_a_raise_after_a_finally", ([], [])),
]
