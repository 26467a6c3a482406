"""Loops inside with and try bodies: loop exits that are the end of the region around
the loop, rounds that end by raising, and breaks joined with the code before them."""

LOG = []


class Resource:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        LOG.append(("enter", self.name))
        return self.name.upper()

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.name, kind.__name__ if kind else None))
        return self.suppress


def returns_through_withs_under_a_compound_test(flags, suppress):
    """A return through three withs inside ``while a or b:`` (random seed 37)."""
    with Resource("outer"):
        with Resource("inner") as name:
            while flags.pop() or flags.pop():
                with Resource("loop", suppress) as name:
                    return name + str(10 // len(flags))


def try_else_raises_every_round(values):
    """A try's else clause that always raises ends the round, inside a while loop in a
    with (random seed 116)."""
    with Resource("outer"):
        while values and values[-1] < 5:
            try:
                LOG.append(10 // values.pop())
            except ZeroDivisionError as e:
                LOG.append("zero")
            else:
                assert values, ("empty", len(values))
                raise ValueError(len(values))


def round_ends_in_a_loop_that_raises(flags, values):
    """The rest of a round, a while loop and a raise, never goes round again
    (random seed 82)."""
    try:
        while flags.pop() and flags.pop():
            while values and values[-1] < 7:
                LOG.append(values.pop())
            else:
                if not flags.pop():
                    continue
                while (z := len(values)) % 3:
                    values.append(z)
            raise ValueError(f"{len(values)}-71")
    except ValueError as e:
        LOG.append(str(e))


def round_ends_in_a_for_else_that_raises(items, flags):
    """Inside a for loop, the rest of a round that goes through another for loop to
    its else clause, which raises (random seed 101)."""
    try:
        for x in items:
            if flags.pop() and x:
                continue
            try:
                LOG.append(10 // x)
            except (ZeroDivisionError, TypeError):
                pass
            for LOG[0] in items:
                pass
            else:
                raise KeyError(48) from None
    except KeyError as e:
        LOG.append(("key", e.args))


def finally_breaks_the_first_round(items, values):
    """A finally body that breaks: its code and the break are one block, which goes
    to where the loop ends (random seed 123)."""
    with Resource("outer"):
        for LOG[0] in items:
            try:
                if (z := values.pop()) > 6:
                    LOG.append(z)
            except IndexError:
                pass
            try:
                pass
            finally:
                LOG.append("finally")
                break


def loop_is_the_whole_try_body(values):
    """``try: while c: ...`` whose except clause goes on to the finally body, as the
    loop's way out does: no way out of the loop (random seed 76)."""
    try:
        while (z := values.pop()) % 3:
            pass
    except (IndexError, KeyError):
        LOG.append("empty")
    finally:
        LOG.append("finally")


def while_else_breaks_the_for_around(items, flags):
    """A while loop's else clause that breaks the for loop around it, inside a with:
    an except clause goes on to the repeated test (random seed 155)."""
    for LOG[0] in items:
        with Resource("each") as x:
            while flags.pop() and flags.pop():
                try:
                    if not flags.pop():
                        raise ValueError(f"{x}-7")
                except ValueError:
                    LOG.append("caught")
                else:
                    continue
            else:
                break
    return ("end", len(LOG))


def with_breaks_an_endless_loop_in_a_clause(value, flags, suppress):
    """``while True: with m: break`` in an except clause: the with's ``__exit__`` on
    the way out is the loop's code, before its break (random seed 128)."""
    try:
        LOG.append(10 // value)
    except (ZeroDivisionError, TypeError):
        while True:
            with Resource("breaks", suppress):
                LOG.append(10 // len(flags))
                break
            if not (flags.pop() and value is not None):
                break
    LOG.append("after")


def returns_from_a_loop_in_a_clause(value, flags):
    """A return inside a loop in an except clause, through the finally body's copy,
    which tests: the loop's test goes on elsewhere (random seed 148)."""
    try:
        LOG.append(10 // value)
    except ZeroDivisionError as e:
        while flags.pop() or flags.pop():
            try:
                return 10 // len(flags)
            except ZeroDivisionError as e:
                LOG.append("zero")
    finally:
        if (n := len(flags)) > 2 and flags[-1]:
            LOG.append(n)


CASES = [
    ("returns_through_withs_under_a_compound_test", ([0, 1], False)),
    ("returns_through_withs_under_a_compound_test", ([1, 0], True)),
    ("returns_through_withs_under_a_compound_test", ([0, 0, 1], True)),
    ("returns_through_withs_under_a_compound_test", ([0, 0], False)),
    ("try_else_raises_every_round", ([1, 0, 0],)),
    ("try_else_raises_every_round", ([1, 0],)),
    ("try_else_raises_every_round", ([0],)),
    ("try_else_raises_every_round", ([],)),
    ("try_else_raises_every_round", ([9],)),
    ("round_ends_in_a_loop_that_raises", ([1, 1], [9, 3, 1])),
    ("round_ends_in_a_loop_that_raises", ([1, 0, 1, 1, 1], [8, 1])),
    ("round_ends_in_a_loop_that_raises", ([0, 1], [])),
    ("round_ends_in_a_loop_that_raises", ([0, 0], [])),
    ("round_ends_in_a_for_else_that_raises", ([1, 0, 2], [0, 1, 1])),
    ("round_ends_in_a_for_else_that_raises", ([1, 0, "a"], [0, 0, 1])),
    ("round_ends_in_a_for_else_that_raises", ([], [])),
    ("round_ends_in_a_for_else_that_raises", ([1, 2], [1, 1])),
    ("finally_breaks_the_first_round", ([1, 2], [7])),
    ("finally_breaks_the_first_round", ([1, 2], [])),
    ("finally_breaks_the_first_round", ([], [1])),
    ("loop_is_the_whole_try_body", ([3, 1, 2],)),
    ("loop_is_the_whole_try_body", ([1, 2],)),
    ("loop_is_the_whole_try_body", ([],)),
    ("while_else_breaks_the_for_around", ([1, 2], [0, 1, 1, 1])),
    ("while_else_breaks_the_for_around", ([1, 2], [1, 1, 0, 1, 1, 1, 1])),
    ("while_else_breaks_the_for_around", ([1, 2], [0, 0, 0, 0, 1])),
    ("while_else_breaks_the_for_around", ([], [])),
    ("with_breaks_an_endless_loop_in_a_clause", (1, [], False)),
    ("with_breaks_an_endless_loop_in_a_clause", (0, [1], False)),
    ("with_breaks_an_endless_loop_in_a_clause", (0, [], True)),
    ("with_breaks_an_endless_loop_in_a_clause", ("a", [1, 1], True)),
    ("with_breaks_an_endless_loop_in_a_clause", (0, [0], True)),
    ("returns_from_a_loop_in_a_clause", (1, [1, 1, 1])),
    ("returns_from_a_loop_in_a_clause", (0, [1, 0])),
    ("returns_from_a_loop_in_a_clause", (0, [0, 1])),
    ("returns_from_a_loop_in_a_clause", (0, [0, 0, 0, 1])),
    ("returns_from_a_loop_in_a_clause", (0, [1, 1, 1, 0, 1])),
    ("returns_from_a_loop_in_a_clause", (0, [])),
]
