"""Shapes that 3.13 compiles apart from 3.12, read as 3.12's are: a jump that 3.13
gives the handler of a statement around (or none), between two instructions of a
try or with body (the second may be a NOP that keeps a line); a break that 3.13
lays out as the end of the except clause around the loop. One function each, named
after the shape; each runs on every Python."""


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


def break_out_of_a_clause_try_in_a_finally(items, log):
    """The break leaves the inner try: 3.13 gives its lone jump the finally's handler,
    between two instructions of the inner try body, which the loop body must not
    stop at (seed 28)."""
    try:
        try:
            while True:
                log.append("round")
                if items.pop():
                    break
        except IndexError:
            log.append("empty")
        log.append("after")
    finally:
        log.append("finally")
    return log


def return_from_a_case_at_the_end_of_a_with(point, flag, log):
    """The if's jump to the with's exit has no handler, and the next instruction
    under the with's is the return's NOP, which the decompiler drops (seed 63)."""
    with Gate(log):
        match point:
            case [a]:
                log.append(a)
                if flag or a > 3:
                    return
    log.append("after")
    return log


def break_on_a_conditional_test_in_a_clause(items, flag, log):
    """The two arms of the test go to the break, which 3.13 lays out as the clause's
    end (one arm falls into it, the other jumps there): the one way the endless loop
    leaves its body (seed 300)."""
    try:
        log.append(items[0])
    except IndexError as e:
        while True:
            log.append((len(log), type(e).__name__))
            if len(log) > 3 if flag else not flag:
                break
    log.append("after")
    return log


CASES = [
    ("break_out_of_a_clause_try_in_a_finally", ([0, 0, 1, 0], [])),
    ("break_out_of_a_clause_try_in_a_finally", ([0, 0], [])),
    ("break_out_of_a_clause_try_in_a_finally", ([], [])),
    ("return_from_a_case_at_the_end_of_a_with", ([1], False, [])),
    ("return_from_a_case_at_the_end_of_a_with", ([5], False, [])),
    ("return_from_a_case_at_the_end_of_a_with", ([1], True, [])),
    ("return_from_a_case_at_the_end_of_a_with", ((1, 2), True, [])),
    ("break_on_a_conditional_test_in_a_clause", ([], True, [])),
    ("break_on_a_conditional_test_in_a_clause", ([], False, [])),
    ("break_on_a_conditional_test_in_a_clause", ([1], True, [])),
]
