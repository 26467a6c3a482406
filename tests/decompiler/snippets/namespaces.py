"""A module whose helpers must not stay in its namespace: no name the source does not
bind is left behind, whatever the decompiler had to write to get there."""

SQUARES = [n * n for n in range(6)]

# A comprehension whose test the structurer leaves to the state machine (a chained
# comparison in an ``or``): 3.10 and 3.11 write it as a helper function.
BETWEEN = {square for square in SQUARES if 0 < square < 10 or square > 15}


def between():
    return sorted(BETWEEN)


CASES = [
    ("between", ()),
]
