# requires: 3.11
"""Try statements with a finally body ending in ``try ... except*``, whose copies
the compiler puts before each way out of the try body, where the body holds loops
of its own: a break or continue inside such a loop stays in it."""


def comprehension_in_a_clause(items, log):
    """3.12+ inline a comprehension as a loop, whose continue was taken for a way
    out of the try body (random seeds 0, 10, 11 and 28 on 3.12)."""
    for x in items:
        try:
            log.append(items[x])
        except IndexError:
            log.append([i for i in items if i])
        finally:
            try:
                log.append(len(log))
            except* TypeError:
                pass
    return log


def break_in_a_clause_loop(items, log):
    """A loop inside an except clause (3.11-3.13)."""
    for x in items:
        try:
            log.append(1 / x)
        except ZeroDivisionError:
            for y in items:
                log.append(y)
                if y > 1:
                    break
        finally:
            try:
                log.append(len(log))
            except* TypeError:
                pass
    return log


CASES = [
    ("comprehension_in_a_clause", ([1, 0, 5], [])),
    ("comprehension_in_a_clause", ([], [])),
    ("comprehension_in_a_clause", ([0, "a"], [])),
    ("break_in_a_clause_loop", ([1, 0, 2], [])),
    ("break_in_a_clause_loop", ([0], [])),
    ("break_in_a_clause_loop", ([3, "a"], [])),
]
