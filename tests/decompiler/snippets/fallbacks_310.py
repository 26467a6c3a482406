"""Shapes 3.10 once wrote as a state machine, mostly copies of a finally body before a
way out of its try that the reading did not find: a name returned through a finally
body whose last if (or elif, or match) stores to it, 3.10 copying the return into each
branch, kept in a temporary only where the branch stores; a return through two finally
bodies, the inner one ending in an if, 3.10 copying the outer copy and the return into
each branch; a break through a finally body ending in an assert and an if that
continues, the break's way out only in that if's else; a while loop with a compound
test ending an except clause, each of whose ways out 3.10 lays out with a ``POP_EXCEPT``
of its own; a return from a loop in a try inside an except clause, 3.10's
``POP_EXCEPT`` before it; a for loop's break in a try whose else ends in an if, 3.10
copying the return to each way out; a for loop with an else whose finally body
breaks, the handler's break popping the iterator on its way past the else; at module
level, a finally body ending in a break after a named clause,
its copy's break read as the return after the loop that 3.10 copies there."""

LOG = []


def returns_a_name_a_finally_if_stores(items, x):
    """``return x`` inside a try whose finally body ends in ``if c: x = ...``: 3.10
    copies the return into each branch of the copy's if, the value kept in a
    temporary only where the branch stores to ``x``. Seed 2212."""
    try:
        if items and items[0]:
            return x
    finally:
        if x:
            x = 10
    return -x


def returns_a_name_a_finally_elif_stores(items, x):
    """The same through an elif chain, the return in each of its three branches."""
    try:
        if items and items[0]:
            return x
    finally:
        if x > 1:
            x = 10
        elif items:
            LOG.append(len(items))
    return -x


def returns_a_name_a_finally_match_stores(items, x):
    """The same through a match whose first case stores to the name. Seed 2212."""
    try:
        if items and items[0]:
            return x
    finally:
        match x:
            case (a, 1):
                x = 10
            case str() | bytes():
                LOG.append(x)
    return x


def returns_through_two_finally_bodies_ending_in_an_if(items, x):
    """A return through an inner finally body ending in an if, then an outer one: 3.10
    copies the outer copy and the return into each branch of the inner copy's if.
    Seed 2211."""
    try:
        try:
            if (items or x) and len(items) > 1:
                return 24
        finally:
            if items or x > 0:
                x = x * 2 - 42
    finally:
        LOG.append(x)
    return x


def breaks_from_a_clause_through_a_finally_that_continues(items, log):
    """A clause's break through a finally body ending in an assert and
    ``if c: continue``: the walk writes the if after the assert's raise as its elif,
    the break's way out (the return after the loop, which 3.10 copies there) in the
    last else. Seed 2705."""
    for x in items:
        try:
            if x and 10 // x > 2:
                log.append(x)
        except ZeroDivisionError:
            if len(log) > 1 or not items:
                break
        finally:
            assert x != 7, (x, 45)
            if x > 5 or x < 0:
                continue


def loops_on_a_compound_test_ending_a_clause(items, x):
    """``while (a or b) and c:`` ending an except clause, the return after the try:
    3.10 gives each way out of the test its own ``POP_EXCEPT`` and jump, copies of
    the loop's follow. Seed 2001."""
    try:
        x = 7 // len(items)
    except ZeroDivisionError:
        while (len(items) < 3 or x) and len(items) < 5:
            items.append(x)
            x = len(items) - 4
    return items


def returns_from_a_loop_in_a_try_in_a_clause(items, x):
    """``return x`` from a while loop in a try inside an except clause, the try body
    never ending normally: the return, after the clause's ``POP_EXCEPT``, was taken
    for where the try body ends. Seed 2414."""
    try:
        x = 10 // x
    except ZeroDivisionError:
        try:
            while items:
                if items.pop() > 2:
                    return x
            raise KeyError(x)
        except KeyError:
            items.append(x)
    return items


def breaks_from_a_for_in_a_try_whose_else_ends_in_an_if(items, log):
    """A for loop that breaks in its first round, in a try, its else ending in an if:
    3.10 copies the function's return to the break and to each branch's end; the
    break's copy is a return there. Seed 2510."""
    try:
        for x in items:
            break
        else:
            if not (log and items):
                log.append(len(items))
    except TypeError:
        log.append(53)


def breaks_from_a_finally_in_a_for_with_an_else(items, log):
    """``finally: break`` in a for loop with an else clause: on an exception the
    handler pops the iterator and jumps past the else, where the follow's own pop goes
    on to; that was walked as the finally body's code, then again after the loop.
    Seed 2052."""
    for x in items:
        try:
            log.append(10 // x)
        finally:
            break
    else:
        log.append("empty")
    log.append(len(items))
    return log


CASES = [
    ("returns_a_name_a_finally_if_stores", ([], 0)),
    ("returns_a_name_a_finally_if_stores", ([1], 0)),
    ("returns_a_name_a_finally_if_stores", ([1], 3)),
    ("returns_a_name_a_finally_if_stores", ([0], 3)),
    ("returns_a_name_a_finally_elif_stores", ([1], 3)),
    ("returns_a_name_a_finally_elif_stores", ([1], 1)),
    ("returns_a_name_a_finally_elif_stores", ([1], 0)),
    ("returns_a_name_a_finally_elif_stores", ([], 0)),
    ("returns_a_name_a_finally_match_stores", ([1], (2, 1))),
    ("returns_a_name_a_finally_match_stores", ([1], "ab")),
    ("returns_a_name_a_finally_match_stores", ([1], 4)),
    ("returns_a_name_a_finally_match_stores", ([], (2, 1))),
    ("returns_through_two_finally_bodies_ending_in_an_if", ([1, 2], 0)),
    ("returns_through_two_finally_bodies_ending_in_an_if", ([], 5)),
    ("returns_through_two_finally_bodies_ending_in_an_if", ([], 0)),
    ("returns_through_two_finally_bodies_ending_in_an_if", ([1], -3)),
    ("breaks_from_a_clause_through_a_finally_that_continues", ([], [])),
    ("breaks_from_a_clause_through_a_finally_that_continues", ([1, 0, 0, 3], [])),
    ("breaks_from_a_clause_through_a_finally_that_continues", ([0, 6, 1], [5, 5])),
    ("breaks_from_a_clause_through_a_finally_that_continues", ([0, 1], [5, 5])),
    ("breaks_from_a_clause_through_a_finally_that_continues", ([7, 1], [])),
    ("breaks_from_a_clause_through_a_finally_that_continues", ([0, 7], [5, 5])),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([], 0)),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([], 5)),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([1, 3], 0)),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([3, 1], 0)),
    ("breaks_from_a_for_in_a_try_whose_else_ends_in_an_if", ([], [])),
    ("breaks_from_a_for_in_a_try_whose_else_ends_in_an_if", ([1], [])),
    ("breaks_from_a_for_in_a_try_whose_else_ends_in_an_if", ([], [1])),
    ("breaks_from_a_for_in_a_try_whose_else_ends_in_an_if", (None, [1])),
    ("breaks_from_a_finally_in_a_for_with_an_else", ([], [])),
    ("breaks_from_a_finally_in_a_for_with_an_else", ([2], [])),
    ("breaks_from_a_finally_in_a_for_with_an_else", ([0, 1], [])),
    ("loops_on_a_compound_test_ending_a_clause", ([], 0)),
    ("loops_on_a_compound_test_ending_a_clause", ([], 1)),
    ("loops_on_a_compound_test_ending_a_clause", ([1], 0)),
    ("loops_on_a_compound_test_ending_a_clause", ([1, 2, 3, 4, 5, 6], 0)),
]

# A finally body ending in a break after a named clause, in a match case at module
# level: the copy's break reads as the return after the loop, which 3.10 copies to its
# jump. Seed 2337.
ROUNDS = [3, 0, 2]
while ROUNDS and 0 < len(ROUNDS) <= 5:
    if ROUNDS[-1] if LOG else not LOG:
        match str(len(ROUNDS)):
            case {"k": 0, **rest}:
                pass
            case _:
                try:
                    raise KeyError(ROUNDS.pop())
                except ZeroDivisionError:
                    assert LOG, (LOG, 68)
                except KeyError as e:
                    LOG.append(str(e))
                finally:
                    LOG.append(len(ROUNDS))
                    break
    ROUNDS.pop()
