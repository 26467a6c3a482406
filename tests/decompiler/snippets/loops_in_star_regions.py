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


CASES = [
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
]
