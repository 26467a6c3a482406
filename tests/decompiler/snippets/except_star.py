# requires: 3.11
"""except* over exception groups."""

LOG = []


def split_group(errors):
    try:
        raise ExceptionGroup("many", errors)
    except* ValueError as group:
        LOG.append(("values", [str(e) for e in group.exceptions]))
    except* (KeyError, IndexError) as group:
        LOG.append(("lookups", len(group.exceptions)))
    return "handled"


def partially_handled(errors):
    try:
        raise ExceptionGroup("mixed", errors)
    except* TypeError:
        LOG.append("types")


def star_with_else_finally(fail):
    try:
        if fail:
            raise ExceptionGroup("g", [ValueError("v")])
        LOG.append("ok")
    except* ValueError:
        LOG.append("caught")
    else:
        LOG.append("else")
    finally:
        LOG.append("finally")
    return fail


def naked_exception(x):
    try:
        raise ValueError(x)
    except* ValueError as group:
        seen = type(group).__name__, [str(e) for e in group.exceptions]
    return seen


CASES = [
    ("split_group", ([ValueError("a"), KeyError("b"), ValueError("c")],)),
    ("split_group", ([IndexError(1)],)),
    ("partially_handled", ([TypeError("t"), ValueError("v")],)),
    ("partially_handled", ([TypeError("t")],)),
    ("star_with_else_finally", (True,)), ("star_with_else_finally", (False,)),
    ("naked_exception", ("x",)),
]
