"""A walrus in a module-level comprehension: it binds the module's name."""

SQUARES = [n * n for n in range(5)]

# not ``for BIG in [square]``, one of the comprehension's own names: BIG stayed unbound
[BIG for square in SQUARES if (BIG := square) > 4]


def walrus_target():
    return BIG


CASES = [("walrus_target", ())]
