"""Try statements whose else and except clauses go on to different places as the
walks read them: the else to where the body around ends, the clauses to the code
after the try (the else13 group's shapes). They fell back to the state
machine."""


def branch_jump_out_of_a_try_in_a_clause(log, first, second, third):
    """An if/elif whose else raises, in a try at the end of an except clause, before
    another try: 3.13 keeps each branch's jump past the try a block of its own, under
    the clause's cleanup, and the walk of the elif's branch ran on past the try's end
    into the next try (seed 965's shape on 3.13)."""
    try:
        log.append(1 // first)
    except ZeroDivisionError:
        try:
            if second:
                log.append("second")
            elif third:
                log.append(10 // third)
            else:
                raise KeyError(second)
        except KeyError:
            log.append("key")
        try:
            log.append(len(third))
        except TypeError:
            log.append("no len")
    log.append("end")
    return log


def else_returns_before_a_raise(log, value):
    """A try whose else returns a constant and whose clause goes on to a raise, in
    the body of another try: the body around ends in that return (every other way
    through it raises), so the else ran on to that end, the clause to the raise
    (seed 1738's shape, on every Python)."""
    try:
        try:
            log.append(10 // value)
        except ZeroDivisionError:
            log.append("zero")
        else:
            return 1
        raise KeyError(value)
    except KeyError as e:
        log.append(repr(e))


def else_returns_a_value_before_a_raise(log, value):
    """As ``else_returns_before_a_raise``, returning a tuple the else computes: the
    return alone is left out of the try around, as its end (seed 1738)."""
    try:
        try:
            x = 10 // value
        except ZeroDivisionError as e:
            log.append(type(e).__name__)
        else:
            return (x, 60)
        raise KeyError(f"{value}-61")
    except KeyError:
        log.append("key")
    return log


CASES = [
    ("branch_jump_out_of_a_try_in_a_clause", ([], 1, 0, 0)),
    ("branch_jump_out_of_a_try_in_a_clause", ([], 0, 1, "ab")),
    ("branch_jump_out_of_a_try_in_a_clause", ([], 0, 0, "ab")),
    ("branch_jump_out_of_a_try_in_a_clause", ([], 0, 0, 5)),
    ("branch_jump_out_of_a_try_in_a_clause", ([], 0, 0, 0)),
    ("branch_jump_out_of_a_try_in_a_clause", ([], 0, 0, None)),
    ("else_returns_before_a_raise", ([], 2)),
    ("else_returns_before_a_raise", ([], 0)),
    ("else_returns_before_a_raise", ([], "a")),
    ("else_returns_a_value_before_a_raise", ([], 2)),
    ("else_returns_a_value_before_a_raise", ([], 0)),
    ("else_returns_a_value_before_a_raise", ([], None)),
]
