"""Try statements with a finally body whose copies the reading of the body must find:
a break out of a loop through a finally body holding a loop of its own, where 3.10 and
3.12+ copy the small return after the loop to the break; the finally body's own
return of a cell after a clause's return; an assert in a finally body, or a loop
testing an ``and``, before a continue inside a with; a return from an ``or`` in a
finally body before more of its code; a finally body ending in an endless loop; a
return through two finally bodies and the clearing of a clause's name between. Each Box records its enter and
exit."""

LOG = []


class Box:
    def __init__(self, key):
        self.key = key

    def __enter__(self):
        LOG.append(("enter", self.key))
        return self.key

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.key, kind.__name__ if kind else None))
        return False


def breaks_through_a_finally_holding_a_loop(items, log):
    """``while True`` left only by a break through a finally body whose loop tests an
    ``and``: the break's way out, the copy of the finally body then the return after
    the loop that 3.10 and 3.12+ copy to it, was taken for where the loop goes on, a
    way out of the try body past its end. Seed 11069."""
    while True:
        try:
            if len(log) > 3:
                break
        finally:
            log.append(len(items))
            while items and items[-1] < 0:
                log.append(items.pop())
    return log


def breaks_from_an_else_through_a_finally_holding_a_loop(items, log):
    """The same break from a try's else, in a loop with a test: the break's copy of
    the finally body holds a for loop. Seed 10561 (an ``await`` there)."""
    while items:
        try:
            x = 10 // items.pop()
        except ZeroDivisionError as e:
            log.append(str(e))
        else:
            log.append(x)
            break
        finally:
            while items and items[-1] < 0:
                log.append(items.pop())
    return log


def returns_a_cell_in_finally_after_a_clause_returns(items, x):
    """A finally body returning a name a lambda closes over, after a clause that
    returns a call: the walk keeps the cell's value in a temporary before the return
    (``_t = x; return _t``), no copy of ``return x``. Seed 11100."""
    try:
        items.append(10 // x)
    except ZeroDivisionError:
        return (lambda a: a or x)(len(items))
    finally:
        return x


def asserts_in_a_finally_before_a_continue_in_a_with(items, log):
    """A finally body ending in an assert then a statement, in a loop in a with: the
    normal path's copy writes the statement in the assert's else, the walk on an
    exception after it; the try body continues. Seeds 10956, 10491."""
    with Box(1):
        while items:
            x = items.pop()
            try:
                if x == 3:
                    continue
                log.append(10 // x)
            finally:
                assert x != 5, x
                log.append(x)
    return log


def continues_through_a_finally_looping_on_an_and(items, log):
    """A finally body whose loop tests an ``and``: on an exception both failing parts
    break, read as nested ifs each with that break in its else. Seed 11069."""
    for x in items[:]:
        try:
            if x == 0:
                continue
            log.append(10 // x)
        finally:
            while items and items[-1] < 0:
                log.append(items.pop())
    return log


def returns_from_an_or_in_a_finally_before_more_code(items, log):
    """A finally body ``if a or b: return`` then more code: on an exception the walk
    finds the join of the ``or`` where the return starts, the code after the if in its
    else before the re-raise, and read it as an except clause. Seed 10108."""
    try:
        log.append(10 // items[0])
    except ZeroDivisionError as e:
        log.append(str(e))
        return "clause"
    finally:
        if len(log) > 2 or not items:
            return "fin"
        log.append("fin")
    return "end", log


def breaks_or_returns_in_an_endless_loop_ending_a_finally(items, log):
    """A finally body ending in ``while True`` left by a break or the finally body's
    own return: on an exception the compiler writes the re-raise in place of the
    break, so the walk found no re-raise after the loop and read it as an except
    clause; on the normal path 3.10 and 3.12+ write the return after the try there.
    Seed 10328."""
    try:
        if items and items[0] == 7:
            return "seven"
        log.append(10 // items[0])
    finally:
        while True:
            log.append(len(items))
            if not items or items[-1] < 0:
                break
            if len(log) > 3:
                return "fin"
            items.pop()
    return log


def returns_from_an_inner_finally_try_in_a_named_clause(items, log):
    """A return from an unnamed clause of a try with a finally body, inside a named
    clause of a try with another: on the way out the inner copy, then the clearing
    of the outer clause's name, then the outer copy, so the inner copy was not found
    right before the outer one. Seeds 10638, 10770, 10797."""
    try:
        log.append(10 // items[0])
    except ZeroDivisionError as e:
        if len(items) > 1:
            try:
                log.append(items[5])
            except IndexError:
                return "inner", log
            finally:
                log.append("inner fin")
        log.append(type(e).__name__)
    finally:
        log.append("fin")
    return log


CASES = [
    ("breaks_through_a_finally_holding_a_loop", ([], [])),
    ("breaks_through_a_finally_holding_a_loop", ([1, -2, -3], [])),
    ("breaks_through_a_finally_holding_a_loop", ([-1, 2, -3], [5])),
    ("breaks_from_an_else_through_a_finally_holding_a_loop", ([], [])),
    ("breaks_from_an_else_through_a_finally_holding_a_loop", ([1, 0], [])),
    ("breaks_from_an_else_through_a_finally_holding_a_loop", ([0, 0], [])),
    ("breaks_from_an_else_through_a_finally_holding_a_loop", ([3, 0, 2], [])),
    ("returns_a_cell_in_finally_after_a_clause_returns", ([], 2)),
    ("returns_a_cell_in_finally_after_a_clause_returns", ([], 0)),
    ("returns_a_cell_in_finally_after_a_clause_returns", ([1], 0)),
    ("returns_a_cell_in_finally_after_a_clause_returns", ([], None)),
    ("asserts_in_a_finally_before_a_continue_in_a_with", ([], [])),
    ("asserts_in_a_finally_before_a_continue_in_a_with", ([1, 3, 2], [])),
    ("asserts_in_a_finally_before_a_continue_in_a_with", ([5, 3], [])),
    ("asserts_in_a_finally_before_a_continue_in_a_with", ([0, 3], [])),
    ("asserts_in_a_finally_before_a_continue_in_a_with", ([4, 0], [])),
    ("continues_through_a_finally_looping_on_an_and", ([], [])),
    ("continues_through_a_finally_looping_on_an_and", ([1, 0, -2], [])),
    ("continues_through_a_finally_looping_on_an_and", ([0, -1, 2, -3], [])),
    ("continues_through_a_finally_looping_on_an_and", ([2, 0], [])),
    ("returns_from_an_or_in_a_finally_before_more_code", ([], [])),
    ("returns_from_an_or_in_a_finally_before_more_code", ([0], [])),
    ("returns_from_an_or_in_a_finally_before_more_code", ([0], [1, 2])),
    ("returns_from_an_or_in_a_finally_before_more_code", ([2], [])),
    ("returns_from_an_or_in_a_finally_before_more_code", ([2], [1, 2])),
    ("breaks_or_returns_in_an_endless_loop_ending_a_finally", ([], [])),
    ("breaks_or_returns_in_an_endless_loop_ending_a_finally", ([7, 1], [])),
    ("breaks_or_returns_in_an_endless_loop_ending_a_finally", ([0, 1, 2], [])),
    ("breaks_or_returns_in_an_endless_loop_ending_a_finally", ([5, 1, -2], [])),
    ("breaks_or_returns_in_an_endless_loop_ending_a_finally", ([5, 1, 2, 3, 4], [])),
    ("returns_from_an_inner_finally_try_in_a_named_clause", ([1], [])),
    ("returns_from_an_inner_finally_try_in_a_named_clause", ([0], [])),
    ("returns_from_an_inner_finally_try_in_a_named_clause", ([0, 1], [])),
    ("returns_from_an_inner_finally_try_in_a_named_clause", ([0, 1, 2, 3, 4, 5], [])),
]
