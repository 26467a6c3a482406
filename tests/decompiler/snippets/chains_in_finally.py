"""Chained comparisons inside a finally body, an except clause or a with body, as
values and as conditions: the copies the compiler makes of what follows a chain
(a finally body's exception copy ends with a re-raise) must still read as one chain."""


class Noted:
    """A context manager that notes how its body ended and never suppresses."""

    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        self.log.append(kind.__name__ if kind else None)
        return False


def chain_value_in_finally(x, log):
    """A two-operand chain as a value in a finally body: its exception copy ends with
    a re-raise, copied into the arm where the chain holds (seeds 454, 757, 1184 on
    3.12 and 3.13; the state machine on 3.10)."""
    try:
        log.append(1 / x)
    finally:
        log.append(0 < x <= len(log))


def longer_chain_value_in_finally(x, log):
    """A three-operand chain, the same way."""
    try:
        log.append(1 / x)
    finally:
        log.append(0 < x <= len(log) < 2)


def four_operand_chain_in_finally(x, log):
    """A four-operand chain, the same way."""
    try:
        log.append(1 / x)
    finally:
        log.append(-1 < x <= len(log) < 3 != x)


def chain_value_in_a_reraising_clause(x, log):
    """A chain as a value in an except clause that re-raises."""
    try:
        log.append(1 / x)
    except ZeroDivisionError:
        log.append(-1 < x <= len(log) < 2)
        raise


def chain_value_in_finally_in_a_with(x, log):
    """A finally body inside a with body, the chain its last value."""
    with Noted(log):
        try:
            log.append(1 / x)
        finally:
            log.append(0 < x <= len(log))


def chain_value_in_finally_in_a_loop(items, log):
    """A finally body in a loop, the chain its last value."""
    for x in items:
        try:
            log.append(1 / x)
        finally:
            log.append(0 < x <= len(log))
    return log


def chain_in_a_call_in_finally(x, log):
    """The chain an argument of a call whose result the finally body appends."""
    try:
        log.append(1 / x)
    finally:
        log.append(str(0 < x <= len(log)))


def identity_chain_in_finally(x, log):
    """``is not`` and ``in`` chained in a finally body."""
    try:
        log.append(x)
    finally:
        log.append(x is not None in log)


def chain_condition_in_finally(a, b, c, log):
    """A chain as a condition in a finally body."""
    try:
        log.append(1 / a)
    finally:
        if a < b < c <= 5:
            log.append(1)
        else:
            log.append(2)


def finally_in_a_clause_with_a_chain(x, log):
    """A try with a finally body ending in a chain, inside an except clause."""
    try:
        log.append(1 / x)
    except ZeroDivisionError:
        try:
            log.append(x)
        finally:
            log.append(0 <= x <= len(log))


def chain_condition_before_code_after_a_try(x, log):
    """A chain as the condition of the last if in a try body, code after the try:
    where its first comparison fails, the pop runs a copy of that code (3.12+; the
    state machine on 3.10, 3.12 and 3.13)."""
    try:
        if 0 < x <= 1:
            log.append(1)
    except ValueError:
        pass
    return x


def and_chain_condition_before_code_after_a_try(t, x, log):
    """``t and`` a chain, the same way: one condition, not two ifs."""
    try:
        if t and 0 < x <= 1:
            log.append(1)
    except ValueError:
        pass
    return x


def chain_condition_in_a_finally_in_a_try(t, x, log):
    """The same in a finally body at the end of an enclosing try body (seed 28)."""
    try:
        try:
            log.append(x)
        finally:
            if t and 0 < x <= 1:
                log.append(1)
    except ValueError:
        pass
    return x


def chain_condition_with_a_computed_operand(x, log):
    """A chain whose middle operand is a call: the copy that keeps it for the next
    comparison spilled it into a temporary (the state machine on 3.10, 3.12, 3.13)."""
    if 0 < x <= len(log) < 3:
        log.append(1)
    return x


def computed_operand_chain_before_code_after_a_try(x, log):
    """The same as the last if in a try body, code after the try."""
    try:
        if 0 < x <= len(log) < 3 != x:
            log.append(1)
    except ValueError:
        pass
    return x


CASES = [
    ("chain_value_in_finally", (1, [])),
    ("chain_value_in_finally", (0, [])),
    ("chain_value_in_finally", (5, [])),
    ("chain_value_in_finally", (-2, [])),
    ("longer_chain_value_in_finally", (1, [])),
    ("longer_chain_value_in_finally", (0, [])),
    ("longer_chain_value_in_finally", (2, [9])),
    ("longer_chain_value_in_finally", (1, [7, 8])),
    ("four_operand_chain_in_finally", (1, [])),
    ("four_operand_chain_in_finally", (2, [5])),
    ("four_operand_chain_in_finally", (0, [])),
    ("four_operand_chain_in_finally", (-3, [])),
    ("chain_value_in_a_reraising_clause", (0, [])),
    ("chain_value_in_a_reraising_clause", (0, [1, 2])),
    ("chain_value_in_a_reraising_clause", (3, [])),
    ("chain_value_in_finally_in_a_with", (1, [])),
    ("chain_value_in_finally_in_a_with", (0, [])),
    ("chain_value_in_finally_in_a_loop", ([1, 2, 5], [])),
    ("chain_value_in_finally_in_a_loop", ([1, 0, 2], [])),
    ("chain_in_a_call_in_finally", (1, [])),
    ("chain_in_a_call_in_finally", (0, [])),
    ("identity_chain_in_finally", (None, [])),
    ("identity_chain_in_finally", (1, [])),
    ("chain_condition_in_finally", (1, 2, 3, [])),
    ("chain_condition_in_finally", (1, 3, 2, [])),
    ("chain_condition_in_finally", (0, 1, 2, [])),
    ("chain_condition_in_finally", (1, 2, 9, [])),
    ("finally_in_a_clause_with_a_chain", (0, [])),
    ("finally_in_a_clause_with_a_chain", (1, [])),
    ("chain_condition_before_code_after_a_try", (1, [])),
    ("chain_condition_before_code_after_a_try", (0, [])),
    ("chain_condition_before_code_after_a_try", (2, [])),
    ("chain_condition_before_code_after_a_try", ("a", [])),
    ("and_chain_condition_before_code_after_a_try", (True, 1, [])),
    ("and_chain_condition_before_code_after_a_try", (False, 1, [])),
    ("and_chain_condition_before_code_after_a_try", (True, 5, [])),
    ("and_chain_condition_before_code_after_a_try", (True, -5, [])),
    ("chain_condition_in_a_finally_in_a_try", (True, 1, [])),
    ("chain_condition_in_a_finally_in_a_try", (True, 2, [])),
    ("chain_condition_in_a_finally_in_a_try", (0, 1, [])),
    ("chain_condition_in_a_finally_in_a_try", (1, 0, None)),
    ("chain_condition_with_a_computed_operand", (1, [])),
    ("chain_condition_with_a_computed_operand", (1, [1, 2, 3])),
    ("chain_condition_with_a_computed_operand", (0, [])),
    ("chain_condition_with_a_computed_operand", (4, [1])),
    ("computed_operand_chain_before_code_after_a_try", (1, [])),
    ("computed_operand_chain_before_code_after_a_try", (1, [1])),
    ("computed_operand_chain_before_code_after_a_try", (2, [5])),
    ("computed_operand_chain_before_code_after_a_try", (0, [])),
    ("computed_operand_chain_before_code_after_a_try", (1, [1, 2, 3])),
]
