"""Branches whose ways end in different regions, or with different stacks or
markers, because the walk took the wrong block for where a statement ends or where
the branches meet: one function each, named after the shape (the brs group)."""


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


def with_after_a_loop_whose_with_always_raises(values, log):
    """An if whose body is a with that always raises (its ``__exit__`` may suppress),
    then a with: the second branch ran through the entry of that with, which writes
    nothing, up to the block the first wrote; they meet at the entry, not past it,
    where each would keep a manager of its own (seed 10436; the inner loop never goes
    round, so it reads as an if)."""
    while True:
        while True:
            if not values.pop():
                break
            with Gate(log, values[-1:] != [0]):
                raise ValueError(len(values))
            break
        with Gate(log):
            log.append(values[-1])


def clause_ends_in_a_with_that_raises(values, log):
    """An except clause (after another) whose with body always raises: where its
    ``__exit__`` suppresses, the way out pops the with's exception, then the clause's
    (its end, which 3.10 and 3.11 lay out there) and goes on after the try (seed
    10901)."""
    try:
        log.append(10 // values.pop())
    except ZeroDivisionError:
        log.append("zero")
    except IndexError:
        with Gate(log, len(log) < 2):
            raise KeyError(len(log))
    log.append("after")
    return log


def clause_ends_in_a_with_that_returns(values, log):
    """The same with a with body that returns: only ``__exit__`` suppressing goes on
    (seed 10140)."""
    try:
        log.append(10 // values.pop())
    except ZeroDivisionError:
        log.append("zero")
    except IndexError:
        with Gate(log, True):
            return log[10]
    log.append("after")
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
    ("with_after_a_loop_whose_with_always_raises", ([0, 1, 2, 0, 3, 1], [])),
    ("with_after_a_loop_whose_with_always_raises", ([5, 0, 0, 2], [])),
    ("with_after_a_loop_whose_with_always_raises", ([0, 1], [])),
    ("with_after_a_loop_whose_with_always_raises", ([], [])),
    ("clause_ends_in_a_with_that_raises", ([], [])),
    ("clause_ends_in_a_with_that_raises", ([], [1, 2])),
    ("clause_ends_in_a_with_that_raises", ([0], [])),
    ("clause_ends_in_a_with_that_raises", ([5], [])),
    ("clause_ends_in_a_with_that_returns", ([], [])),
    ("clause_ends_in_a_with_that_returns", ([], list(range(12)))),
    ("clause_ends_in_a_with_that_returns", ([0], [])),
    ("clause_ends_in_a_with_that_returns", ([2], [])),
]
