"""Loop bodies whose end the walk once missed: a while loop's break after a try that
goes on to the code after the try around the loop (3.10 copies the finally body and
the return there, 3.12+ the return), a for loop's return through a with and a
finally body holding a loop of its own (3.12+ lay the return out before the for
loop's end), try bodies in a loop whose finally body holds a comprehension (3.12+
inline it as a loop) or drops a return's value with its own continue, and an except
clause's break to the return after the loop (3.13 copies it there), and a case's return
in a loop, laid out where the try around it ends. Each records what ran, so code read
in the wrong place shows. Match statements need 3.10, as every Python here is."""

LOG = []


class Flags:
    """Answers from a list, then False: the tests each function makes, in order."""

    def __init__(self, answers):
        self.answers = list(answers)

    def c(self):
        LOG.append(("c", len(self.answers)))
        return self.answers.pop(0) if self.answers else False


def break_after_a_try_to_the_end_of_a_finally(answers, n):
    # the break after the inner try goes to the finally body's copy and the return
    # after the outer try, which 3.10 also copies to the loop test's way out (seed
    # 10576 on 3.10; its shape on 3.12+)
    LOG.clear()
    t = Flags(answers)
    try:
        while t.c():
            if t.c():
                continue
            try:
                assert n != 17
            except AssertionError as e:
                LOG.append(("caught", str(e)))
            break
    finally:
        LOG.append("finally")
    return LOG[:]


def break_after_a_try_to_a_copied_return(answers, n):
    # the same break, the try around only with a clause: 3.12+ copy the function's
    # return after it to the break
    LOG.clear()
    t = Flags(answers)
    try:
        while t.c():
            if t.c():
                continue
            try:
                LOG.append(10 // n)
            except ZeroDivisionError:
                LOG.append("zero")
            break
    except TypeError:
        pass


def returns_from_a_for_through_a_with_and_a_finally_loop(answers, items):
    # ``return 5`` leaves the for loop through the with's __exit__ and the finally
    # body's copy, a loop: 3.12+ lay that way out before the loop's end, which is no
    # break to an else clause (seed 10996 on 3.13, 11097 on 3.12)
    LOG.clear()
    t = Flags(answers)
    try:
        with Box("box"):
            for i in items:
                if t.c():
                    return 5
    finally:
        while t.c():
            LOG.append("again")


def continues_through_a_finally_comprehension(answers, items):
    # the finally body's comprehension (3.12+ inline it: a loop) is copied before the
    # continue and before the loop's test: the try ends at the second copy, where the
    # clause goes on too (seed 10815 on 3.12+)
    LOG.clear()
    t = Flags(answers)
    while t.c():
        try:
            if 10 // items[0]:
                continue
        except ZeroDivisionError:
            LOG.append("zero")
        finally:
            [LOG.append(i * 2) for i in items]


def return_dropped_by_a_finally_continue(answers, x):
    # the return's value, kept over the finally body's copy, is dropped by its own
    # continue: that way out is no end of the try body (seed 10004)
    LOG.clear()
    t = Flags(answers)
    while t.c():
        try:
            if t.c() and t.c():
                return (x, LOG.append("value"))
        except ZeroDivisionError:
            x += 36
        finally:
            x = 37
            continue


def clause_breaks_to_a_copied_return(answers, n):
    # the clause's break goes to the function's return after the loop, which 3.13
    # copies after the clause's exit: the if before it ends where the walk around
    # stops (seed 11413 on 3.13)
    LOG.clear()
    t = Flags(answers)
    while t.c():
        try:
            LOG.append(10 // n)
        except ZeroDivisionError:
            if t.c():
                n = -5
            elif t.c():
                continue
            break


def returns_from_a_case_in_a_loop_in_a_try(answers, subject, x):
    # ``case _: return``: the return, laid out where the try body ends (it cannot
    # raise), is what the case does, inside the loop (seed 11337 reduced, 11614 on
    # 3.10)
    LOG.clear()
    t = Flags(answers)
    try:
        while t.c():
            match subject:
                case [a]:
                    LOG.append(10 // a)
                case other:
                    LOG.append(other)
                    return
        else:
            return x + 1
    except ZeroDivisionError:
        LOG.append("zero")


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
    ("returns_from_a_case_in_a_loop_in_a_try", ([True, True, False], [2], 1)),
    ("returns_from_a_case_in_a_loop_in_a_try", ([True], [0], 1)),
    ("returns_from_a_case_in_a_loop_in_a_try", ([True, True], "ab", 1)),
    ("returns_from_a_case_in_a_loop_in_a_try", ([], [1], "s")),
    ("break_after_a_try_to_the_end_of_a_finally", ([True, False], 3)),
    ("break_after_a_try_to_the_end_of_a_finally", ([True, False], 17)),
    ("break_after_a_try_to_the_end_of_a_finally", ([True, True, True, False], 17)),
    ("break_after_a_try_to_the_end_of_a_finally", ([], 3)),
    ("break_after_a_try_to_a_copied_return", ([True, False], 0)),
    ("break_after_a_try_to_a_copied_return", ([True, True, True, False], 2)),
    ("break_after_a_try_to_a_copied_return", ([True, False], "s")),
    ("break_after_a_try_to_a_copied_return", ([], 1)),
    ("returns_from_a_for_through_a_with_and_a_finally_loop", ([False, True, True], [1, 2])),
    ("returns_from_a_for_through_a_with_and_a_finally_loop", ([False, False, True], [1, 2])),
    ("returns_from_a_for_through_a_with_and_a_finally_loop", ([], [])),
    ("returns_from_a_for_through_a_with_and_a_finally_loop", ([False], [None])),
    ("continues_through_a_finally_comprehension", ([True, True, True, False], [0, 1])),
    ("continues_through_a_finally_comprehension", ([True, False, True, False], [2])),
    ("continues_through_a_finally_comprehension", ([True, False], [])),
    ("return_dropped_by_a_finally_continue", ([True, True, True, True, False], 1)),
    ("return_dropped_by_a_finally_continue", ([True, True, False, False], 1)),
    ("return_dropped_by_a_finally_continue", ([True, True, True], "s")),
    ("clause_breaks_to_a_copied_return", ([True, True, True], 1)),
    ("clause_breaks_to_a_copied_return", ([True, True, False, True, True, True], 0)),
    ("clause_breaks_to_a_copied_return", ([True, True, False, False], 0)),
    ("clause_breaks_to_a_copied_return", ([True, False, True], "s")),
]
