"""Branches that leave a with or try body, or a loop, at places the walks now read:
a break out of a loop that never goes round, through a with inside a try whose code
after it raises; a break on a chained test in a named except clause of a try body that
always raises; a break in an except clause past a for loop's else. One function each,
named after the shape."""


class Box:
    """A context manager that logs its exits: entering it with a key over 8 raises
    KeyError, and it suppresses an exception when its key is odd."""

    def __init__(self, log, key):
        self.log, self.key = log, key

    def __enter__(self):
        if self.key > 8:
            raise KeyError(self.key)
        return self.key

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", self.key, kind and kind.__name__))
        return kind is not None and self.key % 2 == 1


def breaks_from_a_with_in_a_loop_that_raises(tape, log):
    """A break out of a with body inside a try, in a loop that never goes round (the
    code after the try raises) inside another: the break goes to the outer loop's
    test, copied at the end of its body, and every other way out of the try body
    raises, running the code after the try (seed 256)."""
    while tape:
        item = tape.pop()
        while item:
            try:
                with Box(log, item) as key:
                    if key > 2:
                        break
                    log.append(10 // (key - 1))
            except (KeyError, ZeroDivisionError):
                log.append("caught")
            raise ValueError(item, len(log))
    return log


def breaks_on_a_chained_test_in_a_named_clause(tape, low, high):
    """A break on a chained comparison in a named except clause, the try body always
    raising, in an endless loop at the end of another loop: the chain's jump to the
    clause's exit and the break after the try both go on to the outer loop's test,
    copied at the end of its body; the clause ends where it goes on to the code after
    the try (seed 1229)."""
    log = []
    while tape:
        while True:
            try:
                raise KeyError(tape.pop())
            except KeyError as e:
                log.append(e.args[0])
                if low < e.args[0] <= high:
                    break
            if len(tape) % 3 == 0:
                break
        log.append(len(tape))
    return log


def breaks_from_a_clause_past_a_for_else(rounds, items):
    """A break in an except clause of a try in a for loop that has an else clause,
    at the end of a while loop's body: the clause, laid out after the loop, goes on
    past the else clause to the code after the loop (seed 842)."""
    log = []
    while rounds > 0:
        rounds -= 1
        for item in items:
            try:
                log.append(10 // item)
            except ZeroDivisionError:
                break
        else:
            log.append("all")
        log.append(rounds)
    return log


CASES = [
    ("breaks_from_a_with_in_a_loop_that_raises", ([], [])),
    ("breaks_from_a_with_in_a_loop_that_raises", ([2], [])),
    ("breaks_from_a_with_in_a_loop_that_raises", ([1, 3], [])),
    ("breaks_from_a_with_in_a_loop_that_raises", ([0, 4], [])),
    ("breaks_from_a_with_in_a_loop_that_raises", ([3, 9], [])),
    ("breaks_from_a_with_in_a_loop_that_raises", ([5, 4, 3], [])),
    ("breaks_from_a_with_in_a_loop_that_raises", ([2, 6, 0], [])),
    ("breaks_on_a_chained_test_in_a_named_clause", ([], 1, 5)),
    ("breaks_on_a_chained_test_in_a_named_clause", ([3], 1, 5)),
    ("breaks_on_a_chained_test_in_a_named_clause", ([9, 8, 7, 3, 2, 1, 0], 1, 5)),
    ("breaks_on_a_chained_test_in_a_named_clause", ([1, 2, 3, 4, 5, 6, 7, 8], 2, 6)),
    ("breaks_on_a_chained_test_in_a_named_clause", (list(range(12)), 20, 30)),
    ("breaks_from_a_clause_past_a_for_else", (0, [1])),
    ("breaks_from_a_clause_past_a_for_else", (2, [1, 2, 5])),
    ("breaks_from_a_clause_past_a_for_else", (2, [1, 0, 5])),
    ("breaks_from_a_clause_past_a_for_else", (1, [0])),
    ("breaks_from_a_clause_past_a_for_else", (3, [])),
]
