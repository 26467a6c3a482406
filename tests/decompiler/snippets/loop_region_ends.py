"""Loops whose body the walk once took to end early, at the end of a region or an
outer loop's edge: an ``async for`` inside a loop whose own body never goes back to
its header (it returns from an inner loop's else clause), so the loop around goes on
only through its END_ASYNC_FOR; an endless loop whose breaks, one in an except
clause laid out after it, meet where it goes on. Awaits are driven without an event
loop, as in ``async_code.py``."""

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


async def async_for_that_never_goes_round_in_a_loop(rounds, n):
    # the outer async for's body returns from the inner loop's else: it goes on to
    # the while's next round only when its iterator is exhausted (seed 384; the
    # loop's other way out, a return, is no place where it goes on)
    rounds = list(rounds)
    while True:
        if not rounds:
            return LOG
        async for i in Countdown(n + rounds.pop()):
            async for j in Countdown(i):
                LOG.append((i, j))
            else:
                return i


def breaks_from_a_clause_after_a_raising_try(rounds, tape):
    # the try body always raises: the clause's break and the one after the try both
    # leave the endless loop for the outer loop's next round, and the clause, laid out
    # after the loop's blocks, is outside its extent (seed 1229)
    tape = list(tape)
    while rounds:
        rounds -= 1
        while True:
            LOG.append(("round", rounds))
            try:
                raise KeyError(rounds)
            except KeyError:
                if tape.pop():
                    break
            if tape.pop():
                break
    return LOG


CASES = [
    ("async_for_that_never_goes_round_in_a_loop", ([0, 0], 0)),
    ("async_for_that_never_goes_round_in_a_loop", ([1, 0], 0)),
    ("async_for_that_never_goes_round_in_a_loop", ([2], 1)),
    ("async_for_that_never_goes_round_in_a_loop", ([], 2)),
    ("breaks_from_a_clause_after_a_raising_try", (2, [0, 1, 1, 0, 1])),
    ("breaks_from_a_clause_after_a_raising_try", (1, [1, 0, 0, 0, 0])),
    ("breaks_from_a_clause_after_a_raising_try", (0, [])),
]
