# requires: 3.11
"""Except* clauses whose ends 3.13 sends on to a copy of the code after the try,
which the clause tails rewrite sends on to its original (the end of the try's else):
the clauses go on where the else does, no longer where their first test says."""

END = "end"


def clauses_meet_the_else_at_a_copy(items, log):
    """Two named except* clauses, the first ending in an if, and an else ending in a
    comprehension, then a return (seeds 859, 1563 and 1579 on 3.13: read as
    statements after an except clause since the clause tails rewrite; 174, 620, 721,
    1507 and 1544, a return inside an except* clause, did not compile)."""
    try:
        log.append(10 // items[0])
    except* ZeroDivisionError as e:
        if len(items) > 1:
            log.append(type(e).__name__)
    except* IndexError as e:
        log.append(len(e.exceptions))
    else:
        [w for i in items if (w := i)]
    return "end", END  # (a short copy that could raise, a NameError, under a clause)


CASES = [
    ("clauses_meet_the_else_at_a_copy", ([2, 3], [])),
    ("clauses_meet_the_else_at_a_copy", ([0, 3], [])),
    ("clauses_meet_the_else_at_a_copy", ([0], [])),
    ("clauses_meet_the_else_at_a_copy", ([], [])),
]
