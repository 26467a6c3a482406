"""Try statements whose regions the walks once read so that the result did not
compile, or fell back to the state machine (the trys group's shapes). The module
ends in a named except clause before a small last statement: 3.12+ copy that
statement and the module's return past the clause's clearing of its name, where the
end of the try body runs the original (seeds 11043 and 10337 on 3.12 and 3.13)."""

LOG = []


class Holder:
    def __init__(self, value):
        self.value = value


def log():
    return LOG, x, hasattr(holder, "value")


def named_clause_before_the_end(items, key):
    """A named clause before the function's small last statement, which 3.12+ copy
    past the clause's clearing of its name (seed 11043's shape in a function): it
    read as the try's else, then the clearing and the copy after the try."""
    try:
        LOG.append(items.value[key])
    except (KeyError, IndexError) as e:
        LOG.append(type(e).__name__)
    del items.value


CASES = [
    ("log", ()),
    ("named_clause_before_the_end", (Holder([1, 2]), 1)),
    ("named_clause_before_the_end", (Holder([1, 2]), 5)),
    ("named_clause_before_the_end", (Holder({0: 1}), "b")),
    ("named_clause_before_the_end", (Holder(None), 0)),
]

holder = Holder(3)
try:
    x = int("12")
except (ValueError, TypeError) as e:
    LOG.append(str(e))
del holder.value
