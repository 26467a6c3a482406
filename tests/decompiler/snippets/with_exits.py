"""Where with statements end when their bodies leave on every way, or go on through
copies of the code around: a finally body that loops or branches after a return or
break, a continue to the header of an endless loop that starts the function, and the
end of a named except clause that a with ends; the code after an endless loop laid
out after a break's ``__exit__``. Each Box records its enter and exit;
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


def returns_through_a_looping_finally(n, suppress):
    """A return inside a with inside a try whose finally body is a loop (seed 275):
    the way out of the with body runs the finally body's copy, loop and all, before
    it returns, never getting to the code after the with."""
    del LOG[:]
    try:
        with Box("only", suppress) as key:
            if n < 0:
                raise ValueError(key)
            return n, list(LOG)
    finally:
        while n % 3:
            n += 1
            LOG.append(n)


def breaks_through_a_branching_finally(items, suppress):
    """A break inside a with inside a try whose finally body branches (seeds 1307,
    1815): every way on from the with's exit leaves the loop."""
    del LOG[:]
    for item in items:
        try:
            with Box(item, suppress):
                if item < 0:
                    raise ValueError(item)
                break
        finally:
            if item % 2:
                LOG.append("odd")
        LOG.append("after")
    return list(LOG)


def continues_in_nested_withs_starting_a_loop(items, suppress):
    """A continue inside nested with statements in an endless loop that starts the
    function (seed 1261): the way out is the loop's header, the first block. (It ends
    raising: ValueError, or IndexError once ``items`` is empty.)"""
    while True:
        with Box("outer"):
            with Box(items.pop(), suppress) as key:
                if key < 0:
                    raise ValueError(key)
                continue


def with_ends_a_named_clause_in_a_class_body(fail, suppress):
    """A with statement ending an ``except E as e`` clause at the end of a class body
    (seeds 454, 467 on 3.10, at the end of a module): the compiler copies the clause's
    end, clearing its name, to the with's suppressing way out, jumping on to the
    original's return, or falling into it (3.13)."""
    del LOG[:]

    class Holder:
        try:
            if fail:
                raise KeyError(fail)
        except KeyError as e:
            with Box("only", suppress) as key:
                if fail > 1:
                    raise ValueError(key)

    return getattr(Holder, "key", None), list(LOG)


def with_ends_a_named_clause_before_code_after(fail, suppress):
    """A with statement ending an ``except E as e`` clause, then code after the try
    (seed 1268 on 3.10): 3.10 copies the code after the try, a return, to each end of
    the clause, the with's suppressing way out's included."""
    del LOG[:]
    try:
        if fail:
            raise KeyError(fail)
    except KeyError as e:
        with Box("only", suppress) as key:
            if fail > 1:
                raise ValueError(key)
    return "end", fail  # (small enough to copy: LOG is compared as a global)


def breaks_from_a_with_in_an_endless_loop_before_code(items, suppress):
    """A break from an if inside a with, the loop's only way out (seed 924): the
    compiler lays the code after the loop out right after the break's call of
    ``__exit__``, which the with body's walk reads there. (An empty ``items`` raises
    IndexError, which ``suppress`` swallows.)"""
    while True:
        with Box("only", suppress):
            if items.pop():
                break
    return "end", LOG


CASES = [
    ("returns_through_a_looping_finally", (4, False)),
    ("returns_through_a_looping_finally", (-4, True)),
    ("returns_through_a_looping_finally", (-3, True)),
    ("returns_through_a_looping_finally", (-4, False)),
    ("breaks_through_a_branching_finally", ([3, 4], False)),
    ("breaks_through_a_branching_finally", ([-3, 4], True)),
    ("breaks_through_a_branching_finally", ([-3, 4], False)),
    ("breaks_through_a_branching_finally", ([], False)),
    ("continues_in_nested_withs_starting_a_loop", ([1, -2, 3], True)),
    ("continues_in_nested_withs_starting_a_loop", ([1, -2, 3], False)),
    ("continues_in_nested_withs_starting_a_loop", ([], False)),
    ("with_ends_a_named_clause_in_a_class_body", (0, False)),
    ("with_ends_a_named_clause_in_a_class_body", (1, False)),
    ("with_ends_a_named_clause_in_a_class_body", (2, True)),
    ("with_ends_a_named_clause_in_a_class_body", (2, False)),
    ("with_ends_a_named_clause_before_code_after", (0, False)),
    ("with_ends_a_named_clause_before_code_after", (1, False)),
    ("with_ends_a_named_clause_before_code_after", (2, True)),
    ("with_ends_a_named_clause_before_code_after", (2, False)),
    ("breaks_from_a_with_in_an_endless_loop_before_code", ([1, 0, 0], False)),
    ("breaks_from_a_with_in_an_endless_loop_before_code", ([1, 0, 0], True)),
    ("breaks_from_a_with_in_an_endless_loop_before_code", ([0], False)),
]

try:
    MODULE_KEY = None
except KeyError as e:
    with Box("module") as MODULE_KEY:
        pass
