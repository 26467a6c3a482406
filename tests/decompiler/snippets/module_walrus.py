"""A walrus in a module-level comprehension: it binds the module's name."""

SQUARES = [n * n for n in range(5)]

# not ``for BIG in [square]``, one of the comprehension's own names: BIG stayed unbound
[BIG for square in SQUARES if (BIG := square) > 4]

# in an argument: not a helper function (3.10, 3.11) called on ``iter(SQUARES)``
LISTED = list([(LAST := square) for square in SQUARES if square])


def walrus_target():
    return BIG, LISTED, LAST


def stores_the_global_it_declares(xs):
    # the comprehension alone stores ``FOUND``: its ``global`` is the function's
    global FOUND
    return [(FOUND := x) for x in xs if x], read_found()


def read_found():
    return FOUND


FOUND = "module"


CASES = [("walrus_target", ()), ("stores_the_global_it_declares", ([3, 0, 5],))]
