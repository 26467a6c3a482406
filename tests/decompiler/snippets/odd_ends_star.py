# requires: 3.11
"""Ends of except* clauses, which cannot break or continue, and the odd end of a
module (which cannot say ``return``) after one.

The module ends in a try with except* clauses around a try, then one statement:
3.13 copies that statement and the module's implicit return to the end of the try
body (seed 609 on 3.13). The functions are clauses that go on to a jump: written
after the try statement, never in a clause."""

LOG = []
ITEMS = [0, 1, None]


class Spot:
    a = 1


spot = Spot()
spot.a = 2


def log():
    return LOG


def break_after_a_star_try_in_a_clause(value, items):
    """A loop inside an except clause whose body ends in a try with except* clauses
    then a break: the clauses leave the loop too (seed 630 on 3.11)."""
    try:
        LOG.append(int(value))
    except ValueError:
        for item in items:
            try:
                LOG.append(int(item))
            except* ValueError:
                LOG.append("item")
            break
    return LOG[-2:]


def star_try_ending_a_case_ending_a_loop(items):
    """A try with except* clauses ending a case of a match that ends a loop body:
    the clauses go on to the next round (seed 626 on 3.11)."""
    for item in items:
        match item:
            case str():
                try:
                    LOG.append(int(item))
                except* ValueError:
                    LOG.append("value")
                except* TypeError:
                    LOG.append("type")
                else:
                    LOG.append("else")
            case _:
                LOG.append(item)
    return LOG[-3:]


def star_try_under_a_finally_that_continues(items):
    """A try with except* clauses and an else that breaks, under ``finally:
    continue``, which goes on to the next round every way (seed 82 on 3.11)."""
    for item in items:
        try:
            try:
                LOG.append(int(item))
            except* ValueError:
                LOG.append("value")
            else:
                LOG.append("else")
                break
        finally:
            continue
    return LOG[-3:]


CASES = [
    ("log", ()),
    ("break_after_a_star_try_in_a_clause", ("1", ["2"])),
    ("break_after_a_star_try_in_a_clause", ("x", ["2", "3"])),
    ("break_after_a_star_try_in_a_clause", ("x", ["y", "3"])),
    ("break_after_a_star_try_in_a_clause", ("x", [])),
    ("star_try_ending_a_case_ending_a_loop", (["1", "x", 2],)),
    ("star_try_ending_a_case_ending_a_loop", ([],)),
    ("star_try_under_a_finally_that_continues", (["x", "y"],)),
    ("star_try_under_a_finally_that_continues", (["x", "2", "3"],)),
]

try:
    try:
        LOG.append(sum(i for i in ITEMS if not i))
    except KeyError:
        pass
except* TypeError:
    LOG.append((z := "type"))
del spot.a
