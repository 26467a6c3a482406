"""Try statements whose finally body's copies, before the ways out of the try body
and on its normal path, the walks read in shapes other than the finally body's own."""


def break_through_an_assert(items, log):
    """A finally body ending in an assert (``if not t: raise E``), a break in the body:
    the copy before the break had the break in the if's else, and the normal path's
    copy went on to the next round through the if's body (3.12+). Seed 1183."""
    for x in items:
        try:
            log.append(x)
            if x > 2:
                break
        finally:
            assert x != 0, (x, 49)
    return log


def continue_through_an_assert(items, log):
    """The same with a continue and code after it in the loop body."""
    for x in items:
        try:
            if x > 2:
                continue
            log.append(x)
        finally:
            assert x != 0, ("zero", x)
        log.append(-x)
    return log


def returns_through_an_assert(flag, log):
    """A return through a finally body ending in an assert, code after the try."""
    try:
        if flag:
            return 3
        log.append(1)
    finally:
        assert log, "empty"
    log.append(2)
    return log


def returns_through_a_finally_and(flag, log):
    """A finally body ``if a and b: pass``, which the walk on an exception reads as
    ``if a: if b: pass`` (both branches go on to the re-raise), a return in the body
    whose copy 3.11 writes into each branch of those ifs (3.11-3.13)."""
    try:
        if flag:
            return 1
        log.append(2)
    finally:
        if flag and log:
            pass
    return log


def continue_through_a_finally_and(items, log):
    """The same with a continue in a loop (3.12+)."""
    for x in items:
        try:
            if x:
                continue
            log.append(x)
        finally:
            if log and log[-1] is None:
                pass
    return log


def comprehension_alike_in_body_and_finally(rows, log):
    """The try body runs the same comprehension as the finally body: with no
    unprotected code walked in the body, it is the body's own, no copy of the
    finally body left there (3.12+ inline it). Seed 1140."""
    try:
        log.append([[j for j in range(i)] for i in rows])
    finally:
        [[j for j in range(i)] for i in rows]
    return log


def clause_runs_on_to_a_finally_copy(flag, log):
    """A try body that always raises, its clause running on to the copy of the finally
    body around it, all inside a try: the clause's join lies past that copy, where
    the outer try goes on, and the try was taken to go on there. Seed 1003."""
    try:
        log.append(1)
        try:
            raise ValueError(flag)
        except ValueError:
            log.append(2)
        finally:
            log.append(3)
        if flag:
            raise KeyError(flag)
    except KeyError:
        log.append(4)
    finally:
        log.append(5)
    return log


class Box:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("in")
        return self

    def __exit__(self, *exc):
        self.log.append("out")
        return False


def break_through_an_assert_in_a_with(items, log):
    """The break leaves a with too, whose exit runs after the copy of the finally
    body: in the if's else, before the way out (3.12+). Seed 1183."""
    for x in items:
        with Box(log):
            try:
                log.append(x)
                if x > 2:
                    break
            finally:
                assert x != 0, (x, 49)


def break_through_an_or_assert(items, log):
    """A finally body ending in ``assert a or b``, which the walk on an exception
    reads as ifs whose innermost raises, the others re-raising; the copy before the
    break has the break copied into every branch but the raise. Seed 1269."""
    i = 0
    while True:
        try:
            try:
                i += 1
                log.append(i)
                if i > len(items):
                    break
            finally:
                assert items or len(log) > 3, "neither"
        except LookupError:
            pass


def returns_through_a_finally_in_a_named_clause(flag, log):
    """A return through a finally body inside a with inside ``except E as e``: the
    clause clears its name after the copy of the finally body and the with's exit,
    just before the return; the copy was not found there and stayed in the body, so
    the finally body ran twice (control-flow seed 1510 on 3.12)."""
    try:
        raise KeyError(flag)
    except KeyError as e:
        with Box(log):
            try:
                if flag:
                    return (flag, len(log))
            finally:
                log.append(12)
                flag = not flag
        log.append(19)
    return ("end", flag)


CASES = [
    ("break_through_an_assert", ([1, 2, 3, 4], [])),
    ("break_through_an_assert", ([1, 0, 3], [])),
    ("break_through_an_assert", ([], [])),
    ("continue_through_an_assert", ([1, 3, 2], [])),
    ("continue_through_an_assert", ([3, 0], [])),
    ("returns_through_an_assert", (True, [])),
    ("returns_through_an_assert", (True, [5])),
    ("returns_through_an_assert", (False, [])),
    ("returns_through_a_finally_and", (True, [])),
    ("returns_through_a_finally_and", (False, [])),
    ("returns_through_a_finally_and", (True, [1])),
    ("continue_through_a_finally_and", ([0, 1, None, 2], [])),
    ("continue_through_a_finally_and", ([0, 0], [None])),
    ("comprehension_alike_in_body_and_finally", ([1, 2], [])),
    ("comprehension_alike_in_body_and_finally", ([1, "a"], [])),
    ("clause_runs_on_to_a_finally_copy", (True, [])),
    ("clause_runs_on_to_a_finally_copy", (False, [])),
    ("break_through_an_assert_in_a_with", ([1, 3, 2], [])),
    ("break_through_an_assert_in_a_with", ([1, 0, 3], [])),
    ("break_through_an_or_assert", ([1, 2], [])),
    ("break_through_an_or_assert", ([], [1, 2, 3])),
    ("break_through_an_or_assert", ([], [])),
    ("returns_through_a_finally_in_a_named_clause", (True, [])),
    ("returns_through_a_finally_in_a_named_clause", (False, [])),
]
