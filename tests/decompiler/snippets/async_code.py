"""await, async with, async for, async generators and async comprehensions.

Awaitables here yield a label to whoever drives the coroutine, so the test can
drive them without an event loop and record every suspension.
"""

LOG = []


class Tick:
    def __init__(self, label):
        self.label = label

    def __await__(self):
        yield self.label
        return f"after {self.label}"


class Session:
    async def __aenter__(self):
        await Tick("opening")
        LOG.append("enter")
        return "session"

    async def __aexit__(self, kind, value, traceback):
        await Tick("closing")
        LOG.append(("exit", kind.__name__ if kind else None))
        return False


class Countdown:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        await Tick(f"next {self.n}")
        return self.n


async def await_twice(a, b):
    first = await Tick(a)
    second = await Tick(b)
    return first, second


async def async_with(fail):
    async with Session() as session:
        LOG.append(("body", session))
        if fail:
            raise KeyError("inside")
    return session


async def async_for(n):
    seen = []
    async for value in Countdown(n):
        if value == 1:
            continue
        seen.append(value)
    else:
        seen.append("exhausted")
    return seen


async def async_for_break(n):
    async for value in Countdown(n):
        if value < 2:
            break
    return value


async def ticker(n):
    for i in range(n):
        await Tick(i)
        yield i * 10


async def async_comprehensions(n):
    listed = [value async for value in Countdown(n) if value % 2 == 0]
    awaited = [await Tick(x) for x in "ab"]
    return listed, awaited


async def await_in_try(fail):
    try:
        await Tick("trying")
        if fail:
            raise ValueError("async failure")
    except ValueError as error:
        await Tick("handling")
        return str(error)
    finally:
        LOG.append("async finally")
    return "fine"


async def consume_ticker(n):
    return [value async for value in ticker(n)]


class Guard:
    def __enter__(self):
        LOG.append("guard on")
        return self

    def __exit__(self, kind, value, traceback):
        LOG.append("guard off")
        return False


async def first_of(n):
    async for first in Countdown(n):
        break
    return first


async def break_or_else_in_a_with(guard, n, stop):
    with guard:
        async for value in Countdown(n):
            if value == stop:
                break
        else:
            return "exhausted"
    return value


async def break_or_else_then_more(guard, n, stop):
    with guard:
        async for value in Countdown(n):
            if value == stop:
                break
            LOG.append(value)
        else:
            LOG.append("exhausted")
        LOG.append("after")
    return LOG[-3:]


async def returns_a_comprehension(n):
    return [value async for value in Countdown(n)]


async def discarded_async_comprehension(n):
    i = "outer"
    [i async for i in Countdown(n)]
    kept = [i async for i in Countdown(n)]
    return i, kept


CASES = [
    ("discarded_async_comprehension", (2,)),
    ("await_twice", ("a", "b")),
    ("async_with", (False,)), ("async_with", (True,)),
    ("async_for", (4,)), ("async_for", (0,)),
    ("async_for_break", (5,)),
    ("ticker", (3,)),
    ("async_comprehensions", (5,)),
    ("await_in_try", (True,)), ("await_in_try", (False,)),
    ("consume_ticker", (2,)),
    ("first_of", (3,)), ("first_of", (0,)),
    ("break_or_else_in_a_with", (Guard(), 4, 2)), ("break_or_else_in_a_with", (Guard(), 4, 9)),
    ("break_or_else_in_a_with", (7, 4, 2)),  # not a context manager: TypeError
    ("break_or_else_then_more", (Guard(), 4, 2)), ("break_or_else_then_more", (Guard(), 4, 9)),
    ("break_or_else_then_more", (None, 1, 0)),
    ("returns_a_comprehension", (3,)),
]
