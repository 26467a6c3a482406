"""Shapes 3.13 once wrote as a state machine (most of them 3.12's too): ways out of a
try body that run copies of a finally body holding a loop (3.12+ inline a
comprehension as one), read as copies of one another, block by block, the loop's
blocks and handlers paired; a return from a loop reaching such a copy through blocks
only it leads to; a break to a copy of the end of the try around the loop; a return
from a loop in a try inside an except clause, which ends that clause on its way out
(outside the try's handler). Each records what ran, so code read in the wrong place
shows."""

import sys

LOG = []


class Flags:
    """Answers from a list, then False: the tests each function makes, in order."""

    def __init__(self, answers):
        self.answers = list(answers)

    def c(self):
        LOG.append(("c", len(self.answers)))
        return self.answers.pop(0) if self.answers else False


def returns_from_a_for_through_a_finally_comprehension(answers, items):
    # the return in the loop and the loop's end each run a copy of the finally body,
    # a comprehension, then the same return (seed 2160 on 3.13, reduced)
    LOG.clear()
    t = Flags(answers)
    y = [1, 2]
    try:
        for i in items:
            LOG.append(("item", i))
            if t.c():
                return
    finally:
        y = [i * 2 for i in y]
        LOG.append(("finally", y))


def returns_or_breaks_through_a_finally_comprehension(answers, items):
    # a return and a break in the loop (the break an inner try's else) each run a copy
    # of the finally body holding a loop, then the same return (seed 2160 on 3.13)
    LOG.clear()
    t = Flags(answers)
    y = [3, 1, 2]
    try:
        for i, j in enumerate(items):
            try:
                if (n := 10 // j) > 7 and t.c():
                    return
            except ZeroDivisionError:
                LOG.append(("zero", i))
                raise ValueError(i) from None
            else:
                break
    finally:
        y = list([(a, b) for a in y for b in y if a < b])
        LOG.append(("finally", y))


def breaks_in_a_finally_then_a_try_holding_a_loop(answers, items):
    # the finally body's break ends each way out of the endless loop, the code after
    # it a try whose finally body holds a loop (seed 2032 on 3.13)
    LOG.clear()
    t = Flags(answers)
    x = 0
    while True:
        try:
            if t.c() and t.c():
                break
            if (t.c() or x) and t.c():
                continue
        finally:
            x = 14
            break
    try:
        for t.a in items:
            LOG.append(("item", t.a))
            continue
    finally:
        LOG.append(34)
    return x, LOG[:]


def returns_from_a_loop_in_a_try_in_a_clause(answers, n):
    # the return ends the except clause around (SWAP 2, POP_EXCEPT) outside the inner
    # try's handler: no end of that try's body (seed 2414 on 3.13)
    LOG.clear()
    t = Flags(answers)
    try:
        LOG.append(10 // n)
    except ZeroDivisionError:
        try:
            while t.c():
                if not t.c():
                    return ("returned", n)
            raise KeyError(37)
        except KeyError as e:
            LOG.append(("caught", e.args, type(e.__context__).__name__))
    return LOG[:]


def breaks_from_a_with_in_a_clause_through_a_finally_continue(answers):
    # the break's way out and the body's end each run the finally body, whose
    # continue goes round the loop: no way to an end, so no copies of one another
    # (seed 2426 on 3.13, a fallback while they were read so)
    LOG.clear()
    t = Flags(answers)
    x = 0
    while t.c():
        try:
            LOG.append(10 // len(LOG))
        except ZeroDivisionError:
            with Box("w"):
                if t.c():
                    break
        finally:
            x += 65
            continue
    return x, LOG[:]


def breaks_or_raises_from_an_else_in_a_conditional_while(answers, x):
    # the inner try's else raises or breaks, so never goes round: the natural loop
    # leaves it out, and the conditional test leaves from two blocks of its own (seed
    # 2292 on 3.13)
    LOG.clear()
    t = Flags(answers)
    try:
        while t.c() if x else not t.c():
            try:
                LOG.append(10 // len(LOG))
            except ZeroDivisionError:
                LOG.append("zero")
            else:
                if not t.c():
                    raise KeyError(83)
                break
    except KeyError as e:
        LOG.append(("caught", e.args))
    else:
        LOG.append("else")
    return LOG[:]


def returns_from_a_loop_in_a_finally_inside_a_finally(items, n):
    # the inner finally body's copy on an exception returns from its loop through the
    # outer finally body's copy, a copy of the outer try's end: a return written in
    # the loop, which itself ends elsewhere (re-raising) (seed 2394 on 3.13, reduced)
    LOG.clear()
    try:
        try:
            LOG.append(10 // n)
        finally:
            for x in items:
                LOG.append(("item", x, type(sys.exc_info()[1]).__name__))
                return
    finally:
        LOG.append("outer")


def returns_from_an_elif_in_a_finally_after_a_return(answers, n):
    # the finally body's own return in an elif: the walk on an exception lays the
    # branches that do not re-raise out after the if whose body does (seed 2211 on
    # 3.13, reduced; 3.10 and 3.12 too)
    LOG.clear()
    t = Flags(answers)
    try:
        if t.c():
            return 10 // n
    finally:
        if t.c():
            LOG.append(("x", n))
        elif t.c():
            return


def returns_from_an_else_in_a_finally_after_a_return(answers, n):
    # the same with an else that returns (every Python)
    LOG.clear()
    t = Flags(answers)
    try:
        if t.c():
            return 10 // n
    finally:
        if t.c():
            LOG.append(("x", n))
        else:
            return


class Box:
    def __init__(self, label):
        self.label = label

    def __enter__(self):
        LOG.append(("enter", self.label))
        return self

    def __exit__(self, *exc):
        LOG.append(("exit", self.label, exc[0] and exc[0].__name__))
        return False


CASES = [
    ("returns_from_a_for_through_a_finally_comprehension", ([False, True], [1, 2, 3])),
    ("returns_from_a_for_through_a_finally_comprehension", ([False, False], [1, 2])),
    ("returns_from_a_for_through_a_finally_comprehension", ([], [])),
    ("returns_from_a_for_through_a_finally_comprehension", ([], None)),
    ("returns_or_breaks_through_a_finally_comprehension", ([True], [1, 2])),
    ("returns_or_breaks_through_a_finally_comprehension", ([False], [1, 2])),
    ("returns_or_breaks_through_a_finally_comprehension", ([True], [20, 2])),
    ("returns_or_breaks_through_a_finally_comprehension", ([], [0, 2])),
    ("returns_or_breaks_through_a_finally_comprehension", ([], [])),
    ("breaks_in_a_finally_then_a_try_holding_a_loop", ([True, True], [1, 2])),
    ("breaks_in_a_finally_then_a_try_holding_a_loop", ([False, True, True], [3])),
    ("breaks_in_a_finally_then_a_try_holding_a_loop", ([], None)),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([True, False], 0)),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([True, True, False], 0)),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([], 0)),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([True], 2)),
    ("returns_from_a_loop_in_a_try_in_a_clause", ([True], "s")),
    ("breaks_from_a_with_in_a_clause_through_a_finally_continue", ([True, True, True, False],)),
    ("breaks_from_a_with_in_a_clause_through_a_finally_continue", ([True, False, True, True],)),
    ("breaks_from_a_with_in_a_clause_through_a_finally_continue", ([],)),
    ("breaks_or_raises_from_an_else_in_a_conditional_while", ([True, True, True], 1)),
    ("breaks_or_raises_from_an_else_in_a_conditional_while", ([True, True, False], 1)),
    ("breaks_or_raises_from_an_else_in_a_conditional_while", ([False, True, True], 0)),
    ("breaks_or_raises_from_an_else_in_a_conditional_while", ([True], 0)),
    ("breaks_or_raises_from_an_else_in_a_conditional_while", ([], 1)),
    ("returns_from_a_loop_in_a_finally_inside_a_finally", ([1, 2], 0)),
    ("returns_from_a_loop_in_a_finally_inside_a_finally", ([1, 2], 1)),
    ("returns_from_a_loop_in_a_finally_inside_a_finally", ([], 0)),
    ("returns_from_a_loop_in_a_finally_inside_a_finally", ([], 2)),
    ("returns_from_a_loop_in_a_finally_inside_a_finally", (None, 0)),
    ("returns_from_an_elif_in_a_finally_after_a_return", ([True, True], 2)),
    ("returns_from_an_elif_in_a_finally_after_a_return", ([True, False, True], 2)),
    ("returns_from_an_elif_in_a_finally_after_a_return", ([True, False, False], 2)),
    ("returns_from_an_elif_in_a_finally_after_a_return", ([True, True], 0)),
    ("returns_from_an_elif_in_a_finally_after_a_return", ([True, False, True], 0)),
    ("returns_from_an_elif_in_a_finally_after_a_return", ([True, False, False], 0)),
    ("returns_from_an_elif_in_a_finally_after_a_return", ([False, True], 0)),
    ("returns_from_an_elif_in_a_finally_after_a_return", ([], 5)),
    ("returns_from_an_else_in_a_finally_after_a_return", ([True, True], 2)),
    ("returns_from_an_else_in_a_finally_after_a_return", ([True, False, True], 2)),
    ("returns_from_an_else_in_a_finally_after_a_return", ([True, False, False], 2)),
    ("returns_from_an_else_in_a_finally_after_a_return", ([True, True], 0)),
    ("returns_from_an_else_in_a_finally_after_a_return", ([True, False, True], 0)),
    ("returns_from_an_else_in_a_finally_after_a_return", ([True, False, False], 0)),
    ("returns_from_an_else_in_a_finally_after_a_return", ([False, True], 0)),
    ("returns_from_an_else_in_a_finally_after_a_return", ([], 5)),
]
