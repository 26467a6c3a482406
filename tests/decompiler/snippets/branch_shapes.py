"""Branches whose ways out the compiler copied or laid out apart: failed tests that
lead to copies of one exit, ..."""

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


CASES = [
    ("case_body_is_the_end", (Point(0, 1),)),
    ("case_body_is_the_end", (Point(0, 2),)),
    ("case_body_is_the_end", (3,)),
]
