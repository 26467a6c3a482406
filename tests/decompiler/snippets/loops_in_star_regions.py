# requires: 3.11
"""Loops inside try bodies with except* clauses, where the ways out of the loop are
copies of the end of the try body."""

LOG = []


class Resource:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        LOG.append(("enter", self.name))
        return self.name.upper()

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.name, kind.__name__ if kind else None))
        return self.suppress


def loop_after_a_with_that_returns(key, flags):
    """A loop after a with that returns, reached when ``__exit__`` suppresses; each
    part of its test leaves for a copy of the end of the try body (random seed 38)."""
    try:
        match key:
            case {"k": 1 | 2}:
                with Resource("returns", True) as name:
                    return name, 10 // len(flags)
                while flags.pop() and flags.pop():
                    LOG.append(len(flags))
    except* KeyError as e:
        LOG.append("key")


def while_else_breaks_the_for_around(items, flags):
    """A while loop's else clause that breaks the for loop around it, inside a with:
    an except* clause goes on to the repeated test (random seed 155)."""
    for LOG[0] in items:
        with Resource("each") as x:
            while flags.pop() and flags.pop():
                try:
                    if not flags.pop():
                        raise ValueError(f"{x}-7")
                except* ValueError:
                    LOG.append("caught")
                else:
                    continue
            else:
                break
    return ("end", len(LOG))


def finally_continues_after_a_star_clause(items):
    """``finally: continue`` after except*: the clause's way on is a jump straight to
    the next round, which no except* clause may write (random seeds 82 and 101)."""
    for item in items:
        try:
            LOG.append(10 // item)
        except* ZeroDivisionError as e:
            LOG.append(("zero", len(e.exceptions)))
        finally:
            continue
    return len(LOG)


def star_clause_ends_an_endless_round(items):
    """The same in ``while True``, whose only way out is a return before the try (one
    inside it would give way to the finally body's continue)."""
    while True:
        if not items:
            return "empty"
        try:
            LOG.append(10 // items.pop())
        except* (ZeroDivisionError, TypeError) as e:
            LOG.append("caught")
        finally:
            continue


def next_round_after_star_clauses_in_a_branch(values, suppress):
    """A try in a loop's if, whose except* clause goes on to the next round, as its
    else does: no except* clause may say ``continue``, and falling off the try went
    on to the if's else written after the if (random seed 17292)."""
    for value in values:
        if value:
            try:
                with Resource("star", suppress) as name:
                    raise KeyError(name)
            except* KeyError:
                LOG.append("caught")
        else:
            LOG.append("else")
    return LOG


CASES = [
    ("next_round_after_star_clauses_in_a_branch", ([1, 0, 1], False)),
    ("next_round_after_star_clauses_in_a_branch", ([1, 0], True)),
    ("loop_after_a_with_that_returns", ({"k": 1}, [1])),
    ("loop_after_a_with_that_returns", ({"k": 2}, [])),
    ("loop_after_a_with_that_returns", ({"k": 2}, [0, 1, 1, 1, 1])),
    ("loop_after_a_with_that_returns", ({"k": 2}, [1, 1, 0, 1])),
    ("loop_after_a_with_that_returns", ({"k": 2}, [0])),
    ("loop_after_a_with_that_returns", ({}, [])),
    ("while_else_breaks_the_for_around", ([1, 2], [0, 1, 1, 1])),
    ("while_else_breaks_the_for_around", ([1, 2], [1, 1, 0, 1, 1, 1, 1])),
    ("while_else_breaks_the_for_around", ([1, 2], [0, 0, 0, 0, 1])),
    ("while_else_breaks_the_for_around", ([], [])),
    ("finally_continues_after_a_star_clause", ([1, 0, 2, "a"],)),
    ("finally_continues_after_a_star_clause", ([],)),
    ("star_clause_ends_an_endless_round", ([1, 0, "a", 2],)),
    ("star_clause_ends_an_endless_round", ([],)),
]
