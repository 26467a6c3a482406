"""Ways out that the compiler copied or laid out apart: failed tests that lead to
copies of one exit, a return from a with laid out after an endless loop."""

LOG = []


class Point:
    __match_args__ = ("x",)

    def __init__(self, x, a=None):
        self.x = x
        self.a = a


def case_body_is_the_end(value):
    # 3.12 copy the function's ``return None`` into each failed test of the last case,
    # one of them after the subject is dropped (seed 68)
    LOG.append(value)
    match value:
        case Point(a=1):
            pass


class Skipping:
    """Suppresses a ValueError, and logs each exit."""

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        LOG.append(kind)
        return kind is ValueError


def returns_from_a_with_in_an_endless_loop(values):
    # the return's copy of the with's ``__exit__`` is laid out after the loop: no code
    # the loop goes on to (seed 236)
    items = iter(values)
    while True:
        with Skipping():
            return int(next(items)) + 1


CASES = [
    ("returns_from_a_with_in_an_endless_loop", (["1"],)),
    ("returns_from_a_with_in_an_endless_loop", (["a", "b", "3"],)),
    ("returns_from_a_with_in_an_endless_loop", (["a"],)),
    ("case_body_is_the_end", (Point(0, 1),)),
    ("case_body_is_the_end", (Point(0, 2),)),
    ("case_body_is_the_end", (3,)),
]
