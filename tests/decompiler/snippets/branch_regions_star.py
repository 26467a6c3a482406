# requires: 3.11
"""except* shapes of branches whose ways end with different stacks because the walk
took the wrong block for where a loop ends: one function each, named after the shape
(the brs group)."""


def breaks_on_an_and_in_a_star_clause(values, log):
    """3.13 lays the end of the except* clause an endless loop breaks out of (it pops
    the exception the clause handles, then jumps to a copy of the small return after
    the try) between the loop's blocks: that end is where the loop goes on (seed
    11112)."""
    try:
        log.append(values.pop())
    except* KeyError as e:
        log.append(type(e).__name__)
    except* IndexError:
        while True:
            log.append(0)
            if len(log) > 3 and log.append(len(log)) is None:
                break
    return ("end", log)


CASES = [
    ("breaks_on_an_and_in_a_star_clause", ([], [])),
    ("breaks_on_an_and_in_a_star_clause", ([], [1, 2, 3, 4])),
    ("breaks_on_an_and_in_a_star_clause", ([5], [])),
]
