# requires: 3.11
"""Try statements with except* clauses whose else and except clauses go on to
different places as the walks read them (the else13 group's shapes): they fell back
to the state machine."""


def try_in_a_star_try_ending_a_clause(log, first, second):
    """A try inside a try with an except* clause, at the end of an except clause
    after one holding a loop, before a chained comparison: 3.13 copies the clause's
    end (its ``POP_EXCEPT`` and jump on) to each way out of the inner try, and the
    inner clause ran on through one copy, the else to the other, the end of the
    except* try's body (seed 10092's shape on 3.13)."""
    try:
        log.append(10 // first)
    except TypeError:
        while second:
            second -= 1
            log.append(second)
    except ZeroDivisionError:
        try:
            try:
                log.append(second + 1)
            except TypeError:
                log.append("type")
        except* ValueError:
            log.append("value")
    log.append(first == second != 5)
    return log


class Tape:
    def __init__(self, numbers):
        self.numbers, self.reads = list(numbers), 0

    def v(self):
        self.reads += 1
        return self.numbers[self.reads % len(self.numbers)]

    def c(self):
        return self.v() % 3 != 0


def star_clause_before_a_copied_return(t, log):
    """An except* clause ending in a loop, in the else of an if in a case, before a
    small return of a cell: 3.13 copies the return to each way on, the clause's
    past its end, and the walk wrote it in the clause, where no return may be: the
    result did not compile (seeds 1544, 174, 10307 on 3.13)."""
    x = t.v()
    match (x, t.v() % 3):
        case [a, [b, *c]]:
            if t.c() or t.c():
                if t.c() or x > 4:
                    while (z := t.v()) % 3:
                        log.append(z)
            else:
                try:

                    def g7(a, b=0j):
                        nonlocal x

                except* ValueError as e:
                    while (z := t.v()) % 3:
                        log.append((z, e))
    return ("end", x)


CASES = [
    ("try_in_a_star_try_ending_a_clause", ([], 2, 3)),
    ("try_in_a_star_try_ending_a_clause", ([], "a", 3)),
    ("try_in_a_star_try_ending_a_clause", ([], 0, 3)),
    ("try_in_a_star_try_ending_a_clause", ([], 0, "a")),
    ("try_in_a_star_try_ending_a_clause", ([], 0, 5)),
    ("star_clause_before_a_copied_return", (Tape([1, 2, 3, 4]), [])),
    ("star_clause_before_a_copied_return", (Tape([5, 7, 9]), [])),
]
