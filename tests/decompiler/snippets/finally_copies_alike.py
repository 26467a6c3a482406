"""A finally body around a return, whose two copies (the exception's and the
return's) the walk read otherwise, so the returned value stayed in a temporary:
- an if on an ``and``/``or`` test whose branch leaves: one copy is written with the
  test negated and its branches swapped, the other with what follows the if as its
  else (seeds 25246 and 39693 on 3.10-3.13);
- a call with a conditional argument ending the finally body, in an outer try: the
  compiler copies the call's tail into both arms, and the return after the try joins
  the second one only once the try is read (seed 29220 on 3.10 and 3.12+).
Each is the try/finally again, with no temporary left."""


def returns_under_an_or_test_in_a_finally(x, flags, log):
    """A (seed 25246): ``if a or b:`` whose body returns, then code after it."""
    try:
        return 10 // x
    finally:
        if flags.pop() or x:
            if flags.pop():
                return 1
            return
        log.append(1)


def returns_under_an_and_test_in_a_finally(x, flags, log):
    """A: ``if not (a and b):`` in a method-like shape, then two statements."""
    try:
        return (x, 10 // x)
    finally:
        if not (flags.pop() and x > 1):
            return -x
        log.append(2)
        log.append(x)


def returns_from_a_loop_under_an_or_test_in_a_finally(x, flags, log):
    """A (seed 39693): ``while a or b:`` whose body always returns has no back edge,
    and reads as an if."""
    try:
        return 10 // x
    finally:
        while flags.pop() or not x:
            if flags.pop() if x else not flags.pop():
                return (x, 11)
            return
        log.append(3)


def a_conditional_argument_in_a_finally_in_a_try(x, flags, log):
    """B (seed 29220): ``log.append(a if c else 7)`` ends the finally body."""
    try:
        try:
            return 10 // x
        finally:
            log.append(x if flags.pop() else 7)
    except ZeroDivisionError:
        log.append("caught")
    return log


CASES = [
    ("returns_under_an_or_test_in_a_finally", (2, [0, 0], [])),
    ("returns_under_an_or_test_in_a_finally", (2, [0, 1], [])),
    ("returns_under_an_or_test_in_a_finally", (2, [1, 0], [])),
    ("returns_under_an_or_test_in_a_finally", (0, [0, 0], [])),
    ("returns_under_an_or_test_in_a_finally", (0, [1, 1], [])),
    ("returns_under_an_or_test_in_a_finally", (0, [0, 1], [])),
    ("returns_under_an_and_test_in_a_finally", (2, [1], [])),
    ("returns_under_an_and_test_in_a_finally", (2, [0], [])),
    ("returns_under_an_and_test_in_a_finally", (1, [1], [])),
    ("returns_under_an_and_test_in_a_finally", (0, [1], [])),
    ("returns_from_a_loop_under_an_or_test_in_a_finally", (2, [0], [])),
    ("returns_from_a_loop_under_an_or_test_in_a_finally", (2, [0, 1], [])),
    ("returns_from_a_loop_under_an_or_test_in_a_finally", (2, [1, 1], [])),
    ("returns_from_a_loop_under_an_or_test_in_a_finally", (0, [0, 0], [])),
    ("returns_from_a_loop_under_an_or_test_in_a_finally", (0, [1, 0], [])),
    ("a_conditional_argument_in_a_finally_in_a_try", (2, [0], [])),
    ("a_conditional_argument_in_a_finally_in_a_try", (2, [1], [])),
    ("a_conditional_argument_in_a_finally_in_a_try", (0, [1], [])),
    ("a_conditional_argument_in_a_finally_in_a_try", (0, [0], [])),
]
