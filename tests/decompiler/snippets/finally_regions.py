"""Try statements with a finally body whose copies before a way out of the try body
hold regions and loops of their own: a with statement, which the return value kept
over it runs through untouched or is stored inside, and a loop whose returns are the
finally body's own, before the copy's last statement. Each Box records its enter and
exit; ``suppress`` tells it to swallow an exception."""

LOG = []


class Box:
    def __init__(self, key, suppress=False):
        self.key, self.suppress = key, suppress

    def __enter__(self):
        LOG.append(("enter", self.key))
        return self.key

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.key, kind.__name__ if kind else None))
        return self.suppress and kind is not None and issubclass(kind, Exception)


def returns_a_name_kept_over_a_with_in_finally(flag, x):
    """``return x`` in a try body whose finally body is a with: the value, loaded
    before the copy of the finally body, was written into the with's body as a
    temporary, so the copy read as none. Seed 10705."""
    del LOG[:]
    try:
        if flag:
            return x
        x = -x
    finally:
        with Box("fin"):
            pass
    return x, list(LOG)


def returns_a_name_stored_inside_a_with_in_finally(flag, x):
    """The same, the with's body storing the returned name: the temporary keeping the
    value is written just before that store, inside the with. Seed 10705."""
    del LOG[:]
    try:
        if flag > 0:
            return x
        if flag < 0:
            raise KeyError(x)
    finally:
        with Box("fin", flag < -1):
            x = flag * 3
            LOG.append(x)
    return x, list(LOG)


def returns_from_a_loop_inside_a_finally(items, log):
    """A finally body whose loop returns, before more statements: a copy of it before
    a way out of the try body holds that loop, whose return was taken for a way out
    with no copy before it. Seeds 10085, 10324."""
    try:
        if items and items[0] > 2:
            return items[0]
        log.append(len(items))
    finally:
        for i in items:
            if i < 0:
                return i
        log.append("fin")
    return log


def returns_a_name_past_an_if_raising_in_finally(flag, x):
    """A finally body ending in an if whose else raises, the name the try body returns
    stored in its other branch: the walk of the copy before the return writes that
    branch after the if (its else leaves), the handler's walk inside it. Seed 10705."""
    try:
        if flag > 1:
            return x
    finally:
        if flag or x > 3:
            x = flag + 27
        else:
            raise ValueError(x)
    return -x


def returns_through_an_endless_loop_in_finally(items, log):
    """A finally body that is ``while True`` left by a break: the compiler writes the
    way out of the try body in place of the break in its copy, with nothing after the
    loop, so the return stood inside the loop with no copy before it. Seed 10991."""
    try:
        if log:
            return 15
        log.append(len(items))
    finally:
        while True:
            log.append(len(items))
            if not items or items.pop() > 2:
                break
    return log


def returns_from_named_clauses_through_an_endless_loop(items, log):
    """The same return from an except clause inside an except clause, both named,
    whose names are cleared before the copy. Seed 10991."""
    try:
        log.append(10 // items[-1])
    except ZeroDivisionError as e:
        try:
            log.append(items[5])
        except IndexError as e:
            return 15
    finally:
        while True:
            log.append(len(items))
            if not items or items.pop() > 2:
                break
    return log


def conditional_value_ending_a_finally(items, log):
    """A finally body ending in a store of a conditional value: 3.10 and 3.12+ copy
    the store and the re-raise after it into each arm on an exception, which the walk
    read as an if, no copy of the normal path's conditional value. Seed 10791."""
    try:
        if items:
            log.append(10 // items[0])
    finally:
        size = len(items) if log else -1
    return size, log


def returns_a_name_stored_as_a_conditional_value_in_finally(items, x):
    """The same store to the name the try body returns: in the copy before the return
    each arm keeps the value in a temporary of its own and returns it. Seed 10791."""
    try:
        for x in items:
            return x
    finally:
        x = (z := (len(items) if x else 5))
    return "end", x, z


def continues_from_an_and_ending_a_finally(items, log):
    """A finally body ending in ``if (a or b) and c: continue``: on an exception 3.12+
    send each failing test to its own re-raise, read as ``if a or b: pass else:
    raise`` then ``if c: continue else: raise``; before the clause's continue the copy
    is read with its test negated, both branches continuing. Seed 10491."""
    while items:
        x = items.pop()
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            continue
        finally:
            if (x > 1 or x < -1) and len(log) % 2:
                continue
        log.append("after")
    return log


def returns_from_a_clause_under_a_finally_or_returning(items, log):
    """A finally body ending in ``if a or b: return``: on an exception the walk finds
    the join of the ``or`` where the return starts, ``if a or b: pass else: raise``
    then the return, and read it as an except clause. Seed 10108."""
    try:
        log.append(10 // items[0])
    except ZeroDivisionError as e:
        log.append(str(e))
        return "clause"
    finally:
        if len(log) > 2 or not items:
            return "fin"
    return "end", log


def continues_unless_an_and_in_a_finally(items, log):
    """A finally body ending in ``if not (a and b): continue``: on an exception the
    walk reads ``if a and b: raise`` then the continue, and read it as an except
    clause. Seed 10612."""
    while items:
        x = items.pop()
        try:
            return 10 // x
        except ZeroDivisionError as e:
            log.append(str(e))
        finally:
            if not (len(log) < 2 and x):
                continue
    return log


CASES = [
    ("returns_a_name_kept_over_a_with_in_finally", (True, 3)),
    ("returns_a_name_kept_over_a_with_in_finally", (False, 3)),
    ("returns_a_name_stored_inside_a_with_in_finally", (1, 3)),
    ("returns_a_name_stored_inside_a_with_in_finally", (0, 3)),
    ("returns_a_name_stored_inside_a_with_in_finally", (-1, 3)),
    ("returns_a_name_stored_inside_a_with_in_finally", (-2, 3)),
    ("returns_from_a_loop_inside_a_finally", ([3, -1], [])),
    ("returns_from_a_loop_inside_a_finally", ([3, 1], [])),
    ("returns_from_a_loop_inside_a_finally", ([1, -1], [])),
    ("returns_from_a_loop_inside_a_finally", ([1, 2], [])),
    ("returns_from_a_loop_inside_a_finally", ([], [])),
    ("returns_from_a_loop_inside_a_finally", ([5], None)),
    ("returns_a_name_past_an_if_raising_in_finally", (2, 1)),
    ("returns_a_name_past_an_if_raising_in_finally", (1, 1)),
    ("returns_a_name_past_an_if_raising_in_finally", (0, 5)),
    ("returns_a_name_past_an_if_raising_in_finally", (0, 1)),
    ("returns_through_an_endless_loop_in_finally", ([1, 3, 1], [])),
    ("returns_through_an_endless_loop_in_finally", ([1, 3, 1], [0])),
    ("returns_through_an_endless_loop_in_finally", ([], [0])),
    ("returns_from_named_clauses_through_an_endless_loop", ([1, 3, 0], [])),
    ("returns_from_named_clauses_through_an_endless_loop", ([1, 3, 1], [])),
    ("returns_from_named_clauses_through_an_endless_loop", ([0, 0, 0, 0, 0, 0, 0], [])),
    ("returns_from_named_clauses_through_an_endless_loop", ([], [])),
    ("conditional_value_ending_a_finally", ([2], [])),
    ("conditional_value_ending_a_finally", ([0], [])),
    ("conditional_value_ending_a_finally", ([], [])),
    ("conditional_value_ending_a_finally", (None, [1])),
    ("returns_a_name_stored_as_a_conditional_value_in_finally", ([3, 4], 1)),
    ("returns_a_name_stored_as_a_conditional_value_in_finally", ([0], 1)),
    ("returns_a_name_stored_as_a_conditional_value_in_finally", ([], 1)),
    ("returns_a_name_stored_as_a_conditional_value_in_finally", ([], 0)),
    ("returns_a_name_stored_as_a_conditional_value_in_finally", (None, 0)),
    ("continues_from_an_and_ending_a_finally", ([1, 0, 2, -3, 5, 0], [])),
    ("continues_from_an_and_ending_a_finally", ([3, 0, 1], [7])),
    ("continues_from_an_and_ending_a_finally", ([], [])),
    ("continues_from_an_and_ending_a_finally", ([1, None], [])),
    ("returns_from_a_clause_under_a_finally_or_returning", ([0], [])),
    ("returns_from_a_clause_under_a_finally_or_returning", ([0], [1, 2])),
    ("returns_from_a_clause_under_a_finally_or_returning", ([2], [])),
    ("returns_from_a_clause_under_a_finally_or_returning", ([], [])),
    ("returns_from_a_clause_under_a_finally_or_returning", ([None], [])),
    ("returns_from_a_clause_under_a_finally_or_returning", ([None], [1, 2, 3])),
    ("continues_unless_an_and_in_a_finally", ([2, 0, 0, 5], [])),
    ("continues_unless_an_and_in_a_finally", ([0, 4], [])),
    ("continues_unless_an_and_in_a_finally", ([0, 0, 0], [])),
    ("continues_unless_an_and_in_a_finally", ([], [])),
    ("continues_unless_an_and_in_a_finally", ([None, 3], [])),
]
