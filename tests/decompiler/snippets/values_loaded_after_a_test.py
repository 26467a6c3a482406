"""A name returned in both branches of an if, through a copy of a finally body each
branch runs on its own: the value is loaded after the test, in each branch. Read as
kept once before the if (as a return through a finally body ending in that if is),
it was loaded before the test, and a test that rebinds the name changed what was
returned (seed 63741 on 3.10-3.13, a match case's body: a wrong result no random
program's tape shows, and a temporary)."""

X = None


def rebound(value):
    global X
    X = value
    return True


def returns_a_global_read_after_a_test_in_a_case(subject, log):
    global X
    X = "before"
    try:
        match subject:
            case [0, *_]:
                if rebound("after"):
                    return X
                return X
    finally:
        log.append(39)


def returns_a_local_read_after_a_test_in_a_case(subject, log):
    y = "before"

    def rebind():
        nonlocal y
        y = "after"
        return subject[-1]

    try:
        match subject:
            case [0, *_]:
                if rebind():
                    return y
                return y
    finally:
        log.append(39)


CASES = [
    ("returns_a_global_read_after_a_test_in_a_case", ([0, 1], [])),
    ("returns_a_global_read_after_a_test_in_a_case", ([1], [])),
    ("returns_a_local_read_after_a_test_in_a_case", ([0, 1], [])),
    ("returns_a_local_read_after_a_test_in_a_case", ([0, 0], [])),
]
