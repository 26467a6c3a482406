"""Where a try's else and its except clauses go on when 3.10 copies what follows
them to each: a finally body's end, which re-raises in the copy run on an
exception."""


def try_else_finally_in_a_finally_body(a, b, log):
    """try/except/else/finally as the finally body of a try: in the copy run on an
    exception, 3.10 copies the inner finally body, re-raising, to the else's end and
    to the clause's (seed 11 on 3.10)."""
    try:
        log.append(10 // a)
    finally:
        try:
            log.append(10 // b)
        except ZeroDivisionError:
            log.append("zero")
        else:
            log.append("else")
        finally:
            log.append("finally")


CASES = [
    ("try_else_finally_in_a_finally_body", (2, 5, [])),
    ("try_else_finally_in_a_finally_body", (0, 5, [])),
    ("try_else_finally_in_a_finally_body", (2, 0, [])),
    ("try_else_finally_in_a_finally_body", (0, 0, [])),
    ("try_else_finally_in_a_finally_body", (None, 0, [])),
    ("try_else_finally_in_a_finally_body", (2, "x", [])),
    ("try_else_finally_in_a_finally_body", (0, "x", [])),
]
