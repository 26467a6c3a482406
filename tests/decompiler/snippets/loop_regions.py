"""Loops the walk once left to the state machine, in regions and shapes of their own: a
while loop in a class body whose test reads a name of the function around it (3.12+
read it through the class namespace, LOAD_LOCALS then LOAD_FROM_DICT_OR_DEREF, which
the scan for the test the compiler repeats at the end of the body did not know); a
while loop with a continue that ends an outer loop's body (3.12+ lay its test out as
tests into the body over jumps back to the outer loop's next round); an endless loop
whose only way out is a raise in an ``async for`` inside it; a loop in a try body
that returns from inside it, the body never ending otherwise (3.10 and 3.12+ leave
the RETURN_VALUE out of the try); an endless loop whose break, 3.13 laid out inside
the loop, ends the try body around it; an except clause in a loop inside a for loop,
whose end goes on to code that returns (3.12+ lay the clause out after the for
loop). Awaits are driven without an event loop, as in
``async_code.py``."""

LOG = []


class Tick:
    def __init__(self, label):
        self.label = label

    def __await__(self):
        yield self.label
        return f"after {self.label}"


class Countdown:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        await Tick(("next", self.n))
        return self.n


def class_body_loop_reads_a_cell(items):
    # the test, repeated before the jump back, reads ``items`` from the function's
    # cell: one loop, and its continue goes to the test at the top (seeds 10180,
    # 10670 on 3.12+)
    items = list(items)

    class Tally:
        total = 0
        while items and items[-1] is not None:
            n = items.pop()
            if n < 0:
                continue
            total += n
            LOG.append(n)

    return Tally.total, items, LOG


def while_ending_a_for_body_with_a_continue(rows):
    # the while's way out is the for loop's next round, behind it: each copy of its
    # test jumps into the body over a jump back, and the continue goes to the top copy
    # (seeds 11365, 10418 on 3.12+)
    out = []
    for row in rows:
        row = list(row)
        while row and row[-1] > 0:
            n = row.pop()
            if n % 2:
                continue
            out.append(n)
    return out


async def raises_from_an_async_for_in_an_endless_loop(rows):
    # the raise, laid out past the blocks the loop reaches without raising, is the
    # endless loop's only way out: it is the inner loop's code, no break out of the
    # outer one (seed 1009 on 3.12+)
    rows = list(rows)
    while True:
        async for n in Countdown(rows.pop()):
            LOG.append(n)
            if n > 2:
                raise ValueError(n)


def returns_from_a_loop_in_a_try_that_raises(items, stop):
    # the returns inside the loop are the try body's only ways out but its raise:
    # no end of the body that the loop's rounds would stop at (seed 11622)
    try:
        for n in items:
            LOG.append(n)
            if n == stop:
                return n
            elif n < 0:
                return -n
        raise KeyError(stop)
    except KeyError as e:
        return ("missing", e.args)


def breaks_from_an_endless_loop_ending_a_try(tape):
    # 3.13 lays the break's jump past the try out inside the loop: it is where the loop
    # ends, the try body's end, not a way past it (seeds 10804, 11251, 11452)
    tape = list(tape)
    try:
        while True:
            if tape.pop():
                break
            try:
                LOG.append(1 // tape[-1])
            except ZeroDivisionError:
                LOG.append("zero")
    except IndexError:
        LOG.append("empty")
    LOG.append(len(tape))
    return LOG


def returns_after_a_clause_in_a_loop_in_a_for(items):
    # the code after the try never goes round: the natural loops leave it out, and
    # the clause's end that goes on there, laid out after the for loop, kept it from
    # being read as the for loop's own code (seed 11558 on 3.12+)
    for n in items:
        while n <= 5:
            try:
                LOG.append(10 // n)
            except ZeroDivisionError:
                LOG.append("zero")
                if len(LOG) < 3:
                    continue
                LOG.append("again")
            if len(LOG) > 3:
                return n
            return None
    return LOG


CASES = [
    ("class_body_loop_reads_a_cell", ([1, -2, 3],)),
    ("class_body_loop_reads_a_cell", ([None, 4, -1],)),
    ("class_body_loop_reads_a_cell", ([],)),
    ("while_ending_a_for_body_with_a_continue", ([[1, 2, 3], [0, 4], [6, 5, 8]],)),
    ("while_ending_a_for_body_with_a_continue", ([],)),
    ("raises_from_an_async_for_in_an_endless_loop", ([1, 2],)),
    ("raises_from_an_async_for_in_an_endless_loop", ([5],)),
    ("returns_from_a_loop_in_a_try_that_raises", ([1, 2, 3], 2)),
    ("returns_from_a_loop_in_a_try_that_raises", ([1, -2, 3], 2)),
    ("returns_from_a_loop_in_a_try_that_raises", ([1, 3], 2)),
    ("breaks_from_an_endless_loop_ending_a_try", ([1, 0, 0, 2],)),
    ("breaks_from_an_endless_loop_ending_a_try", ([0, 0],)),
    ("breaks_from_an_endless_loop_ending_a_try", ([1, 0, 1, 0],)),
    ("returns_after_a_clause_in_a_loop_in_a_for", ([0, 0],)),
    ("returns_after_a_clause_in_a_loop_in_a_for", ([7, 0, 2],)),
    ("returns_after_a_clause_in_a_loop_in_a_for", ([9, 8],)),
]
