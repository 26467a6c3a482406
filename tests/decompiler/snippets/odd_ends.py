"""Odd ends of bodies that cannot say ``return``: a class body (as a module's) ends
in an implicit return, which the compiler copies to the jumps that go to it, and
whose copies must read back as what the body does there. Each shape sits in a
class body inside a function, so that it is one function's structure."""

import sys

LOG = []


class Boom(Exception):
    pass


def try_else_ending_a_branch(text, flag):
    """A try with an else, ending a branch of the last if of a class body: 3.10
    copies the body's return into the clause (seed 262 on 3.10)."""

    class Body:
        if flag:
            try:
                value = int(text)
            except ValueError as error:
                value = str(error)
            else:
                LOG.append(value)
                if value > 1:
                    value = -value
        else:
            value = 0

    return Body.value, LOG[-2:]


def clauses_and_a_finally_ending_a_body(text):
    """try/except/finally ending a class body: each clause ends in a copy of the
    finally body and the body's return (seed 354 on 3.10)."""

    class Body:
        try:
            value = int(text)
        except ValueError:
            value = None
        except TypeError as error:
            value = repr(error)
        finally:
            LOG.append("finally")

    return Body.value, LOG[-2:]


def while_ending_a_branch(n, flag):
    """A while loop with an ``and`` test ending a branch of the last if of a class
    body: its way out is the body's return, copied after the loop (seed 568 on
    3.10)."""

    class Body:
        count = 0
        if flag:
            while count < n and flag:
                count += 1
        elif n:
            count = -1

    return Body.count


def try_else_in_a_with(text, flag):
    """A try with an else in a with ending a branch of the last if of a class body,
    a clause ending in a try/finally (seed 867 on 3.10)."""

    class Body:
        value = None
        if flag:
            with Box():
                try:
                    try:
                        value = int(text)
                    except ValueError:
                        LOG.append("value")
                except TypeError as error:
                    try:
                        value = str(error)
                    finally:
                        LOG.append("finally")
                else:
                    LOG.append(value)

    return Body.value, LOG[-3:]


class Box:
    def __enter__(self):
        LOG.append("enter")
        return self

    def __exit__(self, *exc):
        LOG.append("exit")
        return False


def endless_loop_in_a_class_with_a_cell(items):
    """``while True`` in a class body whose methods use ``__class__``, its break
    after a with that always goes on to the next round: the body ends returning its
    cell, copied to that break (seed 1678 on 3.11)."""
    try:

        class Body:
            while True:
                LOG.append(items.pop())
                with Box():
                    continue
                if len(items) < 2:
                    break
            LOG.append(0)

            def kind(self):
                return __class__.__name__

    except IndexError:
        return LOG[-4:]
    return Body().kind()


def match_ending_a_body_with_a_raising_case(subject):
    """A match ending a class body, one case raising only through a try/finally:
    what runs when no case matches is the match's last case (seed 1948 on 3.13)."""

    class Body:
        value = None
        match subject:
            case 0 | 1:
                value = "small"
            case [a, *rest]:
                try:
                    raise Boom(a)
                finally:
                    LOG.append(rest)
            case _:
                value = "other"
                LOG.append(value)

    return Body.value, LOG[-1:]


def chained_test_in_a_loop_body_that_raises(items, x):
    """A chained comparison in a for body that never goes back: where its first
    link fails, it pops the value kept for the next, which is no break popping the
    iterator (seed 734 on 3.11 and 3.13)."""
    for item in items:
        if 0 < x <= item:
            LOG.append(item)
        raise Boom(item)
    return x


CASES = [
    ("try_else_ending_a_branch", ("12", True)),
    ("try_else_ending_a_branch", ("1", True)),
    ("try_else_ending_a_branch", ("x", True)),
    ("try_else_ending_a_branch", ("12", False)),
    ("clauses_and_a_finally_ending_a_body", ("12",)),
    ("clauses_and_a_finally_ending_a_body", ("x",)),
    ("clauses_and_a_finally_ending_a_body", (None,)),
    ("while_ending_a_branch", (3, True)),
    ("while_ending_a_branch", (3, False)),
    ("while_ending_a_branch", (0, False)),
    ("try_else_in_a_with", ("12", True)),
    ("try_else_in_a_with", ("x", True)),
    ("try_else_in_a_with", (None, True)),
    ("try_else_in_a_with", ("12", False)),
    ("endless_loop_in_a_class_with_a_cell", ([1, 2],)),
    ("match_ending_a_body_with_a_raising_case", (0,)),
    ("match_ending_a_body_with_a_raising_case", ([1, 2, 3],)),
    ("match_ending_a_body_with_a_raising_case", ("x",)),
    ("chained_test_in_a_loop_body_that_raises", ([1, 2], 1)),
    ("chained_test_in_a_loop_body_that_raises", ([], 1)),
    ("chained_test_in_a_loop_body_that_raises", ([5], 0)),
]
