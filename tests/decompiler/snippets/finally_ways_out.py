"""Try statements with a finally body whose copies the compiler puts before each way
out of the try body, where the body holds loops of its own: a break or continue
inside such a loop stays in it, no way out of the try."""


def break_in_a_clause_loop(items, log):
    """A loop inside an except clause, a finally body ending in a try (3.10-3.13):
    the loop's break, or the continue that goes to its next round, was taken for a
    way out of the try body with no copy of the finally body before it, and the
    function went to the state machine."""
    for x in items:
        try:
            log.append(1 / x)
        except ZeroDivisionError:
            for y in items:
                log.append(y)
                if y > 1:
                    break
        finally:
            try:
                log.append(len(log))
            except TypeError:
                pass
    return log


def break_in_a_body_loop(groups, log):
    """A break in a loop inside the try body, the finally body ending in a try."""
    for group in groups:
        try:
            for y in group:
                if y < 0:
                    break
                log.append(10 // y)
        except ZeroDivisionError:
            log.append("zero")
        finally:
            try:
                log.append(len(log))
            except TypeError:
                pass
    return log


def loop_else_continues(groups, log):
    """A continue in the else of a loop inside the try body: that one does leave the
    try, through its copy of the finally body."""
    for group in groups:
        try:
            for y in group:
                if y < 0:
                    break
            else:
                continue
            log.append("broke")
        except TypeError:
            log.append("type")
        finally:
            try:
                log.append(len(log))
            except TypeError:
                pass
    return log


def returns_a_constant_before_code_after(flag, log):
    """A return of a constant in a try body whose finally body is one call, and code
    after the try (random seed 224 on 3.11): both ways out of the body run a copy of
    the finally body and then return, so the return was taken for the body's end and
    the code after the try read into the body, where no copy ended it."""
    if flag is not None:
        try:
            if flag:
                return 59
        finally:
            log.append(len(log))
        log.append("after")


def returns_constants_before_code_after(value, log):
    """The same with two returns of constants in the body (random seed 224 on 3.11)."""
    try:
        if value > 2:
            return "big"
        if value < 0:
            return "negative"
    finally:
        log.append(value)
    log.append("after")
    return None


def returns_a_constant_after_the_try(flag, log):
    """A return of None in the body and a constant returned after the try: the way
    on runs only the copy and a return, as the return in the body does."""
    try:
        if flag:
            return
    finally:
        log.append(len(log))
    return 7


def returns_through_a_branching_finally(flag, items, log):
    """A return in a try body whose finally body branches (``or``), and code after
    the try that returns a value computed there (random seed 282 on 3.12): the way
    out through the return, whose copy of the finally body takes more than one
    block, was taken for the body's end."""
    try:
        if flag:
            return
    finally:
        (first,) = items[:1] or [len(log)]
    log.append(first)
    return (first, 37)


def returns_through_a_loop_in_an_inner_finally(value, bits, log):
    # the inner finally body ends in a loop, whose copy before the return another
    # walk writes with the loop's else after its if: the same copy, which the outer
    # try drops with its own (random seeds 11075, 19461)
    x = value * 2
    try:
        try:
            if bits.pop():
                return (x, 55)
        finally:
            while bits.pop() % 3:
                log.append(1)
    finally:
        log.append(2)
    return x


class _Box:
    def __init__(self, log, name):
        self.log, self.name = log, name

    def __enter__(self):
        self.log.append(("enter", self.name))
        return self.name

    def __exit__(self, *exc):
        self.log.append(("exit", self.name))


def raises_after_a_try_that_returns_in_a_case(value, bits, log):
    # the if's way on runs the finally body's copy, then the raise after the try; that
    # copy was left in the body, which ran the finally body twice (random seed 13916)
    box = _Box(log, "target")
    match value:
        case other:
            try:
                if bits.pop() and bits.pop():
                    return (z := (value + bits.pop()))
            finally:
                while (z := bits.pop()) % 3:
                    log.append(z)
                if bits.pop() or bits.pop():
                    for box.name in [other, 2]:
                        pass
            raise KeyError(box.name)


def returns_a_walrus_after_a_try_in_withs(items, bits, log):
    # the clause goes on past the finally body to the return after the try, whose value
    # waits over the withs' exits in a temporary: that return was read into the
    # clause after a copy of the finally body, which then ran twice (random seed 14069)
    with _Box(log, 3), _Box(log, -3):
        try:
            try:
                if bits.pop() and bits.pop():
                    raise KeyError(8)
            except ValueError:
                pass
            return
        except KeyError:
            pass
        finally:
            assert items or bits.pop()
        return (z := len(items))


def return_thrown_away_by_a_break_in_finally(items, log):
    # the finally body's break drops the value the return keeps: nothing reads it, so
    # it is computed as a statement, not kept in a temporary (random seeds 255, 294)
    for item in items:
        with _Box(log, item):
            if item:
                continue
            log.append(item)
        try:
            return log.append(("returned", item)) or item
        finally:
            break
    return log


CASES = [
    ("return_thrown_away_by_a_break_in_finally", ([1, 0, 2], [])),
    ("return_thrown_away_by_a_break_in_finally", ([1, 1], [])),
    ("return_thrown_away_by_a_break_in_finally", ([None], [])),
    ("raises_after_a_try_that_returns_in_a_case", (1, [1, 1, 1, 0, 4, 0], [])),
    ("raises_after_a_try_that_returns_in_a_case", (1, [0, 0, 0, 3, 0], [])),
    ("raises_after_a_try_that_returns_in_a_case", (1, [0, 0, 3, 5, 1, 1], [])),
    ("returns_a_walrus_after_a_try_in_withs", ([1], [1, 1], [])),
    ("returns_a_walrus_after_a_try_in_withs", ([], [1, 1, 1], [])),
    ("returns_a_walrus_after_a_try_in_withs", ([], [0, 1, 0], [])),
    ("returns_a_walrus_after_a_try_in_withs", ([2], [0], [])),
    ("returns_through_a_loop_in_an_inner_finally", (1, [0, 1], [])),
    ("returns_through_a_loop_in_an_inner_finally", (1, [0, 2, 1, 1], [])),
    ("returns_through_a_loop_in_an_inner_finally", (1, [3, 0], [])),
    ("break_in_a_clause_loop", ([1, 0, 2], [])),
    ("break_in_a_clause_loop", ([0], [])),
    ("break_in_a_clause_loop", ([], [])),
    ("break_in_a_clause_loop", ([3, "a"], [])),
    ("break_in_a_body_loop", ([[1, 2], [0, 3], [4, -1, 5]], [])),
    ("break_in_a_body_loop", ([[]], [])),
    ("break_in_a_body_loop", ([["a"]], [])),
    ("loop_else_continues", ([[1, 2], [1, -1], ["a"], []], [])),
    ("loop_else_continues", ([[-1]], [])),
    ("returns_a_constant_before_code_after", (True, [])),
    ("returns_a_constant_before_code_after", (False, [])),
    ("returns_a_constant_before_code_after", (None, [])),
    ("returns_constants_before_code_after", (3, [])),
    ("returns_constants_before_code_after", (-1, [])),
    ("returns_constants_before_code_after", (1, [])),
    ("returns_constants_before_code_after", ("a", [])),
    ("returns_a_constant_after_the_try", (True, [])),
    ("returns_a_constant_after_the_try", (False, [])),
    ("returns_through_a_branching_finally", (True, [5], [])),
    ("returns_through_a_branching_finally", (False, [5], [])),
    ("returns_through_a_branching_finally", (False, [], [1])),
    ("returns_through_a_branching_finally", (True, [1, 2], [])),
]
