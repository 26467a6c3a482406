"""A try whose else runs on to where an enclosing with or try body ends, the walk
around stopping short of that end, at code it then writes after the statement the
try ends: falling off the else, that code would run too. Such a try falls back.
- 3.12: an async for in a try/finally, in an if's branch inside a with, the if's
  else holding code: the async for's exit is an exception's way, so the branches
  seemed to meet at the else, and the else's code was read after the if (seed
  54427, a wrong result);
- a continue from a finally body that branches (an assert), in a clause, with a
  break after the try statement: the continue fell off into that break (seed
  61665 on 3.11-3.13, a wrong result on all four Pythons)."""


class E2(Exception):
    pass


class Box:
    def __init__(self, log, n):
        self.log, self.n = log, n

    def __enter__(self):
        self.log.append(("enter", self.n))
        return self.n

    def __exit__(self, *exc):
        self.log.append(("exit", self.n, exc[0]))
        return False


class AIter:
    def __init__(self, items):
        self.items = list(items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.items:
            raise StopAsyncIteration
        return self.items.pop(0)


async def an_async_for_in_a_branch_of_a_with(flags, items, log, x=0):
    with Box(log, 6):
        if flags.pop():
            try:
                async for x in AIter(items):
                    log.append(x)
            finally:
                if not flags.pop():
                    return 27
        else:
            x = x * 2 - 30
    log.append(x)
    return log


def continues_from_an_asserting_finally_body_in_a_clause(flags, log, y):
    while flags.pop():
        try:
            if flags.pop():
                raise E2(61)
        except E2:
            try:
                log.append("clause")
            finally:
                if flags.pop():
                    continue
                break
        finally:
            assert y or flags.pop()
        break


# (flags are popped from the end)
CASES = [
    ("an_async_for_in_a_branch_of_a_with", ([1, 1], [1, 2], [])),
    ("an_async_for_in_a_branch_of_a_with", ([0, 1], [1, 2], [])),
    ("an_async_for_in_a_branch_of_a_with", ([0], [1, 2], [])),
    ("continues_from_an_asserting_finally_body_in_a_clause", ([0, 1, 1, 1], [], 1)),
    ("continues_from_an_asserting_finally_body_in_a_clause", ([0, 1, 1, 1, 1, 1, 1], [], 1)),
    ("continues_from_an_asserting_finally_body_in_a_clause", ([1, 0, 1, 1, 1], [], 1)),
    ("continues_from_an_asserting_finally_body_in_a_clause", ([0, 1, 1, 1], [], 0)),
    ("continues_from_an_asserting_finally_body_in_a_clause", ([0, 1, 0, 1, 1], [], 0)),
]
