"""A value computed after each way on from an if or a match and returned, in a try:
where an async for's exit ends one way, the ways meet only at the return, which 3.11+
keep outside the try, and the value was spilled at the end of each way to a local
temporary (seed 32189 on 3.10-3.13). And a try in a loop whose except clause ends in
a match whose cases all continue, the returned value kept through its finally body
(seed 42026), one case continuing from a finally body of its own. Each is now a
return in each way."""


class Countdown:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        return self.n


async def returns_after_an_async_for_in_an_if(flag, n, x=None):
    try:
        if flag:
            async for x in Countdown(n):
                pass
        else:
            x = 1
        return (x, 24)
    except KeyError:
        pass


async def returns_after_an_async_for_in_a_case(subject, n, x=None):
    try:
        match subject:
            case (a, 1):
                async for x in Countdown(n):
                    pass
            case _:
                x = 1
        return (x, 24)
    except KeyError:
        pass


def returns_from_a_try_whose_clause_ends_in_a_match(answers, x):
    log = [    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([1, 1], 5)),
    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([0, 1, 0, 1], 1)),
    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([1, 1, 1, 1], 0)),
]
    while answers.pop():
        try:
            if x == 2:
                raise KeyError(x)
            return x, log
        except KeyError:
            match x:
                case 0:
                    continue
                case other:
                    log.append(other)
                    continue
        finally:
            log.append("finally")
            if answers.pop():
                continue
    return None, log


def returns_from_a_try_whose_clause_ends_in_a_finally_that_continues(answers, x):
    log = [    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([1, 1], 5)),
    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([0, 1, 0, 1], 1)),
    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([1, 1, 1, 1], 0)),
]
    while answers.pop():
        try:
            if x < 2:
                raise KeyError(x)
            return x, log
        except KeyError:
            match x:
                case 0 | 1 as a:
                    try:
                        log.append(a)
                    finally:
                        continue
                case other:
                    log.append(other)
                    continue
        finally:
            log.append("finally")
            if not answers.pop():
                continue
    return None, log


CASES = [
    ("returns_after_an_async_for_in_an_if", (True, 3)),
    ("returns_after_an_async_for_in_an_if", (False, 3)),
    ("returns_after_an_async_for_in_an_if", (True, 0)),
    ("returns_after_an_async_for_in_a_case", ((0, 1), 2)),
    ("returns_after_an_async_for_in_a_case", ((0, 2), 2)),
    ("returns_after_an_async_for_in_a_case", ("ab", 2)),
    ("returns_from_a_try_whose_clause_ends_in_a_match", ([1, 1], 5)),
    ("returns_from_a_try_whose_clause_ends_in_a_match", ([0, 1, 0, 1, 1], 2)),
    ("returns_from_a_try_whose_clause_ends_in_a_match", ([0, 1, 1, 1], 2)),
    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([1, 1], 5)),
    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([0, 1, 0, 1], 1)),
    ("returns_from_a_try_whose_clause_ends_in_a_finally_that_continues", ([1, 1, 1, 1], 0)),
]
