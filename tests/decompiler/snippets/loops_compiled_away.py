"""Loops the compiler wrote as an if: each way through the body leaves (a return, a
break, a raise), so there is no jump back. A break out of a finally body around a
return in such a while loop read as an if whose try's finally copies go on past it,
the returned value kept in a local temporary (seed 35551 on 3.10-3.13), now that
loop again; the same with an else, before a short follow the compiler copies, in a
nested loop; and the same finally body in a for loop and with a continue, which
were loops already, and in a module's own loop whose try body raises (no value
kept: it reads as an if, and keeps nothing)."""

LOG = []


def break_from_finally_loop_gone(answers, x):
    """Shape E (seed 35551): the loop never goes round, the finally body breaks."""
    log = []
    while answers.pop():
        try:
            log.append("try")
            return x, log
        finally:
            log.append("finally")
            if answers.pop():
                break
    log.append("after")
    return None, log


def break_from_finally_loop_gone_bare(answers, x):
    """Shape E (seed 35551) as reduced: a bare value returned, the break alone."""
    while answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                break
    LOG.append(1)


def break_from_finally_loop_gone_with_else(answers, x):
    """Shape E (seed 35551) with the loop's else, run when the test fails first."""
    log = []
    while answers.pop():
        try:
            return x, log
        finally:
            log.append("finally")
            if answers.pop():
                break
    else:
        log.append("else")
    return None, log


def break_from_finally_loop_gone_short_follow(answers, x):
    """Shape E (seed 35551) before a short return, which 3.12+ copy into the break."""
    while answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                break
    return 1


def break_from_finally_loop_gone_follow_in_a_branch(answers, x):
    """Shape E (seed 35551), the break in a branch before more of the finally body,
    before a short return with an else."""
    log = []
    while answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                break
            log.append("goes on")
    else:
        return log
    return 1


def break_from_finally_loop_gone_more_after(answers, x):
    """Shape E (seed 35551) with statements before the try and an if in the finally
    body's break."""
    log = []
    while answers.pop():
        log.append("round")
        try:
            return x * 2, log
        finally:
            if answers.pop():
                log.append("breaks")
                break
            log.append("goes on")
    log.append("after")
    return None, log


def break_from_finally_loop_gone_nested(answers, items):
    """Shape E (seed 35551) in the body of a for loop: the break leaves the inner
    loop alone."""
    log = []
    for item in items:
        while answers.pop():
            try:
                return item, log
            finally:
                if answers.pop():
                    break
        log.append(item)
    return None, log


def break_from_finally_loop_gone_nested_if(answers, x):
    """Shape E (seed 35551), the break inside an if of the finally body's if."""
    log = []
    while answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                if answers.pop():
                    break
                log.append(1)
    log.append(2)
    return None, log


def break_from_finally_loop_gone_and_test(answers, x):
    """Shape E (seed 35551) with a compound loop test."""
    log = []
    while answers.pop() and answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                break
    log.append(2)
    return None, log


def break_from_finally_loop_gone_or_test(answers, x):
    """Shape E (seed 35551) with a compound loop test."""
    log = []
    while answers.pop() or answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                break
    log.append(2)
    return None, log


def break_from_finally_loop_gone_twice(answers, x):
    """Shape E (seed 35551), two such loops one after the other."""
    log = []
    while answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                break
    log.append(2)
    while answers.pop():
        try:
            return x + 1
        finally:
            if answers.pop():
                break
    log.append(3)
    return None, log


def break_from_finally_loop_gone_or_raise(answers, x):
    """Shape E (seed 35551), the finally body breaking or raising."""
    log = []
    while answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                break
            if answers.pop():
                raise KeyError(x)
    log.append(2)
    return None, log


def break_from_finally_loop_gone_after_a_continue(answers, items):
    """Shape E (seed 35551) in a for loop's body after its continue."""
    log = []
    for i in items:
        if i == 1:
            continue
        while answers.pop():
            try:
                return i, log
            finally:
                if answers.pop():
                    break
        log.append(i)
    return None, log


def break_from_finally_loop_gone_in_a_try(answers, x):
    """Shape E (seed 35551) in a try body with a clause."""
    log = []
    try:
        while answers.pop():
            try:
                return x[0]
            finally:
                if answers.pop():
                    break
        log.append(2)
    except TypeError:
        log.append(3)
    return None, log


def break_from_finally_loop_gone_walrus(answers, x):
    """Shape E (seed 35551), the loop test binding a name."""
    while n := answers.pop():
        try:
            return x + n
        finally:
            if answers.pop():
                break
    return n


async def break_from_finally_loop_gone_async(answers, x):
    """Shape E (seed 35551) in a coroutine."""
    log = []
    while answers.pop():
        try:
            return x
        finally:
            if answers.pop():
                break
    log.append(2)
    return None, log


def break_from_finally_for_loop(answers, items):
    """Shape E (seed 35551) with a for loop, which keeps its FOR_ITER."""
    log = []
    for item in items:
        try:
            return item, log
        finally:
            log.append(item)
            if answers.pop():
                break
    return None, log


def continue_from_finally_loop(answers, x):
    """Shape E (seed 35551) with a continue, which is a jump back."""
    log = []
    while answers.pop():
        try:
            return x, log
        finally:
            log.append("finally")
            if answers.pop():
                continue
    return None, log


def module_log():
    return LOG


CASES = [
    ("break_from_finally_loop_gone", ([1], 5)),
    ("break_from_finally_loop_gone", ([0], 5)),
    ("break_from_finally_loop_gone", ([0, 1], 5)),
    ("break_from_finally_loop_gone", ([1, 1], 5)),
    ("break_from_finally_loop_gone_bare", ([0, 1], 5)),
    ("break_from_finally_loop_gone_bare", ([1, 1], 5)),
    ("break_from_finally_loop_gone_bare", ([0], 5)),
    ("break_from_finally_loop_gone_with_else", ([0], 5)),
    ("break_from_finally_loop_gone_with_else", ([0, 1], 5)),
    ("break_from_finally_loop_gone_with_else", ([1, 1], 5)),
    ("break_from_finally_loop_gone_short_follow", ([0], 5)),
    ("break_from_finally_loop_gone_short_follow", ([0, 1], 5)),
    ("break_from_finally_loop_gone_short_follow", ([1, 1], 5)),
    ("break_from_finally_loop_gone_follow_in_a_branch", ([0], 5)),
    ("break_from_finally_loop_gone_follow_in_a_branch", ([0, 1], 5)),
    ("break_from_finally_loop_gone_follow_in_a_branch", ([1, 1], 5)),
    ("break_from_finally_loop_gone_more_after", ([0, 1], 5)),
    ("break_from_finally_loop_gone_more_after", ([1, 1], 5)),
    ("break_from_finally_loop_gone_more_after", ([0], 5)),
    ("break_from_finally_loop_gone_nested", ([0, 1, 1, 0], "ab")),
    ("break_from_finally_loop_gone_nested", ([0, 1, 1, 1], "ab")),
    ("break_from_finally_loop_gone_nested", ([0, 0], "ab")),
    ("break_from_finally_loop_gone_nested_if", ([0], 5)),
    ("break_from_finally_loop_gone_nested_if", ([0, 1], 5)),
    ("break_from_finally_loop_gone_nested_if", ([1, 1], 5)),
    ("break_from_finally_loop_gone_nested_if", ([0, 0, 1], 5)),
    ("break_from_finally_loop_gone_nested_if", ([1, 0, 1], 5)),
    ("break_from_finally_loop_gone_nested_if", ([1, 1, 1], 5)),
    ("break_from_finally_loop_gone_nested_if", ([0, 1, 1, 1], 5)),
    ("break_from_finally_loop_gone_nested_if", ([1, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_nested_if", ([0, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_and_test", ([0], 5)),
    ("break_from_finally_loop_gone_and_test", ([0, 1], 5)),
    ("break_from_finally_loop_gone_and_test", ([1, 1], 5)),
    ("break_from_finally_loop_gone_and_test", ([0, 0, 1], 5)),
    ("break_from_finally_loop_gone_and_test", ([1, 0, 1], 5)),
    ("break_from_finally_loop_gone_and_test", ([1, 1, 1], 5)),
    ("break_from_finally_loop_gone_and_test", ([0, 1, 1, 1], 5)),
    ("break_from_finally_loop_gone_and_test", ([1, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_and_test", ([0, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_or_test", ([0], 5)),
    ("break_from_finally_loop_gone_or_test", ([0, 1], 5)),
    ("break_from_finally_loop_gone_or_test", ([1, 1], 5)),
    ("break_from_finally_loop_gone_or_test", ([0, 0, 1], 5)),
    ("break_from_finally_loop_gone_or_test", ([1, 0, 1], 5)),
    ("break_from_finally_loop_gone_or_test", ([1, 1, 1], 5)),
    ("break_from_finally_loop_gone_or_test", ([0, 1, 1, 1], 5)),
    ("break_from_finally_loop_gone_or_test", ([1, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_or_test", ([0, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_twice", ([0], 5)),
    ("break_from_finally_loop_gone_twice", ([0, 1], 5)),
    ("break_from_finally_loop_gone_twice", ([1, 1], 5)),
    ("break_from_finally_loop_gone_twice", ([0, 0, 1], 5)),
    ("break_from_finally_loop_gone_twice", ([1, 0, 1], 5)),
    ("break_from_finally_loop_gone_twice", ([1, 1, 1], 5)),
    ("break_from_finally_loop_gone_twice", ([0, 1, 1, 1], 5)),
    ("break_from_finally_loop_gone_twice", ([1, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_twice", ([0, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_or_raise", ([0], 5)),
    ("break_from_finally_loop_gone_or_raise", ([0, 1], 5)),
    ("break_from_finally_loop_gone_or_raise", ([1, 1], 5)),
    ("break_from_finally_loop_gone_or_raise", ([0, 0, 1], 5)),
    ("break_from_finally_loop_gone_or_raise", ([1, 0, 1], 5)),
    ("break_from_finally_loop_gone_or_raise", ([1, 1, 1], 5)),
    ("break_from_finally_loop_gone_or_raise", ([0, 1, 1, 1], 5)),
    ("break_from_finally_loop_gone_or_raise", ([1, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_or_raise", ([0, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_walrus", ([0], 5)),
    ("break_from_finally_loop_gone_walrus", ([0, 1], 5)),
    ("break_from_finally_loop_gone_walrus", ([1, 1], 5)),
    ("break_from_finally_loop_gone_walrus", ([0, 0, 1], 5)),
    ("break_from_finally_loop_gone_walrus", ([1, 0, 1], 5)),
    ("break_from_finally_loop_gone_walrus", ([1, 1, 1], 5)),
    ("break_from_finally_loop_gone_walrus", ([0, 1, 1, 1], 5)),
    ("break_from_finally_loop_gone_walrus", ([1, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_walrus", ([0, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_async", ([0], 5)),
    ("break_from_finally_loop_gone_async", ([0, 1], 5)),
    ("break_from_finally_loop_gone_async", ([1, 1], 5)),
    ("break_from_finally_loop_gone_async", ([0, 0, 1], 5)),
    ("break_from_finally_loop_gone_async", ([1, 0, 1], 5)),
    ("break_from_finally_loop_gone_async", ([1, 1, 1], 5)),
    ("break_from_finally_loop_gone_async", ([0, 1, 1, 1], 5)),
    ("break_from_finally_loop_gone_async", ([1, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_async", ([0, 0, 1, 1], 5)),
    ("break_from_finally_loop_gone_after_a_continue", ([0], [1, 2, 3])),
    ("break_from_finally_loop_gone_after_a_continue", ([0, 1], [1, 2, 3])),
    ("break_from_finally_loop_gone_after_a_continue", ([1, 1], [1, 2, 3])),
    ("break_from_finally_loop_gone_after_a_continue", ([0, 0, 1], [1, 2, 3])),
    ("break_from_finally_loop_gone_after_a_continue", ([1, 0, 1], [1, 2, 3])),
    ("break_from_finally_loop_gone_in_a_try", ([0], "ab")),
    ("break_from_finally_loop_gone_in_a_try", ([0], 5)),
    ("break_from_finally_loop_gone_in_a_try", ([0, 1], "ab")),
    ("break_from_finally_loop_gone_in_a_try", ([0, 1], 5)),
    ("break_from_finally_loop_gone_in_a_try", ([1, 1], "ab")),
    ("break_from_finally_loop_gone_in_a_try", ([1, 1], 5)),
    ("break_from_finally_loop_gone_in_a_try", ([0, 0, 1], "ab")),
    ("break_from_finally_loop_gone_in_a_try", ([0, 0, 1], 5)),
    ("break_from_finally_loop_gone_in_a_try", ([1, 0, 1], "ab")),
    ("break_from_finally_loop_gone_in_a_try", ([1, 0, 1], 5)),
    ("break_from_finally_for_loop", ([0], "ab")),
    ("break_from_finally_for_loop", ([1, 1], "ab")),
    ("break_from_finally_for_loop", ([], "")),
    ("continue_from_finally_loop", ([0, 0, 1], 5)),
    ("continue_from_finally_loop", ([0, 0, 0, 1, 1], 5)),
    ("continue_from_finally_loop", ([0], 5)),
    ("module_log", ()),
]

for answers in ([1, 1], [0, 1]):
    try:
        while answers.pop():
            try:
                LOG.append("try")
                raise KeyError(1)
            finally:
                LOG.append("finally")
                if answers.pop():
                    break
        LOG.append("after")
    except KeyError:
        LOG.append("key")
