"""Try statements whose else and except clauses go on to different places as the
walks read them: the else to where the body around ends, the clauses to the code
after the try; and code after a try read into its body (the else13 group's
shapes). They fell back to the state machine."""

ENDING = "ending"


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


def if_in_a_try_in_a_loop(log, items):
    """An if ending a try in a for loop's body, the try at the top of another one:
    3.13 leaves the if's jump, past the test's TO_BOOL, out of the try around, and
    the walk of the outer try's body read that jump in as code after it, under its
    clauses (seed 592's shape on 3.13)."""
    try:
        for item in items:
            if item:
                try:
                    log.append(10 // item)
                except TypeError:
                    log.append("type")
    except ZeroDivisionError:
        log.append("zero")
    return log


def break_out_of_a_try_before_a_raising_return(log, items):
    """``while True`` whose try body breaks, before a small return that can raise (a
    global's load): 3.10 and 3.12+ copy the return to the break, out of the try, and
    the walk read it in the try body, under its clauses (seed 10229's shape on 3.12
    and 3.13)."""
    while True:
        try:
            if items.pop() or len(log) > 3:
                break
        except IndexError:
            log.append("empty")
        if len(log) > 5:
            return (log, 30)
    return ("end", ENDING)


def breaks_out_of_a_test_and_a_try_before_a_raising_return(log, items):
    """As ``break_out_of_a_try_before_a_raising_return``, with a break before the
    try too, which goes to the return itself: that one is where the loop goes on
    (seed 10229 on 3.12 and 3.13)."""
    while True:
        log.append(len(items))
        if len(log) > 7:
            break
        try:
            if items.pop() or len(log) > 3:
                break
        except IndexError:
            log.append("empty")
        if len(log) > 5:
            return (log, 30)
    return ("end", ENDING)


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
    ("if_in_a_try_in_a_loop", ([], [1, 0, 2])),
    ("if_in_a_try_in_a_loop", ([], [1, "a", 0, 2])),
    ("if_in_a_try_in_a_loop", ([], [0, 0, 5])),
    ("if_in_a_try_in_a_loop", ([], 3)),
    ("break_out_of_a_try_before_a_raising_return", ([], [0, 1])),
    ("break_out_of_a_try_before_a_raising_return", (["a"], [0, 0])),
    ("break_out_of_a_try_before_a_raising_return", ([], [0, 0])),
    ("break_out_of_a_try_before_a_raising_return", ([], [])),
    ("breaks_out_of_a_test_and_a_try_before_a_raising_return", ([], [0, 1])),
    ("breaks_out_of_a_test_and_a_try_before_a_raising_return", ([], [0, 0])),
    ("breaks_out_of_a_test_and_a_try_before_a_raising_return", ([1] * 8, [0, 0])),
    ("breaks_out_of_a_test_and_a_try_before_a_raising_return", ([], [])),
]
