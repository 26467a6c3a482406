"""Try statements whose finally body returns, breaks or continues, with ways out of
the try body. One ending in an if whose branch leaves so: the walk on an exception
re-raises only in the branches that go on, and the normal path's copy runs the way
out after it (3.11+ write that way out in each branch of the copy that goes on). One
that always leaves: the walk on an exception never re-raises, and each copy runs
its own way out in place of the body's."""


def returns_from_a_finally_and(flags, log):
    """``finally: if a and b: return 40`` after a try body that returns, and an except
    clause: the finally body was read as a bare except clause, its copies before the
    return left under it, and the function went to the state machine. Seed 135."""
    try:
        if flags[0] and len(flags) < 4:
            return flags[1]
    except IndexError:
        log.append("short")
    finally:
        if (n := len(log)) > 0 and flags[-1]:
            return 40 + n
    log.append("after")
    return log


def continues_from_a_finally_if(items, log):
    """``finally: if t: continue`` in an endless loop whose try body continues on one
    branch, and code after the try that breaks. Seed 98."""
    while True:
        try:
            x = items.pop()
            if x > 2:
                continue
            log.append(10 // x)
        finally:
            if len(items) % 2:
                continue
        log.append(x)
        if not items:
            break
    log.append("end")
    return log


def breaks_from_a_finally_if_in_a_for(items, log):
    """``finally: if t: break`` with a continue in the try body, code after the loop."""
    for x in items:
        try:
            if x == 3:
                continue
            log.append(10 // x)
        finally:
            if x < 0:
                break
        log.append(x)
    log.append("end")
    return log


def continues_from_every_finally(items, log):
    """A finally body that always continues (``finally: ...; continue``), a continue
    in the try body: the walk on an exception never re-raises, and was read as a bare
    except clause with the copies before the ways out left under it. Seed 476."""
    for x in items:
        try:
            if x < 0:
                continue
            log.append(10 // x)
        finally:
            log.append(-x)
            continue
    log.append("end")
    return log


def breaks_from_every_finally(items, log):
    """A finally body that always breaks, a break in the try body."""
    while items:
        x = items.pop()
        try:
            if x < 0:
                break
            log.append(10 // x)
        finally:
            log.append(len(items))
            break
    log.append("end")
    return log


def returns_from_every_finally(flag, log):
    """A finally body that always returns a constant, a return of one in the try body."""
    try:
        if flag:
            return 1
        log.append(len(log))
    finally:
        log.append("finally")
        return 7


CASES = [
    ("returns_from_a_finally_and", ([1, 2], [])),
    ("returns_from_a_finally_and", ([1, 2], [0])),
    ("returns_from_a_finally_and", ([0, 2, 1], [0])),
    ("returns_from_a_finally_and", ([], [])),
    ("returns_from_a_finally_and", ([], [0])),
    ("returns_from_a_finally_and", ([1, 2, 3, 4, 0], [0])),
    ("continues_from_a_finally_if", ([1, 3, 2], [])),
    ("continues_from_a_finally_if", ([5, 0, 1, 4], [])),
    ("continues_from_a_finally_if", ([0, 1], [])),
    ("continues_from_a_finally_if", ([0], [])),
    ("continues_from_a_finally_if", ([], [])),
    ("breaks_from_a_finally_if_in_a_for", ([1, 2, 3], [])),
    ("breaks_from_a_finally_if_in_a_for", ([1, 0, 2], [])),
    ("breaks_from_a_finally_if_in_a_for", ([1, -1, 3], [])),
    ("breaks_from_a_finally_if_in_a_for", ([2, 0, -2, 3], [])),
    ("breaks_from_a_finally_if_in_a_for", ([], [])),
    ("continues_from_every_finally", ([1, -2, 0, 5], [])),
    ("continues_from_every_finally", ([0], [])),
    ("continues_from_every_finally", ([], [])),
    ("breaks_from_every_finally", ([1, 2], [])),
    ("breaks_from_every_finally", ([0, 3], [])),
    ("breaks_from_every_finally", ([-1], [])),
    ("breaks_from_every_finally", ([], [])),
    ("returns_from_every_finally", (True, [])),
    ("returns_from_every_finally", (False, [])),
    ("returns_from_every_finally", (False, None)),
]
