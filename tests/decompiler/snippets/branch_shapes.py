"""Ways out that the compiler copied or laid out apart: failed tests that lead to
copies of one exit, a return from a with laid out after an endless loop, a break
from an except clause laid out after the loop, a conditional test that takes in a
jump, a copied return that ends paths in different statements, a break to a copy of
the end of the try around the loop, or to another copy of the return after it, a clause whose with body always raises, a condition whose ways end in chains of jumps."""

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


def clause_breaks_past_the_else_after_tests(values, log):
    # the except clause tests more after its break (an assert), so the break is further
    # from the clause's start than a short look reaches (seed 173)
    while values:
        try:
            log.append(10 // values.pop())
        except ZeroDivisionError as e:
            if log:
                break
            assert values or log is not None, e
    else:
        log.append("ran out")
    log.append("after")
    return log


def raises_under_a_conditional_test(flag, mode, a, b, log):
    # the conditional test takes in the lone jump its false way goes through: the
    # branches meet where that jump goes, not at the jump (seed 59)
    if flag:
        if a if mode else not b:
            raise ValueError(a)
    else:
        log.append("no flag")
    log.append("end")
    return log


def cases_share_a_copied_return(value, flags, log):
    # 3.12+ copy the return to each jump to it: one copy ends both the loop's break
    # in the first case and the inner match's fall-through in the second (seed 90)
    match value:
        case int(n) if n > 3:
            match (n, n % 3):
                case [_, 0]:
                    while True:
                        if flags.pop() and flags.pop():
                            break
                case [a, _]:
                    match a % 2:
                        case 0 | 1:
                            while (z := flags.pop()) % 3:
                                log.append(z)
    return ("end", log)


def breaks_from_a_loop_that_ends_a_try(items, flags, log):
    # the loop ends the try body: 3.12+ copy the return after the try to the break,
    # a copy of the try's end that is the loop's way out too (seed 105)
    try:
        for item in items:
            match item:
                case int(n) if n > 3:
                    if flags.pop():
                        break
                    log.append(n)
            log.append(item)
    except KeyError as e:
        log.append(e)


def clause_breaks_from_a_loop_that_ends_a_try(items, log):
    # the clause's break and the loop's own go to two copies of the return after the
    # try (3.10, 3.11): both are breaks (seed 42)
    try:
        while True:
            try:
                log.append(10 // items.pop())
            except (ZeroDivisionError, IndexError) as e:
                if not items:
                    break
                log.append(type(e))
            if (log[-1] == 5 or not items) and len(log) > 1:
                break
    except KeyError as e:
        log.append(e)


def clause_with_body_always_raises(items, log):
    # the with body in the first clause always raises, and ``__exit__`` may suppress
    # it: post-dominance, leaving out raising, puts the join at the next clause's
    # test, short of the end of the try both clauses get to (seed 95)
    for item in items:
        try:
            if item is not None:
                log.append(10 // item)
        except ZeroDivisionError as e:
            with Skipping():
                raise ValueError(e)
        except Exception:
            pass
        log.append(item)
    return log


def loop_in_a_clause_breaks_at_once(values, mode, log):
    # the inner loop never goes round: its test's two ways end in a lone jump to a lone
    # jump and in the finally body's copy, one condition (seed 209)
    while values:
        try:
            log.append(10 // values.pop())
        except ZeroDivisionError:
            while True:
                if log if mode else not log:
                    break
                try:
                    break
                except KeyError:
                    pass
                finally:
                    log.append("finally")
    return log


def clause_breaks_past_the_else_from_a_with(values, log):
    # as clause_breaks_past_the_else_after_tests, with a with in the try body: its
    # re-raise lies outside the natural loop (seed 173 on 3.12)
    while values:
        try:
            with Skipping():
                log.append(10 // values.pop())
        except ZeroDivisionError:
            if log:
                break
    else:
        log.append("ran out")
    log.append("after")
    return log


CASES = [
    ("clause_breaks_past_the_else_from_a_with", ([1, 0, 2], [])),
    ("clause_breaks_past_the_else_from_a_with", ([0], [])),
    ("clause_breaks_past_the_else_from_a_with", ([], [])),
    ("loop_in_a_clause_breaks_at_once", ([1, 0, 2, 0], True, [])),
    ("loop_in_a_clause_breaks_at_once", ([0, 5, 0], False, [])),
    ("loop_in_a_clause_breaks_at_once", ([0], True, [])),
    ("clause_with_body_always_raises", ([1, 0, None, "x", 2], [])),
    ("clause_with_body_always_raises", ([], [])),
    ("clause_breaks_from_a_loop_that_ends_a_try", ([0, 2, 1, 0], [])),
    ("clause_breaks_from_a_loop_that_ends_a_try", ([0], [])),
    ("clause_breaks_from_a_loop_that_ends_a_try", ([1, 0, 2], [])),
    ("clause_breaks_from_a_loop_that_ends_a_try", ([5, 5], [])),
    ("breaks_from_a_loop_that_ends_a_try", ([1, 5, 6, 2], [True, False], [])),
    ("breaks_from_a_loop_that_ends_a_try", ([1, 5], [False], [])),
    ("breaks_from_a_loop_that_ends_a_try", ([], [], [])),
    ("breaks_from_a_loop_that_ends_a_try", ([9], [], [])),
    ("cases_share_a_copied_return", (6, [1, 1, 0, 1], [])),
    ("cases_share_a_copied_return", (5, [3, 4, 5], [])),
    ("cases_share_a_copied_return", (4, [0, 2], [])),
    ("cases_share_a_copied_return", (2, [], [])),
    ("cases_share_a_copied_return", ("x", [], [])),
    ("raises_under_a_conditional_test", (True, True, 0, 0, [])),
    ("raises_under_a_conditional_test", (True, True, 1, 0, [])),
    ("raises_under_a_conditional_test", (True, False, 0, 0, [])),
    ("raises_under_a_conditional_test", (True, False, 0, 1, [])),
    ("raises_under_a_conditional_test", (False, True, 1, 1, [])),
    ("clause_breaks_past_the_else_after_tests", ([1, 0, 2], [])),
    ("clause_breaks_past_the_else_after_tests", ([0], [])),
    ("clause_breaks_past_the_else_after_tests", ([0, 5], [])),
    ("clause_breaks_past_the_else_after_tests", ([], [])),
    ("returns_from_a_with_in_an_endless_loop", (["1"],)),
    ("returns_from_a_with_in_an_endless_loop", (["a", "b", "3"],)),
    ("returns_from_a_with_in_an_endless_loop", (["a"],)),
    ("case_body_is_the_end", (Point(0, 1),)),
    ("case_body_is_the_end", (Point(0, 2),)),
    ("case_body_is_the_end", (3,)),
]
