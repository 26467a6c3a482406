# requires: 3.11
"""The odd end of a module (which cannot say ``return``) after a try with except*
clauses.

The module ends in a try with except* clauses around a try, then one statement:
3.13 copies that statement and the module's implicit return to the end of the try
body (seed 609 on 3.13)."""

LOG = []
ITEMS = [0, 1, None]


class Spot:
    a = 1


spot = Spot()
spot.a = 2


def log():
    return LOG


CASES = [("log", ())]

try:
    try:
        LOG.append(sum(i for i in ITEMS if not i))
    except KeyError:
        pass
except* TypeError:
    LOG.append((z := "type"))
del spot.a
