"""Blocks with no line of their own that 3.13 inlines into each jump to them (an
except clause's end: ``POP_EXCEPT``, the clearing of its name and the jump on), read
as the one block the source has; and two clauses that end alike, which are no copy
of one another; a with's suppressing way out that runs on into such a copy. One function each, named after the shape; each runs on every
Python."""


def chain_fails_in_a_named_clause_in_a_finally(value, flag, log):
    """The chained comparison's failure gets its own copy of the clause's end (clear
    ``e``, jump to the finally body): no longer where the if's branches meet (seed
    47)."""
    try:
        log.append(1 // value)
    except ZeroDivisionError as e:
        if flag and 0 < len(log) <= 4:
            log.append(("chain", type(e).__name__))
    finally:
        log.append("finally")
    return log


def break_from_a_for_in_a_clause_in_a_finally(items, log):
    """3.13 copies the clause's end (``POP_EXCEPT``, the jump to the finally body) to
    the break; the one after the exhausted loop takes the loop's line: the break's
    copy is where the loop goes on (seed 218)."""
    try:
        log.append(1 // len(log))
    except ZeroDivisionError:
        for item in items:
            if item > 2:
                break
            log.append(item)
    finally:
        log.append("finally")
    return log


class Items:
    """An async iterator over a list."""

    def __init__(self, items):
        self.items = list(items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.items:
            raise StopAsyncIteration
        return self.items.pop(0)


async def async_break_from_a_clause_in_a_finally(items, log):
    """As above with ``async for``: the original end follows its END_ASYNC_FOR (seed
    218)."""
    try:
        log.append(1 // len(log))
    except ZeroDivisionError:
        async for item in Items(items):
            if item > 2:
                break
            log.append(item)
    finally:
        log.append("finally")
    return log


def named_clauses_that_end_alike(items, flag, log):
    """Both clauses end with the same code (clear ``e``, jump back to the loop), one
    after ``pass``, one after an assert: two ends, no copy of one another (seed 25)."""
    for item in items:
        try:
            try:
                log.append(10 // item)
            except ZeroDivisionError as e:
                pass
            except TypeError as e:
                assert flag, item
        except AssertionError as e:
            log.append(("assert", str(e)))
    return log


class Gate:
    """A context manager that logs and suppresses an exception when told to."""

    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", kind.__name__ if kind else None))
        return self.suppress


def with_raising_in_a_named_clause_in_a_loop(items, suppress, log):
    """The with's suppressing way out runs on into the clause's end (``POP_EXCEPT``,
    clear ``e``, jump back), which 3.13 copied there: the with's
    cleanup pops one exception, the clause's end the other (seed 95)."""
    for item in items:
        try:
            log.append(10 // item)
        except ZeroDivisionError as e:
            with Gate(log, suppress):
                raise ValueError(item)
        except Exception:
            log.append("other")
        log.append(("next", item))
    return log


CASES = [
    ("chain_fails_in_a_named_clause_in_a_finally", (0, True, [])),
    ("chain_fails_in_a_named_clause_in_a_finally", (0, True, [1, 2, 3, 4])),
    ("chain_fails_in_a_named_clause_in_a_finally", (0, False, [1])),
    ("chain_fails_in_a_named_clause_in_a_finally", (1, True, [])),
    ("chain_fails_in_a_named_clause_in_a_finally", ("x", True, [])),
    ("break_from_a_for_in_a_clause_in_a_finally", ([1, 2, 3, 4], [])),
    ("break_from_a_for_in_a_clause_in_a_finally", ([1, 2], [])),
    ("break_from_a_for_in_a_clause_in_a_finally", ([1], [0])),
    ("async_break_from_a_clause_in_a_finally", ([1, 2, 3, 4], [])),
    ("async_break_from_a_clause_in_a_finally", ([1, 2], [])),
    ("async_break_from_a_clause_in_a_finally", ([1], [0])),
    ("named_clauses_that_end_alike", ([1, 0, "x", 2], True, [])),
    ("named_clauses_that_end_alike", ([0, "x", 5], False, [])),
    ("named_clauses_that_end_alike", ([], False, [])),
    ("with_raising_in_a_named_clause_in_a_loop", ([1, 0, "x", 2], True, [])),
    ("with_raising_in_a_named_clause_in_a_loop", ([1, 0, 2], False, [])),
    ("with_raising_in_a_named_clause_in_a_loop", ([], False, [])),
]
