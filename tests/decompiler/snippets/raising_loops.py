"""With statements whose body leaves (a break, a continue or a return written in it)
while ``__exit__`` suppressing an exception goes on to other code after the with, a
raise or a break, inside a try: the jump in the with body is no end of the try body
around, nor a copy of the code after that try. Each Box records its enter and exit;
``suppress`` tells it to swallow an exception."""

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


def continues_in_a_with_then_breaks(items, suppress):
    """An endless loop whose try body is a with that continues, then a break that
    only ``__exit__`` suppressing gets to, the clause going round, ending the function
    (seed 10005 on 3.12 and 3.13: the try was read as ending at the continue's jump)."""
    del LOG[:]
    it = iter(items)
    while True:
        try:
            with Box("round", suppress):
                LOG.append(10 // next(it))
                continue
            break
        except ZeroDivisionError:
            LOG.append("clause")


def breaks_from_a_with_then_raises(items, suppress):
    """A for loop whose try body is a with that breaks, then a raise that only
    ``__exit__`` suppressing gets to, under a finally (seed 1815 on every Python: the try was
    read as ending at the break's copy of the finally body)."""
    del LOG[:]
    for item in items:
        try:
            with Box(item, suppress):
                LOG.append(10 // item)
                break
            raise KeyError(item)
        finally:
            LOG.append(("finally", item))
    LOG.append("after")
    return list(LOG)


def returns_from_a_with_before_code_after_it(n, suppress):
    """A with body that returns (nothing), the code after the with, under a try that
    ends the function, reached only when ``__exit__`` suppresses (seed 10618: the
    return was read as a copy of the function's own return, where the try ends)."""
    del LOG[:]
    try:
        with Box(n, suppress):
            LOG.append(10 // n)
            return
        LOG.append("after the with")
        n //= 2
    except ZeroDivisionError:
        LOG.append("clause")


def returns_from_nested_withs_in_a_for(items, suppress):
    """A return from nested withs in a for loop in a try whose finally body loops
    (seed 10701 on 3.12 and 3.13: the try was read as ending at the return's copy of
    the finally body)."""
    del LOG[:]
    n = 0
    try:
        for item in items:
            with Box(item, suppress):
                with Box(-item, suppress):
                    LOG.append(10 // item)
                    return 6
    finally:
        while n < 2:
            n += 1
            LOG.append(("finally", n))


def with_in_a_case_in_a_class_body(point, flag, suppress):
    """A with in an if in a case, in a try in a class body (seed 48 on 3.10: its
    ``__exit__`` goes straight on to the body's end, where ``__exit__`` suppressing
    goes through the jump that the if's and the case's other ways take)."""
    del LOG[:]

    class Body:
        try:
            match point:
                case (0, b):
                    if flag:
                        with Box(b, suppress):
                            LOG.append(10 // b)
        except ZeroDivisionError:
            LOG.append("clause")

    return sorted(k for k in vars(Body) if not k.startswith("__")), list(LOG)


def clause_breaks_where_the_else_loops(items):
    """An endless loop whose try has a clause that goes on, a clause that may break,
    and an else ending in a loop, then ``if c: break`` (seed 1728: the clauses and the
    else meet at that if, past the else's loop, the post-dominator being where the
    loop ends, which the break goes to: statements after an except clause)."""
    del LOG[:]
    it, x = iter(items), 0
    while True:
        try:
            x = 10 // next(it)
        except ZeroDivisionError:
            x = -1
        except StopIteration:
            x = -2
            if len(LOG) < 3:
                break
        else:
            while x > 4:
                x -= 3
                LOG.append(x)
        if x < 0:
            break
    return "end", x


def returns_a_walrus_thrown_away_by_finally(items, flag):
    """A return of a walrus in an if in a with, whose ``finally: return`` throws the
    value away (seed 1117 on 3.13, no longer a state machine): the value kept for it
    was stored in a temporary as well as the walrus's name, left among the locals."""
    del LOG[:]
    try:
        with Box("w", False):
            if flag:
                return (z := (items and len(items) or -1))
        z = 0
    finally:
        LOG.append("finally")
        return 36


CASES = [
    ("continues_in_a_with_then_breaks", ([1, 2],), {"suppress": False}),
    ("continues_in_a_with_then_breaks", ([1, 0, 2],), {"suppress": True}),
    ("continues_in_a_with_then_breaks", ([1, 0, 2],), {"suppress": False}),
    ("breaks_from_a_with_then_raises", ([2, 1],), {"suppress": False}),
    ("breaks_from_a_with_then_raises", ([0, 1],), {"suppress": True}),
    ("breaks_from_a_with_then_raises", ([0, 1],), {"suppress": False}),
    ("breaks_from_a_with_then_raises", ([],), {"suppress": False}),
    ("returns_from_a_with_before_code_after_it", (2, False)),
    ("returns_from_a_with_before_code_after_it", (0, True)),
    ("returns_from_a_with_before_code_after_it", (0, False)),
    ("returns_from_nested_withs_in_a_for", ([2, 1], False)),
    ("returns_from_nested_withs_in_a_for", ([0, 1], True)),
    ("returns_from_nested_withs_in_a_for", ([0, 1], False)),
    ("returns_from_nested_withs_in_a_for", ([0, 0], True)),
    ("with_in_a_case_in_a_class_body", ((0, 2), True, False)),
    ("with_in_a_case_in_a_class_body", ((0, 0), True, False)),
    ("with_in_a_case_in_a_class_body", ((0, 0), True, True)),
    ("with_in_a_case_in_a_class_body", ((0, 0), False, False)),
    ("with_in_a_case_in_a_class_body", ((1, 0), True, False)),
    ("clause_breaks_where_the_else_loops", ([1, 2],)),
    ("clause_breaks_where_the_else_loops", ([1, 0, 2],)),
    ("clause_breaks_where_the_else_loops", ([3, 5, 5, 1],)),
    ("clause_breaks_where_the_else_loops", ([],)),
    ("returns_a_walrus_thrown_away_by_finally", ([1, 2], True)),
    ("returns_a_walrus_thrown_away_by_finally", ([], True)),
    ("returns_a_walrus_thrown_away_by_finally", ([1], False)),
]
