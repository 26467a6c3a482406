"""Try statements whose finally body ends in an if whose branch returns, breaks or
continues, with ways out of the try body: the walk on an exception re-raises only in
the branches that go on, and the normal path's copy runs the way out after it (3.11+
write that way out in each branch of the copy that goes on)."""


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
]
