"""Regions the walk did not see end, so that it got to a block twice (issue 25's
``block reached twice``): an if whose join, found by leaving out the paths that
raise, is the body that returns; a compound while test that leaves for an else; an
except clause whose return is a block of its own; clauses that end in an ``async
for``. (Clauses and an else that meet at code that always raises, in a module:
``test_structure.py``.)"""


def return_in_a_finally_under_a_case(point, a, b, c, log):
    # the if in the finally body's exception copy: its join leaving out the re-raise
    # is ``return 25``, which the other branch never reaches (seed 1085)
    match point:
        case [x, 1]:
            try:
                log.append(x)
            finally:
                if a if x else not a:
                    log.append("a")
                else:
                    if b or c:
                        return 25
                    log.append("neither")
                log.append("end")
    return log


def return_in_a_finally_after_a_test(a, b, c, log):
    if log is not None:
        try:
            log.append(1 // a)
        finally:
            if a:
                log.append("a")
            else:
                if b or c:
                    return 25
                log.append("neither")
            log.append("end")
    return log


def assert_in_a_finally_in_a_loop(items, a, b, log):
    # the same join in a finally body's exception copy, which lies outside the loop
    for x in items:
        try:
            log.append(10 // x)
        except KeyError:
            pass
        finally:
            if a or b:
                assert x, (x, 39)
            elif a if x else not b:
                pass
            log.append("end")
    return log


def compound_while_else(values, log):
    # ``while a and b: ... else:`` outside any loop: the test leaves for the else,
    # the break skips it (seed 1301)
    while (values or log) and len(values) < 9:
        if values.pop():
            log.append("kept")
        else:
            break
    else:
        log.append("ran out")
    assert log, "empty"
    return log


def clause_returns_from_a_test(value, log):
    # 3.12+ put the clause's RETURN_VALUE in a block of its own (seed 1275)
    try:
        try:
            log.append(10 // value)
        except ZeroDivisionError:
            if log:
                return value
        else:
            log.append("else")
        log.append("after")
    except ValueError:
        log.append("value")
    return log


async def async_comprehension_in_a_clause(value, items):
    # the clause's ``async for`` ends in its END_ASYNC_FOR handler (seed 1746)
    try:
        value = 10 // value
    except TypeError:
        return value
    except ZeroDivisionError:
        value = [i async for i in items]
    else:
        value += 1
    a = b = value
    return a, b


class AsyncItems:
    def __init__(self, items):
        self.items = list(items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.items:
            raise StopAsyncIteration
        return self.items.pop(0)


CASES = [
    ("return_in_a_finally_under_a_case", ([2, 1], True, False, False, [])),
    ("return_in_a_finally_under_a_case", ([2, 1], False, False, False, [])),
    ("return_in_a_finally_under_a_case", ([0, 1], True, True, False, [])),
    ("return_in_a_finally_under_a_case", ([0, 1], False, False, True, [])),
    ("return_in_a_finally_under_a_case", ([0, 1], False, False, False, [])),
    ("return_in_a_finally_under_a_case", ([0, 2], False, False, False, [])),
    ("return_in_a_finally_after_a_test", (1, False, False, [])),
    ("return_in_a_finally_after_a_test", (0, True, False, [])),
    ("return_in_a_finally_after_a_test", (0, False, False, [])),
    ("return_in_a_finally_after_a_test", (0, False, True, None)),
    ("assert_in_a_finally_in_a_loop", ([1, 2], True, False, [])),
    ("assert_in_a_finally_in_a_loop", ([1, 0, 2], False, False, [])),
    ("assert_in_a_finally_in_a_loop", ([1, 0, 2], True, True, [])),
    ("assert_in_a_finally_in_a_loop", ([0], False, True, [])),
    ("compound_while_else", ([1, 1], [])),
    ("compound_while_else", ([1, 0, 1], [])),
    ("compound_while_else", ([], [])),
    ("compound_while_else", ([], ["x"])),
    ("compound_while_else", (list(range(12)), [])),
    ("clause_returns_from_a_test", (2, [])),
    ("clause_returns_from_a_test", (0, [])),
    ("clause_returns_from_a_test", (0, ["x"])),
    ("clause_returns_from_a_test", ("a", [])),
    ("async_comprehension_in_a_clause", (2, AsyncItems([1]))),
    ("async_comprehension_in_a_clause", (0, AsyncItems([1, 2]))),
    ("async_comprehension_in_a_clause", ("a", AsyncItems([]))),
]
