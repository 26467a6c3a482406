"""Values the walk once kept in temporaries (``_t2``) that a debugger or ``locals()``
would show: a chained comparison whose failing ways 3.13 lays out as copies of one
another. Each reads back as written; one function each, named after the shape, with
the seed it was found on."""


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


CASES = [
    ("chain_in_a_clause_before_a_return", (1, [])),
    ("chain_in_a_clause_before_a_return", (0, [])),
    ("chain_in_a_clause_before_a_return", (0, [5])),
    ("chain_in_a_clause_before_a_return", (0, [5, 6, 7])),
    ("chain_in_a_clause_before_code_after", (2, [])),
    ("chain_in_a_clause_before_code_after", (0, [])),
    ("chain_in_a_clause_before_code_after", (0, [1, 2])),
    ("chain_in_a_clause_before_code_after", (0, [1, 2, 3])),
]
