# requires: 3.11
"""Try statements with except* clauses, which may not break, continue or return,
whose ways out the walks write as such a jump at the end of a clause: the result
did not compile, and fell back to the state machine (the trys group's shapes)."""


class E1(Exception):
    pass


class E2(Exception):
    pass


def finally_continue_after_raising_body(items, log):
    """``finally: continue`` after except* clauses, in a branch of a loop's body: the
    body always raises, and the clauses that go on run the finally body's copy, the
    continue (seed 10736). No way through the inner try goes on: the continue is
    written after it once."""
    x = 0
    for item in items:
        if item:
            try:
                raise E1(item)
            except* E1:
                x = x * 2 - item
                log.append(x)
            except* E2 as e:
                log.append(repr(e))
                raise KeyError(x)
            finally:
                continue
            log.append("never")
        else:
            log.append(("else", x))
        log.append(("end of round", item))
    return x


def finally_break_after_clauses(items, log):
    """``finally: break`` after except* clauses that each go on, the body too: each
    runs the finally body's copy, the break (seed 10948)."""
    for item in items:
        log.append(item)
        try:
            if item > 2:
                raise E2(item)
            log.append(10 // item)
        except* E2 as e:
            log.append(repr(e))
        except* ZeroDivisionError:
            log.append("zero")
        finally:
            break
        log.append("never")
    return log


def clause_if_ends_a_loop_body(items, log):
    """A try with an except* clause ending an endless loop's body, whose if and elif
    branches both go on to the next round: the walk writes the if's ``continue``
    and the elif after it (seed 10965)."""
    n = 0
    while True:
        n += 1
        if n > len(items):
            return n
        try:
            log.append(10 // items[n - 1])
        except* ZeroDivisionError as e:
            log.append(repr(e))
            if n % 2:
                log.append("odd")
            elif n % 3:
                log.append("third")


def star_clauses_sharing_a_name_in_a_clause(flag, log, first, second):
    """A try with two except* clauses that bind one name, inside an except* clause in
    an if, before an assert: 3.13 copies the clearing of that name to each clause,
    which the walk with the copies sent to one original reads after the chain of
    clauses (seed 1399; 86, 1403, 10986, 11857 and 11710 alike)."""
    x = 0
    if flag:
        try:
            x += 1 // first
        except* ZeroDivisionError:
            try:
                log.append(1 // second)
            except* ZeroDivisionError as e:
                x += 1
            except* TypeError as e:
                while log:
                    log.pop()
    assert log, x


CASES = [
    ("finally_continue_after_raising_body", ([1, 0, 3], [])),
    ("finally_continue_after_raising_body", ([], [])),
    ("finally_continue_after_raising_body", ([0, 0], [])),
    ("finally_break_after_clauses", ([0, 1], [])),
    ("finally_break_after_clauses", ([3, 1], [])),
    ("finally_break_after_clauses", ([1], [])),
    ("finally_break_after_clauses", ([], [])),
    ("clause_if_ends_a_loop_body", ([1, 0, 0, 0, 2, 0], [])),
    ("clause_if_ends_a_loop_body", ([], [])),
    ("star_clauses_sharing_a_name_in_a_clause", (True, [], 1, 1)),
    ("star_clauses_sharing_a_name_in_a_clause", (True, [5], 0, 1)),
    ("star_clauses_sharing_a_name_in_a_clause", (True, [5], 0, 0)),
    ("star_clauses_sharing_a_name_in_a_clause", (True, [1, 2], 0, "a")),
    ("star_clauses_sharing_a_name_in_a_clause", (True, [], 0, None)),
    ("star_clauses_sharing_a_name_in_a_clause", (False, [], 0, 0)),
]
