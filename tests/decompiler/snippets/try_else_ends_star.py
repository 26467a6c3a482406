# requires: 3.11
"""Try statements with except* clauses whose else and except clauses go on to
different places as the walks read them (the else13 group's shapes): they fell back
to the state machine."""


def try_in_a_star_try_ending_a_clause(log, first, second):
    """A try inside a try with an except* clause, at the end of an except clause
    after one holding a loop, before a chained comparison: 3.13 copies the clause's
    end (its ``POP_EXCEPT`` and jump on) to each way out of the inner try, and the
    inner clause ran on through one copy, the else to the other, the end of the
    except* try's body (seed 10092's shape on 3.13)."""
    try:
        log.append(10 // first)
    except TypeError:
        while second:
            second -= 1
            log.append(second)
    except ZeroDivisionError:
        try:
            try:
                log.append(second + 1)
            except TypeError:
                log.append("type")
        except* ValueError:
            log.append("value")
    log.append(first == second != 5)
    return log


CASES = [
    ("try_in_a_star_try_ending_a_clause", ([], 2, 3)),
    ("try_in_a_star_try_ending_a_clause", ([], "a", 3)),
    ("try_in_a_star_try_ending_a_clause", ([], 0, 3)),
    ("try_in_a_star_try_ending_a_clause", ([], 0, "a")),
    ("try_in_a_star_try_ending_a_clause", ([], 0, 5)),
]
