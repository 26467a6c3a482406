# requires: 3.11
"""except* clauses that never go on, each in its own way."""

LOG = []


def raises_on_both_arms(errors, flag):
    # the first clause raises on each arm of an if: the next clause still runs
    try:
        raise ExceptionGroup("g", errors)
    except* ValueError as group:
        LOG.append(len(group.exceptions))
        if flag:
            raise KeyError("from values")
        raise TypeError("from values")
    except* KeyError:
        LOG.append("keys")


def returns_nothing_after_raising_arms(errors, flag):
    try:
        raise ExceptionGroup("g", errors)
    except* ValueError:
        if flag:
            raise IndexError(1) from None
        else:
            raise IndexError(2)
    except* (KeyError, TypeError) as group:
        LOG.append(sorted(type(e).__name__ for e in group.exceptions))
    LOG.append("after")
    return "done"


def raises_through_a_finally(errors):
    for n in range(2):
        try:
            raise ExceptionGroup("g", errors)
        except* ValueError:
            try:
                raise KeyError(n)
            finally:
                LOG.append(("finally", n))
        except* KeyError as group:
            LOG.append(("keys", len(group.exceptions)))


def raises_from_an_endless_loop(errors):
    try:
        raise ExceptionGroup("g", errors)
    except* ValueError:
        n = 0
        while True:
            n += 1
            if n > 3:
                raise IndexError(n)
    except* KeyError:
        LOG.append("keys")
    return "done"


CASES = [
    ("raises_through_a_finally", ([ValueError(1)],)),
    ("raises_through_a_finally", ([ValueError(1), KeyError(2)],)),
    ("raises_through_a_finally", ([KeyError(2)],)),
    ("raises_from_an_endless_loop", ([ValueError(1), KeyError(2)],)),
    ("raises_from_an_endless_loop", ([KeyError(2)],)),
    ("raises_on_both_arms", ([ValueError(1), KeyError(2)], True)),
    ("raises_on_both_arms", ([ValueError(1)], False)),
    ("raises_on_both_arms", ([KeyError(2)], False)),
    ("returns_nothing_after_raising_arms", ([ValueError(1), KeyError(2)], True)),
    ("returns_nothing_after_raising_arms", ([ValueError(1)], False)),
    ("returns_nothing_after_raising_arms", ([TypeError(3)], False)),
]
