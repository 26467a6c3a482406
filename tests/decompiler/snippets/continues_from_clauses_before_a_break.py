"""A try/finally in a loop, followed by a break, whose body's only ways round are
continues in the clauses of a try inside it: the body's end was taken to be one of
those continues (a body ending the loop's goes round), so the break after the
statement was read into the body as its end, and a continue from a finally body in
a clause fell off into it: the loop stopped where it should go round (seed 61665's
shape on 3.11-3.13, a wrong result on all four Pythons, where the function ends
after the loop). The exit laid out right after the body, which the body reaches
without an exception, is its end."""


class E2(Exception):
    pass


def continues_from_a_finally_body_in_a_clause(flags, log):
    while flags.pop():
        try:
            if flags.pop():
                raise E2(61)
        except E2:
            try:
                log.append("clause")
            finally:
                if flags.pop():
                    continue
                break
        finally:
            log.append("finally")
        break


def continues_from_a_clause(flags, log):
    while flags.pop():
        try:
            if flags.pop():
                raise E2(61)
        except E2:
            if flags.pop():
                continue
            return
        finally:
            log.append("finally")
        break


# (flags are popped from the end: the loop's test, the raise, the continue)
CASES = [
    ("continues_from_a_finally_body_in_a_clause", ([0, 1, 1, 1], [])),
    ("continues_from_a_finally_body_in_a_clause", ([0, 1, 1, 1, 1, 1, 1], [])),
    ("continues_from_a_finally_body_in_a_clause", ([1, 0, 1, 1, 1], [])),
    ("continues_from_a_finally_body_in_a_clause", ([0, 1], [])),
    ("continues_from_a_finally_body_in_a_clause", ([0], [])),
    ("continues_from_a_clause", ([0, 1, 1, 1], [])),
    ("continues_from_a_clause", ([1, 0, 1, 1, 1], [])),
    ("continues_from_a_clause", ([0, 1, 1, 0, 1, 1, 1], [])),
]
