"""Code after a try whose only ways on are its body's end (a with that may suppress
the body's raise) and a named clause ending in ``if a and b: raise``: 3.10 copies
that small code, and the return after it, past each clearing of the clause's name,
and the walk read the copies into the clause, where they ran while the exception
was still handled (a raise there chained to it: seed 84053 on 3.10, at module
level, a wrong result). Code written after a clause's own clearing of its name
falls back."""

import sys


class Quiet:
    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.log.append(("exit", exc[0]))
        return self.suppress


class Holder:
    """Records, on ``del h.a``, the exception being handled."""

    def __init__(self, record):
        object.__setattr__(self, "record", record)

    def __delattr__(self, name):
        self.record.append(sys.exc_info()[0])


def deletes_after_a_named_clause(suppress, log):
    t = Holder(log)
    try:
        log.append(1)
        with Quiet(log, suppress), Quiet(log, False):
            raise KeyError(54)
    except Exception as e:
        if len(log) > 9 and log:
            raise ValueError(57)
    del t.a


CASES = [
    ("deletes_after_a_named_clause", (False, [])),
    ("deletes_after_a_named_clause", (True, [])),
]


# (last: the code after the try ends the module, a small exit 3.10 copies)
SEEN = []
t = Holder(SEEN)
try:
    SEEN.append(1)
    with Quiet(SEEN, False), Quiet(SEEN, False):
        raise KeyError(54)
except Exception as e:
    if len(SEEN) > 9 and SEEN:
        raise ValueError(57)
del t.a
