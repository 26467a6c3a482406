"""Values the walk once kept in temporaries (``_t2``) that a debugger or ``locals()``
would show: a chained comparison whose failing ways 3.13 lays out as copies of one
another, and literal cases after a guarded capture or after other cases, which test
the subject kept in a temporary (with a guard of their own). Each reads back as
written; one function each, named after the shape, with the seed it was found on."""


def chain_in_a_clause_before_a_return(x, log):
    """A chained comparison with a computed middle operand, as a condition in an
    except clause before a return: 3.13 copies the clause's ``POP_EXCEPT`` and the
    return into the way the first comparison fails (seed 90 on 3.13)."""
    try:
        log.append(1 / x)
    except ZeroDivisionError:
        if 0 < len(log) <= 2:
            raise ValueError(len(log)) from None
    return ("end", x)


def chain_in_a_clause_before_code_after(x, log):
    """The same, before code after the try: the first comparison fails into a copy
    of the clause's end that jumps on there (seeds 90, 715 and 1106 on 3.13)."""
    try:
        log.append(1 / x)
    except ZeroDivisionError:
        if 0 < len(log) <= 2:
            raise ValueError(len(log)) from None
    log.append(x)
    return log


def literal_case_with_a_guard_after_a_guarded_capture(x, log):
    """``case b"" if g:`` after ``case a if g:``: the kept subject's test and the
    guard are one condition, ``_t1 == b"" and g`` (seed 1107)."""
    while True:
        match x:
            case a if len(log) > 2:
                log.append(a)
                break
            case b"" if log and len(log) < 2:
                return log
        log.append(x)
    log.append("end")


def literal_case_after_a_returning_case(items, log):
    """``case "-1":`` after a case that returns, ending a loop body: its test of the
    subject kept in a temporary is the else of the first case's (seed 1500 on 3.13),
    and 3.10 has the else go on to the next round, a ``case _:`` that does nothing."""
    for x in items:
        match str(x):
            case [a]:
                return a
            case "-1":
                log.append(x)


def guarded_literal_case_after_a_case_in_a_loop(items, log):
    """``case 2 if g: break`` after another case, ending a loop body (seed 1411 on
    3.13)."""
    for x in items:
        log.append(x)
        match abs(x):
            case [a]:
                log.append(a)
            case 2 if len(log) > 1:
                break
    log.append("end")


CASES = [
    ("chain_in_a_clause_before_a_return", (1, [])),
    ("chain_in_a_clause_before_a_return", (0, [])),
    ("chain_in_a_clause_before_a_return", (0, [5])),
    ("chain_in_a_clause_before_a_return", (0, [5, 6, 7])),
    ("chain_in_a_clause_before_code_after", (2, [])),
    ("chain_in_a_clause_before_code_after", (0, [])),
    ("chain_in_a_clause_before_code_after", (0, [1, 2])),
    ("chain_in_a_clause_before_code_after", (0, [1, 2, 3])),
    ("literal_case_with_a_guard_after_a_guarded_capture", (b"", [])),
    ("literal_case_with_a_guard_after_a_guarded_capture", (b"", [0])),
    ("literal_case_with_a_guard_after_a_guarded_capture", (5, [])),
    ("literal_case_with_a_guard_after_a_guarded_capture", (b"", [1, 2, 3])),
    ("literal_case_after_a_returning_case", ([1, -1, 2], [])),
    ("literal_case_after_a_returning_case", ([-1, -1], [0])),
    ("literal_case_after_a_returning_case", ([], [])),
    ("guarded_literal_case_after_a_case_in_a_loop", ([2, 2, 3], [])),
    ("guarded_literal_case_after_a_case_in_a_loop", ([-2, 5], [])),
    ("guarded_literal_case_after_a_case_in_a_loop", ([1, 3], [9])),
]
