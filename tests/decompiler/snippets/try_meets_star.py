# requires: 3.11
"""except* clauses whose try is nested in an except* clause that another clause
follows: the inner try goes on to the outer clause's own way out, which the outer
handler's rewrite keeps, not past it to the next clause's test."""


def star_try_in_a_star_clause(a, b, log):
    """A try/except* at the end of an except* clause, another clause after it (seed
    120 on 3.11)."""
    try:
        log.append(10 // a)
    except* ZeroDivisionError:
        try:
            log.append(10 // b)
        except* ZeroDivisionError:
            log.append("inner")
    except* Exception:
        log.append("outer")
    return log


def star_try_with_else_in_a_star_clause(a, b, log):
    """The same with an else, and names bound by the clauses."""
    try:
        log.append(10 // a)
    except* (ZeroDivisionError, KeyError) as e:
        try:
            log.append(10 // b)
        except* ZeroDivisionError as e:
            log.append(repr(e.exceptions))
        else:
            log.append("else")
    except* Exception as e:
        log.append(repr(e.exceptions))
    return log


def raising_group(a, b):
    raise ExceptionGroup("g", [ZeroDivisionError(a), TypeError(b)])


def star_try_in_a_split_group(a, b, log):
    """A group that both outer clauses take part of."""
    try:
        raising_group(a, b)
    except* ZeroDivisionError:
        try:
            log.append(10 // b)
        except* ZeroDivisionError:
            log.append("inner")
    except* TypeError:
        log.append("outer")
    return log


CASES = [
    ("star_try_in_a_star_clause", (2, 1, [])),
    ("star_try_in_a_star_clause", (0, 1, [])),
    ("star_try_in_a_star_clause", (0, 0, [])),
    ("star_try_in_a_star_clause", ("a", 0, [])),
    ("star_try_in_a_star_clause", (0, "b", [])),
    ("star_try_with_else_in_a_star_clause", (2, 1, [])),
    ("star_try_with_else_in_a_star_clause", (0, 1, [])),
    ("star_try_with_else_in_a_star_clause", (0, 0, [])),
    ("star_try_with_else_in_a_star_clause", ("a", 0, [])),
    ("star_try_with_else_in_a_star_clause", (0, "b", [])),
    ("star_try_in_a_split_group", (1, 1, [])),
    ("star_try_in_a_split_group", (1, 0, [])),
    ("star_try_in_a_split_group", (1, "b", [])),
]
